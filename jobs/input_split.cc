#include "jobs/input_split.h"

#include "jobs/input_lines.h"

namespace mr::jobs {

namespace {

Status SplitFile(const InputSource& source, const InputFile& file, uint32_t file_index, uint64_t split_bytes,
                 std::vector<Split>* out) {
  MR_RETURN_IF_ERROR(CheckInputCodec(file.path));
  MR_RETURN_IF_ERROR(source.Read(file.path, 0, 0).status());
  if (CodecOf(file.path) == Codec::kGzip) {
    if (file.size > 0) out->push_back(Split{file.path, file_index, 0, file.size, file.host});
    return Status::Ok();
  }
  InputLineReader reader(source, file);
  uint64_t start = 0;
  while (start < file.size) {
    uint64_t end = file.size;
    if (file.size - start > split_bytes) {
      // The split must end after a '\n' at or past the nominal cut - 1, so a
      // line ending exactly at the cut closes this split.
      MR_ASSIGN_OR_RETURN(end, reader.SkipLine(start + split_bytes - 1));
    }
    out->push_back(Split{file.path, file_index, start, end - start, file.host});
    start = end;
  }
  return Status::Ok();
}

}  // namespace

Result<std::vector<Split>> ComputeSplits(const InputSource& source, const std::vector<std::string>& inputs,
                                         uint64_t split_bytes) {
  if (split_bytes == 0) return Status::InvalidArgument("split size must be > 0");
  MR_ASSIGN_OR_RETURN(std::vector<InputFile> files, source.List(inputs));
  std::vector<Split> splits;
  for (size_t i = 0; i < files.size(); ++i) {
    MR_RETURN_IF_ERROR(SplitFile(source, files[i], static_cast<uint32_t>(i), split_bytes, &splits));
  }
  return splits;
}

}  // namespace mr::jobs
