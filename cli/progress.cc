#include "cli/progress.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <vector>

#include "common/job_id.h"
#include "common/units.h"

namespace mr::cli {

namespace {

bool Ended(const proto::JobStatus& st) {
  return st.state() == "SUCCEEDED" || st.state() == "FAILED" || st.state() == "KILLED";
}

// A plain line at least this often while nothing else calls for one.
constexpr double kPlainLineSeconds = 5;

int PhasesFull(const proto::JobStatus& st) {
  return (st.map_progress() >= 1) + (st.shuffle_progress() >= 1) + (st.reduce_progress() >= 1);
}

// The line's fields in display order.
enum Field { kJob, kState, kBar, kPhases, kMoving, kEta, kElapsed, kFieldCount };

// One field's renderings, longest first; the one shown is forms[form]; none left = dropped.
struct Cell {
  std::vector<std::string> forms;
  size_t form = 0;
  bool shown() const { return form < forms.size(); }
};
using Cells = std::array<Cell, kFieldCount>;

// How the line gives way as the width shrinks: each step shortens a field to its next form
// (dropping it when it has none) or drops it. The state is never in it.
struct Step {
  Field field;
  bool drop;
};
constexpr Step kLadder[] = {
    {kJob, true},     {kBar, true}, {kMoving, false}, {kMoving, true}, {kElapsed, true},
    {kPhases, false}, {kEta, true}, {kPhases, false}, {kPhases, true},
};

constexpr int kBarWidth = 20;

std::string Bar(double fraction) {
  int filled = static_cast<int>(std::floor(std::clamp(fraction, 0.0, 1.0) * kBarWidth));
  return "[" + std::string(filled, '#') + std::string(kBarWidth - filled, '.') + "]";
}

std::vector<std::string> PhaseForms(const proto::JobStatus& st) {
  int m = PercentFloor(st.map_progress()), s = PercentFloor(st.shuffle_progress()),
      r = PercentFloor(st.reduce_progress());
  char full[64], compact[32], overall[8];
  std::snprintf(full, sizeof full, "map %3d%% shuffle %3d%% reduce %3d%%", m, s, r);
  std::snprintf(compact, sizeof compact, "m%d%% s%d%% r%d%%", m, s, r);
  std::snprintf(overall, sizeof overall, "%d%%", PercentFloor(OverallProgress(st)));
  return {full, compact, overall};
}

// "read 21.7/35.0 MiB at 41.2 MiB/s", then "read 41.2 MiB/s"; without a rate only the bytes.
std::vector<std::string> MovingForms(const proto::JobStatus& st, const ProgressExtras& x) {
  double done = 0, total = 0;
  std::optional<RatePhase> phase = MovingPhase(st, &done, &total);
  if (Ended(st) || !phase) return {};
  const std::string verb = RateVerb(*phase);
  const std::string bytes = verb + " " + FormatBytesOf(done, total);
  if (!x.rate || x.rate->phase != *phase) return {bytes};
  const std::string rate = FormatBytes(x.rate->bytes_per_second) + "/s";
  return {bytes + " at " + rate, verb + " " + rate};
}

Cells MakeCells(const proto::JobStatus& st, const ProgressExtras& x) {
  Cells c;
  c[kJob].forms = {JobIdString(st.job_id())};
  c[kState].forms = {st.state()};
  c[kBar].forms = {Bar(OverallProgress(st))};
  c[kPhases].forms = PhaseForms(st);
  c[kMoving].forms = MovingForms(st, x);
  if (!Ended(st))
    c[kEta].forms = {"ETA " +
                     (x.seconds_left ? FormatDuration(*x.seconds_left) : std::string("--"))};
  c[kElapsed].forms = {FormatDuration(x.elapsed)};
  return c;
}

std::string Join(const Cells& cells) {
  std::string line;
  for (const Cell& c : cells) {
    if (!c.shown()) continue;
    if (!line.empty()) line += "  ";
    line += c.forms[c.form];
  }
  return line;
}

}  // namespace

std::string FormatDuration(double seconds) {
  // A time left beyond this is no estimate worth reading.
  if (!(seconds >= 0) || seconds >= 100 * 3600) return "--";
  long s = std::lround(seconds);
  char buf[32];
  if (s >= 3600) {
    std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
  } else {
    std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
  }
  return buf;
}

std::string ProgressBar(const proto::JobStatus& st, const ProgressExtras& x, int columns) {
  const size_t max = columns > 1 ? static_cast<size_t>(columns - 1) : 0;
  Cells cells = MakeCells(st, x);
  std::string line = Join(cells);
  for (const Step& step : kLadder) {
    if (line.size() <= max) return line;
    Cell& c = cells[step.field];
    c.form = step.drop ? c.forms.size() : c.form + 1;
    line = Join(cells);
  }
  return line.size() <= max ? line : std::string();
}

std::string ProgressLine(const proto::JobStatus& st, const ProgressExtras& x) {
  Cells cells = MakeCells(st, x);
  cells[kBar].forms.clear();
  return Join(cells);
}

std::string JobPageUrl(const std::string& page_address, const std::string& master_host,
                       uint64_t id) {
  if (page_address.empty()) return "";
  auto hp = ParseHostPort(page_address);
  if (!hp.ok() || hp->port == 0) return "";
  std::string host = hp->host;
  if (host.empty() || host == "0.0.0.0" || host == "::" || host == "[::]") host = master_host;
  if (host.find(':') != std::string::npos && host.front() != '[') host = "[" + host + "]";
  return "http://" + host + ":" + std::to_string(hp->port) + "/jobs/" + JobIdString(id);
}

int TerminalColumns(int fd) {
  struct winsize ws {};
  if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  return 80;
}

ProgressDisplay::ProgressDisplay(std::FILE* out, bool tty, double start)
    : out_(out), tty_(tty), start_(start) {}

ProgressDisplay::~ProgressDisplay() {
  if (line_open_) std::fprintf(out_, "\n");
}

void ProgressDisplay::Show(const proto::JobStatus& st, double now) {
  estimator_.Add(st, now);
  ProgressExtras x{estimator_.CurrentRate(), estimator_.SecondsLeft(), now - start_};
  if (tty_) {
    std::fprintf(out_, "\r\033[K%s", ProgressBar(st, x, TerminalColumns(fileno(out_))).c_str());
    line_open_ = !Ended(st);
    if (!line_open_) std::fprintf(out_, "\n");
  } else if (WantsPlainLine(st, now)) {
    std::fprintf(out_, "%s\n", ProgressLine(st, x).c_str());
    last_line_ = now;
    printed_ = true;
    last_state_ = st.state();
    phases_full_ = PhasesFull(st);
  }
  std::fflush(out_);
}

bool ProgressDisplay::WantsPlainLine(const proto::JobStatus& st, double now) const {
  return !printed_ || Ended(st) || st.state() != last_state_ || PhasesFull(st) > phases_full_ ||
         now - last_line_ >= kPlainLineSeconds;
}

}  // namespace mr::cli
