// ServedBytes: what the shuffle server sent per job since the last report, for the
// heartbeat (Heartbeat.served), so the master can trace each job's measured rate on this
// link (trace event `served`). Reports at most every kServedReportSeconds; a report lost
// with a failed heartbeat is simply not traced. Heartbeat thread only.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "mr.pb.h"
#include "shuffle/net/shuffle_server.h"

namespace mr::worker {

class ServedBytes {
 public:
  static constexpr double kServedReportSeconds = 0.25;

  // Adds the bytes sent per job since the last report to `hb` if that was at least
  // kServedReportSeconds before `now` (master clock).
  void AddTo(shuffle::ShuffleServer& server, double now, proto::Heartbeat* hb);
  // The job ended: forgotten (here and in the server) after its last bytes are reported.
  void JobFinished(uint64_t job) { finished_.push_back(job); }

 private:
  double since_ = 0;
  std::map<uint64_t, uint64_t> reported_;  // per job, bytes reported
  std::vector<uint64_t> finished_;         // to forget at the next report
};

}  // namespace mr::worker
