// JobTracker's JSON API for the status page (docs/web.md).

#include "common/file_util.h"
#include "common/job_id.h"
#include "master/job_tracker.h"
#include "master/status_json.h"

namespace mr::master {

using nlohmann::json;

Result<std::string> JobTracker::ApiGet(std::string_view path) const {
  if (path == "/api/cluster") {
    json c = {{"policy", policy_}, {"workers", workers_.size()}, {"heartbeats", heartbeats_}};
    int ms = 0, mb = 0, rs = 0, rb = 0, us = 0, ub = 0;
    double sent = 0, cap = 0;
    for (const auto& [id, w] : workers_) {
      ms += w.info.map_slots();
      rs += w.info.reduce_slots();
      us += w.info.unified_slots();
      mb += w.running_map;
      rb += w.running_reduce;
      ub += w.running_unified;
      sent += w.shuffle_bytes_sent;
      cap += w.info.shuffle_bandwidth();
    }
    c.update({{"map_slots", ms}, {"map_busy", mb}, {"reduce_slots", rs}, {"reduce_busy", rb}, {"unified_slots", us},
              {"unified_busy", ub}, {"shuffle_bytes_sent", sent}, {"shuffle_capacity", cap}});
    return c.dump();
  }
  if (path == "/api/workers") {
    json arr = json::array();
    for (const auto& [id, w] : workers_) {
      arr.push_back({{"id", id}, {"host", w.info.host()}, {"shuffle_port", w.info.shuffle_port()},
                     {"map_slots", w.info.map_slots()}, {"reduce_slots", w.info.reduce_slots()},
                     {"unified_slots", w.info.unified_slots()}, {"running_map", w.running_map},
                     {"running_reduce", w.running_reduce}, {"running_unified", w.running_unified},
                     {"speed", w.info.speed()}, {"shuffle_bandwidth", w.info.shuffle_bandwidth()},
                     {"shuffle_bytes_sent", w.shuffle_bytes_sent}, {"last_heartbeat", w.last_heartbeat}});
    }
    return arr.dump();
  }
  if (path == "/api/jobs") {
    json arr = json::array();
    for (const auto& [id, job] : jobs_) arr.push_back(JobStatusToJson(MakeStatus(*job)));
    return arr.dump();
  }
  constexpr std::string_view kJobs = "/api/jobs/";
  if (path.rfind(kJobs, 0) == 0) {
    std::string_view rest = path.substr(kJobs.size());
    bool trace = false;
    if (auto slash = rest.find('/'); slash != std::string_view::npos) {
      if (rest.substr(slash) != "/trace") return mr::Status::NotFound("no such API path");
      trace = true;
      rest = rest.substr(0, slash);
    }
    auto it = jobs_.find(ParseJobId(rest).value_or(0));
    if (it == jobs_.end()) return mr::Status::NotFound("no job " + std::string(rest));
    if (!trace) return JobStatusToJson(MakeStatus(*it->second)).dump();
    auto text = ReadFileToString(it->second->trace_path);
    json arr = json::array();
    if (text.ok()) {
      size_t pos = 0;
      while (pos < text->size()) {
        size_t nl = text->find('\n', pos);
        if (nl == std::string::npos) nl = text->size();
        if (nl > pos) arr.push_back(json::parse(text->substr(pos, nl - pos), nullptr, /*allow_exceptions=*/false));
        pos = nl + 1;
      }
    }
    return arr.dump();
  }
  return mr::Status::NotFound("no such API path");
}

}  // namespace mr::master
