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

  // Ok, or InvalidArgument naming the first field (in table order) outside its row's range,
  // e.g. "--weight must be positive".
  Status Validate(ParamNames names = ParamNames::kFlag) const;
  bool operator==(const JobParams&) const = default;
};

enum class JobParamType {
  kText,    // a string of at most `hi` bytes
  kNumber,  // a finite number in [lo, hi] ((lo, hi] when lo_open)
  kBytes,   // a kNumber written as a byte size on the command line ("64MiB")
  kSwitch,  // on|off
};

// One per-job parameter. Exactly the member of its type is set (text for kText, number for
// kNumber and kBytes, on for kSwitch); tests/scheduler/job_params_test.cc checks the rows.
// Its JobSpec field (proto_field, else key) has the matching type: string, double or bool; a
// field left at its zero value ("", 0, false) reads as the default, so a switch travels as
// a bool named for its non-default state (speculation_off).
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
  const char* proto_field = nullptr;
};

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
};

inline std::span<const JobParamRow> JobParamTable() { return kJobParamRows; }

// "--weight", "'weight'" or "weight", as `names` says.
std::string JobParamName(const JobParamRow& row, ParamNames names);

// Sets row's field of *params from text as the command line writes it: a kText as given, a
// kNumber a decimal number, a kBytes a byte size (common/units.h), a kSwitch on or off; then
// checks the row's range. InvalidArgument naming the parameter ("--speculative must be on or
// off, not 'maybe'"); a malformed byte size keeps ParseBytes's message.
Status SetJobParam(const JobParamRow& row, std::string_view text, JobParams* params,
                   ParamNames names = ParamNames::kFlag);
// Ok, or InvalidArgument naming the parameter if row's field of params is out of its range.
Status CheckJobParam(const JobParamRow& row, const JobParams& params, ParamNames names = ParamNames::kFlag);

}  // namespace mr::sched
