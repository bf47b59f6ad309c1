// streaming: mapper, combiner and reducer are programs, run as Hadoop Streaming runs them
// (docs/streaming.md). Records go to a program as the task reads them and its output lines
// come back as it writes them (jobs/subprocess.h): a task holds a bounded buffer, whatever the
// size of its split or partition. A program's line is cut into key and value at the n-th
// separator (Hadoop's TextOutputReader); output records are written as Hadoop's
// TextOutputFormat writes them, "key<TAB>value" (so a line without a tab gains one). With
// a key-field comparator the shuffle carries each key as SortableKey(key) (jobs/key_fields.h).
#include "jobs/builtin_jobs.h"
#include "jobs/hadoop_splits.h"
#include "jobs/key_fields.h"
#include "jobs/streaming_conf.h"
#include "jobs/streaming_program.h"

namespace mr::jobs {

namespace {

using ConfPtr = std::shared_ptr<const StreamingConf>;

// Hadoop's TextOutputReader: the key ends at the `fields`-th separator; without one, the
// whole line is the key and the value is empty.
void SplitKeyValue(std::string_view line, std::string_view sep, int fields, std::string_view* key,
                   std::string_view* value) {
  size_t pos = line.find(sep);
  for (int k = 1; k < fields && pos != std::string_view::npos; ++k) pos = line.find(sep, pos + sep.size());
  if (pos == std::string_view::npos) {
    *key = line;
    *value = {};
    return;
  }
  *key = line.substr(0, pos);
  *value = line.substr(pos + sep.size());
}

// The line TextOutputFormat writes for a record (without its '\n'): under the Hadoop
// dialect a key-only record is "key<TAB>", as Hadoop writes it; mrlab's dialect keeps
// its bare key (docs/jobs.md, "streaming").
void OutputLine(const StreamingConf& c, std::string_view key, std::string_view value, std::string* out) {
  out->assign(key);
  if (value.empty() && c.dialect == StreamingDialect::kMrlab) return;
  out->append(c.output_separator);
  out->append(value);
}

constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

class StreamingMapper final : public Mapper {
 public:
  explicit StreamingMapper(ConfPtr conf) : conf_(std::move(conf)) {}

  Status Setup(TaskContext& ctx) override {
    map_only_ = ctx.task().num_reduces == 0;
    auto p = StreamingProgram::Start(*conf_, conf_->mapper, "mapper", ctx, [this](std::string_view l) { OnLine(l); });
    if (!p.ok()) return p.status();
    program_ = std::move(p).value();
    return Status::Ok();
  }

  void Map(const InputRecord& record, Emitter& out) override {
    out_ = &out;
    FeedLine(record.line, record.offset);
  }

  // The split's lines in runs; a run with nothing to change goes to the program whole.
  bool MapBlock(const InputBlock& block, Emitter& out) override {
    out_ = &out;
    std::string_view data = block.data;
    uint64_t offset = block.offset;
    if (offset == 0 && !data.empty()) {  // the file's first line may carry a BOM
      const size_t nl = data.find('\n');
      const size_t end = nl == std::string_view::npos ? data.size() : nl;
      FeedLine(data.substr(0, end), 0);
      const size_t next = nl == std::string_view::npos ? data.size() : nl + 1;
      data.remove_prefix(next);
      offset += next;
    }
    if (data.empty() || !status_.ok()) return true;
    if (conf_->input_format == InputFormat::kText && conf_->map_input_ignore_key &&
        data.find('\r') == std::string_view::npos) {
      Write(data);
      if (data.back() != '\n') Write("\n");
      return true;
    }
    while (!data.empty() && status_.ok()) {
      const size_t nl = data.find('\n');
      const size_t end = nl == std::string_view::npos ? data.size() : nl;
      FeedLine(data.substr(0, end), offset);
      const size_t next = nl == std::string_view::npos ? data.size() : nl + 1;
      data.remove_prefix(next);
      offset += next;
    }
    return true;
  }

  Status Finish(Emitter& out) override {
    out_ = &out;
    if (!status_.ok()) return status_;
    return program_->Finish();
  }

 private:
  // A '\n'-ended line as Hadoop's LineReader reads it: '\r' ends lines too, and "\r\n" is
  // one terminator; the file's first line loses a UTF-8 byte order mark.
  void FeedLine(std::string_view line, uint64_t offset) {
    if (offset == 0 && line.substr(0, 3) == kUtf8Bom) line.remove_prefix(3);
    size_t cr = line.find('\r');
    while (cr != std::string_view::npos && status_.ok()) {
      FeedRecord(line.substr(0, cr), offset);
      line.remove_prefix(cr + 1);
      offset += cr + 1;
      if (line.empty()) return;  // "\r\n": one terminator
      cr = line.find('\r');
    }
    FeedRecord(line, offset);
  }

  // One record to the program: the line (TextInputFormat), or key, separator and value.
  void FeedRecord(std::string_view line, uint64_t offset) {
    if (!status_.ok()) return;
    const StreamingConf& c = *conf_;
    if (c.input_format == InputFormat::kKeyValueText) {
      const size_t pos = c.key_value_separator.empty() ? std::string_view::npos : line.find(c.key_value_separator[0]);
      if (pos == std::string_view::npos) {
        Write(line);
        Write(c.map_input_separator);
      } else {
        Write(line.substr(0, pos));
        Write(c.map_input_separator);
        Write(line.substr(pos + 1));
      }
    } else if (!c.map_input_ignore_key) {
      Write(std::to_string(offset));
      Write(c.map_input_separator);
      Write(line);
    } else {
      Write(line);
    }
    Write("\n");
  }

  void Write(std::string_view bytes) {
    if (status_.ok()) status_ = program_->Write(bytes);
  }

  void OnLine(std::string_view line) {
    const StreamingConf& c = *conf_;
    std::string_view key, value;
    SplitKeyValue(line, c.map_output_separator, c.map_output_key_fields, &key, &value);
    if (map_only_) {
      OutputLine(c, key, value, &scratch_);
      out_->Emit(scratch_, {});
    } else if (c.comparator) {
      out_->Emit(SortableKey(*c.comparator, key), value);
    } else {
      out_->Emit(key, value);
    }
  }

  ConfPtr conf_;
  std::unique_ptr<StreamingProgram> program_;
  Emitter* out_ = nullptr;  // the emitter of the current call
  bool map_only_ = false;
  Status status_;
  std::string scratch_;
};

// The key a shuffled record had before the comparator's encoding.
std::string_view KeyOf(const StreamingConf& c, std::string_view shuffled) {
  return c.comparator ? OriginalKey(shuffled) : shuffled;
}

// Writes a record to a reducer's or combiner's program: key, separator, value, '\n'.
Status FeedPair(StreamingProgram& p, const StreamingConf& c, std::string_view key, std::string_view value) {
  MR_RETURN_IF_ERROR(p.Write(key));
  MR_RETURN_IF_ERROR(p.Write(c.reduce_input_separator));
  MR_RETURN_IF_ERROR(p.Write(value));
  return p.Write("\n");
}

class StreamingReducer final : public Reducer {
 public:
  explicit StreamingReducer(ConfPtr conf) : conf_(std::move(conf)) {}

  // Hadoop starts the program with the task, even for an empty partition (whose output it
  // then discards).
  Status Setup(TaskContext& ctx) override {
    if (!conf_->reducer) return Status::Ok();  // the identity reducer
    auto p = StreamingProgram::Start(*conf_, *conf_->reducer, "reducer", ctx, [this](std::string_view l) { OnLine(l); });
    if (!p.ok()) return p.status();
    program_ = std::move(p).value();
    return Status::Ok();
  }

  void Reduce(std::string_view shuffled, ValueIterator& values, Emitter& out) override {
    out_ = &out;
    const std::string_view key = KeyOf(*conf_, shuffled);
    std::string_view v;
    while (values.Next(&v) && status_.ok()) {
      if (program_ == nullptr) {
        OutputLine(*conf_, key, v, &scratch_);
        out.Emit(scratch_, {});
      } else {
        fed_ = true;
        status_ = FeedPair(*program_, *conf_, key, v);
      }
    }
  }

  Status Finish(Emitter& out) override {
    out_ = &out;
    if (!status_.ok() || program_ == nullptr) return status_;
    return program_->Finish();
  }

 private:
  void OnLine(std::string_view line) {
    if (!fed_) return;  // Hadoop keeps no output of a reducer that was given nothing
    std::string_view key, value;
    SplitKeyValue(line, conf_->reduce_output_separator, conf_->reduce_output_key_fields, &key, &value);
    OutputLine(*conf_, key, value, &scratch_);
    out_->Emit(scratch_, {});
  }

  ConfPtr conf_;
  std::unique_ptr<StreamingProgram> program_;
  Emitter* out_ = nullptr;
  bool fed_ = false;
  Status status_;
  std::string scratch_;
};

// A program per combine run (one partition of a spill or of the final merge), as Hadoop
// starts a PipeCombiner per run; started at the run's first key.
class StreamingCombiner final : public Reducer {
 public:
  explicit StreamingCombiner(ConfPtr conf) : conf_(std::move(conf)) {}

  Status Setup(TaskContext& ctx) override {
    ctx_ = &ctx;
    return Status::Ok();
  }

  void Reduce(std::string_view shuffled, ValueIterator& values, Emitter& out) override {
    out_ = &out;
    if (!status_.ok()) return;
    if (program_ == nullptr) {
      auto p = StreamingProgram::Start(*conf_, *conf_->combiner, "combiner", *ctx_,
                                       [this](std::string_view l) { OnLine(l); });
      if (!p.ok()) {
        status_ = p.status();
        return;
      }
      program_ = std::move(p).value();
    }
    const std::string_view key = KeyOf(*conf_, shuffled);
    std::string_view v;
    while (values.Next(&v) && status_.ok()) status_ = FeedPair(*program_, *conf_, key, v);
  }

  Status FinishRun(Emitter& out) override {
    out_ = &out;
    if (program_ != nullptr && status_.ok()) status_ = program_->Finish();
    program_.reset();
    return status_;
  }

 private:
  void OnLine(std::string_view line) {
    std::string_view key, value;
    SplitKeyValue(line, conf_->reduce_output_separator, conf_->reduce_output_key_fields, &key, &value);
    if (conf_->comparator) {
      out_->Emit(SortableKey(*conf_->comparator, key), value);
    } else {
      out_->Emit(key, value);
    }
  }

  ConfPtr conf_;
  TaskContext* ctx_ = nullptr;
  std::unique_ptr<StreamingProgram> program_;
  Emitter* out_ = nullptr;
  Status status_;
};

// HashPartitioner (Text's hash) or KeyFieldBasedPartitioner, on the key as the program
// wrote it.
class StreamingPartitioner final : public Partitioner {
 public:
  explicit StreamingPartitioner(ConfPtr conf) : conf_(std::move(conf)) {}
  uint32_t Partition(std::string_view shuffled, uint32_t n) const override {
    const std::string_view key = KeyOf(*conf_, shuffled);
    if (!conf_->key_field_partitioner) return TextHashPartition(key, n);
    return KeyFieldPartition(conf_->partition_options ? &*conf_->partition_options : nullptr, key, n);
  }

 private:
  ConfPtr conf_;
};

class StreamingJob final : public Job {
 public:
  // name: the job table row's (jobs/job_table.h); must outlive the object.
  StreamingJob(std::string_view name, StreamingConf conf)
      : name_(name), conf_(std::make_shared<const StreamingConf>(std::move(conf))) {}
  std::string_view name() const override { return name_; }

  Result<JobPlan> Plan(const InputSource& source, const std::vector<std::string>& inputs,
                       uint32_t reducers) const override {
    JobPlan plan;
    if (conf_->dialect != StreamingDialect::kHadoop) return plan;
    HadoopSplitRule rule{conf_->maps_hint, conf_->block_size, conf_->min_split_size};
    MR_ASSIGN_OR_RETURN(plan.splits, ComputeHadoopSplits(source, inputs, rule));
    plan.own_splits = true;
    return plan;
  }
  Result<std::unique_ptr<Mapper>> NewMapper() const override {
    return std::unique_ptr<Mapper>(std::make_unique<StreamingMapper>(conf_));
  }
  std::unique_ptr<Reducer> NewCombiner() const override {
    if (!conf_->combiner) return nullptr;
    return std::make_unique<StreamingCombiner>(conf_);
  }
  Result<std::unique_ptr<Reducer>> NewReducer() const override {
    return std::unique_ptr<Reducer>(std::make_unique<StreamingReducer>(conf_));
  }
  std::unique_ptr<Partitioner> NewPartitioner() const override {
    return std::make_unique<StreamingPartitioner>(conf_);
  }
  // Records are written as whole lines (OutputLine).
  OutputFormat output_format() const override { return OutputFormat::kKeyOnly; }
  bool NeedsWorkingDir() const override {
    return conf_->dialect == StreamingDialect::kHadoop || !conf_->files.empty();
  }
  std::vector<ShippedFile> ShippedFiles() const override {
    std::vector<ShippedFile> out;
    for (const auto& f : conf_->files) out.push_back(ShippedFile{f.path, f.name});
    return out;
  }

 private:
  std::string_view name_;
  ConfPtr conf_;
};

}  // namespace

Result<std::unique_ptr<Job>> NewStreamingJob(std::string_view name, const Params& params) {
  MR_ASSIGN_OR_RETURN(StreamingConf conf, ParseStreamingConf(name, params));
  return std::unique_ptr<Job>(std::make_unique<StreamingJob>(name, std::move(conf)));
}

}  // namespace mr::jobs
