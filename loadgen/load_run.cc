#include "loadgen/load_run.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <deque>
#include <fstream>
#include <memory>
#include <thread>

#include <asio/executor_work_guard.hpp>
#include <asio/io_context.hpp>
#include <asio/ip/tcp.hpp>

#include "client/master_client.h"
#include "common/clock.h"
#include "common/job_id.h"
#include "jobs/input_source.h"
#include "jobs/job_request.h"
#include "loadgen/sim_worker.h"

namespace mr::loadgen {

namespace {

void SleepSeconds(double s) { std::this_thread::sleep_for(std::chrono::duration<double>(s)); }

// The simulated workers of one io thread.
struct Group {
  asio::io_context io;
  SharedCounters counters;
  std::vector<std::shared_ptr<SimWorker>> workers;
  std::thread thread;
};

struct Reading {
  double t = 0;
  LoadCounters c;
  MasterReading m;
};

class Fleet {
 public:
  Fleet(const LoadOptions& o, const asio::ip::tcp::endpoint& master) {
    for (int g = 0; g < o.threads; ++g) groups_.push_back(std::make_unique<Group>());
    for (int i = 0; i < o.workers; ++i) {
      Group& g = *groups_[i % o.threads];
      SimWorkerOptions w;
      w.master = master;
      w.tasks = o.tasks;
      w.shuffle_port = static_cast<uint32_t>(10000 + i % 50000);
      w.name = "sim-" + std::to_string(i);
      w.work_dir = o.out_dir + "/sim-" + std::to_string(i);
      auto worker = std::make_shared<SimWorker>(g.io, std::move(w), &g.counters);
      worker->Start(i / o.ramp_per_second);
      g.workers.push_back(std::move(worker));
    }
    for (auto& g : groups_) {
      Group* gp = g.get();
      gp->thread = std::thread([gp] {
        auto guard = asio::make_work_guard(gp->io);
        gp->io.run();
      });
    }
  }
  ~Fleet() {
    for (auto& g : groups_) {
      for (auto& w : g->workers) w->Stop();
    }
    SleepSeconds(0.2);  // the posted stops close every socket
    for (auto& g : groups_) {
      g->io.stop();
      if (g->thread.joinable()) g->thread.join();
    }
  }

  LoadCounters Counters() {
    LoadCounters sum;
    sum.mark = 0;
    for (auto& g : groups_) {
      std::lock_guard lock(g->counters.mu);
      const LoadCounters& c = g->counters.c;
      sum.heartbeats += c.heartbeats;
      sum.registrations += c.registrations;
      sum.first_registrations += c.first_registrations;
      sum.registered_now += c.registered_now;
      sum.losses += c.losses;
      sum.connect_failures += c.connect_failures;
      sum.assignments += c.assignments;
      sum.last_registration = std::max(sum.last_registration, c.last_registration);
      sum.first_assignment_after_mark = std::min(sum.first_assignment_after_mark, c.first_assignment_after_mark);
      sum.reply_us.Merge(c.reply_us);
      sum.tasks.maps_succeeded += c.tasks.maps_succeeded;
      sum.tasks.reduces_succeeded += c.tasks.reduces_succeeded;
      sum.tasks.reduces_failed += c.tasks.reduces_failed;
      if (sum.fatal.empty()) sum.fatal = c.fatal;
    }
    return sum;
  }

  void Mark(double t) {
    for (auto& g : groups_) {
      std::lock_guard lock(g->counters.mu);
      g->counters.c.mark = t;
      g->counters.c.first_assignment_after_mark = std::numeric_limits<double>::infinity();
    }
  }

 private:
  std::vector<std::unique_ptr<Group>> groups_;
};

Reading Read(Fleet& fleet, const ProbeTarget& probe) {
  Reading r;
  r.t = MonotonicSeconds();
  r.c = fleet.Counters();
  r.m = ProbeMaster(probe);
  return r;
}

PhaseResult Diff(const std::string& name, const Reading& a, const Reading& b) {
  PhaseResult p;
  p.name = name;
  p.seconds = b.t - a.t;
  p.replies = b.c.heartbeats - a.c.heartbeats;
  p.reply_us = b.c.reply_us;
  p.reply_us.Subtract(a.c.reply_us);
  p.maps = b.c.tasks.maps_succeeded - a.c.tasks.maps_succeeded;
  p.reduces = b.c.tasks.reduces_succeeded - a.c.tasks.reduces_succeeded;
  p.master = b.m;
  // Across a restart the master's counters start again from zero: then the phase is the
  // new master's whole count.
  const bool same = a.m.pid == b.m.pid && a.m.heartbeats <= b.m.heartbeats;
  if (same) {
    p.master.heartbeats -= a.m.heartbeats;
    p.master.heartbeat_us.Subtract(a.m.heartbeat_us);
    p.master.round_us.Subtract(a.m.round_us);
    p.master.round_per_free_slot_us.Subtract(a.m.round_per_free_slot_us);
  }
  p.master_cpu_seconds = b.m.cpu_seconds - (same && a.m.has_proc ? a.m.cpu_seconds : 0);
  p.master_rss_mib = b.m.rss_mib;
  p.master_hwm_mib = b.m.hwm_mib;
  return p;
}

// Submits and awaits jobs through the client protocol, reconnecting when the master goes
// (a restart keeps its jobs and their ids).
class JobDriver {
 public:
  explicit JobDriver(HostPort master) : master_(std::move(master)) {}

  Result<uint64_t> Submit(const proto::JobSpec& spec) {
    proto::Envelope req;
    *req.mutable_submit()->mutable_spec() = spec;
    MR_ASSIGN_OR_RETURN(proto::Envelope reply, Call(req, 10));
    return reply.submit_reply().job_id();
  }

  // The job's status once it has ended, or as it stands after `timeout` seconds.
  Result<proto::JobStatus> Wait(uint64_t job, double timeout) {
    const double deadline = MonotonicSeconds() + timeout;
    for (;;) {
      proto::Envelope req;
      req.mutable_wait_job()->set_job_id(job);
      req.mutable_wait_job()->set_timeout_ms(500);
      Result<proto::Envelope> reply = Call(req, std::max(1.0, deadline - MonotonicSeconds()));
      if (!reply.ok()) return reply.status();
      if (reply->status_reply().jobs_size() != 1) return Status::ProtocolError("no status of " + JobIdString(job));
      const proto::JobStatus& s = reply->status_reply().jobs(0);
      if (s.state() != "RUNNING" || MonotonicSeconds() >= deadline) return s;
    }
  }

 private:
  // One call; a lost connection is made again until `timeout` seconds have passed.
  Result<proto::Envelope> Call(const proto::Envelope& req, double timeout) {
    const double deadline = MonotonicSeconds() + timeout;
    for (;;) {
      if (!client_) {
        auto c = client::MasterClient::Connect(master_, "client", 1.0);
        if (c.ok()) client_ = std::move(*c);
      }
      if (client_) {
        Result<proto::Envelope> r = client_->Call(req);
        if (r.ok() || r.status().code() != StatusCode::kNetworkError) return r;
        client_.reset();
      }
      if (MonotonicSeconds() >= deadline) return Status::NetworkError("master " + master_.ToString() + " unreachable");
      SleepSeconds(0.05);
    }
  }

  HostPort master_;
  std::unique_ptr<client::MasterClient> client_;
};

Result<proto::JobSpec> MakeSpec(const LoadOptions& o, const std::string& name, uint32_t maps, double map_seconds) {
  jobs::JobRequest req;
  req.job = "synthetic";
  req.output = o.out_dir + "/" + name;
  req.reducers = o.reducers;
  req.num_maps = maps;
  req.name = "loadgen";
  req.params["map_seconds"] = std::to_string(map_seconds);
  req.params["reduce_seconds"] = std::to_string(o.tasks.reduce_seconds);
  req.params["map_bytes"] = std::to_string(o.tasks.map_bytes);
  req.params["work"] = "sleep";
  return jobs::MakeJobSpec(req, jobs::LocalInputs());
}

Status WaitFor(const std::function<bool()>& done, double timeout, const std::string& what) {
  const double deadline = MonotonicSeconds() + timeout;
  while (!done()) {
    if (MonotonicSeconds() >= deadline) return Status::NetworkError("timed out waiting for " + what);
    SleepSeconds(0.002);
  }
  return Status::Ok();
}

Status RunJobs(const LoadOptions& o, JobDriver& driver, JobsResult* r) {
  const double start = MonotonicSeconds();
  std::deque<uint64_t> running;
  int next = 0;
  while (next < o.jobs || !running.empty()) {
    while (next < o.jobs && static_cast<int>(running.size()) < o.concurrent_jobs) {
      MR_ASSIGN_OR_RETURN(proto::JobSpec spec, MakeSpec(o, "job-" + std::to_string(next++), o.maps, o.tasks.map_seconds));
      MR_ASSIGN_OR_RETURN(uint64_t id, driver.Submit(spec));
      running.push_back(id);
      r->submitted++;
    }
    MR_ASSIGN_OR_RETURN(proto::JobStatus s, driver.Wait(running.front(), 600));
    if (s.state() == "RUNNING") return Status::Internal(JobIdString(running.front()) + " still running after 600 s");
    running.pop_front();
    if (s.state() == "SUCCEEDED") {
      r->succeeded++;
      r->response_seconds.push_back(s.end_time() - s.submit_time());
    } else {
      r->failures.push_back(JobIdString(s.job_id()) + ": " + s.state() + ": " + s.error());
    }
  }
  r->seconds = MonotonicSeconds() - start;
  return Status::Ok();
}

Status RunRestart(const LoadOptions& o, Fleet& fleet, JobDriver& driver, std::ostream& out, RecoveryResult* r) {
  r->ran = true;
  const uint32_t maps = o.restart_maps > 0 ? o.restart_maps
                                           : static_cast<uint32_t>(3 * o.workers * (o.tasks.map_slots + o.tasks.unified_slots));
  MR_ASSIGN_OR_RETURN(proto::JobSpec spec, MakeSpec(o, "restart-job", maps, o.restart_map_seconds));
  MR_ASSIGN_OR_RETURN(uint64_t id, driver.Submit(spec));
  const uint64_t started = fleet.Counters().assignments;
  MR_RETURN_IF_ERROR(WaitFor([&] { return fleet.Counters().assignments > started; }, 30, "the restart job to start"));
  const uint64_t losses = fleet.Counters().losses;
  const double cue = MonotonicSeconds();
  out << kRestartCue << std::endl;
  MR_RETURN_IF_ERROR(WaitFor([&] { return fleet.Counters().losses > losses; }, o.restart_timeout, "the master to go"));
  const double lost = MonotonicSeconds();
  r->lost_at = lost - cue;
  fleet.Mark(lost);
  // Every worker lost its connection and registered again.
  MR_RETURN_IF_ERROR(WaitFor(
      [&] {
        LoadCounters c = fleet.Counters();
        return c.losses - losses >= static_cast<uint64_t>(o.workers) && c.registered_now == static_cast<uint64_t>(o.workers);
      },
      o.restart_timeout, "every worker to register again"));
  r->all_registered = fleet.Counters().last_registration - lost;
  MR_ASSIGN_OR_RETURN(proto::JobStatus s, driver.Wait(id, o.restart_timeout));
  r->job_end = MonotonicSeconds() - lost;
  r->job_state = s.state();
  const double first = fleet.Counters().first_assignment_after_mark;
  if (first < std::numeric_limits<double>::infinity()) r->first_assignment = first - lost;
  return Status::Ok();
}

Status RaiseFileLimit(int workers) {
  struct rlimit rl {};
  if (getrlimit(RLIMIT_NOFILE, &rl) != 0) return Status::Ok();
  const rlim_t want = static_cast<rlim_t>(workers) + 256;
  if (rl.rlim_cur < want && rl.rlim_cur < rl.rlim_max) {
    rl.rlim_cur = rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
  }
  if (rl.rlim_cur < want) {
    return Status::InvalidArgument(std::to_string(workers) + " simulated workers need " + std::to_string(want) +
                                   " open files, and the hard limit is " + std::to_string(rl.rlim_max) +
                                   " (ulimit -Hn)");
  }
  return Status::Ok();
}

Status Check(const LoadOptions& o) {
  if (o.workers < 1 || o.workers > 100000) return Status::InvalidArgument("--workers must be in 1..100000");
  if (o.threads < 1 || o.threads > 64) return Status::InvalidArgument("--threads must be in 1..64");
  if (!(o.ramp_per_second > 0)) return Status::InvalidArgument("--ramp must be above 0");
  if (o.jobs < 0 || o.concurrent_jobs < 1) return Status::InvalidArgument("--jobs must be >= 0, --concurrent-jobs >= 1");
  if (o.maps < 1 || o.reducers < 1) return Status::InvalidArgument("--maps and --reducers must be at least 1");
  if (o.tasks.map_slots + o.tasks.reduce_slots + o.tasks.unified_slots == 0) {
    return Status::InvalidArgument("a simulated worker needs at least one slot");
  }
  if (o.out_dir.empty() || o.out_dir[0] != '/') return Status::InvalidArgument("--out DIR must be an absolute path");
  return Status::Ok();
}

}  // namespace

Status RunLoad(const LoadOptions& o, std::ostream& out) {
  MR_RETURN_IF_ERROR(Check(o));
  MR_RETURN_IF_ERROR(RaiseFileLimit(o.workers));
  asio::io_context resolve_io;
  asio::error_code ec;
  asio::ip::tcp::resolver resolver(resolve_io);
  auto endpoints = resolver.resolve(o.master.host, std::to_string(o.master.port), ec);
  if (ec || endpoints.empty()) return Status::NetworkError("cannot resolve master " + o.master.ToString());
  LoadResult result;
  result.workers = o.workers;
  JobDriver driver(o.master);
  {
    Fleet fleet(o, endpoints.begin()->endpoint());
    Reading a = Read(fleet, o.probe);
    Status s = WaitFor([&] { return fleet.Counters().first_registrations >= static_cast<uint64_t>(o.workers) ||
                                    !fleet.Counters().fatal.empty(); },
                       o.register_timeout, "every worker to register");
    const LoadCounters c = fleet.Counters();
    if (!c.fatal.empty()) return Status::ProtocolError(c.fatal);
    if (!s.ok()) {
      return Status::NetworkError(std::to_string(c.first_registrations) + " of " + std::to_string(o.workers) +
                                  " simulated workers registered within " + std::to_string(o.register_timeout) + " s");
    }
    Reading b = Read(fleet, o.probe);
    result.phases.push_back(Diff("register", a, b));
    SleepSeconds(o.idle_seconds);
    Reading c2 = Read(fleet, o.probe);
    result.phases.push_back(Diff("idle", b, c2));
    Status jobs = o.jobs > 0 ? RunJobs(o, driver, &result.jobs) : Status::Ok();
    Reading d = Read(fleet, o.probe);
    if (o.jobs > 0) result.phases.push_back(Diff("jobs", c2, d));
    Status restart = jobs.ok() && o.restart ? RunRestart(o, fleet, driver, out, &result.recovery) : Status::Ok();
    if (o.restart && jobs.ok()) result.phases.push_back(Diff("restart", d, Read(fleet, o.probe)));
    const LoadCounters end = fleet.Counters();
    result.connect_failures = end.connect_failures;
    result.losses = end.losses;
    result.reduces_failed = end.tasks.reduces_failed;
    PrintLoadTable(o, result, out);
    if (!o.json_path.empty()) {
      std::ofstream f(o.json_path);
      f << LoadResultJson(o, result) << "\n";
    }
    MR_RETURN_IF_ERROR(jobs);
    MR_RETURN_IF_ERROR(restart);
  }
  if (!result.jobs.failures.empty()) return Status::Internal("a job did not succeed: " + result.jobs.failures[0]);
  if (o.restart && result.recovery.job_state != "SUCCEEDED") {
    return Status::Internal("the restart job ended " + result.recovery.job_state);
  }
  return Status::Ok();
}

}  // namespace mr::loadgen
