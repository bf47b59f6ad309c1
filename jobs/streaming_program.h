// One streaming program of a task (mapper, combiner or reducer) as Hadoop Streaming runs it
// (PipeMapRed): started in the task's working directory with the job's configuration in its
// environment, its command split and looked up as the dialect says, its stderr's
// "reporter:counter:GROUP,COUNTER,N" and "reporter:status:TEXT" lines taken as the task's
// counters and status. docs/streaming.md, "Commands", "Environment" and "Counters and status".
// Driven by the task's thread.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "jobs/job.h"
#include "jobs/streaming_conf.h"
#include "jobs/subprocess.h"

namespace mr::jobs {

// Hadoop's limits on counters (mapreduce.job.counters.max and the name limits): more than
// this many user counters fails the task; longer names are cut.
inline constexpr size_t kMaxUserCounters = 120;
inline constexpr size_t kMaxCounterGroupName = 128;
inline constexpr size_t kMaxCounterName = 64;

// The environment Hadoop gives a streaming program (PipeMapRed.configure): this process's,
// then every property of the job's configuration and the task's own (name with every
// character but [A-Za-z0-9] turned into '_', value cut to stream.jobconf.truncate.limit),
// then HADOOP_ROOT_LOGGER= and the -cmdenv pairs (each argument cut at spaces, as Hadoop
// does), then TMPDIR (the task directory's tmp/). A later entry replaces an earlier one.
std::vector<std::string> StreamingEnvironment(const StreamingConf& conf, const TaskIdentity& task,
                                              char* const* base_env);
// Hadoop's ids for a task: job_0_0007, task_0_0007_m_000003, attempt_0_0007_m_000003_1
// (mrlab has no cluster timestamp: it is 0).
std::string HadoopJobId(uint64_t job_id);
std::string HadoopTaskId(const TaskIdentity& task);
std::string HadoopAttemptId(const TaskIdentity& task);

// A reporter line taken apart, as Hadoop's MRErrorThread does: nullopt if `line` does not
// start with `prefix`; else a counter (group, name, amount), a status, or neither (a
// malformed reporter line, which is dropped with a warning).
struct ReporterLine {
  bool counter = false;
  std::string group, name;
  int64_t amount = 0;
  std::optional<std::string> status;
};
std::optional<ReporterLine> ParseReporterLine(std::string_view line, std::string_view prefix);

class StreamingProgram {
 public:
  // Starts `command` for `role` ("mapper", "combiner", "reducer") of the task `ctx` runs;
  // on_line gets its stdout lines ('\n', '\r' or "\r\n" ended) on the calling thread.
  static Result<std::unique_ptr<StreamingProgram>> Start(const StreamingConf& conf, const std::string& command,
                                                         std::string_view role, TaskContext& ctx,
                                                         ChildProcess::LineFn on_line);
  // As ChildProcess::Write and Finish; both pass the counters and status the program
  // reported so far on to the task. Errors name the role ("streaming mapper: ...").
  Status Write(std::string_view bytes);
  Status Finish();
  size_t peak_buffered_bytes() const { return child_->peak_buffered_bytes(); }

 private:
  struct Reports {
    std::mutex mu;
    std::map<std::string, int64_t> counters;  // "GROUP,COUNTER" -> increments not yet passed on
    std::optional<std::string> status;
    size_t distinct = 0;  // counters seen so far
    bool too_many = false;
  };
  StreamingProgram(std::string role, TaskContext& ctx) : role_(std::move(role)), ctx_(ctx) {}
  // Passes the reports taken since the last call to the task (its thread).
  Status PassReports();
  Status WithRole(Status s) const;

  std::string role_;
  TaskContext& ctx_;
  std::shared_ptr<Reports> reports_ = std::make_shared<Reports>();
  std::unique_ptr<ChildProcess> child_;
  uint64_t writes_ = 0;
};

}  // namespace mr::jobs
