// JobPersistence: what the master writes to its StateStore as jobs and tasks change (job
// records, task attempt counters and commits, done maps' outputs, id counters, job-name
// profiles). With no store every call does nothing, so tests run the tracker without one.
// Store errors are logged, never fatal: the master runs on, and only a restart loses data.
#pragma once

#include <memory>
#include <optional>

#include "master/job.h"
#include "master/state_store.h"
#include "master/tracker_state.h"
#include "mr.pb.h"

namespace mr::master {

// ARIA profiles kept per job name (StateStore::PutAriaProfile).
inline constexpr int kAriaProfileRuns = 10;

class JobPersistence {
 public:
  // store may be null (no persistence).
  JobPersistence(TrackerState& state, std::unique_ptr<StateStore> store)
      : state_(state), store_(std::move(store)) {}

  StateStore* store() const { return store_.get(); }
  void PersistJob(const JobRecord& job, bool sync);
  // A task's next attempt id, and (reduces) its commit and counters.
  void PersistTask(const JobRecord& job, bool reduce, int index, bool committed, bool sync,
                   const google::protobuf::RepeatedPtrField<proto::Counter>* counters = nullptr);
  // A map's accepted output, so a restarted master can adopt it (recovery.h).
  void PersistMapDone(const JobRecord& job, int index, const proto::MapDone& done);
  // The next job and worker ids; Ok without a store.
  Status PersistIdCounters(bool sync);
  // The profile of earlier runs of a job name, if stored.
  std::optional<proto::JobProfile> LoadProfile(const std::string& name) const;
  // Folds a succeeded job's run into its name's profile (running mean over runs).
  void UpdateProfile(const JobRecord& job);
  // A succeeded job's ARIA profile (model::ProfileToJson, measured from its trace by the
  // seal, job_seal.h), stored under its name beside the newest runs of that name
  // (kAriaProfileRuns in all).
  void StoreAriaProfile(const JobRecord& job, const std::string& profile_json);
  void DeleteJob(uint64_t id);

 private:
  TrackerState& state_;
  std::unique_ptr<StateStore> store_;
};

}  // namespace mr::master
