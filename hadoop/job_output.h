// What `hadoop jar` leaves behind a Streaming job, done after mrlab's job succeeded
// (docs/streaming.md, "Records in, records out"): the part files named as the old API names them (part-00000,
// not mrlab's part-r-00000), an empty _SUCCESS marker, and the job's counters printed on
// stderr as Hadoop's job client logs them ("Counters: N", groups, NAME=VALUE), which is
// where mrjob and other wrappers read them. Not thread-safe with the job still writing.
#pragma once

#include <ctime>
#include <ostream>
#include <string>

#include "common/status.h"
#include "trace/event.h"

namespace mr::hadoop {

// Renames OUTPUT/part-r-NNNNN (a map-only job's part-m-NNNNN) to OUTPUT/part-NNNNN and
// writes OUTPUT/_SUCCESS.
Status FinishOutput(const std::string& output);

// The counters of the job whose trace is OUTPUT/_trace.jsonl (its JobEnd event). NotFound
// if the trace has no end.
Result<trace::Counters> JobCounters(const std::string& output);

// Writes `counters` as one log4j record of Hadoop's job client, stamped `now`: mrlab's
// counters under Hadoop's group and counter names where Hadoop has one (Map input records,
// ...), a user counter "user.GROUP,NAME" under GROUP, the rest under "mrlab".
void PrintCounters(const trace::Counters& counters, std::time_t now, std::ostream& err);

// One log4j line as Hadoop's client prints it: "YY/MM/DD HH:MM:SS INFO LOGGER: MESSAGE".
std::string Log4jLine(std::time_t now, const std::string& logger, const std::string& message);

}  // namespace mr::hadoop
