// A job's ARIA profile (aria_profile.h) measured from its trace (docs/trace-format.md).
//
// mrlab's reducers fetch without a slot: the master places every reducer at slow-start and it
// fetches each map's partition as the map ends, so all reducers shuffle while the maps run,
// and a reduce takes its slot only once its data is local (docs/architecture.md, "Decoupled
// shuffle"). So, from the events (docs/makespan.md, "Measuring a profile"):
//   - a task's duration is that of its last successful attempt, attempt_end t − start (the
//     worker's clock, as the replay measures it); map and reduce stats are over those;
//   - the map stage ends at the last successful map's end (M_end), and starts at the first
//     map attempt's start;
//   - a reducer's data is local at its last successful fetch_end (ready_r; M_end when it
//     fetched nothing);
//   - the first wave is the reduces whose successful attempt started no later than the job's
//     first reduce ended (they did not wait for one of the job's own reduces to free a slot);
//   - first shuffle (Sh1), over the first wave: max(0, ready_r − M_end), the part of its
//     shuffle that did not overlap the map stage;
//   - typical shuffle (Sh_typ), over the later waves: max(0, ready_r − start_r), the shuffle
//     done while holding the slot. On mrlab that is 0 but for a reduce that fetched again in
//     its slot (a reduce backup, a re-placed reducer): its data was fetched while the maps
//     ran. No later wave: 0;
//   - bytes: the successful maps' bytes_in (input) and bytes_out (shuffle), the successful
//     reduces' bytes_out (output);
//   - measured stages: map M_end − the first map's start, reduce the last reduce's end − M_end.
// Pure functions except ExtractProfileFromFile (reads a file); thread-safe.
#pragma once

#include <string>
#include <vector>

#include "common/status.h"
#include "model/makespan/aria_profile.h"
#include "trace/event.h"

namespace mr::model {

// The profile of the one job `events` trace. InvalidArgument (naming the job) when the job
// did not end ok, when a task has no successful attempt, or when an attempt_end lacks its
// start; the name is job_submit's `name` (its `kind`, else the job id, when absent).
Result<JobProfile> ExtractProfile(const std::vector<trace::Event>& events);

// ReadTraceFile then ExtractProfile; errors prefixed by the path.
Result<JobProfile> ExtractProfileFromFile(const std::string& path);

}  // namespace mr::model
