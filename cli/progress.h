// `mr run`'s progress display: one bar line rewritten in place on a terminal, plain
// lines (on phase changes and every few seconds) when stderr is a pipe or a file.
#pragma once

#include <string>

#include "mr.pb.h"

namespace mr::cli {

// The job's progress in [0, 1]: maps, shuffle and reduces weigh a third each, maps and
// reduces counted with their running attempts' reported progress (JobStatus::maps_progress). The
// shuffle's part is fetched / map output so far, scaled by the maps done (the output of
// maps still to run is not known yet).
double ProgressFraction(const proto::JobStatus& st);

// "job-000001  map     maps 3/16  shuffle 1.2 MiB  reduces 0/4  0.8s": the piped form.
std::string ProgressLine(const proto::JobStatus& st, double elapsed);

// "[#########...........]  38%  maps 12/16  shuffle 3.2 MiB/4.0 MiB  reduces 1/4  2.3s",
// cut to `columns` (a terminal's width) so it never wraps; no control characters.
std::string ProgressBar(const proto::JobStatus& st, double elapsed, int columns);

}  // namespace mr::cli
