// grep: emits matching lines as "path:offset\tline", globally ordered by
// (file index, offset) through a range partitioner over 12-byte big-endian keys
// whose cut points Plan() places so that partitions cover equal input bytes.
#include <re2/re2.h>

#include <cstring>
#include <memory>
#include <string>

#include "jobs/builtin_jobs.h"
#include "jobs/input_source.h"
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

// True when the pattern has no ERE operator: it then matches exactly the lines
// that contain it as a substring of bytes (grep -E under LC_ALL=C).
bool IsLiteral(std::string_view pattern) {
  return !pattern.empty() && pattern.find_first_of(".[]()*+?{}|^$\\") == std::string_view::npos;
}

// How a GrepJob finds lines: `re` decides (the per-line semantics); `block_re`
// (same pattern, never matching '\n', big DFA budget) only proposes candidates
// in a whole block, and a literal pattern proposes them with memmem.
struct Matcher {
  std::unique_ptr<RE2> re;
  std::unique_ptr<RE2> block_re;
  std::string literal;  // empty: not a literal pattern

  // Start of the leftmost candidate match in data[pos, end), or npos.
  size_t FindCandidate(std::string_view data, size_t pos) const {
    if (!literal.empty()) {
      const void* hit = ::memmem(data.data() + pos, data.size() - pos, literal.data(), literal.size());
      return hit == nullptr ? std::string_view::npos
                            : static_cast<size_t>(static_cast<const char*>(hit) - data.data());
    }
    re2::StringPiece m;
    if (!block_re->Match(data, pos, data.size(), RE2::UNANCHORED, &m, 1)) return std::string_view::npos;
    return static_cast<size_t>(m.data() - data.data());
  }
};

class GrepMapper final : public Mapper {
 public:
  explicit GrepMapper(const Matcher* m) : m_(m) {}
  void Map(const InputRecord& record, Emitter& out) override {
    if (RE2::PartialMatch(record.line, *m_->re)) Emit(record.line, record.path, record.file_index, record.offset, out);
  }
  // Scans the block for candidates instead of running the regex once per line:
  // matching lines are rare, and one search over megabytes costs far less than a
  // million calls. Each candidate's line is then confirmed with the per-line regex.
  bool MapBlock(const InputBlock& block, Emitter& out) override {
    const std::string_view d = block.data;
    for (size_t pos = 0; pos < d.size();) {
      size_t hit = m_->FindCandidate(d, pos);
      // An empty match at the very end belongs to a last line without '\n', if any.
      if (hit == std::string_view::npos || hit > d.size() || (hit == d.size() && d.back() == '\n')) break;
      const void* nl = ::memrchr(d.data() + pos, '\n', hit - pos);
      size_t start = nl == nullptr ? pos : static_cast<size_t>(static_cast<const char*>(nl) - d.data()) + 1;
      size_t end = d.find('\n', hit);
      if (end == std::string_view::npos) end = d.size();
      std::string_view line = d.substr(start, end - start);
      if (!m_->literal.empty() || RE2::PartialMatch(line, *m_->re)) {
        Emit(line, block.path, block.file_index, block.offset + start, out);
      }
      pos = end + 1;
    }
    return true;
  }

 private:
  void Emit(std::string_view line, std::string_view path, uint32_t file_index, uint64_t offset, Emitter& out) {
    value_.assign(path);
    value_ += ':';
    value_ += std::to_string(offset);
    value_ += '\t';
    value_.append(line);
    out.Emit(PositionKey(file_index, offset), value_);
  }

  const Matcher* m_;
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
  // name: the job table row's (jobs/job_table.h); must outlive the object.
  GrepJob(std::string_view name, Matcher m, std::vector<std::string> cuts)
      : name_(name), m_(std::move(m)), cuts_(std::move(cuts)) {}
  std::string_view name() const override { return name_; }
  Result<JobPlan> Plan(const InputSource& source, const std::vector<std::string>& inputs,
                       uint32_t reducers) const override;
  Result<std::unique_ptr<Mapper>> NewMapper() const override {
    return std::unique_ptr<Mapper>(std::make_unique<GrepMapper>(&m_));
  }
  Result<std::unique_ptr<Reducer>> NewReducer() const override {
    return std::unique_ptr<Reducer>(std::make_unique<ValuesReducer>());
  }
  std::unique_ptr<Partitioner> NewPartitioner() const override {
    return std::make_unique<RangePartitioner>(cuts_);
  }
  OutputFormat output_format() const override { return OutputFormat::kValueOnly; }

 private:
  std::string_view name_;
  Matcher m_;  // RE2 matching is thread-safe
  std::vector<std::string> cuts_;
};

Result<JobPlan> GrepJob::Plan(const InputSource& source, const std::vector<std::string>& inputs,
                              uint32_t reducers) const {
  JobPlan plan;
  MR_ASSIGN_OR_RETURN(std::vector<InputFile> files, source.List(inputs));
  std::vector<uint64_t> sizes;
  uint64_t total = 0;
  for (const auto& f : files) {
    sizes.push_back(f.size);
    total += f.size;
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

Result<std::unique_ptr<Job>> NewGrepJob(std::string_view name, const Params& params) {
  auto it = params.find("pattern");
  if (it == params.end()) return Status::InvalidArgument(std::string(name) + " needs --pattern");
  Matcher m;
  m.re = std::make_unique<RE2>(it->second, GrepOptions());
  if (!m.re->ok()) {
    return Status::InvalidArgument(std::string(name) + ": bad --pattern '" + it->second + "': " + m.re->error());
  }
  RE2::Options block_options = GrepOptions();
  block_options.set_never_nl(true);
  block_options.set_max_mem(int64_t{64} << 20);  // a DFA out of memory falls back to the slow NFA
  m.block_re = std::make_unique<RE2>(it->second, block_options);
  if (!m.block_re->ok()) return Status::Internal(std::string(name) + ": pattern compiles only per line: " + m.block_re->error());
  if (IsLiteral(it->second)) m.literal = it->second;
  MR_ASSIGN_OR_RETURN(std::vector<std::string> cuts, CutPointsFromParams(params));
  return std::unique_ptr<Job>(std::make_unique<GrepJob>(name, std::move(m), std::move(cuts)));
}

}  // namespace mr::jobs
