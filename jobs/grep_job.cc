// grep: emits matching lines as "path:offset\tline", globally ordered by
// (file index, offset) through a range partitioner over 12-byte big-endian keys
// whose cut points Plan() places so that partitions cover equal input bytes.
#include <re2/re2.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include "jobs/builtin_jobs.h"
#include "jobs/input_split.h"
#include "jobs/params.h"
#include "jobs/range_partitioner.h"

namespace mr::jobs {

namespace {

std::string PositionKey(uint32_t file_index, uint64_t offset) {
  std::string key(12, '\0');
  for (int i = 0; i < 4; ++i) key[i] = static_cast<char>(file_index >> (24 - 8 * i));
  for (int i = 0; i < 8; ++i) key[4 + i] = static_cast<char>(offset >> (56 - 8 * i));
  return key;
}

RE2::Options GrepOptions() {
  RE2::Options o;
  o.set_posix_syntax(true);        // ERE, as grep -E
  o.set_encoding(RE2::Options::EncodingLatin1);  // bytes, as grep under LC_ALL=C
  o.set_log_errors(false);
  return o;
}

class GrepMapper final : public Mapper {
 public:
  explicit GrepMapper(const RE2* re) : re_(re) {}
  void Map(const InputRecord& record, Emitter& out) override {
    if (!RE2::PartialMatch(record.line, *re_)) return;
    value_.assign(record.path);
    value_ += ':';
    value_ += std::to_string(record.offset);
    value_ += '\t';
    value_.append(record.line);
    out.Emit(PositionKey(record.file_index, record.offset), value_);
  }

 private:
  const RE2* re_;
  std::string value_;
};

class ValuesReducer final : public Reducer {
 public:
  void Reduce(std::string_view key, ValueIterator& values, Emitter& out) override {
    std::string_view v;
    while (values.Next(&v)) out.Emit(key, v);
  }
};

class GrepJob final : public Job {
 public:
  GrepJob(std::unique_ptr<RE2> re, std::vector<std::string> cuts)
      : re_(std::move(re)), cuts_(std::move(cuts)) {}
  std::string_view name() const override { return "grep"; }
  Result<JobPlan> Plan(const std::vector<std::string>& inputs, uint32_t reducers) const override;
  Result<std::unique_ptr<Mapper>> NewMapper() const override {
    return std::unique_ptr<Mapper>(std::make_unique<GrepMapper>(re_.get()));
  }
  Result<std::unique_ptr<Reducer>> NewReducer() const override {
    return std::unique_ptr<Reducer>(std::make_unique<ValuesReducer>());
  }
  std::unique_ptr<Partitioner> NewPartitioner() const override {
    return std::make_unique<RangePartitioner>(cuts_);
  }
  OutputFormat output_format() const override { return OutputFormat::kValueOnly; }

 private:
  std::unique_ptr<RE2> re_;  // RE2 matching is thread-safe
  std::vector<std::string> cuts_;
};

Result<JobPlan> GrepJob::Plan(const std::vector<std::string>& inputs, uint32_t reducers) const {
  JobPlan plan;
  MR_ASSIGN_OR_RETURN(std::vector<std::string> files, ExpandInputs(inputs));
  std::vector<uint64_t> sizes;
  uint64_t total = 0;
  for (const auto& f : files) {
    struct stat st{};
    if (::stat(f.c_str(), &st) != 0) {
      return Status::IoError("cannot stat " + f + ": " + std::strerror(errno));
    }
    sizes.push_back(static_cast<uint64_t>(st.st_size));
    total += sizes.back();
  }
  std::vector<std::string> cuts;
  size_t file = 0;
  uint64_t file_start = 0;  // global byte position of files[file]
  for (uint32_t i = 1; i < reducers && total > 0; ++i) {
    uint64_t target = total * i / reducers;
    while (file + 1 < files.size() && file_start + sizes[file] <= target) {
      file_start += sizes[file++];
    }
    cuts.push_back(PositionKey(static_cast<uint32_t>(file), target - file_start));
  }
  plan.extra_params[kCutPointsParam] = EncodeCutPoints(cuts);
  return plan;
}

}  // namespace

Result<std::unique_ptr<Job>> NewGrepJob(const Params& params) {
  MR_RETURN_IF_ERROR(CheckKnownParams("grep", params, {"pattern"}));
  auto it = params.find("pattern");
  if (it == params.end()) return Status::InvalidArgument("grep needs --pattern");
  auto re = std::make_unique<RE2>(it->second, GrepOptions());
  if (!re->ok()) {
    return Status::InvalidArgument("grep: bad --pattern '" + it->second + "': " + re->error());
  }
  MR_ASSIGN_OR_RETURN(std::vector<std::string> cuts, CutPointsFromParams(params));
  return std::unique_ptr<Job>(std::make_unique<GrepJob>(std::move(re), std::move(cuts)));
}

}  // namespace mr::jobs
