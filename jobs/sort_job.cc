// sort: sorts lines bytewise (LC_ALL=C sort order), duplicates kept, with a range
// partitioner whose cut points Plan() samples from the input.
#include "jobs/builtin_jobs.h"
#include "jobs/input_source.h"
#include "jobs/line_sampler.h"
#include "jobs/params.h"
#include "jobs/range_partitioner.h"

namespace mr::jobs {

namespace {

constexpr size_t kSortSamples = 10000;

class LineMapper final : public Mapper {
 public:
  void Map(const InputRecord& record, Emitter& out) override { out.Emit(record.line, {}); }
};

// Emits the key once per value, so duplicate lines survive.
class RepeatKeyReducer final : public Reducer {
 public:
  void Reduce(std::string_view key, ValueIterator& values, Emitter& out) override {
    std::string_view v;
    while (values.Next(&v)) out.Emit(key, {});
  }
};

class SortJob final : public Job {
 public:
  // name: the job table row's (jobs/job_table.h); must outlive the object.
  SortJob(std::string_view name, std::vector<std::string> cuts) : name_(name), cuts_(std::move(cuts)) {}
  std::string_view name() const override { return name_; }
  Result<JobPlan> Plan(const InputSource& source, const std::vector<std::string>& inputs,
                       uint32_t reducers) const override {
    JobPlan plan;
    if (reducers < 2) return plan;
    MR_ASSIGN_OR_RETURN(std::vector<InputFile> files, source.List(inputs));
    MR_ASSIGN_OR_RETURN(std::vector<std::string> samples, SampleLines(source, files, kSortSamples));
    plan.extra_params[kCutPointsParam] = EncodeCutPoints(PickCutPoints(std::move(samples), reducers));
    return plan;
  }
  Result<std::unique_ptr<Mapper>> NewMapper() const override {
    return std::unique_ptr<Mapper>(std::make_unique<LineMapper>());
  }
  Result<std::unique_ptr<Reducer>> NewReducer() const override {
    return std::unique_ptr<Reducer>(std::make_unique<RepeatKeyReducer>());
  }
  std::unique_ptr<Partitioner> NewPartitioner() const override {
    return std::make_unique<RangePartitioner>(cuts_);
  }
  OutputFormat output_format() const override { return OutputFormat::kKeyOnly; }

 private:
  std::string_view name_;
  std::vector<std::string> cuts_;
};

}  // namespace

Result<std::unique_ptr<Job>> NewSortJob(std::string_view name, const Params& params) {
  MR_ASSIGN_OR_RETURN(std::vector<std::string> cuts, CutPointsFromParams(params));
  return std::unique_ptr<Job>(std::make_unique<SortJob>(name, std::move(cuts)));
}

}  // namespace mr::jobs
