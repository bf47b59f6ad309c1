// ProfileFold: a job's ARIA profile (profile_extract.h) accumulated event by event as the
// trace is written, instead of parsed back from the file once the job has ended.
//
// It keeps only what ExtractProfile reads: the last job_submit and job_end, each attempt's
// last attempt_end (stripped of counters and messages) in the order of those ends, the
// attempts that never ended (they count towards a task count that job_submit lacks), and,
// per reduce, the latest successful fetch_end. Profile() hands exactly that, in that order,
// to ExtractProfile, so the fold's profile is the parse's by construction: same rules, same
// errors. Memory is O(attempts + reduces), not O(events) (a 2,000 × 100 job's 200,000
// fetch_ends become 100). Thread-safe: the master's trace writer adds while the job's seal
// may read (after waiting for the writer to pass job_end, master/trace_queue.h).
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/status.h"
#include "model/makespan/aria_profile.h"
#include "trace/event_fold.h"

namespace mr::model {

class ProfileFold final : public trace::EventFold {
 public:
  void Add(const trace::Event& event) override;
  // ExtractProfile of the events added so far.
  Result<JobProfile> Profile() const;
  // Events added so far (every type).
  uint64_t events() const;

 private:
  struct Ended {
    uint64_t at = 0;  // when its (last) attempt_end came, in events
    trace::AttemptEnd end;
  };
  mutable std::mutex mu_;
  uint64_t events_ = 0;
  std::optional<std::string> job_;  // the first event's job (ExtractProfile's id)
  std::optional<trace::JobSubmit> submit_;
  std::optional<trace::JobEnd> end_;
  std::map<std::pair<std::string, int64_t>, Ended> ended_;  // (task, attempt)
  std::map<std::pair<std::string, int64_t>, trace::AttemptStart> started_;  // not (yet) ended
  std::map<int, trace::FetchEnd> ready_;  // reduce index -> its latest ok fetch_end
};

}  // namespace mr::model
