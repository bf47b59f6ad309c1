// The job API: a Job is a factory for the Mapper, optional Combiner, Partitioner
// and Reducer that map and reduce tasks run, plus a planning step the master runs
// once at submit time (e.g. sampling the input for a range partitioner), reading the
// input through the master's InputSource (jobs/input_source.h).
// Objects made by a Job are used by one task on one thread; a Job itself is
// immutable after Create and may be shared between threads.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "jobs/input_split.h"

namespace mr::jobs {

class InputSource;

using Params = std::map<std::string, std::string>;

// Limits on a job's shape, checked by `mr run`/`mr submit` and again by the master.
// At most 10,000 reducers: each is a task the master tracks, a part file, and a partition in
// every map's output index (maps x reducers entries), so a larger count on small data makes
// more bookkeeping than work; Hadoop clusters size reducers to their reduce slots.
inline constexpr uint32_t kMaxReducers = 10000;
// Splits of at least 4 KiB: a smaller split size would turn one modest input into millions
// of map tasks.
inline constexpr uint64_t kMinSplitBytes = 4096;

// Receives key/value pairs from a Mapper, Combiner or Reducer.
class Emitter {
 public:
  virtual ~Emitter() = default;
  virtual void Emit(std::string_view key, std::string_view value) = 0;
};

// True if the flag (may be null) is set.
inline bool IsCancelled(const std::atomic<bool>* flag) {
  return flag != nullptr && flag->load(std::memory_order_relaxed);
}

// What a task knows of itself, for programs that ask (Hadoop Streaming's environment:
// mapreduce_task_id, mapreduce_map_input_file, ...; docs/streaming.md).
struct TaskIdentity {
  uint64_t job_id = 0;
  bool is_map = true;
  uint32_t index = 0;        // the map's split index, or the reduce's partition
  uint32_t attempt = 0;
  uint32_t num_maps = 0;
  uint32_t num_reduces = 0;  // 0: a map-only job (each map writes its output file)
  std::string job_name;
  std::string output_dir;
  // A map's split (path empty for a job without input): its file, and the byte range it
  // was cut as (Split::nominal_offset/length, or its own when those are unset).
  std::string input_path;
  uint64_t input_start = 0;
  uint64_t input_length = 0;
  // The directory the task's programs run in, with the job's shipped files
  // (Job::ShippedFiles) in it; "" when the job asked for none (Job::NeedsWorkingDir).
  std::string working_dir;
};

// Per-task user counters (shown in status, the web page and the trace).
class TaskContext {
 public:
  virtual ~TaskContext() = default;
  virtual void IncrementCounter(std::string_view name, int64_t delta) = 0;
  // Worker speed factor (1.0 = nominal); synthetic work scales by 1/speed.
  virtual double speed() const { return 1.0; }
  // Tells the worker the attempt is alive: records read or written, bytes exchanged with
  // a child process. An attempt silent for the cluster's task timeout is killed
  // (docs/reliability.md, "Hung tasks"). Cheap; callable from any thread of the task.
  virtual void Progress() {}
  // The share of the task's planned work done, in [0, 1], for work that is not reading its
  // input (a synthetic map's CPU burn): RUNNING reports carry it. Tasks that read input
  // need not call it; the worker measures the input they consumed.
  virtual void SetFraction(double /*done*/) {}
  // Set once the attempt must stop (its job was killed, it hung past the task timeout, the
  // worker re-registers or shuts down): work that runs long inside one call (a streaming
  // command, a CPU burn) polls it and returns Aborted. Null when the task cannot be
  // cancelled. Any thread of the task.
  virtual const std::atomic<bool>* cancel_flag() const { return nullptr; }
  bool Cancelled() const { return IsCancelled(cancel_flag()); }
  // The last lines a child process of the task wrote to stderr (jobs/subprocess.h): a
  // failed attempt's report carries them to `mr status JOB` and the job page. The task
  // thread; a later call replaces an earlier one.
  virtual void SetStderrTail(std::string /*tail*/) {}
  // Bytes a child process of the task wrote to stderr, as it writes them, for the
  // attempt's log on the worker (`mr logs`, shuffle/task_log.h). Any thread of the task;
  // callers pass whole lines where they can.
  virtual void AppendLog(std::string_view /*bytes*/) {}
  // The task's status line (Hadoop's reporter:status:), shown with the running attempt and
  // kept in its trace event. The task thread; a later call replaces an earlier one.
  virtual void SetStatus(std::string /*status*/) {}
  // Who the task is. Valid for the task's life.
  virtual const TaskIdentity& task() const;
};

// One input record: a line without its '\n', where it came from.
struct InputRecord {
  std::string_view line;
  std::string_view path;
  uint32_t file_index = 0;  // index of the path in JobSpec.inputs
  uint64_t offset = 0;      // byte offset of the line in the file
};

// A run of whole lines of one split: every line ends with '\n' except possibly
// the split's last. The bytes stay valid only during the call.
struct InputBlock {
  std::string_view data;
  std::string_view path;
  uint32_t file_index = 0;
  uint64_t offset = 0;  // byte offset of data[0] in the file
};

class Mapper {
 public:
  virtual ~Mapper() = default;
  virtual Status Setup(TaskContext& ctx) { return Status::Ok(); }
  virtual void Map(const InputRecord& record, Emitter& out) = 0;
  // The fast path for mappers that scan many lines at once (tokenisers, grep):
  // must emit exactly what Map() would for each line of the block, in line order.
  // Returns false, having emitted nothing, when the mapper only works line by line
  // (the default); the task then calls Map() for every line instead.
  virtual bool MapBlock(const InputBlock& block, Emitter& out) { return false; }
  // Called once after the last record (also for jobs without input).
  virtual Status Finish(Emitter& out) { return Status::Ok(); }
  // True for a mapper whose work happens in Finish rather than as records arrive
  // (streaming buffers its split, then runs its command over it): it reports its share
  // done through TaskContext::SetFraction, and the worker does not count reading the split
  // as progress (it would read 100% while the real work has not begun).
  virtual bool ReportsFraction() const { return false; }
};

class ValueIterator {
 public:
  virtual ~ValueIterator() = default;
  // Sets *value to the next value of the current key; false at the end.
  virtual bool Next(std::string_view* value) = 0;
};

// Used as combiner (emits key/value pairs back into the map output) and as
// reducer (emits output records).
class Reducer {
 public:
  virtual ~Reducer() = default;
  virtual Status Setup(TaskContext& ctx) { return Status::Ok(); }
  virtual void Reduce(std::string_view key, ValueIterator& values, Emitter& out) = 0;
  virtual Status Finish(Emitter& out) { return Status::Ok(); }
  // For a combiner: called after the last key of each run it combines (one partition of
  // one spill, or of the final merge), with that run's emitter. A combiner whose output lags
  // its input (a streaming program) emits the rest here; its output must stay in key order.
  // An error fails the map task.
  virtual Status FinishRun(Emitter& out) { return Status::Ok(); }
  // As Mapper::ReportsFraction, for a reducer whose work happens in Finish: the worker then
  // does not count the merge of its input as its progress.
  virtual bool ReportsFraction() const { return false; }
  // For a combiner: true if Reduce(key, [v]) emits exactly (key, v) for every value v its
  // job's mapper or this combiner emits, so a key with one value may skip the call (word
  // count's sum: most keys of a combined map output are there once).
  virtual bool PassesSingleValues() const { return false; }
};

class Partitioner {
 public:
  virtual ~Partitioner() = default;
  // REQUIRES: num_partitions > 0. Returns a value in [0, num_partitions).
  virtual uint32_t Partition(std::string_view key, uint32_t num_partitions) const = 0;
};

// How a reducer's Emit(key, value) becomes output bytes.
enum class OutputFormat {
  kKeyTabValue,  // "key\tvalue\n" (Hadoop TextOutputFormat)
  kKeyOnly,      // "key\n" (sort)
  kValueOnly,    // "value\n" (grep: the key is a binary sort key)
};

// What the master learns about the job before splitting it.
struct JobPlan {
  bool uses_input = true;  // false: synthetic job, maps come from num_maps
  Params extra_params;     // merged into the spec params (e.g. sort cut points)
  // A job that cuts its own splits (streaming under Hadoop's rules) gives them here, in map
  // order; empty: the master cuts them with ComputeSplits.
  std::vector<Split> splits;
  bool own_splits = false;  // `splits` holds the job's splits (possibly none)
};

// A file a job ships to each of its tasks (Hadoop's -files): the file (or directory) at
// `path`, absolute, appears in the task's working directory as `name`.
struct ShippedFile {
  std::string path;
  std::string name;
};

class Job {
 public:
  virtual ~Job() = default;
  virtual std::string_view name() const = 0;
  // Runs once on the master at submit time. `inputs` are the job's inputs as submitted
  // (JobSpec.inputs: absolute paths, directories not yet listed); a plan that reads them
  // lists and reads them through `source`, the one the master splits them with. An error
  // fails the submit.
  virtual Result<JobPlan> Plan(const InputSource& source, const std::vector<std::string>& inputs,
                               uint32_t reducers) const {
    return JobPlan{};
  }
  virtual Result<std::unique_ptr<Mapper>> NewMapper() const = 0;
  // nullptr when the job has no combiner.
  virtual std::unique_ptr<Reducer> NewCombiner() const { return nullptr; }
  virtual Result<std::unique_ptr<Reducer>> NewReducer() const = 0;
  virtual std::unique_ptr<Partitioner> NewPartitioner() const;  // default: hash
  virtual OutputFormat output_format() const { return OutputFormat::kKeyTabValue; }
  // True when the job's tasks run programs: each attempt then gets a working directory of
  // its own (TaskIdentity::working_dir), removed when it ends.
  virtual bool NeedsWorkingDir() const { return false; }
  // Files copied into each task's working directory (once per job per worker).
  virtual std::vector<ShippedFile> ShippedFiles() const { return {}; }
};

// Creates a built-in job by name with its params (validated: a missing, bad or unknown
// parameter is InvalidArgument naming it). Unknown name -> NotFound listing the
// known jobs. Both read the job table (jobs/job_table.h).
Result<std::unique_ptr<Job>> CreateJob(std::string_view name, const Params& params);
std::vector<std::string> KnownJobs();

}  // namespace mr::jobs
