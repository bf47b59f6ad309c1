#include "experiment/replay_schedule.h"

#include <cstdio>
#include <string>

namespace mr::experiment {
namespace {

using Event = model::TaskSimScheduleEvent;

const char* SlotName(sched::SlotKind k) {
  switch (k) {
    case sched::SlotKind::kMap:
      return "map";
    case sched::SlotKind::kReduce:
      return "reduce";
    default:
      return "unified";
  }
}

const char* StatusName(Event::Status s) {
  switch (s) {
    case Event::Status::kOk:
      return "ok";
    case Event::Status::kFailed:
      return "failed";
    case Event::Status::kKilled:
      return "killed";
    default:
      return "running";
  }
}

// One line; t0 moves the simulator's clock (0 = the run's first submit) to the run's.
std::string Line(const Event& e, const std::string& job, double t0) {
  char task[32];
  std::snprintf(task, sizeof task, "%c-%05d", e.task_kind == sched::TaskKind::kMap ? 'm' : 'r', e.task);
  const bool start = e.kind == Event::Kind::kStart;
  char head[256];
  std::snprintf(head, sizeof head,
                R"({"event":"%s","t":%.6f,"job":"%s","task":"%s","attempt":%u,"worker":%d,"slot":"%s")",
                start ? "attempt_start" : "attempt_end", t0 + e.t, job.c_str(), task, e.attempt, e.worker,
                SlotName(e.slot));
  char tail[128];
  if (start) {
    std::snprintf(tail, sizeof tail, "%s}", e.backup ? R"(,"backup":true)" : "");
  } else {
    std::snprintf(tail, sizeof tail, R"(,"start":%.6f,"status":"%s"})", t0 + e.start, StatusName(e.status));
  }
  return std::string(head) + tail + "\n";
}

}  // namespace

void WriteSchedule(const RecordedRun& run, const Prediction& p, std::ostream& out) {
  for (const Event& e : p.sim.schedule) out << Line(e, run.measured.at(e.job).id, run.t0);
}

}  // namespace mr::experiment
