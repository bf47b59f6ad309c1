#include "scheduler/policies/plugin_loader.h"

#include <dlfcn.h>
#include <sys/stat.h>

#include <cstdio>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <string_view>

#include "common/file_util.h"
#include "common/log.h"
#include "scheduler/policy_plugin.h"
#include "scheduler/policy_table.h"

namespace mr::sched {
namespace {

// What a plug-in's code throws, as one line.
std::string What(const std::exception_ptr& e) {
  try {
    std::rethrow_exception(e);
  } catch (const std::exception& ex) {
    return ex.what();
  } catch (...) {
    return "an exception that is not a std::exception";
  }
}

// The plug-in's policy behind a wall: whatever it throws is caught here, logged, and the
// round goes on without its decision (admission: the job is refused with the reason), so
// an exception in a student's policy never ends the master or the simulator.
class PluginScheduler final : public Scheduler {
 public:
  explicit PluginScheduler(std::unique_ptr<Scheduler> inner) : inner_(std::move(inner)) {}
  std::string_view name() const override { return inner_->name(); }
  SnapshotScope scope() const override { return Guard([&] { return inner_->scope(); }, SnapshotScope::kHeartbeat); }
  bool requires_unified_slots() const override {
    return Guard([&] { return inner_->requires_unified_slots(); }, false);
  }
  Decision Schedule(const Snapshot& snap) override { return Guard([&] { return inner_->Schedule(snap); }, Decision{}); }
  Status AdmitJob(const JobParams& job) const override {
    std::string thrown;
    Status st = Guard([&] { return inner_->AdmitJob(job); }, Status::Ok(), &thrown);
    if (!thrown.empty()) return Status::InvalidArgument("policy " + std::string(name()) + " threw: " + thrown);
    return st;
  }
  bool MayRunOn(const JobParams& job, const WorkerLabels& labels) const override {
    return Guard([&] { return inner_->MayRunOn(job, labels); }, true);
  }
  std::vector<QueueUse> Queues(const Snapshot& snap) const override {
    return Guard([&] { return inner_->Queues(snap); }, std::vector<QueueUse>{});
  }

 private:
  template <typename F, typename T>
  T Guard(F&& f, T fallback, std::string* thrown = nullptr) const {
    try {
      return f();
    } catch (...) {
      const std::string what = What(std::current_exception());
      if (throws_++ < 10 || throws_ % 1000 == 0) {
        MR_LOG_ERROR("plug-in policy {} threw ({} so far): {}", std::string(inner_->name()), throws_, what);
      }
      if (thrown != nullptr) *thrown = what;
      return fallback;
    }
  }

  std::unique_ptr<Scheduler> inner_;
  mutable uint64_t throws_ = 0;
};

struct Loaded {
  std::mutex mu;
  std::map<std::string, const MrPolicyPluginV1*, std::less<>> by_name;  // guarded by mu
  std::vector<std::string> paths;  // absolute, in load order; guarded by mu
};

Loaded& Plugins() {
  static Loaded* loaded = new Loaded();  // never destroyed: rows point into the libraries
  return *loaded;
}

// The registered row's factory: the descriptor of the row's name, its create() walled off.
Result<std::unique_ptr<Scheduler>> CreateFromPlugin(std::string_view name, const PolicyOptions& options) {
  const MrPolicyPluginV1* d = nullptr;
  {
    Loaded& l = Plugins();
    std::lock_guard<std::mutex> lock(l.mu);
    auto it = l.by_name.find(name);
    if (it == l.by_name.end()) return Status::NotFound("plug-in policy '" + std::string(name) + "' is not loaded");
    d = it->second;
  }
  char error[512] = {0};
  Scheduler* made = nullptr;
  try {
    made = d->create(&options, error, sizeof error);
  } catch (...) {
    return Status::InvalidArgument("plug-in policy " + std::string(name) + ": its factory threw: " +
                                   What(std::current_exception()));
  }
  if (made == nullptr) {
    error[sizeof error - 1] = '\0';
    return Status::InvalidArgument("plug-in policy " + std::string(name) + ": " +
                                   (error[0] != '\0' ? std::string(error) : std::string("its factory made no policy")));
  }
  std::unique_ptr<Scheduler> inner(made);
  if (inner->name() != name) {
    return Status::InvalidArgument("plug-in policy " + std::string(name) + ": the policy it made calls itself '" +
                                   std::string(inner->name()) + "'");
  }
  return std::unique_ptr<Scheduler>(std::make_unique<PluginScheduler>(std::move(inner)));
}

Status CheckName(const char* name) {
  if (name == nullptr || name[0] == '\0') return Status::InvalidArgument("its policy has no name");
  std::string_view n(name);
  if (n.size() > 63) return Status::InvalidArgument("policy name longer than 63 bytes");
  for (char c : n) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_')) {
      return Status::InvalidArgument("policy name '" + std::string(n) + "': use a-z, 0-9, '-' and '_'");
    }
  }
  return Status::Ok();
}

Status CheckDescriptor(const MrPolicyPluginV1* d) {
  if (d == nullptr) return Status::InvalidArgument(MR_POLICY_PLUGIN_ENTRY " returned no descriptor");
  if (d->abi_version != MR_POLICY_PLUGIN_ABI_VERSION) {
    return Status::InvalidArgument("plug-in ABI version " + std::to_string(d->abi_version) + ", this mr loads version " +
                                   std::to_string(MR_POLICY_PLUGIN_ABI_VERSION) + ": rebuild it against this mrlab's headers");
  }
  const std::string theirs = d->mrlab_version != nullptr ? d->mrlab_version : "an unknown mrlab";
  if (d->struct_size != sizeof(MrPolicyPluginV1) || d->layout != PolicyPluginLayout()) {
    return Status::InvalidArgument("built against the headers of " + theirs + " with another layout than " +
                                   std::string(kSoftwareVersion) + "'s: rebuild it against this mrlab's headers");
  }
  MR_RETURN_IF_ERROR(CheckName(d->name));
  if (d->summary == nullptr || d->create == nullptr || (d->options == nullptr && d->option_count > 0)) {
    return Status::InvalidArgument("its descriptor lacks a summary, a factory or its options");
  }
  return Status::Ok();
}

// A policy built with its defaults must take an empty round without throwing, and its
// factory must not throw; a factory that refuses the defaults (an option it needs) is not
// refused here: the user's options may satisfy it. Calls the plug-in directly, not through
// the wrapper, which would swallow the exception.
Status SmokeTest(const MrPolicyPluginV1* d) {
  Result<PolicyOptions> defaults = ResolvePolicyOptions(d->name, {});
  if (!defaults.ok()) return Status::Ok();
  try {
    char error[256] = {0};
    std::unique_ptr<Scheduler> policy(d->create(&*defaults, error, sizeof error));
    if (policy) (void)policy->Schedule(Snapshot{});
  } catch (...) {
    return Status::InvalidArgument("the policy threw when built with its defaults or on an empty round: " +
                                   What(std::current_exception()));
  }
  return Status::Ok();
}

}  // namespace

Result<std::string> LoadPolicyPlugin(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return Status::NotFound(path + ": no such file");
  // RTLD_NOW: an undefined symbol is an error now, not a crash in the middle of a round. The
  // absolute path: dlopen would look a bare name up in the library path, not here.
  void* handle = ::dlopen(AbsolutePath(path).c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* why = ::dlerror();
    return Status::InvalidArgument(path + ": not a loadable shared library: " + (why != nullptr ? why : "dlopen failed"));
  }
  auto entry = reinterpret_cast<MrPolicyPluginEntryV1>(::dlsym(handle, MR_POLICY_PLUGIN_ENTRY));
  if (entry == nullptr) {
    ::dlclose(handle);
    return Status::InvalidArgument(path + ": not an mrlab policy plug-in (no " MR_POLICY_PLUGIN_ENTRY " entry point)");
  }
  const MrPolicyPluginV1* d = nullptr;
  try {
    d = entry();
  } catch (...) {
    return Status::InvalidArgument(path + ": " MR_POLICY_PLUGIN_ENTRY " threw: " + What(std::current_exception()));
  }
  if (Status ok = CheckDescriptor(d); !ok.ok()) return ok.WithContext(path);
  // From here the library stays loaded: the table's row points into it.
  Loaded& l = Plugins();
  {
    std::lock_guard<std::mutex> lock(l.mu);
    auto it = l.by_name.find(d->name);
    if (it != l.by_name.end()) {
      if (it->second == d) return std::string(d->name);  // the same library again
      return Status::AlreadyExists(path + ": a plug-in policy named '" + d->name + "' is already loaded");
    }
    l.by_name.emplace(d->name, d);
  }
  PolicyRow row{d->name, d->summary, std::span<const OptionSpec>(d->options, d->option_count), CreateFromPlugin,
                d->traits};
  Status registered = RegisterPolicy(row);
  if (registered.ok()) registered = SmokeTest(d);
  if (!registered.ok()) {
    (void)UnregisterPolicy(d->name);
    std::lock_guard<std::mutex> lock(l.mu);
    l.by_name.erase(d->name);
    return registered.WithContext(path);
  }
  {
    std::lock_guard<std::mutex> lock(l.mu);
    l.paths.push_back(AbsolutePath(path));
  }
  return std::string(d->name);
}

std::vector<std::string> LoadedPolicyPlugins() {
  Loaded& l = Plugins();
  std::lock_guard<std::mutex> lock(l.mu);
  return l.paths;
}

}  // namespace mr::sched
