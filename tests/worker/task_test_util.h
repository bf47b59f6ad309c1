// Helpers for the task tests: run a whole job in-process (plan, split, map,
// cut each map's partition into a run file, reduce) and shell references.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/file_util.h"
#include "jobs/input_source.h"
#include "jobs/input_split.h"
#include "jobs/job.h"
#include "worker/task/map_task.h"
#include "worker/task/reduce_task.h"

namespace mr::worker::testing {

inline std::string Shell(const std::string& cmd) {
  std::string out;
  FILE* f = ::popen(cmd.c_str(), "r");
  if (f == nullptr) return out;
  char buf[65536];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  ::pclose(f);
  return out;
}

struct JobRun {
  std::vector<std::string> parts;  // contents of part-r-* in order
  TaskCounters map_totals;
};

inline Result<JobRun> RunJob(const std::string& name, jobs::Params params,
                             const std::vector<std::string>& inputs, uint32_t reducers,
                             uint64_t split_bytes, uint64_t sort_buffer, const std::string& dir,
                             uint32_t synthetic_maps = 0,
                             const jobs::InputSource& source = jobs::LocalInputs()) {
  MR_ASSIGN_OR_RETURN(auto planner, jobs::CreateJob(name, params));
  MR_ASSIGN_OR_RETURN(jobs::JobPlan plan, planner->Plan(source, inputs, reducers));
  for (auto& [k, v] : plan.extra_params) params[k] = v;
  MR_ASSIGN_OR_RETURN(auto job, jobs::CreateJob(name, params));
  std::vector<jobs::Split> splits;
  if (plan.uses_input) {
    MR_ASSIGN_OR_RETURN(splits, jobs::ComputeSplits(source, inputs, split_bytes));
  } else {
    splits.resize(synthetic_maps);
  }
  JobRun run;
  std::vector<std::vector<std::string>> runs(reducers);
  std::vector<std::vector<uint32_t>> crcs(reducers);  // from each map's index
  for (uint32_t m = 0; m < splits.size(); ++m) {
    MapTaskSpec spec;
    spec.job_id = 1;
    spec.map_index = m;
    spec.job = job.get();
    spec.split = splits[m];
    spec.input_source = &source;
    spec.num_reduces = reducers;
    spec.sort_buffer_bytes = sort_buffer;
    spec.work_dir = dir;
    MR_ASSIGN_OR_RETURN(MapTaskResult r, RunMapTask(spec, nullptr));
    run.map_totals.spills += r.counters.spills;
    run.map_totals.records_out += r.counters.records_out;
    run.map_totals.bytes_out += r.counters.bytes_out;
    run.map_totals.combine_in += r.counters.combine_in;
    run.map_totals.combine_out += r.counters.combine_out;
    MR_ASSIGN_OR_RETURN(std::string data,
                        ReadFileToString(shuffle::MapOutputDataPath(dir, 1, m, 0)));
    for (uint32_t p = 0; p < reducers; ++p) {
      const auto& e = r.index.partitions[p];
      std::string path = JoinPath(dir, "run-m" + std::to_string(m) + "-r" + std::to_string(p));
      MR_RETURN_IF_ERROR(WriteStringToFile(path, data.substr(e.offset, e.length)));
      runs[p].push_back(path);
      crcs[p].push_back(e.crc32c);
    }
  }
  for (uint32_t p = 0; p < reducers; ++p) {
    ReduceTaskSpec spec;
    spec.job_id = 1;
    spec.reduce_index = p;
    spec.job = job.get();
    spec.run_files = runs[p];
    spec.run_crcs = crcs[p];
    spec.output_path = JoinPath(dir, "out/part-r-" + std::to_string(p));
    MR_RETURN_IF_ERROR(RunReduceTask(spec, nullptr).status());
    MR_ASSIGN_OR_RETURN(std::string part, ReadFileToString(spec.output_path));
    run.parts.push_back(std::move(part));
  }
  return run;
}

inline std::string Concat(const std::vector<std::string>& parts) {
  std::string all;
  for (const auto& p : parts) all += p;
  return all;
}

inline std::vector<std::string> SortedLines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string::npos) nl = text.size();
    lines.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  std::sort(lines.begin(), lines.end());
  return lines;
}

}  // namespace mr::worker::testing
