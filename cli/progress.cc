#include "cli/progress.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "common/job_id.h"
#include "common/units.h"

namespace mr::cli {

namespace {
double Ratio(double done, double total) { return total > 0 ? std::clamp(done / total, 0.0, 1.0) : 0.0; }
}  // namespace

double ProgressFraction(const proto::JobStatus& st) {
  if (st.state() == "SUCCEEDED") return 1.0;
  // Running tasks count by their reported progress (maps_progress >= maps_done when set).
  double maps = Ratio(std::max<double>(st.maps_done(), st.maps_progress()), st.maps_total());
  double fetched = static_cast<double>(st.shuffle_bytes_fetched());
  double total = static_cast<double>(st.shuffle_bytes_total());
  double shuffle = total > 0 ? Ratio(fetched, total) * maps : (maps >= 1.0 ? 1.0 : 0.0);
  double reduces = Ratio(std::max<double>(st.reduces_done(), st.reduces_progress()), st.reduces_total());
  return (maps + shuffle + reduces) / 3;
}

std::string ProgressLine(const proto::JobStatus& st, double elapsed) {
  // phase is "" once the job ended (docs/web.md, "State and phase"); this line keeps its
  // old word until the progress line moves onto state + phase progress (branch prog10).
  const std::string phase = st.phase().empty() ? "done" : st.phase();
  char buf[256];
  std::snprintf(buf, sizeof buf, "%s  %-7s maps %u/%u  shuffle %s  reduces %u/%u  %.1fs", JobIdString(st.job_id()).c_str(),
                phase.c_str(), st.maps_done(), st.maps_total(),
                FormatBytes(static_cast<double>(st.shuffle_bytes_fetched())).c_str(), st.reduces_done(),
                st.reduces_total(), elapsed);
  return buf;
}

std::string ProgressBar(const proto::JobStatus& st, double elapsed, int columns) {
  constexpr int kBarWidth = 24;
  double f = ProgressFraction(st);
  int filled = static_cast<int>(std::floor(f * kBarWidth));
  std::string bar = "[" + std::string(filled, '#') + std::string(kBarWidth - filled, '.') + "]";
  char buf[256];
  std::snprintf(buf, sizeof buf, "%s %3d%%  maps %u/%u  shuffle %s/%s  reduces %u/%u  %.1fs", bar.c_str(),
                static_cast<int>(std::floor(f * 100)), st.maps_done(), st.maps_total(),
                FormatBytes(static_cast<double>(st.shuffle_bytes_fetched())).c_str(),
                FormatBytes(static_cast<double>(st.shuffle_bytes_total())).c_str(), st.reduces_done(),
                st.reduces_total(), elapsed);
  std::string line = buf;
  // Leave the last column free: a line that fills it wraps on some terminals.
  if (columns > 1 && static_cast<int>(line.size()) >= columns) line.resize(static_cast<size_t>(columns - 1));
  return line;
}

}  // namespace mr::cli
