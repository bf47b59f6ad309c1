// The command table of `mr`: every subcommand and every group's commands, in the order
// `mr help` lists them. A new command is its file and one row here (cli/command.h says how);
// its handler is declared beside the table it belongs to.
#include "cli/command.h"

namespace mr::cli {

// cli/cmd_run.cc, cli/cmd_jobs.cc, cli/cmd_status.cc, cli/cmd_cluster.cc, cli/cmd_daemons.cc
int RunMain(const Args& args);
int SubmitMain(const Args& args);
int StatusMain(const Args& args);
int KillMain(const Args& args);
int MasterMain(const Args& args);
int WorkerMain(const Args& args);
int ClusterMain(const Args& args);
int HadoopMain(const Args& args);  // cli/cmd_hadoop.cc
// cli/cmd_version.cc, cli/cmd_cat.cc
int VersionMain(const Args& args);
int CatMain(const Args& args);
int LogsMain(const Args& args);  // cli/cmd_logs.cc
int LoadgenMain(const Args& args);  // cli/cmd_loadgen.cc

// `mr model ...`: cli/model/cmd_*.cc
int ModelTandemMain(const Args& args);
int ModelTaskSimMain(const Args& args);
int ModelGenMain(const Args& args);
int ModelSweepMain(const Args& args);
int ModelSlowdownMain(const Args& args);
int ModelSlottedMain(const Args& args);
int ModelSlottedGenMain(const Args& args);
int ModelMstMain(const Args& args);
int ModelMstOptimalMain(const Args& args);
int ModelPredictMain(const Args& args);
int ModelMstTraceMain(const Args& args);
int ModelFlexMain(const Args& args);

const Command kModelCommands[] = {
    {"tandem", "simulate a workload file under one policy, with the lower bound", ModelTandemMain},
    {"tasksim", "a live scheduler policy on a task-level simulation of the cluster", ModelTaskSimMain},
    {"gen", "generate a workload file (Google-trace-like by default)", ModelGenMain},
    {"sweep", "relative E[T] vs load for every policy (paper Figure 7)", ModelSweepMain},
    {"slowdown", "mean slowdown by job size (paper Figure 9)", ModelSlowdownMain},
    {"slotted", "live policies in the ASRPT paper's slotted model, vs the SRPT bound", ModelSlottedMain},
    {"slotted-gen", "generate a slotted-model workload (the ASRPT paper's four)", ModelSlottedGenMain},
    {"mst", "straggling mappers: each map placement's rates and mean sojourn time", ModelMstMain},
    {"mst-optimal", "straggling mappers: the best number of mappers, or node mix under a budget",
     ModelMstOptimalMain},
    {"predict", "replay a recorded run's traces under a policy: per-job error, or a what-if", ModelPredictMain},
    {"mst-trace", "straggling mappers: a run's measured MST vs the model's from its measured rates",
     ModelMstTraceMain},
    {"flex", "the FLEX paper's simulation: FIFO, FAIR and FLEX against the optimum", ModelFlexMain},
};

// `mr trace ...`: cli/cmd_trace.cc
int TraceRenderMain(const Args& args);

const Command kTraceCommands[] = {
    {"render", "render a job trace as a Gantt chart (SVG or PNG)", TraceRenderMain},
};

// `mr experiment ...`: cli/cmd_experiment.cc
int ExperimentRunMain(const Args& args);
int ExperimentReportMain(const Args& args);
int ExperimentCalibrateMain(const Args& args);

const Command kExperimentCommands[] = {
    {"run", "play an experiment file on a local cluster under each policy, predict and compare",
     ExperimentRunMain},
    {"report", "rebuild an experiment's summary.md and plots from its jobs.csv", ExperimentReportMain},
    {"calibrate", "measure an experiment file's cluster shape with three standard jobs", ExperimentCalibrateMain},
};

// `mr batch ...`: cli/cmd_batch.cc
int BatchPlanMain(const Args& args);
int BatchSweepMain(const Args& args);
int BatchRunMain(const Args& args);

const Command kBatchCommands[] = {
    {"plan", "a batch's Johnson order and BalancedPools pools, simulated; writes a plan file", BatchPlanMain},
    {"sweep", "the makespan paper's five strategies vs cluster size for a generated batch", BatchSweepMain},
    {"run", "submit a plan's batch to a running master in its order and queues; measured vs predicted",
     BatchRunMain},
};

// `mr profile ...`: cli/cmd_profile.cc
int ProfileListMain(const Args& args);
int ProfileShowMain(const Args& args);
int ProfileEstimateMain(const Args& args);

const Command kProfileCommands[] = {
    {"list", "every job name with stored ARIA profiles", ProfileListMain},
    {"show", "a job name's stored ARIA profiles, newest first", ProfileShowMain},
    {"estimate", "ARIA's stage bounds of a job name on given map and reduce slots", ProfileEstimateMain},
};

// `mr export ...`, `mr import ...`: cli/cmd_yarn.cc
int ExportYarnFairMain(const Args& args);
int ExportYarnCapacityMain(const Args& args);
int ImportYarnFairMain(const Args& args);
int ImportYarnCapacityMain(const Args& args);

const Command kExportCommands[] = {
    {"yarn-fair", "the pools as a YARN Fair Scheduler allocation file (fair-scheduler.xml)", ExportYarnFairMain},
    {"yarn-capacity", "capacity queues or a batch plan's pools as YARN's capacity-scheduler.xml",
     ExportYarnCapacityMain},
};

const Command kImportCommands[] = {
    {"yarn-fair", "a YARN Fair Scheduler allocation file as a pools file", ImportYarnFairMain},
    {"yarn-capacity", "a YARN capacity-scheduler.xml as a capacity queues file", ImportYarnCapacityMain},
};

// `mr token ...`: cli/cmd_data_server.cc
int TokenNewMain(const Args& args);

const Command kTokenCommands[] = {
    {"new", "write a new random cluster token to a file (mode 0600), to copy to every machine", TokenNewMain},
};

int DataServerMain(const Args& args);  // cli/cmd_data_server.cc

const Command kCommands[] = {
    {"run", "submit a job and wait for it (embedded local cluster without --master)", RunMain},
    {"submit", "submit a job to a running master and print its id", SubmitMain},
    {"status", "show jobs, phases, tasks and shuffle rates", StatusMain},
    {"kill", "kill a running job: its tasks stop, its output directory goes", KillMain},
    {"master", "run the master daemon", MasterMain},
    {"worker", "run a worker daemon", WorkerMain},
    {"cluster", "start or stop a local cluster in the background", ClusterMain},
    {"hadoop", "Hadoop's command line: jar (Hadoop Streaming jobs), version, fs", HadoopMain},
    {"cat", "print a job's output: its part files in order", CatMain},
    {"data-server", "serve this host's input files to a cluster on other hosts (no shared file system)",
     DataServerMain},
    {.name = "token", .summary = "the cluster token: make one to copy to every machine", .subcommands = kTokenCommands},
    {"logs", "print a job's task logs (stderr and the worker's lines) from the workers that ran them", LogsMain},
    {.name = "model", .summary = "predictions and simulations of the scheduling models", .subcommands = kModelCommands},
    {.name = "trace", .summary = "render a job trace as a Gantt chart (SVG or PNG)", .subcommands = kTraceCommands},
    {.name = "experiment",
     .summary = "run an experiment file live and predicted, compare, report",
     .subcommands = kExperimentCommands},
    {.name = "batch", .summary = "plan a batch of jobs for the least makespan (Johnson, BalancedPools)",
     .subcommands = kBatchCommands},
    {.name = "profile", .summary = "the ARIA job profiles a master stored, and their stage estimates",
     .subcommands = kProfileCommands},
    {.name = "export", .summary = "mrlab's pools and queues as YARN scheduler configurations",
     .subcommands = kExportCommands},
    {.name = "import", .summary = "YARN scheduler configurations as mrlab's pools and queues files",
     .subcommands = kImportCommands},
    {"loadgen", "measure a running master against thousands of simulated workers", LoadgenMain},
    {"version", "print the software and protocol versions", VersionMain},
};

std::span<const Command> Commands() { return kCommands; }

}  // namespace mr::cli
