#include "scheduler/util/map_locality.h"

#include <utility>

namespace mr::sched {

void LocalMaps::IndexWorkers() {
  indexed_ = true;
  for (size_t w = 0; w < snap_.workers.size(); ++w) {
    const std::string& host = snap_.workers[w].host;
    if (!host.empty()) by_host_[host].push_back(static_cast<int>(w));
  }
}

LocalMaps::JobState& LocalMaps::Job(int j) {
  if (jobs_.empty()) jobs_.resize(snap_.jobs.size());
  JobState& s = jobs_[j];
  if (s.ready) return s;
  s.ready = true;
  const JobView& job = snap_.jobs[j];
  const MapLocality& loc = *job.locality;
  if (!indexed_) IndexWorkers();
  s.workers.assign(loc.hosts.size(), nullptr);
  bool some_worker = false;
  for (size_t h = 0; h < loc.hosts.size(); ++h) {
    if (auto it = by_host_.find(loc.hosts[h]); it != by_host_.end()) {
      s.workers[h] = &it->second;
      some_worker = true;
    }
  }
  if (!some_worker) return s;  // no worker on any of its hosts: every map is remote alike
  s.left.assign(loc.hosts.size(), 0);
  for (int m : job.pending_maps) {
    const int h = static_cast<size_t>(m) < loc.host_of_map.size() ? loc.host_of_map[m] : -1;
    if (h >= 0) ++s.left[h];
  }
  for (size_t h = 0; h < s.left.size(); ++h) s.any_local |= s.left[h] > 0 && s.workers[h] != nullptr;
  if (s.any_local) s.order = job.pending_maps;
  return s;
}

int LocalMaps::Take(int j, int w, int* taken) {
  const JobView& job = snap_.jobs[j];
  if (!Matters(j)) return job.pending_maps[(*taken)++];
  JobState& s = Job(j);
  const MapLocality& loc = *job.locality;
  auto host_of = [&loc](int m) {
    return static_cast<size_t>(m) < loc.host_of_map.size() ? loc.host_of_map[m] : -1;
  };
  // The worker's position among the job's hosts, if it is on one with untaken maps.
  int here = -1;
  for (size_t h = 0; h < s.workers.size() && here < 0; ++h) {
    if (s.left[h] > 0 && s.workers[h] != nullptr && snap_.workers[w].host == loc.hosts[h]) {
      here = static_cast<int>(h);
    }
  }
  if (here >= 0 && host_of(s.order[*taken]) != here) {
    for (size_t i = static_cast<size_t>(*taken) + 1; i < s.order.size(); ++i) {
      if (host_of(s.order[i]) == here) {
        std::swap(s.order[*taken], s.order[i]);
        break;
      }
    }
  }
  const int m = s.order[(*taken)++];
  if (const int h = host_of(m); h >= 0) --s.left[h];
  return m;
}

}  // namespace mr::sched
