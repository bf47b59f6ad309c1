// The table and the JSON of a `mr loadgen` run (load_run.h).
#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

#include "common/stats.h"
#include "loadgen/load_run.h"

namespace mr::loadgen {

namespace {

using nlohmann::json;

std::string Fmt(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

// A quantile of a histogram in the unit given (1 = µs, 1000 = ms), "-" if it is empty.
std::string Q(const LogHistogram& h, double q, double unit, bool has = true) {
  if (!has || h.count() == 0) return "-";
  return Fmt(unit >= 1000 ? "%.1f" : "%.0f", h.Quantile(q) / unit);
}

std::string Rate(double n, double seconds) { return seconds > 0 ? Fmt("%.0f", n / seconds) : "-"; }

json Quantiles(const LogHistogram& h) {
  if (h.count() == 0) return nullptr;
  return {{"count", h.count()}, {"p50", h.Quantile(0.5)}, {"p99", h.Quantile(0.99)}, {"max", h.Quantile(1)}};
}

}  // namespace

void PrintLoadTable(const LoadOptions& o, const LoadResult& r, std::ostream& out) {
  out << "mr loadgen: " << r.workers << " simulated workers (" << o.tasks.map_slots << " map + " << o.tasks.reduce_slots
      << " reduce" << (o.tasks.unified_slots > 0 ? " + " + std::to_string(o.tasks.unified_slots) + " unified" : "")
      << " slots each) on " << o.threads << " io thread(s), master " << o.master.ToString() << "\n";
  char line[512];
  std::snprintf(line, sizeof line, "%-9s %7s %9s %9s %8s %8s %8s %8s %8s %8s %8s %7s %8s\n", "phase", "secs",
                "hb/s", "hb/s", "reply", "reply", "handle", "round", "round", "decide", "decide", "master", "master");
  out << line;
  std::snprintf(line, sizeof line, "%-9s %7s %9s %9s %8s %8s %8s %8s %8s %8s %8s %7s %8s\n", "", "", "(workers)",
                "(master)", "p50 ms", "p99 ms", "p99 us", "p50 us", "p99 us", "/slot", "/slot", "CPU %", "RSS MiB");
  out << line;
  std::snprintf(line, sizeof line, "%-9s %7s %9s %9s %8s %8s %8s %8s %8s %8s %8s %7s %8s\n", "", "", "", "", "", "",
                "", "", "", "p50 us", "p99 us", "", "");
  out << line;
  for (const PhaseResult& p : r.phases) {
    const bool api = p.master.has_api;
    std::snprintf(line, sizeof line, "%-9s %7.2f %9s %9s %8s %8s %8s %8s %8s %8s %8s %7s %8s\n", p.name.c_str(),
                  p.seconds, Rate(static_cast<double>(p.replies), p.seconds).c_str(),
                  api ? Rate(static_cast<double>(p.master.heartbeats), p.seconds).c_str() : "-",
                  Q(p.reply_us, 0.5, 1000).c_str(), Q(p.reply_us, 0.99, 1000).c_str(),
                  Q(p.master.heartbeat_us, 0.99, 1, api).c_str(), Q(p.master.round_us, 0.5, 1, api).c_str(),
                  Q(p.master.round_us, 0.99, 1, api).c_str(), Q(p.master.round_per_free_slot_us, 0.5, 1, api).c_str(),
                  Q(p.master.round_per_free_slot_us, 0.99, 1, api).c_str(),
                  p.master.has_proc && p.seconds > 0 ? Fmt("%.0f", 100 * p.master_cpu_seconds / p.seconds).c_str() : "-",
                  p.master.has_proc ? Fmt("%.0f", p.master_rss_mib).c_str() : "-");
    out << line;
  }
  if (r.jobs.submitted > 0) {
    uint64_t tasks = 0;
    for (const PhaseResult& p : r.phases) tasks += p.name == "jobs" ? p.maps + p.reduces : 0;
    out << "jobs: " << r.jobs.succeeded << " of " << r.jobs.submitted << " succeeded (" << o.maps << " maps x "
        << o.reducers << " reduces, " << o.concurrent_jobs << " at a time) in " << Fmt("%.2f", r.jobs.seconds)
        << " s: " << Fmt("%.2f", r.jobs.succeeded / std::max(1e-9, r.jobs.seconds)) << " jobs/s, "
        << Rate(static_cast<double>(tasks), r.jobs.seconds) << " tasks/s; response p50 "
        << Fmt("%.2f", QuantileLinear(r.jobs.response_seconds, 0.5)) << " s, max "
        << Fmt("%.2f", QuantileLinear(r.jobs.response_seconds, 1)) << " s\n";
    for (const std::string& f : r.jobs.failures) out << "  " << f << "\n";
  }
  if (r.recovery.ran) {
    const RecoveryResult& x = r.recovery;
    out << "restart: connections lost " << Fmt("%.2f", x.lost_at) << " s after the cue; from then: every worker "
        << "registered again " << (x.all_registered >= 0 ? Fmt("%.2f s", x.all_registered) : "never")
        << ", first assignment " << (x.first_assignment >= 0 ? Fmt("%.2f s", x.first_assignment) : "none")
        << ", the job ended " << (x.job_state.empty() ? "-" : x.job_state) << " at "
        << (x.job_end >= 0 ? Fmt("%.2f s", x.job_end) : "-") << "\n";
  }
  out << "connects retried: " << r.connect_failures << ", registrations lost: " << r.losses
      << ", reduces failed: " << r.reduces_failed << "\n";
}

std::string LoadResultJson(const LoadOptions& o, const LoadResult& r) {
  json j = {{"workers", r.workers},
            {"map_slots", o.tasks.map_slots},
            {"reduce_slots", o.tasks.reduce_slots},
            {"unified_slots", o.tasks.unified_slots},
            {"threads", o.threads},
            {"connect_failures", r.connect_failures},
            {"losses", r.losses},
            {"reduces_failed", r.reduces_failed}};
  j["phases"] = json::array();
  for (const PhaseResult& p : r.phases) {
    json x = {{"name", p.name},
              {"seconds", p.seconds},
              {"replies", p.replies},
              {"maps", p.maps},
              {"reduces", p.reduces},
              {"reply_us", Quantiles(p.reply_us)}};
    if (p.master.has_api) {
      x["master_heartbeats"] = p.master.heartbeats;
      x["master_workers"] = p.master.workers;
      x["heartbeat_us"] = Quantiles(p.master.heartbeat_us);
      x["round_us"] = Quantiles(p.master.round_us);
      x["round_per_free_slot_us"] = Quantiles(p.master.round_per_free_slot_us);
    }
    if (p.master.has_proc) {
      x["master_cpu_seconds"] = p.master_cpu_seconds;
      x["master_rss_mib"] = p.master_rss_mib;
      x["master_hwm_mib"] = p.master_hwm_mib;
    }
    j["phases"].push_back(std::move(x));
  }
  j["jobs"] = {{"submitted", r.jobs.submitted},
               {"succeeded", r.jobs.succeeded},
               {"failures", r.jobs.failures},
               {"seconds", r.jobs.seconds},
               {"response_seconds", r.jobs.response_seconds}};
  if (r.recovery.ran) {
    j["restart"] = {{"lost_at", r.recovery.lost_at},
                    {"all_registered", r.recovery.all_registered},
                    {"first_assignment", r.recovery.first_assignment},
                    {"job_end", r.recovery.job_end},
                    {"job_state", r.recovery.job_state}};
  }
  return j.dump(2);
}

}  // namespace mr::loadgen
