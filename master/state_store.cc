#include "master/state_store.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include <rocksdb/db.h>
#include <rocksdb/env.h>
#include <rocksdb/write_batch.h>

namespace mr::master {

namespace {
std::string JobKey(uint64_t id) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "job/%020llu", static_cast<unsigned long long>(id));
  return buf;
}
std::string TaskPrefix(uint64_t id) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "task/%020llu/", static_cast<unsigned long long>(id));
  return buf;
}
std::string TaskKey(uint64_t id, bool reduce, uint32_t index) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%c%08u", reduce ? 'r' : 'm', index);
  return TaskPrefix(id) + buf;
}
constexpr const char* kMetaKey = "meta/next_job_id";
constexpr std::string_view kAriaPrefix = "aria/";

// aria/<name>\0: a job name holds no NUL (the master refuses one), so no name's prefix is
// another's.
std::string AriaPrefix(const std::string& name) { return std::string(kAriaPrefix) + name + '\0'; }
std::string AriaKey(const std::string& name, uint64_t job_id) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%020llu", static_cast<unsigned long long>(UINT64_MAX - job_id));
  return AriaPrefix(name) + buf;
}

Status FromRocks(const rocksdb::Status& s, const char* what) {
  if (s.ok()) return Status::Ok();
  return Status::IoError(std::string("state store ") + what + ": " + s.ToString());
}
}  // namespace

StateStore::StateStore(std::unique_ptr<rocksdb::Env> env, std::unique_ptr<rocksdb::DB> db)
    : env_(std::move(env)), db_(std::move(db)) {}
StateStore::~StateStore() { db_.reset(); }  // before the Env it lives in

Result<std::unique_ptr<StateStore>> StateStore::Open(const std::string& dir, Medium medium) {
  rocksdb::Options options;
  options.create_if_missing = true;
  options.max_open_files = 64;
  options.keep_log_file_num = 2;
  std::unique_ptr<rocksdb::Env> env;
  if (medium == Medium::kMemory) {
    env.reset(rocksdb::NewMemEnv(rocksdb::Env::Default()));
    options.env = env.get();
    // A new database in memory has no table files to open: no thread pool for that.
    options.max_file_opening_threads = 1;
  }
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(options, dir, &raw);
  if (!s.ok()) return Status::IoError("cannot open state store " + dir + ": " + s.ToString());
  return std::unique_ptr<StateStore>(new StateStore(std::move(env), std::unique_ptr<rocksdb::DB>(raw)));
}

Result<std::unique_ptr<StateStore>> StateStore::OpenReadOnly(const std::string& dir) {
  rocksdb::Options options;
  options.max_open_files = 64;
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s = rocksdb::DB::OpenForReadOnly(options, dir, &raw);
  if (!s.ok()) return Status::IoError("cannot open state store " + dir + ": " + s.ToString());
  return std::unique_ptr<StateStore>(new StateStore(nullptr, std::unique_ptr<rocksdb::DB>(raw)));
}

Status StateStore::PutJob(const proto::StoredJob& job, bool sync) {
  rocksdb::WriteOptions wo;
  wo.sync = sync;
  return FromRocks(db_->Put(wo, JobKey(job.job_id()), job.SerializeAsString()), "write job");
}

Status StateStore::PutTask(uint64_t job, bool reduce, uint32_t index, const proto::StoredTask& task, bool sync) {
  rocksdb::WriteOptions wo;
  wo.sync = sync;
  return FromRocks(db_->Put(wo, TaskKey(job, reduce, index), task.SerializeAsString()), "write task");
}

Status StateStore::PutMeta(const proto::StoreMeta& meta, bool sync) {
  rocksdb::WriteOptions wo;
  wo.sync = sync;
  return FromRocks(db_->Put(wo, kMetaKey, meta.SerializeAsString()), "write meta");
}

Result<proto::StoreMeta> StateStore::GetMeta() {
  proto::StoreMeta meta;
  std::string value;
  rocksdb::Status s = db_->Get(rocksdb::ReadOptions(), kMetaKey, &value);
  if (!s.IsNotFound()) {
    MR_RETURN_IF_ERROR(FromRocks(s, "read meta"));
    if (!meta.ParseFromString(value)) return Status::IoError("state store: corrupt meta record");
  }
  meta.set_next_job_id(std::max<uint64_t>(1, meta.next_job_id()));
  meta.set_next_worker_id(std::max<uint32_t>(1, meta.next_worker_id()));
  return meta;
}

Result<std::vector<LoadedJob>> StateStore::LoadJobs() {
  std::vector<LoadedJob> jobs;
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions()));
  for (it->Seek("job/"); it->Valid() && it->key().starts_with("job/"); it->Next()) {
    LoadedJob lj;
    if (!lj.job.ParseFromArray(it->value().data(), static_cast<int>(it->value().size()))) {
      return Status::IoError("state store: corrupt job record " + it->key().ToString());
    }
    lj.maps.resize(lj.job.num_maps());
    lj.reduces.resize(lj.job.spec().reducers());
    jobs.push_back(std::move(lj));
  }
  MR_RETURN_IF_ERROR(FromRocks(it->status(), "scan jobs"));
  for (auto& lj : jobs) {
    std::string prefix = TaskPrefix(lj.job.job_id());
    for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next()) {
      std::string rest = it->key().ToString().substr(prefix.size());
      if (rest.size() != 9) continue;
      uint32_t index = static_cast<uint32_t>(std::stoul(rest.substr(1)));
      auto& vec = rest[0] == 'r' ? lj.reduces : lj.maps;
      if (index >= vec.size()) continue;
      if (!vec[index].ParseFromArray(it->value().data(), static_cast<int>(it->value().size()))) {
        return Status::IoError("state store: corrupt task record " + it->key().ToString());
      }
    }
    MR_RETURN_IF_ERROR(FromRocks(it->status(), "scan tasks"));
  }
  return jobs;
}

Result<proto::JobProfile> StateStore::GetProfile(const std::string& name) {
  std::string value;
  rocksdb::Status s = db_->Get(rocksdb::ReadOptions(), "profile/" + name, &value);
  if (s.IsNotFound()) return Status::NotFound("no profile for " + name);
  MR_RETURN_IF_ERROR(FromRocks(s, "read profile"));
  proto::JobProfile p;
  if (!p.ParseFromString(value)) return Status::IoError("state store: corrupt profile " + name);
  return p;
}

Status StateStore::PutProfile(const std::string& name, const proto::JobProfile& profile) {
  return FromRocks(db_->Put(rocksdb::WriteOptions(), "profile/" + name, profile.SerializeAsString()), "write profile");
}

Status StateStore::PutAriaProfile(const std::string& name, uint64_t job_id, const std::string& json, int keep) {
  // The name's runs in key order (newest first) with this one in its place: the first
  // `keep` stay, the rest go (this one too, when `keep` newer runs are stored).
  const std::string key = AriaKey(name, job_id), prefix = AriaPrefix(name);
  rocksdb::WriteBatch batch;
  int position = 0;
  bool placed = false;
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions()));
  for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next()) {
    const std::string k = it->key().ToString();
    if (!placed && key <= k) {
      placed = true;
      if (position++ < keep) batch.Put(key, json);
      if (k == key) continue;  // the same run again: replaced
    }
    if (position++ >= keep) batch.Delete(k);
  }
  MR_RETURN_IF_ERROR(FromRocks(it->status(), "scan profiles"));
  if (!placed && position < keep) batch.Put(key, json);
  return FromRocks(db_->Write(rocksdb::WriteOptions(), &batch), "write profile");
}

Result<std::vector<std::pair<uint64_t, std::string>>> StateStore::AriaProfiles(const std::string& name) {
  std::vector<std::pair<uint64_t, std::string>> out;
  const std::string prefix = AriaPrefix(name);
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions()));
  for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next()) {
    const std::string inverted = it->key().ToString().substr(prefix.size());
    out.emplace_back(UINT64_MAX - std::strtoull(inverted.c_str(), nullptr, 10), it->value().ToString());
  }
  MR_RETURN_IF_ERROR(FromRocks(it->status(), "scan profiles"));
  return out;
}

Result<std::vector<std::pair<std::string, int>>> StateStore::AriaProfileNames() {
  std::vector<std::pair<std::string, int>> out;
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions()));
  for (it->Seek(std::string(kAriaPrefix)); it->Valid() && it->key().starts_with(kAriaPrefix); it->Next()) {
    const std::string key = it->key().ToString();
    const size_t nul = key.find('\0', kAriaPrefix.size());
    if (nul == std::string::npos) continue;
    std::string name = key.substr(kAriaPrefix.size(), nul - kAriaPrefix.size());
    if (out.empty() || out.back().first != name) out.emplace_back(std::move(name), 0);
    ++out.back().second;
  }
  MR_RETURN_IF_ERROR(FromRocks(it->status(), "scan profiles"));
  return out;
}

Status StateStore::DeleteJob(uint64_t job) {
  rocksdb::WriteBatch batch;
  batch.Delete(JobKey(job));
  std::string prefix = TaskPrefix(job);
  std::string end = prefix;
  end.back() = static_cast<char>('/' + 1);
  batch.DeleteRange(db_->DefaultColumnFamily(), prefix, end);
  return FromRocks(db_->Write(rocksdb::WriteOptions(), &batch), "delete job");
}

}  // namespace mr::master
