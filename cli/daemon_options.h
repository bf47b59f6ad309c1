// Option groups of the daemons, each defined once and shared by `mr master`, `mr worker`,
// `mr cluster start` and the embedded cluster of `mr run`, so a flag has the same meaning,
// default and checks wherever it is accepted. A command that starts daemons checks the
// values itself (one clear error before any process starts) and passes on only what the
// user gave: the children's defaults are the same definitions.
#pragma once

#include <string>
#include <vector>

#include "cli/options.h"
#include "master/master_server.h"
#include "worker/worker.h"

namespace mr::cli {

// --policy, each policy's options (--pools, --klps-k, ...: scheduler/policy_flags.h),
// --policy-options FILE and --placement with its parameters (scheduler/map_placement.h):
// `mr master`, `mr cluster start`, embedded `mr run`.
po::options_description SchedulerOptionGroup();
// --heartbeat-ms, --max-heartbeat-rate, --history-jobs, --history-age, --worker-timeout, --max-attempts,
// --task-timeout, --http, --handshake-timeout, --speculative-*: `mr master`, `mr cluster start`.
po::options_description MasterOptionGroup();
// --map-slots, --reduce-slots, --unified-slots, --speed, --shuffle-bandwidth, --fetch-threads,
// --fetches-per-source, --receiver-shares:
// `mr worker`, `mr cluster start`, embedded `mr run`.
po::options_description WorkerSlotOptionGroup();
// --sort-buffer, --master-timeout, --straggler-*, --label: `mr worker`, `mr cluster start`
// (not `mr run`, whose --sort-buffer is the job's).
po::options_description WorkerTuningOptionGroup();
// --work-dir (required), --host, --ephemeral-work-dir: `mr worker` alone (`mr run` gives its
// embedded workers --ephemeral-work-dir; `mr cluster start` names their directories).
po::options_description WorkerStorageOptionGroup();

// Each reads the options of its group from vm into o, with range checks; InvalidArgument
// names the flag. REQUIRES: vm was parsed with that group.
Status ApplySchedulerOptions(const po::variables_map& vm, master::MasterOptions* o);
Status ApplyMasterOptions(const po::variables_map& vm, master::MasterOptions* o);
Status ApplyWorkerSlotOptions(const po::variables_map& vm, worker::WorkerOptions* o);
Status ApplyWorkerTuningOptions(const po::variables_map& vm, worker::WorkerOptions* o);
// --ephemeral-work-dir: map output indexes are not fsynced (o->sync_map_outputs = false).
Status ApplyWorkerStorageOptions(const po::variables_map& vm, worker::WorkerOptions* o);

// The options of group that the user gave explicitly (not defaulted), as "--name value"
// tokens for a child process, one pair per value of a repeatable (std::vector<std::string>)
// option; file paths are made absolute.
std::vector<std::string> ExplicitArgs(const po::variables_map& vm, const po::options_description& group);
// The first option of group the user gave explicitly, or "" if none.
std::string FirstExplicit(const po::variables_map& vm, const po::options_description& group);

// Whether host is a loopback address (127.0.0.0/8, ::1) or "localhost"; any other name is not.
bool IsLoopbackHost(const std::string& host);
// Safe by default beyond loopback: InvalidArgument, saying how to make and pass a token,
// when `what` (a daemon) would listen on a non-loopback address without a cluster token.
Status RequireTokenBeyondLoopback(const std::string& what, const HostPort& listen, const auth::ClusterToken& token);

}  // namespace mr::cli
