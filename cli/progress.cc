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
// reserve[i]: the columns forms[i] holds on the terminal line whatever its content, so the
// fields keep their places for the whole run at a given width.
struct Cell {
  std::vector<std::string> forms;
  std::vector<size_t> reserve;
  size_t form = 0;
  bool shown() const { return form < forms.size(); }
  size_t width() const { return std::max(forms[form].size(), form < reserve.size() ? reserve[form] : 0); }
};
using Cells = std::array<Cell, kFieldCount>;

// How the line gives way as the width shrinks: each step shortens a field to its next form
// (dropping it when it has none) or drops it. The state is never in it.
struct Step {
  Field field;
  bool drop;
};
constexpr Step kLadder[] = {
    {kJob, true},     {kBar, true},     {kMoving, false}, {kPhases, false}, {kMoving, true},
    {kElapsed, true}, {kEta, true},     {kPhases, false}, {kPhases, true},
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

// The widest each form gets in a run (longer content still shows whole, pushing the rest):
// "SUCCEEDED"; "map 100% shuffle 100% reduce 100%", "m100% s100% r100%", "100%"; "fetch
// 1023.9/1023.9 MiB at 1023.9 MiB/s", "fetch 1023.9 MiB/s"; "ETA 59:59"; "59:59".
void Reserve(Cells& c) {
  c[kJob].reserve = {10};
  c[kState].reserve = {9};
  c[kBar].reserve = {kBarWidth + 2};
  c[kPhases].reserve = {33, 17, 4};
  c[kMoving].reserve = {39, 18};
  c[kEta].reserve = {9};
  c[kElapsed].reserve = {5};
  // A field with nothing to say now keeps its place (empty) on the terminal line.
  if (c[kMoving].forms.empty()) c[kMoving].forms = {"", ""};
  if (c[kMoving].forms.size() == 1) c[kMoving].forms.push_back(c[kMoving].forms[0]);
  if (c[kEta].forms.empty()) c[kEta].forms = {""};
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
    if (!c.shown() || c.forms[c.form].empty()) continue;
    if (!line.empty()) line += "  ";
    line += c.forms[c.form];
  }
  return line;
}

// The terminal line: every shown field padded to its reservation, two spaces between;
// trailing spaces dropped. *width: the columns it holds, padding of the last field included
// (what the layout is chosen by, so the choice does not follow the content).
std::string JoinPadded(const Cells& cells, size_t* width) {
  std::string line;
  bool first = true;
  for (const Cell& c : cells) {
    if (!c.shown()) continue;
    if (!first) line += "  ";
    first = false;
    line += c.forms[c.form] + std::string(c.width() - c.forms[c.form].size(), ' ');
  }
  *width = line.size();
  while (!line.empty() && line.back() == ' ') line.pop_back();
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
  Reserve(cells);
  size_t width = 0;
  std::string line = JoinPadded(cells, &width);
  for (const Step& step : kLadder) {
    if (width <= max) return line;
    Cell& c = cells[step.field];
    c.form = step.drop ? c.forms.size() : c.form + 1;
    line = JoinPadded(cells, &width);
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

void ProgressDisplay::Show(const proto::JobStatus& polled, double now) {
  reached_[0] = std::max(reached_[0], polled.map_progress());
  reached_[1] = std::max(reached_[1], polled.shuffle_progress());
  reached_[2] = std::max(reached_[2], polled.reduce_progress());
  proto::JobStatus st = polled;
  if (Ended(st) && st.state() != "SUCCEEDED") {
    st.set_map_progress(reached_[0]);
    st.set_shuffle_progress(reached_[1]);
    st.set_reduce_progress(reached_[2]);
  }
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
