// A SWIM trace (examples/workloads/swim/README.md: name, submit time, gap, input, shuffle
// and output bytes, tab-separated) mapped to synthetic jobs by the rules of
// docs/experiments.md, "Workloads": the jobs submitted in [start, start + duration) of the
// trace arrive at (submit - start) / time_scale; input bytes go through a logarithmic map
// onto [map_work_min, map_work_max] map slot-seconds and shuffle bytes onto
// [shuffle_min, shuffle_max] (a job without shuffle keeps none); values outside the trace
// range of a map are clipped to its bounds and counted. Output bytes are not used.
#include <charconv>
#include <cmath>
#include <cstdio>
#include <vector>

#include "experiment/workload_sources.h"
#include "common/text_lines.h"

namespace mr::experiment {

namespace {

// A logarithmic map of [in_lo, in_hi] onto [out_lo, out_hi]; values outside are clipped
// (*clip = -1 below, +1 above, 0 inside).
struct LogMap {
  double in_lo, in_hi, out_lo, out_hi;

  double operator()(double v, int* clip) const {
    *clip = v < in_lo ? -1 : (v > in_hi ? 1 : 0);
    if (*clip < 0) return out_lo;
    if (*clip > 0) return out_hi;
    double t = (std::log(v) - std::log(in_lo)) / (std::log(in_hi) - std::log(in_lo));
    return out_lo * std::pow(out_hi / out_lo, t);
  }
};

Result<LogMap> ReadMap(const sched::PolicyOptions& p, const char* in_lo, const char* in_hi,
                       const char* out_lo, const char* out_hi, bool out_bytes) {
  LogMap m;
  m.in_lo = static_cast<double>(p.Int(in_lo));
  m.in_hi = static_cast<double>(p.Int(in_hi));
  m.out_lo = out_bytes ? static_cast<double>(p.Int(out_lo)) : p.Double(out_lo);
  m.out_hi = out_bytes ? static_cast<double>(p.Int(out_hi)) : p.Double(out_hi);
  if (!(m.in_lo < m.in_hi))
    return Status::InvalidArgument(std::string(in_lo) + " must be below " + in_hi);
  if (!(m.out_lo <= m.out_hi))
    return Status::InvalidArgument(std::string(out_lo) + " is above " + out_hi);
  return m;
}

struct TraceJob {
  double submit = 0;
  double input = 0;
  double shuffle = 0;
};

Result<double> Field(std::string_view text, const std::string& where, int column,
                     const char* name) {
  double v = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || p != text.data() + text.size() || !(v >= 0) || !std::isfinite(v)) {
    return Status::InvalidArgument(where + "column " + std::to_string(column) + " (" + name +
                                   "): must be a number >= 0, got '" + std::string(text) + "'");
  }
  return v;
}

Result<TraceJob> ParseLine(std::string_view line, const std::string& where) {
  std::vector<std::string_view> f;
  size_t start = 0;
  while (start <= line.size()) {
    size_t tab = line.find('\t', start);
    if (tab == std::string_view::npos) tab = line.size();
    f.push_back(line.substr(start, tab - start));
    start = tab + 1;
  }
  if (f.size() != 6) {
    return Status::InvalidArgument(where + "expected 6 tab-separated columns, got " +
                                   std::to_string(f.size()));
  }
  TraceJob j;
  MR_ASSIGN_OR_RETURN(j.submit, Field(f[1], where, 2, "submit time"));
  MR_ASSIGN_OR_RETURN(j.input, Field(f[3], where, 4, "input bytes"));
  MR_ASSIGN_OR_RETURN(j.shuffle, Field(f[4], where, 5, "shuffle bytes"));
  return j;
}

struct ClipCounts {
  int input_low = 0, input_high = 0, input_zero = 0, shuffle_low = 0, shuffle_high = 0,
      no_shuffle = 0;
  int maps_at_max = 0;
};

std::string ClipNote(const ClipCounts& c, int jobs) {
  char note[400];
  std::snprintf(note, sizeof(note),
                "swim: %d jobs in the window; input clipped: %d below trace_input_min (%d of them "
                "0 bytes), %d "
                "above trace_input_max; shuffle clipped: %d below trace_shuffle_min, %d above "
                "trace_shuffle_max (%d jobs without shuffle keep none); %d jobs have max_maps maps",
                jobs, c.input_low, c.input_zero, c.input_high, c.shuffle_low, c.shuffle_high,
                c.no_shuffle, c.maps_at_max);
  return note;
}

}  // namespace

Result<JobList> MapSwimTrace(std::string_view text, const std::string& source,
                             const sched::PolicyOptions& params, const ClusterShape& cluster,
                             ImportSummary* summary) {
  const double start = params.Double("start"), duration = params.Double("duration");
  const double time_scale = params.Double("time_scale");
  MR_ASSIGN_OR_RETURN(LogMap work, ReadMap(params, "trace_input_min", "trace_input_max",
                                           "map_work_min", "map_work_max", /*out_bytes=*/false));
  MR_ASSIGN_OR_RETURN(LogMap bytes, ReadMap(params, "trace_shuffle_min", "trace_shuffle_max",
                                            "shuffle_min", "shuffle_max", /*out_bytes=*/true));
  const TaskRules rules = ReadTaskRules(params, cluster);
  JobList jobs;
  ClipCounts c;
  LineCursor lines(text);
  std::string_view line;
  while (lines.Next(&line)) {
    const int line_no = lines.number();
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) continue;
    MR_ASSIGN_OR_RETURN(TraceJob t, ParseLine(line, source + ":" + std::to_string(line_no) + ": "));
    if (t.submit < start || t.submit >= start + duration) continue;
    int input_clip = 0, shuffle_clip = 0;
    double w = work(t.input, &input_clip);
    double b = t.shuffle > 0 ? bytes(t.shuffle, &shuffle_clip) : 0;
    bool maps_clipped = false;
    jobs.push_back(JobFromTotals((t.submit - start) / time_scale, w, b, rules, &maps_clipped));
    c.input_low += input_clip < 0;
    c.input_zero += t.input == 0;
    c.input_high += input_clip > 0;
    c.shuffle_low += shuffle_clip < 0;
    c.shuffle_high += shuffle_clip > 0;
    c.no_shuffle += t.shuffle == 0;
    c.maps_at_max += maps_clipped;
    summary->clipped += input_clip != 0 || shuffle_clip != 0;
    summary->clipped_low += input_clip < 0 || shuffle_clip < 0;
    summary->clipped_high += input_clip > 0 || shuffle_clip > 0;
  }
  summary->notes = ClipNote(c, static_cast<int>(jobs.size()));
  return jobs;
}

}  // namespace mr::experiment
