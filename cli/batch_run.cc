#include "cli/batch_run.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <thread>

#include "cli/experiment_cluster.h"
#include "common/file_util.h"

namespace mr::cli {

namespace {

Result<proto::StatusReply> AskStatus(client::MasterClient& client) {
  proto::Envelope req;
  req.mutable_status()->set_job_id(0);
  MR_ASSIGN_OR_RETURN(proto::Envelope reply, client.Call(req));
  if (!reply.has_status_reply()) return Status::ProtocolError("unexpected reply to a status request");
  return reply.status_reply();
}

model::BatchCluster ClusterOf(const proto::StatusReply& st) {
  model::BatchCluster c{static_cast<int>(st.worker_rows_size()), 0, 0};
  for (const proto::WorkerRow& w : st.worker_rows()) {
    c.map_slots += static_cast<int>(w.map_slots());
    c.reduce_slots += static_cast<int>(w.reduce_slots());
  }
  return c;
}

const model::PlannedOrder* Named(const model::BatchPlan& plan, const std::string& schedule) {
  if (schedule == "johnson") return &plan.johnson;
  if (schedule == "reverse-johnson") return &plan.reverse_johnson;
  if (schedule == "fifo") return &plan.fifo;
  return nullptr;
}

double Predicted(const model::BatchPlan& plan, const std::string& schedule) {
  const model::PlannedOrder* p = Named(plan, schedule);
  return p != nullptr ? p->makespan : plan.predicted_makespan;
}

Result<uint64_t> SubmitOne(client::MasterClient& client, const model::PlanJob& j, const std::string& queue,
                           const BatchRunOptions& o) {
  model::TaskJob t;
  t.maps = j.maps;
  t.map_seconds = o.time_scale * j.map_seconds;
  t.reducers = std::max(1, j.reduces);  // a live job needs a reducer: a map-only job's does nothing
  t.reduce_seconds = j.reduces > 0 ? o.time_scale * j.reduce_seconds : 0;
  t.params.hint_map_seconds = t.map_seconds * j.maps;
  t.params.hint_reduce_seconds = t.reduce_seconds * t.reducers;
  t.params.queue = queue;
  jobs::JobRequest r = ExperimentJobRequest(t, j.name, JoinPath(o.output_dir, j.name), o.slow_start, o.work, false);
  MR_ASSIGN_OR_RETURN(proto::JobSpec spec, jobs::MakeJobSpec(r, jobs::LocalInputs()));
  proto::Envelope req;
  *req.mutable_submit()->mutable_spec() = std::move(spec);
  MR_ASSIGN_OR_RETURN(proto::Envelope reply, client.Call(req));
  if (reply.has_error()) return Status::InvalidArgument("job " + j.name + ": " + reply.error().message());
  if (!reply.has_submit_reply()) return Status::ProtocolError("unexpected reply to submit");
  return reply.submit_reply().job_id();
}

}  // namespace

Result<std::vector<BatchSubmission>> BatchSchedule(const model::BatchPlan& plan, const std::string& schedule) {
  std::vector<BatchSubmission> out;
  if (const model::PlannedOrder* p = Named(plan, schedule)) {
    for (int j : p->order) out.push_back({j, ""});
    return out;
  }
  if (!schedule.empty() && schedule != "balancedpools") {
    return Status::InvalidArgument("unknown schedule '" + schedule +
                                   "' (known: balancedpools, johnson, reverse-johnson, fifo)");
  }
  for (size_t p = 0; p < plan.pools.size(); ++p) {
    for (int j : plan.pools[p].order) out.push_back({j, plan.pools.size() == 1 ? "" : plan.pool_names[p]});
  }
  return out;
}

Status RunBatchPlanLive(const BatchRunOptions& o, client::MasterClient& client, std::ostream& out) {
  if (!(o.time_scale > 0)) return Status::InvalidArgument("--time-scale must be > 0");
  if (o.output_dir.empty() || o.output_dir[0] != '/') return Status::InvalidArgument("--output must be absolute");
  MR_ASSIGN_OR_RETURN(std::string text, ReadFileToString(o.plan_file));
  MR_ASSIGN_OR_RETURN(model::BatchPlan plan, model::ParseBatchPlan(text, o.plan_file));
  MR_ASSIGN_OR_RETURN(std::vector<BatchSubmission> order, BatchSchedule(plan, o.schedule));
  MR_ASSIGN_OR_RETURN(proto::StatusReply before, AskStatus(client));
  MR_RETURN_IF_ERROR(model::CheckPlanCluster(plan, ClusterOf(before), o.plan_file));
  const bool pools = std::any_of(order.begin(), order.end(), [](const BatchSubmission& s) { return !s.queue.empty(); });
  if (pools && before.policy() != "capacity") {
    std::string queues;
    for (size_t p = 0; p < plan.pools.size(); ++p) {
      queues += (p ? ", " : "") + plan.pool_names[p] + " (" + std::to_string(plan.pools[p].slots.map_slots) +
                " map and " + std::to_string(plan.pools[p].slots.reduce_slots) + " reduce slots)";
    }
    return Status::InvalidArgument(o.plan_file + ": its BalancedPools schedule runs two pools: start the master with "
                                   "--policy capacity and the queues " + queues + ", not --policy " + before.policy());
  }
  std::map<uint64_t, int> ids;  // job id -> plan job
  for (const BatchSubmission& s : order) {
    MR_ASSIGN_OR_RETURN(uint64_t id, SubmitOne(client, plan.jobs[s.job], s.queue, o));
    ids[id] = s.job;
  }
  const std::string schedule = o.schedule.empty() ? "balancedpools" : o.schedule;
  out << "# " << o.plan_file << ": " << ids.size() << " jobs submitted (" << schedule << ", policy "
      << before.policy() << "); waiting\n";
  double first_submit = 0, last_end = 0;
  int failed = 0;
  for (;;) {
    MR_ASSIGN_OR_RETURN(proto::StatusReply st, AskStatus(client));
    int ended = 0;
    first_submit = last_end = 0;
    failed = 0;
    for (const proto::JobStatus& j : st.jobs()) {
      if (!ids.count(j.job_id())) continue;
      const bool done = j.state() == "SUCCEEDED" || j.state() == "FAILED" || j.state() == "KILLED";
      ended += done;
      failed += done && j.state() != "SUCCEEDED";
      first_submit = first_submit == 0 ? j.submit_time() : std::min(first_submit, j.submit_time());
      if (done) last_end = std::max(last_end, j.end_time());
    }
    if (ended == static_cast<int>(ids.size())) break;
    std::this_thread::sleep_for(std::chrono::duration<double>(o.poll_seconds));
  }
  const double measured = last_end - first_submit, predicted = o.time_scale * Predicted(plan, schedule);
  char line[200];
  std::snprintf(line, sizeof line, "measured makespan %.3f s, predicted %.3f s (%+.1f%%)\n", measured, predicted,
                predicted > 0 ? 100 * (predicted / measured - 1) : 0.0);
  out << line;
  if (failed > 0) return Status::Internal(std::to_string(failed) + " jobs of the batch failed");
  return Status::Ok();
}

}  // namespace mr::cli
