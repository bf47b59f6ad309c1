// `mr run`'s progress display (docs/web.md, "In the terminal"): one line rewritten in place
// on a terminal, fitted to its width; plain lines with the same fields when stderr is a pipe
// or a file. The numbers are the master's per-phase progress by bytes (JobStatus
// map/shuffle/reduce_progress); rate and time left come from a ProgressEstimator.
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>

#include "cli/progress_estimator.h"
#include "mr.pb.h"

namespace mr::cli {

// What one drawing shows besides the status: the estimator's rate and time left (nullopt:
// not estimable yet) and the seconds since `mr run` began waiting.
struct ProgressExtras {
  std::optional<ProgressEstimator::Rate> rate;
  std::optional<double> seconds_left;
  double elapsed = 0;
};

// "0:07", "12:31", "1:02:03": minutes and seconds, hours once there are any.
std::string FormatDuration(double seconds);

// The terminal line, shorter than `columns` (the last column stays free: a full line wraps
// on some terminals). Each field holds a fixed number of columns (its widest content in a
// run: "SUCCEEDED", "fetch 1023.9/1023.9 MiB at 1023.9 MiB/s", "ETA 59:59"), padded, empty
// while it has nothing to say, so at a given width the fields keep their places for the
// whole run and the layout never follows the content. When everything does not fit, fields go in a fixed order — job id,
// bar, the moving phase's bytes, the phases shrink to "m100% s62% r10%", the moving
// phase's rate, elapsed time, the time left, the phases shrink to the overall percent, then
// go (kLadder in the .cc) — and none is ever cut; the state is kept last ("" if even it
// does not fit). No control characters.
std::string ProgressBar(const proto::JobStatus& st, const ProgressExtras& x, int columns);

// The piped form: every field but the bar, at full length.
std::string ProgressLine(const proto::JobStatus& st, const ProgressExtras& x);

// "http://HOST:PORT/jobs/job-000001": job id's page on the status page the master reported
// at page_address (SubmitReply), "" when it reported none or something unreadable. A
// wildcard host (0.0.0.0, ::) becomes the host the client reached the master on.
std::string JobPageUrl(const std::string& page_address, const std::string& master_host,
                       uint64_t id);

// The terminal's width from TIOCGWINSZ on fd, read anew at each call so a resize is
// followed; 80 when it does not say.
int TerminalColumns(int fd);

// Shows one job's progress on `out` as `mr run` polls it. On a terminal (tty) each Show
// rewrites the line in place (carriage return, erase line) at the terminal's current width,
// and the job's end adds a newline. Otherwise it prints a plain line when the state changes,
// a phase reaches 100%, 5 s after the last line, and at the end. Not thread-safe.
class ProgressDisplay {
 public:
  // start: the time (as passed to Show) from which elapsed time counts.
  ProgressDisplay(std::FILE* out, bool tty, double start);
  // Ends a line left open on the terminal (the wait was interrupted), so what is printed
  // next starts on a line of its own.
  ~ProgressDisplay();
  ProgressDisplay(const ProgressDisplay&) = delete;
  ProgressDisplay& operator=(const ProgressDisplay&) = delete;
  // st polled at time `now` (seconds, the same clock as start). A job that ended FAILED or
  // KILLED is shown with the progress it had reached (each phase's highest polled value):
  // the master's numbers drop the running attempts a failure ends, and the last line should
  // say how far the job got, not 0%.
  void Show(const proto::JobStatus& st, double now);

 private:
  bool WantsPlainLine(const proto::JobStatus& st, double now) const;

  std::FILE* out_;
  bool tty_;
  double start_;
  ProgressEstimator estimator_;
  double last_line_ = 0;
  bool printed_ = false;
  bool line_open_ = false;  // tty: a line drawn and not yet ended
  std::string last_state_;
  int phases_full_ = 0;  // phases at 100% when the last plain line was printed
  double reached_[3] = {0, 0, 0};  // the highest map, shuffle, reduce progress polled
};

}  // namespace mr::cli
