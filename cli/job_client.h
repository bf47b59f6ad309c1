// The client side of a job, shared by `mr run`, `mr submit`, `mr status`, `mr kill` and
// `mr cluster start`: connecting to the master, submitting, waiting with progress, killing,
// reporting the end; the interrupt handling of `mr run`; and the checks and flags of the
// daemons such a command starts.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "cli/local_cluster.h"
#include "cli/options.h"
#include "client/master_client.h"
#include "mr.pb.h"
#include "scheduler/job_params.h"

namespace mr::cli {

inline constexpr const char* kTokenFileHelp = "cluster token file (the master's --token-file)";

// The first SIGINT / SIGTERM sets Interrupted() (and restores the default action, so a
// second one ends the process at once). Not SA_RESTART: a blocking read of the master
// returns (EINTR) and a wait loop sees the flag at once. Process-wide.
void CatchInterrupts();
bool Interrupted();

// A client connection to the master named by --master / $MR_MASTER / ./mr-cluster/master.addr
// (ClientMasterAddress), proving --token-file if given. Errors as ClientMasterAddress,
// TokenOption and MasterClient::Connect.
Result<std::unique_ptr<client::MasterClient>> ConnectClient(const po::variables_map& vm);
// A job id as `mr status` prints it ("job-000004") -> 4; InvalidArgument otherwise.
Result<uint64_t> ParseJobIdArg(const std::string& text);

// Submits spec with interrupts held back (the id must come back: an interrupt then kills
// the job); prints the job page's URL on stderr when the master serves one and print_page.
// Returns the job id. The submission gets an id of its own (JobSpec.submission_id): if the
// connection breaks before the reply and the master can take a retried submit
// (kFeatureSubmitRetry), this reconnects with `token` for up to reconnect_seconds and sends
// the same submission again, so a master restarted mid-submit neither loses the job nor runs
// it twice; `client` is then the new connection.
Result<uint64_t> Submit(std::unique_ptr<client::MasterClient>& client, proto::JobSpec spec, const HostPort& master,
                        const auth::ClusterToken& token, bool print_page, double reconnect_seconds = 120);
// Waits until job `id` ends, showing its progress on stderr unless quiet (ProgressDisplay:
// a line in place on a terminal, plain lines otherwise). If the master goes away (a
// restart), reconnects for up to reconnect_seconds and goes on waiting for the same job.
// Aborted("interrupted") once Interrupted().
Result<proto::JobStatus> WaitForJob(std::unique_ptr<client::MasterClient> client, const HostPort& address,
                                    const auth::ClusterToken& token, uint64_t id, bool quiet,
                                    double reconnect_seconds = 120);
// Asks the master to kill job `id`; returns its status after the kill. Errors: NotFound,
// FailedPrecondition (it has already ended), ProtocolError (the master is too old to kill).
Result<proto::JobStatus> KillJob(client::MasterClient& client, uint64_t id);
// The end of a job for the user: the summary on stdout and kExitOk if it succeeded, else
// why on stderr (with the last failed attempt's stderr tail) and kExitJobFailed.
int Report(const proto::JobStatus& st);

// What the daemons would refuse, checked before any of them starts, with the same code:
// the option checks and the scheduler's construction (unknown policy, bad pools file).
// with_tuning: the master and worker tuning groups were parsed too (`cluster start`).
// job: a job the embedded master will be sent, which the policy must admit as the master
// would (Scheduler::AdmitJob: a capacity queue it knows); nullptr: none.
Status CheckDaemonOptions(const po::variables_map& vm, bool with_tuning, const sched::JobParams* job = nullptr);
// Children started by this command read the same --token-file (made absolute).
void PassTokenFile(const po::variables_map& vm, LocalClusterOptions* co);

}  // namespace mr::cli
