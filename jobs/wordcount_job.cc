// wordcount: words are maximal runs of ASCII letters (what `tr -cs 'A-Za-z' '\n'`
// yields, minus its possible empty first line); output "word\tcount".
#include <charconv>
#include <string>
#include <unordered_map>

#include "jobs/builtin_jobs.h"
#include "jobs/params.h"

namespace mr::jobs {

namespace {

bool IsLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// Combines in the mapper: counting in a hash map is far cheaper than emitting,
// sorting and combining one record per word. The map is flushed when it grows
// past kMaxDistinct so memory stays bounded.
class WordCountMapper final : public Mapper {
 public:
  void Map(const InputRecord& record, Emitter& out) override {
    std::string_view line = record.line;
    size_t i = 0, n = line.size();
    while (i < n) {
      while (i < n && !IsLetter(line[i])) ++i;
      size_t start = i;
      while (i < n && IsLetter(line[i])) ++i;
      if (i > start) Count(line.substr(start, i - start), out);
    }
  }
  Status Finish(Emitter& out) override {
    Flush(out);
    return Status::Ok();
  }

 private:
  static constexpr size_t kMaxDistinct = 1 << 18;

  void Count(std::string_view word, Emitter& out) {
    scratch_.assign(word);
    auto it = counts_.find(scratch_);
    if (it != counts_.end()) {
      ++it->second;
      return;
    }
    if (counts_.size() >= kMaxDistinct) Flush(out);
    counts_.emplace(scratch_, 1);
  }
  void Flush(Emitter& out) {
    char buf[24];
    for (const auto& [word, count] : counts_) {
      auto r = std::to_chars(buf, buf + sizeof buf, count);
      out.Emit(word, std::string_view(buf, static_cast<size_t>(r.ptr - buf)));
    }
    counts_.clear();
  }

  std::string scratch_;
  std::unordered_map<std::string, uint64_t> counts_;
};

// Sums decimal counts; used as combiner and reducer.
class SumReducer final : public Reducer {
 public:
  Status Setup(TaskContext& ctx) override {
    ctx_ = &ctx;
    return Status::Ok();
  }
  void Reduce(std::string_view key, ValueIterator& values, Emitter& out) override {
    uint64_t sum = 0;
    std::string_view v;
    while (values.Next(&v)) {
      uint64_t x = 0;
      auto r = std::from_chars(v.data(), v.data() + v.size(), x);
      if (r.ec != std::errc() || r.ptr != v.data() + v.size()) {
        if (ctx_ != nullptr) ctx_->IncrementCounter("wordcount.bad_values", 1);
        continue;
      }
      sum += x;
    }
    char buf[24];
    auto r = std::to_chars(buf, buf + sizeof buf, sum);
    out.Emit(key, std::string_view(buf, static_cast<size_t>(r.ptr - buf)));
  }

 private:
  TaskContext* ctx_ = nullptr;
};

class WordCountJob final : public Job {
 public:
  std::string_view name() const override { return "wordcount"; }
  Result<std::unique_ptr<Mapper>> NewMapper() const override {
    return std::unique_ptr<Mapper>(std::make_unique<WordCountMapper>());
  }
  std::unique_ptr<Reducer> NewCombiner() const override { return std::make_unique<SumReducer>(); }
  Result<std::unique_ptr<Reducer>> NewReducer() const override {
    return std::unique_ptr<Reducer>(std::make_unique<SumReducer>());
  }
};

}  // namespace

Result<std::unique_ptr<Job>> NewWordCountJob(const Params& params) {
  MR_RETURN_IF_ERROR(CheckKnownParams("wordcount", params, {}));
  return std::unique_ptr<Job>(std::make_unique<WordCountJob>());
}

}  // namespace mr::jobs
