#include "master/message_checks.h"

#include <cmath>
#include <map>

#include "common/auth.h"
#include "jobs/job_request.h"
#include "jobs/job_spec_params.h"
#include "jobs/subprocess.h"
#include "master/job_tracker.h"
#include "master/worker_registry.h"

namespace mr::master {

namespace {

// Generous bounds: a well-behaved peer stays far below them, a hostile one cannot make the
// master store or trace unbounded data through one field.
constexpr size_t kMaxErrorBytes = 64u << 10;
constexpr size_t kMaxPathBytes = 4096;
constexpr size_t kMaxNameBytes = 256;
constexpr size_t kMaxJobKindBytes = 64;
constexpr int kMaxParams = 256;
constexpr size_t kMaxParamValueBytes = 64u << 10;
constexpr int kMaxInputs = 100000;
constexpr int kMaxReports = 200000;
constexpr int kMaxFetches = 200000;
constexpr int kMaxCounters = 1000;
constexpr uint32_t kMaxAttemptId = 1u << 24;
constexpr uint64_t kMaxBytes = uint64_t{1} << 56;
constexpr double kMaxTime = 1e11;  // seconds since the epoch, year ~5000

Status Bad(const std::string& what) { return Status::InvalidArgument(what); }

// Length, encoding (traces are JSON) and no NUL (a NUL would cut a path short at a syscall).
Status CheckText(std::string_view field, std::string_view s, size_t max_bytes) {
  if (s.size() > max_bytes) {
    return Bad(std::string(field) + " is longer than " + std::to_string(max_bytes) + " bytes");
  }
  if (s.find('\0') != std::string_view::npos)
    return Bad(std::string(field) + " contains a NUL byte");
  if (!IsValidUtf8(s)) return Bad(std::string(field) + " is not valid UTF-8");
  return Status::Ok();
}

Status CheckNumber(std::string_view field, double v, double lo, double hi) {
  if (!std::isfinite(v) || v < lo || v > hi) {
    return Bad(std::string(field) + " out of range: " + std::to_string(v));
  }
  return Status::Ok();
}

Status CheckIndex(std::string_view field, uint64_t v, uint64_t limit) {
  if (v >= limit)
    return Bad(std::string(field) + " " + std::to_string(v) + " out of range (< " +
               std::to_string(limit) + ")");
  return Status::Ok();
}

Status CheckHost(std::string_view host) {
  if (host.empty() || host.size() > 255) return Bad("worker host must be 1..255 bytes");
  for (char c : host) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '-' || c == '_' || c == ':' || c == '[' || c == ']' || c == '%';
    if (!ok) return Bad("worker host contains a character that is not in a host name or address");
  }
  return Status::Ok();
}

// Absolute and lexically normal: no empty, "." or ".." components and not "/" itself,
// so a failed job's cleanup (which removes the output directory) stays inside it.
Status CheckOutputPath(std::string_view p) {
  MR_RETURN_IF_ERROR(CheckText("output", p, kMaxPathBytes));
  if (p.size() < 2 || p[0] != '/' || p.back() == '/')
    return Bad("output must be an absolute directory path");
  size_t start = 1;
  while (start <= p.size()) {
    size_t end = p.find('/', start);
    if (end == std::string_view::npos) end = p.size();
    std::string_view part = p.substr(start, end - start);
    if (part.empty() || part == "." || part == "..") return Bad("output path must be normalised");
    start = end + 1;
  }
  return Status::Ok();
}

Status CheckCounters(const proto::TaskReport& r) {
  if (r.counters_size() > kMaxCounters)
    return Bad("more than " + std::to_string(kMaxCounters) + " counters");
  for (const auto& c : r.counters()) {
    if (c.name().empty()) return Bad("counter with an empty name");
    MR_RETURN_IF_ERROR(CheckText("counter name", c.name(), kMaxNameBytes));
  }
  return Status::Ok();
}

Status CheckReportNumbers(const proto::TaskReport& r) {
  MR_RETURN_IF_ERROR(CheckNumber("report start_time", r.start_time(), 0, kMaxTime));
  MR_RETURN_IF_ERROR(CheckNumber("report end_time", r.end_time(), 0, kMaxTime));
  for (uint64_t v :
       {r.bytes_in(), r.bytes_out(), r.records_in(), r.records_out(), r.shuffle_bytes(),
        r.shuffle_bytes_in_flight()}) {
    if (v > kMaxBytes) return Bad("report byte or record count out of range");
  }
  for (uint64_t v : r.partition_bytes()) {
    if (v > kMaxBytes) return Bad("report partition size out of range");
  }
  if (r.attempt() > kMaxAttemptId) return Bad("report attempt id out of range");
  if (r.slot() > kMaxWorkerSlots * 3) return Bad("report slot out of range");
  MR_RETURN_IF_ERROR(CheckText("report error", r.error(), kMaxErrorBytes));
  return CheckText("report stderr tail", r.stderr_tail(), jobs::kStderrTailBytes);
}

}  // namespace

bool IsValidUtf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      ++i;
      continue;
    }
    size_t n;  // continuation bytes
    if ((c & 0xE0) == 0xC0) {
      n = 1;
    } else if ((c & 0xF0) == 0xE0) {
      n = 2;
    } else if ((c & 0xF8) == 0xF0) {
      n = 3;
    } else {
      return false;
    }
    uint32_t cp = c & (0x3Fu >> n);
    if (s.size() - i <= n) return false;
    for (size_t k = 1; k <= n; ++k) {
      auto cc = static_cast<unsigned char>(s[i + k]);
      if ((cc & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (cc & 0x3F);
    }
    // Overlong forms, UTF-16 surrogates and code points past U+10FFFF are invalid.
    static constexpr uint32_t kMinForLength[] = {0, 0x80, 0x800, 0x10000};
    if (cp < kMinForLength[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += n + 1;
  }
  return true;
}

JobShapeLookup JobShapesOf(const JobTracker& tracker) {
  return [&tracker](uint64_t id) -> std::optional<JobShape> {
    if (id == 0) return std::nullopt;  // no job has id 0
    // Not GetStatus: that builds a row per worker, for every report of every heartbeat.
    return tracker.ShapeOf(id);
  };
}

Status CheckHello(const proto::Hello& hello) {
  if (!hello.nonce().empty() && hello.nonce().size() != auth::kNonceBytes) {
    return Status::ProtocolError("handshake nonce must be " + std::to_string(auth::kNonceBytes) +
                                 " bytes");
  }
  if (hello.role() != "worker" && hello.role() != "client") return Bad("unknown peer role");
  return CheckText("software", hello.software(), kMaxNameBytes);
}

Status CheckRegisterWorker(const proto::RegisterWorker& r) {
  if (r.map_slots() > kMaxWorkerSlots || r.reduce_slots() > kMaxWorkerSlots ||
      r.unified_slots() > kMaxWorkerSlots) {
    return Bad("slot counts must be at most " + std::to_string(kMaxWorkerSlots));
  }
  if (r.map_slots() + r.reduce_slots() + r.unified_slots() == 0) return Bad("worker has no slots");
  if (r.shuffle_port() == 0 || r.shuffle_port() > 65535) return Bad("bad shuffle port");
  MR_RETURN_IF_ERROR(CheckNumber("speed", r.speed(), 1e-9, 1000));
  MR_RETURN_IF_ERROR(CheckNumber("shuffle bandwidth", r.shuffle_bandwidth(), 0, 1e13));
  MR_RETURN_IF_ERROR(CheckHost(r.host()));
  if (r.held_outputs_size() > kMaxReports) return Bad("more than " + std::to_string(kMaxReports) + " held outputs");
  for (const auto& h : r.held_outputs()) {
    if (h.attempt() == 0 || h.attempt() > kMaxAttemptId) return Bad("held output attempt out of range");
  }
  if (r.has_straggler()) {
    const proto::StragglerInjection& s = r.straggler();
    MR_RETURN_IF_ERROR(CheckNumber("straggler offset", s.offset(), 0, 86400));
    MR_RETURN_IF_ERROR(CheckNumber("straggler rate", s.rate(), 1e-12, 1e6));
    MR_RETURN_IF_ERROR(CheckNumber("straggler shape", s.shape(), 0, 1000));
    if (s.tail() != "exp" && s.tail() != "pareto") return Bad("straggler tail must be exp or pareto");
  }
  MR_RETURN_IF_ERROR(WorkerRegistry::LabelsOf(r).status());  // at most 16, each at most 63+63 bytes
  return CheckText("work_dir", r.work_dir(), kMaxPathBytes);
}

Status CheckJobSpec(const proto::JobSpec& spec) {
  MR_RETURN_IF_ERROR(CheckText("job", spec.job(), kMaxJobKindBytes));
  if (spec.params_size() > kMaxParams)
    return Bad("more than " + std::to_string(kMaxParams) + " job parameters");
  for (const auto& [k, v] : spec.params()) {
    if (k.empty()) return Bad("job parameter with an empty name");
    MR_RETURN_IF_ERROR(CheckText("job parameter name", k, kMaxNameBytes));
    MR_RETURN_IF_ERROR(CheckText("job parameter " + k.substr(0, 64), v, kMaxParamValueBytes));
  }
  if (spec.inputs_size() > kMaxInputs)
    return Bad("more than " + std::to_string(kMaxInputs) + " inputs");
  for (const auto& in : spec.inputs()) {
    MR_RETURN_IF_ERROR(CheckText("input path", in, kMaxPathBytes));
    if (in.empty() || in[0] != '/') return Bad("input paths must be absolute");
  }
  MR_RETURN_IF_ERROR(CheckOutputPath(spec.output()));
  MR_RETURN_IF_ERROR(CheckText("job name", spec.name(), kMaxNameBytes));
  MR_RETURN_IF_ERROR(CheckText("input server", spec.input_server(), kMaxNameBytes));  // HOST:PORT
  MR_RETURN_IF_ERROR(CheckText("output server", spec.output_server(), kMaxNameBytes));  // HOST:PORT
  // The per-job parameters' texts (pool, ...), as their table lists them.
  const sched::JobParams params = jobs::JobParamsFromSpec(spec);
  for (const sched::JobParamRow& row : sched::JobParamTable()) {
    if (row.type != sched::JobParamType::kText) continue;
    MR_RETURN_IF_ERROR(CheckText(row.name, params.*row.text, kMaxNameBytes));
  }
  // The values' ranges and the job: the checks `mr submit` ran too, since a client may be
  // anything that speaks the protocol.
  return jobs::ValidateJobSpec(spec, sched::ParamNames::kName);
}

Status CheckTaskReport(const proto::TaskReport& r, const std::optional<JobShape>& job) {
  if (r.kind() != proto::MAP && r.kind() != proto::REDUCE)
    return Bad("report of an unknown task kind");
  if (!proto::TaskState_IsValid(r.state()) || r.state() == proto::TASK_STATE_UNSPECIFIED) {
    return Bad("report with an unknown task state");
  }
  uint32_t maps = job ? job->maps : kMaxMapTasks;
  uint32_t reduces = job ? job->reduces : kMaxReduceTasks;
  MR_RETURN_IF_ERROR(CheckIndex("task index", r.index(), r.kind() == proto::MAP ? maps : reduces));
  if (r.partition_bytes_size() > static_cast<int>(reduces))
    return Bad("more partition sizes than the job has reducers");
  if (r.maps_fetched() > maps) return Bad("maps_fetched out of range");
  MR_RETURN_IF_ERROR(CheckReportNumbers(r));
  return CheckCounters(r);
}

Status CheckFetchEvent(const proto::FetchEvent& f, const std::optional<JobShape>& job) {
  MR_RETURN_IF_ERROR(
      CheckIndex("fetch reduce index", f.reduce_index(), job ? job->reduces : kMaxReduceTasks));
  MR_RETURN_IF_ERROR(CheckIndex("fetch map index", f.map_index(), job ? job->maps : kMaxMapTasks));
  if (f.map_attempt() > kMaxAttemptId) return Bad("fetch map attempt id out of range");
  MR_RETURN_IF_ERROR(CheckNumber("fetch start_time", f.start_time(), 0, kMaxTime));
  MR_RETURN_IF_ERROR(CheckNumber("fetch end_time", f.end_time(), 0, kMaxTime));
  if (f.bytes() > kMaxBytes) return Bad("fetch bytes out of range");
  return CheckText("fetch error", f.error(), kMaxErrorBytes);
}

Status CheckHeartbeat(const proto::Heartbeat& hb, const proto::RegisterWorker& reg,
                      const JobShapeLookup& lookup) {
  if (hb.free_map_slots() > reg.map_slots() || hb.free_reduce_slots() > reg.reduce_slots() ||
      hb.free_unified_slots() > reg.unified_slots()) {
    return Bad("heartbeat reports more free slots than the worker registered");
  }
  if (hb.reports_size() > kMaxReports) return Bad("too many task reports in one heartbeat");
  if (hb.fetches_size() > kMaxFetches) return Bad("too many fetch events in one heartbeat");
  MR_RETURN_IF_ERROR(CheckNumber("shuffle_bytes_sent", hb.shuffle_bytes_sent(), 0, 1e18));
  if (hb.served_size() > kMaxFetches) return Bad("too many served-bytes entries in one heartbeat");
  if (hb.served_size() > 0) {
    MR_RETURN_IF_ERROR(CheckNumber("served_since", hb.served_since(), 0, kMaxTime));
    MR_RETURN_IF_ERROR(CheckNumber("served_until", hb.served_until(), hb.served_since(), kMaxTime));
    for (const auto& e : hb.served()) {
      if (e.bytes() > kMaxBytes) return Bad("served bytes out of range");
    }
  }
  std::map<uint64_t, std::optional<JobShape>> shapes;  // one lookup per job, not per report
  auto shape = [&](uint64_t id) -> const std::optional<JobShape>& {
    auto it = shapes.find(id);
    if (it == shapes.end()) it = shapes.emplace(id, lookup ? lookup(id) : std::nullopt).first;
    return it->second;
  };
  for (const auto& r : hb.reports()) MR_RETURN_IF_ERROR(CheckTaskReport(r, shape(r.job_id())));
  for (const auto& f : hb.fetches()) MR_RETURN_IF_ERROR(CheckFetchEvent(f, shape(f.job_id())));
  return Status::Ok();
}

Status PeerGate::Check(const proto::Envelope& in, const JobShapeLookup& lookup) const {
  switch (in.msg_case()) {
    case proto::Envelope::kRegisterWorker:
      if (role_ != "worker") return Status::PermissionDenied("only a worker may register");
      if (worker_id_ != 0) {
        return Status::ProtocolError("this connection already registered worker " +
                                     std::to_string(worker_id_));
      }
      return CheckRegisterWorker(in.register_worker());
    case proto::Envelope::kHeartbeat:
      if (role_ != "worker") return Status::PermissionDenied("only a worker may heartbeat");
      if (worker_id_ == 0) return Status::ProtocolError("heartbeat before registration");
      if (in.heartbeat().worker_id() != worker_id_) {
        return Status::PermissionDenied("the connection of worker " + std::to_string(worker_id_) +
                                        " may not speak for worker " +
                                        std::to_string(in.heartbeat().worker_id()));
      }
      return CheckHeartbeat(in.heartbeat(), registration_, lookup);
    case proto::Envelope::kSubmit:
      if (!in.submit().has_spec()) return Bad("submit without a job spec");
      return CheckJobSpec(in.submit().spec());
    case proto::Envelope::kStatus:
      return Status::Ok();
    case proto::Envelope::kWaitJob:
      if (in.wait_job().job_id() == 0) return Bad("wait_job needs a job id");
      return Status::Ok();
    case proto::Envelope::kKillJob:
      // Any authenticated peer may kill a job, as any may submit one (docs/reliability.md).
      if (in.kill_job().job_id() == 0) return Bad("kill_job needs a job id");
      return Status::Ok();
    case proto::Envelope::kTaskAttempts:
      if (in.task_attempts().job_id() == 0) return Bad("task_attempts needs a job id");
      if (in.task_attempts().task().size() > 32) return Bad("task_attempts: task longer than 32 bytes");
      return Status::Ok();
    default:
      return Status::ProtocolError("unexpected message");
  }
}

void PeerGate::Registered(uint32_t worker_id, const proto::RegisterWorker& r) {
  worker_id_ = worker_id;
  registration_ = r;
}

}  // namespace mr::master
