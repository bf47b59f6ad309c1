// The job CSV (docs/experiments.md, "Workloads"): '#' comment lines and blank lines are
// skipped; the first other line is the header, exactly
//   arrival,maps,map_seconds,shuffle_bytes,reducers,reduce_seconds
// optionally followed by per-job parameter columns, each named by its key in the parameters'
// table (scheduler/job_params.h: weight, metric, deadline, sla, min_slots, max_slots, pool,
// ...), then one job a line. shuffle_bytes is the job's total, split evenly over its maps;
// map_seconds is per map task (slot-seconds on a worker of speed 1). Hints are the totals.
// A parameter cell is written as on the command line ("90s", "tardiness"); empty = default.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <vector>

#include "common/text_lines.h"
#include "common/units.h"
#include "experiment/workload_sources.h"
#include "scheduler/job_params.h"

namespace mr::experiment {

namespace {

constexpr const char* kColumns[] = {"arrival",       "maps",     "map_seconds",
                                    "shuffle_bytes", "reducers", "reduce_seconds"};
constexpr size_t kColumnCount = std::size(kColumns);

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> Split(std::string_view line) {
  std::vector<std::string_view> out;
  size_t start = 0;
  for (;;) {
    size_t comma = line.find(',', start);
    out.push_back(Trim(line.substr(
        start, comma == std::string_view::npos ? std::string_view::npos : comma - start)));
    if (comma == std::string_view::npos) return out;
    start = comma + 1;
  }
}

Result<int64_t> Integer(std::string_view text, int64_t min) {
  int64_t v = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || p != text.data() + text.size() || v < min) {
    return Status::InvalidArgument("must be an integer >= " + std::to_string(min));
  }
  return v;
}

// One field: parsed, or an error naming line and column.
class Row {
 public:
  Row(const std::string& source, int line, std::vector<std::string_view> fields)
      : source_(source), line_(line), fields_(std::move(fields)) {}

  Status Error(size_t column, std::string_view what) const {
    return Status::InvalidArgument(source_ + ":" + std::to_string(line_) + ": column " +
                                   std::to_string(column + 1) + " (" + kColumns[column] +
                                   "): " + std::string(what) + ", got '" +
                                   std::string(fields_[column]) + "'");
  }
  Result<double> Seconds(size_t column) const {
    Result<double> v = ParseDuration(fields_[column]);
    if (!v.ok()) return Error(column, v.status().message());
    return *v;
  }
  Result<int64_t> Count(size_t column) const {
    Result<int64_t> v = Integer(fields_[column], 1);
    if (!v.ok()) return Error(column, v.status().message());
    return *v;
  }
  Result<double> Bytes(size_t column) const {
    Result<uint64_t> v = ParseBytes(fields_[column]);
    if (!v.ok()) return Error(column, v.status().message());
    return static_cast<double>(*v);
  }

 private:
  const std::string& source_;
  int line_;
  std::vector<std::string_view> fields_;
};

// The header's parameter columns (after the fixed ones), by row of the parameters' table.
using ParamColumns = std::vector<const sched::JobParamRow*>;

Result<model::TaskJob> ParseRow(const Row& row, const ParamColumns& extra, const std::vector<std::string_view>& cells,
                                const std::string& where) {
  model::TaskJob job;
  MR_ASSIGN_OR_RETURN(job.arrival, row.Seconds(0));
  MR_ASSIGN_OR_RETURN(int64_t maps, row.Count(1));
  if (maps > 100000) return row.Error(1, "must be at most 100000");
  job.maps = static_cast<int>(maps);
  MR_ASSIGN_OR_RETURN(job.map_seconds, row.Seconds(2));
  MR_ASSIGN_OR_RETURN(double shuffle, row.Bytes(3));
  job.map_bytes = shuffle / job.maps;
  MR_ASSIGN_OR_RETURN(int64_t reducers, row.Count(4));
  if (reducers > 10000) return row.Error(4, "must be at most 10000");
  job.reducers = static_cast<int>(reducers);
  MR_ASSIGN_OR_RETURN(job.reduce_seconds, row.Seconds(5));
  job.params.hint_map_seconds = job.maps * job.map_seconds;
  job.params.hint_reduce_seconds = job.reducers * job.reduce_seconds;
  job.params.hint_shuffle_bytes = shuffle;
  for (size_t c = 0; c < extra.size(); ++c) {
    const std::string_view cell = cells[kColumnCount + c];
    if (cell.empty()) continue;
    Status st = sched::SetJobParam(*extra[c], cell, &job.params, sched::ParamNames::kKey);
    if (!st.ok()) return Status::InvalidArgument(where + st.message());
  }
  if (Status st = job.params.Validate(sched::ParamNames::kKey); !st.ok()) {
    return Status::InvalidArgument(where + st.message());
  }
  return job;
}

}  // namespace

Result<JobList> ParseJobCsv(std::string_view text, const std::string& source) {
  JobList jobs;
  bool header = false;
  ParamColumns extra;
  LineCursor lines(text);
  std::string_view line;
  while (lines.Next(&line)) {
    const int line_no = lines.number();
    std::string_view trimmed = Trim(line);
    if (trimmed.empty() || trimmed.front() == '#') continue;
    std::vector<std::string_view> fields = Split(trimmed);
    std::string where = source + ":" + std::to_string(line_no) + ": ";
    if (!header) {
      bool ok = fields.size() >= kColumnCount;
      for (size_t i = 0; ok && i < kColumnCount; ++i) ok = fields[i] == kColumns[i];
      if (!ok) {
        return Status::InvalidArgument(
            where +
            "the header must be arrival,maps,map_seconds,shuffle_bytes,reducers,"
            "reduce_seconds (then optional per-job parameter keys)");
      }
      for (size_t i = kColumnCount; i < fields.size(); ++i) {
        const sched::JobParamRow* row = sched::FindJobParam(fields[i]);
        if (row == nullptr) {
          return Status::InvalidArgument(where + "column " + std::to_string(i + 1) + " '" + std::string(fields[i]) +
                                         "' is not a per-job parameter's key (docs/jobs.md)");
        }
        if (std::find(extra.begin(), extra.end(), row) != extra.end()) {
          return Status::InvalidArgument(where + "column '" + std::string(fields[i]) + "' twice");
        }
        extra.push_back(row);
      }
      header = true;
      continue;
    }
    if (fields.size() != kColumnCount + extra.size()) {
      return Status::InvalidArgument(where + "expected " + std::to_string(kColumnCount + extra.size()) +
                                     " columns, got " + std::to_string(fields.size()));
    }
    std::vector<std::string_view> cells = fields;
    MR_ASSIGN_OR_RETURN(model::TaskJob job, ParseRow(Row(source, line_no, std::move(fields)), extra, cells, where));
    jobs.push_back(std::move(job));
  }
  if (!header) return Status::InvalidArgument(source + ": no header line (arrival,maps,...)");
  return jobs;
}

}  // namespace mr::experiment
