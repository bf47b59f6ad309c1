// StateStore: the master's durable state in RocksDB under STATE/db — jobs with
// their specs and splits, per-task attempt counters and commits — so a master
// restarted on the same state directory resumes unfinished jobs without ever
// reusing an attempt id or committing a task twice. Writes that decide the
// outcome (submit, commit, job end) are synced; attempt counters are written
// through the WAL unsynced (they survive a process kill, not a power cut).
// Not thread-safe: used from the master's state thread.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/status.h"
#include "store.pb.h"

namespace rocksdb {
class DB;
class Env;
}

namespace mr::master {

struct LoadedJob {
  proto::StoredJob job;
  std::vector<proto::StoredTask> maps;     // indexed by map; default if never stored
  std::vector<proto::StoredTask> reduces;
};

class StateStore {
 public:
  // Where the store keeps its data. kDisk: RocksDB files under dir, synced as above.
  // kMemory: RocksDB over an in-memory file system (dir names it, nothing is written): no
  // file I/O and no fsync, and everything is gone when the process exits. Only for a master
  // that can never be restarted on its state (`mr run`'s embedded cluster, which dies with
  // the command): with it a master has nothing to recover from.
  enum class Medium { kDisk, kMemory };
  // Opens or creates the database at dir. IoError if RocksDB refuses (e.g. the
  // directory is locked by another master).
  static Result<std::unique_ptr<StateStore>> Open(const std::string& dir, Medium medium = Medium::kDisk);
  // The same database read-only, for `mr profile --state DIR` beside a running master (it
  // takes no lock and sees the database as it was when opened). IoError if there is none.
  static Result<std::unique_ptr<StateStore>> OpenReadOnly(const std::string& dir);
  ~StateStore();

  Status PutJob(const proto::StoredJob& job, bool sync);
  Status PutTask(uint64_t job, bool reduce, uint32_t index, const proto::StoredTask& task, bool sync);
  // The id counters; a store without them reads as {1, 1}.
  Status PutMeta(const proto::StoreMeta& meta, bool sync);
  Result<proto::StoreMeta> GetMeta();
  Result<std::vector<LoadedJob>> LoadJobs();
  // Profiles by job name; NotFound if none.
  Result<proto::JobProfile> GetProfile(const std::string& name);
  Status PutProfile(const std::string& name, const proto::JobProfile& profile);
  // ARIA job profiles (model/makespan/aria_profile.h), several runs per job name: each is
  // the profile's JSON text under aria/<name>\0<inverted job id>, so a name's runs scan
  // newest (highest job id) first. PutAriaProfile keeps the newest `keep` runs of the name.
  Status PutAriaProfile(const std::string& name, uint64_t job_id, const std::string& json, int keep);
  // The runs of `name`, newest first: (job id, JSON). Empty when none.
  Result<std::vector<std::pair<uint64_t, std::string>>> AriaProfiles(const std::string& name);
  // Every name with ARIA profiles, in byte order, with its number of runs.
  Result<std::vector<std::pair<std::string, int>>> AriaProfileNames();
  // Removes a job and its tasks (history retention).
  Status DeleteJob(uint64_t job);

 private:
  StateStore(std::unique_ptr<rocksdb::Env> env, std::unique_ptr<rocksdb::DB> db);
  std::unique_ptr<rocksdb::Env> env_;  // kMemory: the file system db_ lives in (outlives it)
  std::unique_ptr<rocksdb::DB> db_;
};

}  // namespace mr::master
