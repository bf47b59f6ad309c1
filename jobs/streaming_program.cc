#include "jobs/streaming_program.h"

#include <unistd.h>

#include <charconv>
#include <cstdio>
#include <cstdlib>

#include "common/file_util.h"
#include "common/log.h"
#include "common/utf8.h"
#include "jobs/program_line.h"

extern char** environ;

namespace mr::jobs {
namespace {

// Hadoop's safeEnvVarName: every character outside [A-Za-z0-9] becomes '_'.
std::string SafeName(std::string_view key) {
  std::string s(key);
  for (char& c : s) {
    const bool ok = (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
    if (!ok) c = '_';
  }
  return s;
}

// java.lang.String.trim: drops leading and trailing characters up to ' '.
std::string_view JavaTrim(std::string_view s) {
  while (!s.empty() && static_cast<unsigned char>(s.front()) <= ' ') s.remove_prefix(1);
  while (!s.empty() && static_cast<unsigned char>(s.back()) <= ' ') s.remove_suffix(1);
  return s;
}

// String.split(","): trailing empty strings are dropped.
std::vector<std::string_view> JavaSplitComma(std::string_view s) {
  std::vector<std::string_view> out;
  size_t start = 0;
  for (;;) {
    const size_t comma = s.find(',', start);
    out.push_back(s.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  while (!out.empty() && out.back().empty()) out.pop_back();
  return out;
}

// Long.parseLong: an optional sign and decimal digits, nothing else.
std::optional<int64_t> JavaParseLong(std::string_view s) {
  if (!s.empty() && s[0] == '+') s.remove_prefix(1);
  if (s.empty() || s[0] == '+') return std::nullopt;
  int64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

// URLEncoder.encode(s, "UTF-8"): unreserved characters kept, ' ' as '+', the rest %XX.
std::string FormEncode(std::string_view s) {
  std::string out;
  for (unsigned char c : s) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '-' ||
        c == '*' || c == '_') {
      out.push_back(static_cast<char>(c));
    } else if (c == ' ') {
      out.push_back('+');
    } else {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", c);
      out += buf;
    }
  }
  return out;
}

// Sets `name` and, when the property table has one, its other name too.
void SetProperty(std::map<std::string, std::string>* props, const std::string& name, const std::string& value) {
  (*props)[name] = value;
  for (const HadoopProperty& p : HadoopProperties()) {
    if (p.deprecated == nullptr) continue;
    if (name == p.name) (*props)[p.deprecated] = value;
    if (name == p.deprecated) (*props)[p.name] = value;
  }
}

// The task's own properties, under their Hadoop names and their deprecated ones.
std::vector<std::pair<const char*, const char*>> TaskPropertyNames() {
  return {{"mapreduce.job.id", "mapred.job.id"},
          {"mapreduce.task.id", "mapred.tip.id"},
          {"mapreduce.task.attempt.id", "mapred.task.id"},
          {"mapreduce.task.ismap", "mapred.task.is.map"},
          {"mapreduce.task.partition", "mapred.task.partition"},
          {"mapreduce.job.maps", "mapred.map.tasks"},
          {"mapreduce.job.reduces", "mapred.reduce.tasks"},
          {"mapreduce.job.name", "mapred.job.name"},
          {"mapreduce.output.fileoutputformat.outputdir", "mapred.output.dir"},
          {"mapreduce.job.user.name", "user.name"},
          {"mapreduce.map.input.file", "map.input.file"},
          {"mapreduce.map.input.start", "map.input.start"},
          {"mapreduce.map.input.length", "map.input.length"}};
}

void SetTaskProperties(const StreamingConf& conf, const TaskIdentity& t, std::map<std::string, std::string>* props) {
  std::map<std::string, std::string> own;
  own["mapreduce.job.id"] = HadoopJobId(t.job_id);
  own["mapreduce.task.id"] = HadoopTaskId(t);
  own["mapreduce.task.attempt.id"] = HadoopAttemptId(t);
  own["mapreduce.task.ismap"] = t.is_map ? "true" : "false";
  own["mapreduce.task.partition"] = std::to_string(t.index);
  own["mapreduce.job.maps"] = std::to_string(t.num_maps);
  own["mapreduce.job.reduces"] = std::to_string(t.num_reduces);
  if (!t.job_name.empty()) own["mapreduce.job.name"] = t.job_name;
  if (!t.output_dir.empty()) own["mapreduce.output.fileoutputformat.outputdir"] = "file:" + t.output_dir;
  if (const char* user = std::getenv("USER")) own["mapreduce.job.user.name"] = user;
  if (t.is_map && !t.input_path.empty()) {
    own["mapreduce.map.input.file"] = "file:" + t.input_path;
    own["mapreduce.map.input.start"] = std::to_string(t.input_start);
    own["mapreduce.map.input.length"] = std::to_string(t.input_length);
  }
  for (const auto& [name, old] : TaskPropertyNames()) {
    auto it = own.find(name);
    if (it == own.end()) continue;
    (*props)[name] = it->second;
    (*props)[old] = it->second;
  }
  (*props)["stream.map.streamprocessor"] = FormEncode(conf.mapper);
  if (conf.combiner) (*props)["stream.combine.streamprocessor"] = FormEncode(*conf.combiner);
  if (conf.reducer) (*props)["stream.reduce.streamprocessor"] = FormEncode(*conf.reducer);
}

}  // namespace

std::string HadoopJobId(uint64_t job_id) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "job_0_%04llu", static_cast<unsigned long long>(job_id));
  return buf;
}

std::string HadoopTaskId(const TaskIdentity& t) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "_%c_%06u", t.is_map ? 'm' : 'r', t.index);
  return "task" + HadoopJobId(t.job_id).substr(3) + buf;
}

std::string HadoopAttemptId(const TaskIdentity& t) {
  return "attempt" + HadoopTaskId(t).substr(4) + "_" + std::to_string(t.attempt);
}

std::vector<std::string> StreamingEnvironment(const StreamingConf& conf, const TaskIdentity& task,
                                              char* const* base_env) {
  std::map<std::string, std::string> env;
  for (char* const* e = base_env; e != nullptr && *e != nullptr; ++e) {
    const std::string_view kv(*e);
    const size_t eq = kv.find('=');
    if (eq != std::string_view::npos) env[std::string(kv.substr(0, eq))] = std::string(kv.substr(eq + 1));
  }
  std::map<std::string, std::string> props;
  for (const auto& [k, v] : conf.conf.entries()) SetProperty(&props, k, v);
  SetTaskProperties(conf, task, &props);
  for (const auto& [k, v] : props) {
    std::string value = v;
    if (conf.env_truncate_limit > -1 && value.size() > static_cast<size_t>(conf.env_truncate_limit)) {
      value.resize(static_cast<size_t>(conf.env_truncate_limit));
    }
    env[SafeName(k)] = std::move(value);
  }
  env["HADOOP_ROOT_LOGGER"] = "";
  for (const std::string& arg : conf.cmdenv) {
    size_t start = 0;
    while (start <= arg.size()) {
      size_t space = arg.find(' ', start);
      if (space == std::string::npos) space = arg.size();
      const std::string_view pair = std::string_view(arg).substr(start, space - start);
      const size_t eq = pair.find('=');
      if (eq != std::string_view::npos) env[std::string(pair.substr(0, eq))] = std::string(pair.substr(eq + 1));
      start = space + 1;
    }
  }
  if (!task.working_dir.empty()) env["TMPDIR"] = JoinPath(task.working_dir, "tmp");
  std::vector<std::string> out;
  out.reserve(env.size());
  for (const auto& [k, v] : env) out.push_back(k + "=" + v);
  return out;
}

std::optional<ReporterLine> ParseReporterLine(std::string_view line, std::string_view prefix) {
  if (line.substr(0, prefix.size()) != prefix) return std::nullopt;
  ReporterLine r;
  const std::string_view rest = line.substr(prefix.size());
  if (rest.substr(0, 8) == "counter:") {
    const std::vector<std::string_view> cols = JavaSplitComma(JavaTrim(rest.substr(8)));
    if (cols.size() == 3) {
      if (auto n = JavaParseLong(cols[2])) {
        r.counter = true;
        r.group = std::string(cols[0].substr(0, kMaxCounterGroupName));
        r.name = std::string(cols[1].substr(0, kMaxCounterName));
        r.amount = *n;
      }
    }
  } else if (rest.substr(0, 7) == "status:") {
    r.status = std::string(JavaTrim(rest.substr(7)));
  }
  return r;
}

Result<std::unique_ptr<StreamingProgram>> StreamingProgram::Start(const StreamingConf& conf, const std::string& command,
                                                                  std::string_view role, TaskContext& ctx,
                                                                  ChildProcess::LineFn on_line) {
  std::unique_ptr<StreamingProgram> p(new StreamingProgram(std::string(role), ctx));
  const TaskIdentity& task = ctx.task();
  ChildSpec spec;
  spec.name = command;
  spec.cwd = task.working_dir;
  spec.nonzero_exit_ok = !conf.nonzero_exit_is_failure;
  spec.env = StreamingEnvironment(conf, task, environ);
  if (conf.dialect == StreamingDialect::kHadoop) {
    spec.argv = SplitCommandLine(command);
    if (spec.argv.empty()) return p->WithRole(Status::InvalidArgument("empty command"));
    const char* path = std::getenv("PATH");
    spec.argv[0] = ResolveProgram(spec.argv[0], task.working_dir.empty() ? "." : task.working_dir,
                                  path == nullptr ? "" : path);
  } else {
    spec.argv = {"/bin/sh", "-c", command};
  }
  FilterHooks hooks;
  hooks.progress = [&ctx] { ctx.Progress(); };
  hooks.cancelled = [&ctx] { return ctx.Cancelled(); };
  hooks.stderr_tail = [&ctx](std::string tail) { ctx.SetStderrTail(std::move(tail)); };
  hooks.stderr_copy = [&ctx](std::string_view bytes) { ctx.AppendLog(bytes); };
  std::shared_ptr<Reports> reports = p->reports_;
  const std::string prefix = conf.reporter_prefix;
  const std::string who = p->role_;
  hooks.stderr_line = [reports, prefix, who](std::string_view line) {
    auto r = ParseReporterLine(line, prefix);
    if (!r) return false;
    std::lock_guard<std::mutex> lock(reports->mu);
    if (r->counter) {
      const std::string key = SanitizeUtf8(r->group + "," + r->name);
      auto [it, fresh] = reports->counters.try_emplace(key, 0);
      it->second += r->amount;
      if (fresh && ++reports->distinct > kMaxUserCounters) reports->too_many = true;
    } else if (r->status) {
      reports->status = SanitizeUtf8(*r->status);
    } else {
      MR_LOG_WARN("streaming {}: cannot parse reporter line: {}", who, SanitizeUtf8(line));
    }
    return true;
  };
  auto child = ChildProcess::Start(spec, std::move(hooks), std::move(on_line), /*crlf=*/true);
  if (!child.ok()) return p->WithRole(child.status());
  p->child_ = std::move(child).value();
  return p;
}

Status StreamingProgram::Write(std::string_view bytes) {
  Status s = child_->Write(bytes);
  if (!s.ok()) return WithRole(s);
  // Now and then, so that a running attempt shows its status and counters stay bounded.
  if ((++writes_ & 1023) == 0) return PassReports();
  return Status::Ok();
}

Status StreamingProgram::Finish() {
  Status s = child_->Finish();
  Status r = PassReports();
  if (!s.ok()) return WithRole(s);
  return r;
}

Status StreamingProgram::PassReports() {
  std::map<std::string, int64_t> counters;
  std::optional<std::string> status;
  bool too_many = false;
  {
    std::lock_guard<std::mutex> lock(reports_->mu);
    counters.swap(reports_->counters);
    status.swap(reports_->status);
    too_many = reports_->too_many;
  }
  for (const auto& [name, delta] : counters) ctx_.IncrementCounter(name, delta);
  if (status) ctx_.SetStatus(std::move(*status));
  if (too_many) {
    return WithRole(Status::FailedPrecondition("more than " + std::to_string(kMaxUserCounters) +
                                               " counters (Hadoop's limit, mapreduce.job.counters.max)"));
  }
  return Status::Ok();
}

Status StreamingProgram::WithRole(Status s) const { return s.WithContext("streaming " + role_); }

}  // namespace mr::jobs
