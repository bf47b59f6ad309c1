// wordcount: words are maximal runs of ASCII letters (what `tr -cs 'A-Za-z' '\n'`
// yields, minus its possible empty first line); output "word\tcount".
#include <charconv>
#include <string>

#include "jobs/builtin_jobs.h"
#include "jobs/params.h"
#include "jobs/word_counter.h"

namespace mr::jobs {

namespace {

// Combines in the mapper: counting in a flat hash table (WordCounter) is far
// cheaper than emitting, sorting and combining one record per word. The table is
// flushed when it holds WordCounter's maximum distinct words, so memory stays
// bounded; a 64 MiB split of English-like text fits without a flush.
class WordCountMapper final : public Mapper {
 public:
  Status Setup(TaskContext& ctx) override {
    ctx_ = &ctx;
    return Status::Ok();
  }
  void Map(const InputRecord& record, Emitter& out) override {
    const std::string_view line = record.line;
    counter_.CountText(line.data(), line.size(), line.data() + line.size());
    if (counter_.Full()) Flush(out);
  }
  // '\n' is not a letter, so a block tokenises exactly as its lines do.
  bool MapBlock(const InputBlock& block, Emitter& out) override {
    const std::string_view d = block.data;
    counter_.CountText(d.data(), d.size(), d.data() + d.size());
    if (counter_.Full()) Flush(out);
    return true;
  }
  Status Finish(Emitter& out) override {
    Flush(out);
    return Status::Ok();
  }

 private:
  // Also counts the words read (user counter wordcount.words, shown as user.wordcount.words):
  // what the in-mapper combining folded into map.records_out distinct words per flush.
  void Flush(Emitter& out) {
    uint64_t words = 0;
    counter_.Drain([&out, &words](std::string_view word, uint64_t count) {
      char buf[24];
      auto r = std::to_chars(buf, buf + sizeof buf, count);
      out.Emit(word, std::string_view(buf, static_cast<size_t>(r.ptr - buf)));
      words += count;
    });
    if (ctx_ != nullptr && words > 0) ctx_->IncrementCounter("wordcount.words", static_cast<int64_t>(words));
  }

  WordCounter counter_;
  TaskContext* ctx_ = nullptr;
};

// Sums decimal counts; used as combiner and reducer.
class SumReducer final : public Reducer {
 public:
  // The mapper and this reducer emit canonical decimals (std::to_chars), which a sum of one
  // reproduces byte for byte.
  bool PassesSingleValues() const override { return true; }
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
  // name: the job table row's (jobs/job_table.h); must outlive the object.
  explicit WordCountJob(std::string_view name) : name_(name) {}
  std::string_view name() const override { return name_; }
  Result<std::unique_ptr<Mapper>> NewMapper() const override {
    return std::unique_ptr<Mapper>(std::make_unique<WordCountMapper>());
  }
  std::unique_ptr<Reducer> NewCombiner() const override { return std::make_unique<SumReducer>(); }
  Result<std::unique_ptr<Reducer>> NewReducer() const override {
    return std::unique_ptr<Reducer>(std::make_unique<SumReducer>());
  }

 private:
  std::string_view name_;
};

}  // namespace

Result<std::unique_ptr<Job>> NewWordCountJob(std::string_view name, const Params&) {
  return std::unique_ptr<Job>(std::make_unique<WordCountJob>(name));
}

}  // namespace mr::jobs
