// What the user asks of one job that a scheduling policy or the simulator reads, defined once:
// the JobParams struct and, right below it, its field table (one row per field: key, flag,
// type, default, help, range, member). Everything that names, parses, converts or checks a
// per-job parameter reads the table: `mr run`/`mr submit`'s flags and their help (cli/
// job_options.cc), the per-job keys of a simulator workload (model/tasksim/task_workload.cc),
// the JobSpec fields they travel in (jobs/job_spec_params.h, by protobuf reflection), the
// master's text checks and Validate() below. The live master and the simulator both fill
// JobView::params with one call. Adding a per-job parameter is its field and its row here,
// its JobSpec field and its use (docs/jobs.md, "Adding a per-job parameter").
// Plain values: no proto, no flags library. Thread-safe (the table is constant).
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "common/status.h"

namespace mr::sched {

// How Validate() and the parsers name a parameter in a message: by its flag ("--weight", for
// the command line), by its key ("'weight'", for files that use the keys) or by its name
// ("reduce-seconds hint", the master's words for what a peer sent).
enum class ParamNames { kFlag, kKey, kName };

struct JobParams {
  std::string pool;             // fair-scheduler pool ("" = the default pool)
  double weight = 1.0;          // fair-scheduler weight, > 0
  // Size hints (docs/policies.md, "Size units"), 0 = none: the master's estimate uses them
  // until the job's own measurements take over (scheduler/util/job_sizes.h).
  double hint_map_seconds = 0;     // map slot-seconds, all maps
  double hint_shuffle_bytes = 0;   // shuffle bytes, all maps
  double hint_reduce_seconds = 0;  // reduce slot-seconds, all reduces
  bool speculative = true;      // backups of slow tasks allowed (scheduler/stages/speculator.h)
  std::string queue;            // capacity-scheduler queue ("" = the queue named "default")
  // What the flex policy optimises for this job and within which bounds (docs/policies.md,
  // "flex"; docs/flex.md). Times are seconds after the job's submission, on every driver.
  std::string metric;     // a name of flex::MetricTable(); "" = the policy's --flex-metric
  double deadline = 0;    // d_j - r_j in seconds; 0 = none
  std::string sla;        // "d1:p1,d2:p2,...": pseudo-deadlines (s after submission), penalties
  int min_slots = 0;      // per phase: at least this many slots (0 = only the pool's minimum)
  int max_slots = 0;      // per phase: at most this many (0 = the phase's remaining tasks)

  // Ok, or InvalidArgument naming the first field (in table order) outside its row's range,
  // e.g. "--weight must be positive"; then the checks across fields (CheckFlexParams).
  Status Validate(ParamNames names = ParamNames::kFlag) const;
  bool operator==(const JobParams&) const = default;
};

enum class JobParamType {
  kText,      // a string of at most `hi` bytes
  kNumber,    // a finite number in [lo, hi] ((lo, hi] when lo_open)
  kBytes,     // a kNumber written as a byte size on the command line ("64MiB")
  kSwitch,    // on|off
  kDuration,  // a kNumber of seconds written as a duration ("90", "90s", "+90s", "2h")
  kCount,     // a whole number in [lo, hi]
};

// One per-job parameter. Exactly the member of its type is set (text for kText, number for
// kNumber, kBytes and kDuration, on for kSwitch, count for kCount);
// tests/scheduler/job_params_test.cc checks the rows. Its JobSpec field (proto_field, else
// key) has the matching type: string, double, bool or uint32; a field left at its zero value
// ("", 0, false) reads as the default, so a switch travels as a bool named for its non-default
// state (speculation_off), and a number whose 0 is not its default cannot mean 0.
struct JobParamRow {
  const char* name;          // in words, as the master's messages name it
  const char* key;           // in workload files; also the JobSpec field unless proto_field
  const char* flag;          // `mr run --FLAG`
  JobParamType type;
  const char* default_text;  // as --help shows it; parsed, it is the struct's default
  const char* help;          // the flag's help
  double lo = 0;
  double hi = 0;
  bool lo_open = false;
  std::string JobParams::*text = nullptr;
  double JobParams::*number = nullptr;
  bool JobParams::*on = nullptr;
  int JobParams::*count = nullptr;
  const char* proto_field = nullptr;
  // A kText whose non-empty values are names from a list: the list, for the flag's help
  // ("one of: ..."); Validate checks the value.
  std::string (*choices)() = nullptr;
};

// "response-time, weighted-response-time, ...": flex's metric menu (flex::MetricNameList()).
std::string FlexMetricNames();

// The rows, in the order `mr run --help` lists the flags.
inline constexpr JobParamRow kJobParamRows[] = {
    {.name = "pool", .key = "pool", .flag = "pool",
     .type = JobParamType::kText, .default_text = "",
     .help = "fair scheduler pool",
     .hi = 256, .text = &JobParams::pool},
    {.name = "weight", .key = "weight", .flag = "weight",
     .type = JobParamType::kNumber, .default_text = "1",
     .help = "fair scheduler weight",
     .lo = 0, .hi = 1e6, .lo_open = true, .number = &JobParams::weight},
    {.name = "map-seconds hint", .key = "hint_map_seconds", .flag = "hint-map-seconds",
     .type = JobParamType::kNumber, .default_text = "0",
     .help = "size hint: total map slot-seconds",
     .hi = 1e12, .number = &JobParams::hint_map_seconds},
    {.name = "shuffle-bytes hint", .key = "hint_shuffle_bytes", .flag = "hint-shuffle-bytes",
     .type = JobParamType::kBytes, .default_text = "0",
     .help = "size hint: total shuffle bytes",
     .hi = 1e18, .number = &JobParams::hint_shuffle_bytes},
    {.name = "reduce-seconds hint", .key = "hint_reduce_seconds", .flag = "hint-reduce-seconds",
     .type = JobParamType::kNumber, .default_text = "0",
     .help = "size hint: total reduce slot-seconds (for policies that share unified slots, e.g. asrpt)",
     .hi = 1e12, .number = &JobParams::hint_reduce_seconds},
    {.name = "speculation", .key = "speculative", .flag = "speculative",
     .type = JobParamType::kSwitch, .default_text = "on",
     .help = "on: a slow running map or reduce may get a backup attempt on another worker (LATE, "
             "docs/speculation.md); off: never",
     .on = &JobParams::speculative, .proto_field = "speculation_off"},
    {.name = "queue", .key = "queue", .flag = "queue",
     .type = JobParamType::kText, .default_text = "",
     .help = "capacity scheduler queue (--policy capacity; \"\" = the queue named default)",
     .hi = 256, .text = &JobParams::queue},
    // FLEX's terms (docs/flex.md): the metric, its deadline or SLA, and slots per phase.
    {.name = "metric", .key = "metric", .flag = "metric",
     .type = JobParamType::kText, .default_text = "",
     .help = "flex: the metric this job is scheduled for; \"\" = the cluster's --flex-metric",
     .hi = 64, .text = &JobParams::metric, .choices = FlexMetricNames},
    {.name = "deadline", .key = "deadline", .flag = "deadline",
     .type = JobParamType::kDuration, .default_text = "0",
     .help = "flex: the job's deadline, seconds after submission (90, 90s, +90s, 2h; mr run/submit "
             "also take an absolute time: 2026-05-01T12:00:00Z or @EPOCH_SECONDS); 0 = none",
     .hi = 1e9, .number = &JobParams::deadline, .proto_field = "deadline_seconds"},
    {.name = "SLA", .key = "sla", .flag = "sla",
     .type = JobParamType::kText, .default_text = "",
     .help = "flex: SLA steps d1:p1,d2:p2,... (pseudo-deadlines in seconds after submission, "
             "penalties; both increasing) for --metric sla",
     .hi = 4096, .text = &JobParams::sla},
    {.name = "minimum slots", .key = "min_slots", .flag = "min-slots",
     .type = JobParamType::kCount, .default_text = "0",
     .help = "flex: at least this many slots in each phase (above the pool's minimum); 0 = none",
     .hi = 1e6, .count = &JobParams::min_slots},
    {.name = "maximum slots", .key = "max_slots", .flag = "max-slots",
     .type = JobParamType::kCount, .default_text = "0",
     .help = "flex: at most this many slots in each phase; 0 = the phase's remaining tasks",
     .hi = 1e6, .count = &JobParams::max_slots},
};

inline std::span<const JobParamRow> JobParamTable() { return kJobParamRows; }

// "--weight", "'weight'" or "weight", as `names` says.
std::string JobParamName(const JobParamRow& row, ParamNames names);

// Sets row's field of *params from text as the command line writes it: a kText as given, a
// kNumber a decimal number, a kBytes a byte size (common/units.h), a kSwitch on or off, a
// kDuration a duration with an optional leading '+' (ParseDuration), a kCount a whole
// number; then checks the row's range. InvalidArgument naming the parameter ("--speculative must be on or
// off, not 'maybe'"); a malformed byte size keeps ParseBytes's message.
Status SetJobParam(const JobParamRow& row, std::string_view text, JobParams* params,
                   ParamNames names = ParamNames::kFlag);
// Ok, or InvalidArgument naming the parameter if row's field of params is out of its range.
Status CheckJobParam(const JobParamRow& row, const JobParams& params, ParamNames names = ParamNames::kFlag);
// The checks across FLEX's fields, in this order: the metric is on the menu ("--metric: unknown
// metric 'x' (one of: ...)"), the SLA parses with pseudo-deadlines after submission, the
// metric has what it needs ("--metric tardiness needs --deadline", "--metric sla needs
// --sla"), and "--min-slots 5 is above --max-slots 3". A job without --metric is checked
// against the policy's metric by the policy (it has no deadline: never late).
Status CheckFlexParams(const JobParams& params, ParamNames names = ParamNames::kFlag);
// The row whose key is `key`, or nullptr.
const JobParamRow* FindJobParam(std::string_view key);

}  // namespace mr::sched
