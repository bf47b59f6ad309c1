#include "model/makespan/profile_extract.h"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>

#include "trace/attempts.h"
#include "trace/reader.h"

namespace mr::model {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// A task's last successful attempt: its worker-measured start and end, and its bytes.
struct Done {
  double start = 0;
  double end = -kInf;
  uint64_t bytes_in = 0;
  uint64_t bytes_out = 0;
};

struct JobFacts {
  std::string id;
  std::string name;
  std::optional<int64_t> maps, reduces;  // job_submit's
  std::optional<std::string> end_status;
  std::map<int, double> ready;  // reduce index -> its last successful fetch_end
};

JobFacts ReadFacts(const std::vector<trace::Event>& events) {
  JobFacts f;
  for (const trace::Event& ev : events) {
    if (f.id.empty()) f.id = trace::JobOf(ev);
    if (const auto* s = std::get_if<trace::JobSubmit>(&ev)) {
      f.name = s->name.value_or(s->kind.value_or(""));
      f.maps = s->maps;
      f.reduces = s->reduces;
    } else if (const auto* e = std::get_if<trace::JobEnd>(&ev)) {
      f.end_status = e->status.value_or("");
    } else if (const auto* fe = std::get_if<trace::FetchEnd>(&ev)) {
      std::optional<trace::TaskRef> ref = trace::ParseTaskId(fe->task.value_or(""));
      if (!ref || ref->kind != 'r' || fe->status.value_or("") != "ok") continue;
      auto [it, fresh] = f.ready.emplace(ref->index, fe->t);
      if (!fresh) it->second = std::max(it->second, fe->t);
    }
  }
  if (f.id.empty()) f.id = "job";
  if (f.name.empty()) f.name = f.id;
  return f;
}

// Per task index of `kind`, its last successful attempt (by end time).
Result<std::vector<Done>> Successful(const std::vector<trace::Attempt>& attempts, char kind, int count,
                                     const std::string& job) {
  std::vector<Done> out(count);
  for (const trace::Attempt& a : attempts) {
    if (!a.ended || !a.ref || a.ref->kind != kind || a.ended->status.value_or("") != "ok") continue;
    const trace::AttemptEnd& e = *a.ended;
    if (a.ref->index >= count) {
      return Status::InvalidArgument(job + ": task " + a.task + " beyond the job's " + std::to_string(count) +
                                     (kind == 'm' ? " maps" : " reduces"));
    }
    MR_ASSIGN_OR_RETURN(double start, trace::RequireNumber(e.start, trace::EventType::kAttemptEnd, "start", job));
    Done& d = out[a.ref->index];
    if (e.t < d.end) continue;
    d = Done{start, e.t, e.bytes_in.value_or(0), e.bytes_out.value_or(0)};
  }
  for (int i = 0; i < count; ++i) {
    if (out[i].end == -kInf) {
      return Status::InvalidArgument(job + ": " + (kind == 'm' ? "map " : "reduce ") + std::to_string(i) +
                                     " has no successful attempt");
    }
  }
  return out;
}

// The tasks' counts: job_submit's, else one past the highest index an attempt names.
int Count(const std::optional<int64_t>& declared, const std::vector<trace::Attempt>& attempts, char kind) {
  if (declared && *declared >= 0) return static_cast<int>(*declared);
  int n = 0;
  for (const trace::Attempt& a : attempts) {
    if (a.ref && a.ref->kind == kind) n = std::max(n, a.ref->index + 1);
  }
  return n;
}

PhaseStats Stats(const std::vector<double>& v) {
  PhaseStats s;
  double sum = 0;
  for (double x : v) {
    sum += x;
    s.max = std::max(s.max, x);
  }
  s.avg = v.empty() ? 0 : std::min(s.max, sum / static_cast<double>(v.size()));
  return s;
}

}  // namespace

Result<JobProfile> ExtractProfile(const std::vector<trace::Event>& events) {
  const JobFacts f = ReadFacts(events);
  if (!f.end_status) return Status::InvalidArgument(f.id + ": no job_end: the job has not finished");
  if (*f.end_status != "ok") return Status::InvalidArgument(f.id + ": the job ended " + *f.end_status + ", not ok");
  const std::vector<trace::Attempt> attempts = trace::CollectAttempts(events);
  JobProfile p;
  p.name = f.name;
  p.maps = Count(f.maps, attempts, 'm');
  p.reduces = Count(f.reduces, attempts, 'r');
  if (p.maps < 1) return Status::InvalidArgument(f.id + ": no map task");
  MR_ASSIGN_OR_RETURN(std::vector<Done> maps, Successful(attempts, 'm', p.maps, f.id));
  MR_ASSIGN_OR_RETURN(std::vector<Done> reduces, Successful(attempts, 'r', p.reduces, f.id));

  std::vector<double> map_d, reduce_d, first, typical;
  double maps_end = -kInf, maps_start = kInf;
  for (const Done& d : maps) {
    map_d.push_back(std::max(0.0, d.end - d.start));
    maps_end = std::max(maps_end, d.end);
    p.input_bytes += d.bytes_in;
    p.shuffle_bytes += d.bytes_out;
  }
  // The first map's start over every attempt (a failed first attempt began the stage too).
  for (const trace::Attempt& a : attempts) {
    if (a.ref && a.ref->kind == 'm' && a.ended && a.ended->start) maps_start = std::min(maps_start, *a.ended->start);
  }
  double first_reduce_end = kInf, last_reduce_end = maps_end;
  for (const Done& d : reduces) first_reduce_end = std::min(first_reduce_end, d.end);
  for (int r = 0; r < p.reduces; ++r) {
    const Done& d = reduces[r];
    auto it = f.ready.find(r);
    const double ready = it == f.ready.end() ? maps_end : it->second;
    reduce_d.push_back(std::max(0.0, d.end - d.start));
    if (d.start <= first_reduce_end) {
      first.push_back(std::max(0.0, ready - maps_end));
    } else {
      typical.push_back(std::max(0.0, ready - d.start));
    }
    last_reduce_end = std::max(last_reduce_end, d.end);
    p.output_bytes += d.bytes_out;
  }
  p.map = Stats(map_d);
  p.reduce = Stats(reduce_d);
  p.first_shuffle = Stats(first);
  p.typical_shuffle = Stats(typical);
  p.measured_map_stage = std::max(0.0, maps_end - maps_start);
  p.measured_reduce_stage = std::max(0.0, last_reduce_end - maps_end);
  MR_RETURN_IF_ERROR(ValidateProfile(p).WithContext(f.id));
  return p;
}

Result<JobProfile> ExtractProfileFromFile(const std::string& path) {
  MR_ASSIGN_OR_RETURN(std::vector<trace::Event> events, trace::ReadTraceFile(path));
  Result<JobProfile> p = ExtractProfile(events);
  if (!p.ok()) return p.status().WithContext(path);
  return p;
}

}  // namespace mr::model
