// streaming: Hadoop-Streaming-compatible external mapper and reducer commands.
// The mapper command reads input lines and writes "key\tvalue" lines (no tab:
// the whole line is the key); the reducer command reads "key\tvalue" lines sorted
// by key and its stdout lines are the output as-is. Each task buffers its whole
// input (a split, a partition) and runs the command once at Finish.
#include "jobs/builtin_jobs.h"
#include "jobs/params.h"
#include "jobs/subprocess.h"

namespace mr::jobs {

namespace {

class StreamingMapper final : public Mapper {
 public:
  explicit StreamingMapper(std::string command) : command_(std::move(command)) {}
  Status Setup(TaskContext& ctx) override {
    cancel_ = ctx.cancel_flag();
    return Status::Ok();
  }
  void Map(const InputRecord& record, Emitter&) override {
    input_.append(record.line);
    input_.push_back('\n');
  }
  Status Finish(Emitter& out) override {
    Status s = RunFilter(
        command_, input_,
        [&out](std::string_view line) {
          size_t tab = line.find('\t');
          if (tab == std::string_view::npos) out.Emit(line, {});
          else out.Emit(line.substr(0, tab), line.substr(tab + 1));
        },
        cancel_);
    input_.clear();
    return s.ok() ? s : s.WithContext("streaming mapper");
  }

 private:
  std::string command_;
  std::string input_;
  const std::atomic<bool>* cancel_ = nullptr;
};

class StreamingReducer final : public Reducer {
 public:
  explicit StreamingReducer(std::string command) : command_(std::move(command)) {}
  Status Setup(TaskContext& ctx) override {
    cancel_ = ctx.cancel_flag();
    return Status::Ok();
  }
  void Reduce(std::string_view key, ValueIterator& values, Emitter&) override {
    std::string_view v;
    while (values.Next(&v)) {
      input_.append(key);
      if (!v.empty()) {  // a key-only record goes back as the bare line
        input_.push_back('\t');
        input_.append(v);
      }
      input_.push_back('\n');
    }
  }
  Status Finish(Emitter& out) override {
    Status s = RunFilter(command_, input_, [&out](std::string_view line) { out.Emit(line, {}); }, cancel_);
    input_.clear();
    return s.ok() ? s : s.WithContext("streaming reducer");
  }

 private:
  std::string command_;
  std::string input_;
  const std::atomic<bool>* cancel_ = nullptr;
};

class StreamingJob final : public Job {
 public:
  StreamingJob(std::string mapper, std::string reducer)
      : mapper_(std::move(mapper)), reducer_(std::move(reducer)) {}
  std::string_view name() const override { return "streaming"; }
  Result<std::unique_ptr<Mapper>> NewMapper() const override {
    return std::unique_ptr<Mapper>(std::make_unique<StreamingMapper>(mapper_));
  }
  Result<std::unique_ptr<Reducer>> NewReducer() const override {
    return std::unique_ptr<Reducer>(std::make_unique<StreamingReducer>(reducer_));
  }
  OutputFormat output_format() const override { return OutputFormat::kKeyOnly; }

 private:
  std::string mapper_, reducer_;
};

}  // namespace

Result<std::unique_ptr<Job>> NewStreamingJob(const Params& params) {
  MR_RETURN_IF_ERROR(CheckKnownParams("streaming", params, {"mapper", "reducer"}));
  MR_ASSIGN_OR_RETURN(std::string mapper, GetRequiredParam("streaming", params, "mapper"));
  std::string reducer = "cat";
  if (auto it = params.find("reducer"); it != params.end() && !it->second.empty()) {
    reducer = it->second;
  }
  return std::unique_ptr<Job>(std::make_unique<StreamingJob>(std::move(mapper), std::move(reducer)));
}

}  // namespace mr::jobs
