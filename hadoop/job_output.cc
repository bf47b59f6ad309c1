#include "hadoop/job_output.h"

#include <cstdio>
#include <map>
#include <vector>

#include "common/file_util.h"
#include "trace/reader.h"

namespace mr::hadoop {
namespace {

// mrlab's counter -> Hadoop's (group, name).
struct Rename {
  const char* ours;
  const char* group;
  const char* name;
};
constexpr Rename kRenames[] = {
    {"map.records_in", "Map-Reduce Framework", "Map input records"},
    {"map.records_out", "Map-Reduce Framework", "Map output records"},
    {"map.bytes_out", "Map-Reduce Framework", "Map output materialized bytes"},
    {"map.spills", "Map-Reduce Framework", "Spilled Records"},
    {"combine.records_in", "Map-Reduce Framework", "Combine input records"},
    {"combine.records_out", "Map-Reduce Framework", "Combine output records"},
    {"reduce.records_in", "Map-Reduce Framework", "Reduce input records"},
    {"reduce.records_out", "Map-Reduce Framework", "Reduce output records"},
    {"reduce.bytes_in", "Map-Reduce Framework", "Reduce shuffle bytes"},
    {"map.bytes_in", "File Input Format Counters ", "Bytes Read"},
    {"reduce.bytes_out", "File Output Format Counters ", "Bytes Written"},
};

}  // namespace

Status FinishOutput(const std::string& output) {
  MR_ASSIGN_OR_RETURN(std::vector<std::string> names, ListDir(output));
  for (const std::string& n : names) {
    if (n.rfind("part-r-", 0) == 0 || n.rfind("part-m-", 0) == 0) {
      MR_RETURN_IF_ERROR(RenameFile(JoinPath(output, n), JoinPath(output, "part-" + n.substr(7))));
    }
  }
  return WriteStringToFile(JoinPath(output, "_SUCCESS"), "");
}

Result<trace::Counters> JobCounters(const std::string& output) {
  MR_ASSIGN_OR_RETURN(std::vector<trace::Event> events, trace::ReadTraceFile(JoinPath(output, "_trace.jsonl")));
  for (auto it = events.rbegin(); it != events.rend(); ++it) {
    if (const auto* end = std::get_if<trace::JobEnd>(&*it)) return end->counters.value_or(trace::Counters{});
  }
  return Status::NotFound("the job's trace in " + output + " has no end");
}

std::string Log4jLine(std::time_t now, const std::string& logger, const std::string& message) {
  std::tm tm{};
  ::localtime_r(&now, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%y/%m/%d %H:%M:%S", &tm);
  return std::string(stamp) + " INFO " + logger + ": " + message + "\n";
}

void PrintCounters(const trace::Counters& counters, std::time_t now, std::ostream& err) {
  std::map<std::string, std::map<std::string, int64_t>> groups;
  // mrlab counts a map's output after its combiner, Hadoop's "Map output records" before
  // it: with a combiner, Hadoop's number is what the combiner took in (one spill: mrlab's
  // sort buffer spills each run through the combiner once).
  const auto combine_in = counters.find("combine.records_in");
  const bool combined = combine_in != counters.end() && combine_in->second > 0;
  for (const auto& [name, value] : counters) {
    if (name == "map.records_out" && combined) {
      groups["Map-Reduce Framework"]["Map output records"] += combine_in->second;
      groups["mrlab"][name] += value;
      continue;
    }
    if (name.rfind("user.", 0) == 0) {
      const std::string rest = name.substr(5);
      const size_t comma = rest.find(',');
      groups[rest.substr(0, comma)][comma == std::string::npos ? "" : rest.substr(comma + 1)] += value;
      continue;
    }
    bool renamed = false;
    for (const Rename& r : kRenames) {
      if (name == r.ours) {
        groups[r.group][r.name] += value;
        renamed = true;
      }
    }
    if (!renamed) groups["mrlab"][name] += value;
  }
  size_t n = 0;
  for (const auto& [g, cs] : groups) n += cs.size();
  std::string block = "Counters: " + std::to_string(n);
  for (const auto& [g, cs] : groups) {
    block += "\n\t" + g;
    for (const auto& [c, v] : cs) block += "\n\t\t" + c + "=" + std::to_string(v);
  }
  err << Log4jLine(now, "mapreduce.Job", block);
}

}  // namespace mr::hadoop
