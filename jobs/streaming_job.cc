// streaming: Hadoop-Streaming-compatible external mapper and reducer commands.
// The mapper command reads input lines and writes "key\tvalue" lines (no tab:
// the whole line is the key); the reducer command reads "key\tvalue" lines sorted
// by key and its stdout lines are the output as-is. Each task buffers its whole
// input (a split, a partition) and runs the command once at Finish. Bytes moving to or
// from the command are the task's progress; a cancelled task kills the command.
#include "jobs/builtin_jobs.h"
#include "jobs/params.h"
#include "jobs/subprocess.h"

namespace mr::jobs {

namespace {

FilterHooks HooksOf(TaskContext* ctx) {
  FilterHooks h;
  if (ctx == nullptr) return h;
  h.progress = [ctx] { ctx->Progress(); };
  h.cancelled = [ctx] { return ctx->Cancelled(); };
  // The command does the task's work: the share of its input it has read is the task's.
  h.fed = [ctx](double share) { ctx->SetFraction(share); };
  h.stderr_tail = [ctx](std::string tail) { ctx->SetStderrTail(std::move(tail)); };
  return h;
}

class StreamingMapper final : public Mapper {
 public:
  explicit StreamingMapper(std::string command) : command_(std::move(command)) {}
  Status Setup(TaskContext& ctx) override {
    ctx_ = &ctx;
    return Status::Ok();
  }
  void Map(const InputRecord& record, Emitter&) override {
    input_.append(record.line);
    input_.push_back('\n');
  }
  // The command's work is the map's: its progress is the share of the split it has read.
  bool ReportsFraction() const override { return true; }
  Status Finish(Emitter& out) override {
    Status s = RunFilter(command_, input_, [&out](std::string_view line) {
      size_t tab = line.find('\t');
      if (tab == std::string_view::npos) out.Emit(line, {});
      else out.Emit(line.substr(0, tab), line.substr(tab + 1));
    }, HooksOf(ctx_));
    input_.clear();
    return s.ok() ? s : s.WithContext("streaming mapper");
  }

 private:
  std::string command_;
  std::string input_;
  TaskContext* ctx_ = nullptr;  // from Setup; outlives the task's calls
};

class StreamingReducer final : public Reducer {
 public:
  explicit StreamingReducer(std::string command) : command_(std::move(command)) {}
  Status Setup(TaskContext& ctx) override {
    ctx_ = &ctx;
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
  // The command's work is the reduce's: its progress is the share of the input it has read.
  bool ReportsFraction() const override { return true; }
  Status Finish(Emitter& out) override {
    Status s = RunFilter(command_, input_, [&out](std::string_view line) { out.Emit(line, {}); }, HooksOf(ctx_));
    input_.clear();
    return s.ok() ? s : s.WithContext("streaming reducer");
  }

 private:
  std::string command_;
  std::string input_;
  TaskContext* ctx_ = nullptr;  // from Setup; outlives the task's calls
};

class StreamingJob final : public Job {
 public:
  // name: the job table row's (jobs/job_table.h); must outlive the object.
  StreamingJob(std::string_view name, std::string mapper, std::string reducer)
      : name_(name), mapper_(std::move(mapper)), reducer_(std::move(reducer)) {}
  std::string_view name() const override { return name_; }
  Result<std::unique_ptr<Mapper>> NewMapper() const override {
    return std::unique_ptr<Mapper>(std::make_unique<StreamingMapper>(mapper_));
  }
  Result<std::unique_ptr<Reducer>> NewReducer() const override {
    return std::unique_ptr<Reducer>(std::make_unique<StreamingReducer>(reducer_));
  }
  OutputFormat output_format() const override { return OutputFormat::kKeyOnly; }

 private:
  std::string_view name_;
  std::string mapper_, reducer_;
};

}  // namespace

Result<std::unique_ptr<Job>> NewStreamingJob(std::string_view name, const Params& params) {
  MR_ASSIGN_OR_RETURN(std::string mapper, GetRequiredParam(name, params, "mapper"));
  std::string reducer = "cat";
  if (auto it = params.find("reducer"); it != params.end() && !it->second.empty()) {
    reducer = it->second;
  }
  return std::unique_ptr<Job>(std::make_unique<StreamingJob>(name, std::move(mapper), std::move(reducer)));
}

}  // namespace mr::jobs
