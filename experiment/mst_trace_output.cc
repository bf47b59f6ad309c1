#include "experiment/mst_trace_output.h"

#include <algorithm>
#include <iterator>
#include <ostream>
#include <string>
#include <vector>

#include "experiment/mst_trace_measured.h"

namespace mr::experiment {

using nlohmann::json;
using mst::Num;
using mst::Percent;

void WriteMstTraceText(const MstTraceReport& r, std::ostream& out) {
  out << "# " << r.jobs << " jobs (" << r.excluded.size() << " excluded), " << r.maps_per_job_min;
  if (r.maps_per_job_max != r.maps_per_job_min) out << "-" << r.maps_per_job_max;
  out << " maps each, submitted over " << Num(r.arrival_span) << " s: job rate " << Num(r.job_rate)
      << "/s; " << r.nodes.size() << " mapper nodes; " << r.other_attempts
      << " map attempts did not succeed\n";
  for (const ExcludedJob& e : r.excluded) out << "# excluded " << e.id << ": " << e.reason << "\n";
  out << "# sojourn (submit to last map end) mean " << Num(r.mean_sojourn) << " s, p50 "
      << Num(r.p50) << ", p90 " << Num(r.p90) << ", p99 " << Num(r.p99) << ", max "
      << Num(r.max_sojourn) << "\n";
  const char* header[] = {"worker",  "tasks",  "lambda", "mu",       "rho",     "service",
                          "scv",     "offset", "tail",   "share",    "D",       "ks",
                          "arr_scv", "slots",  "resp",   "resp_dtd", "resp_mm1"};
  std::vector<std::vector<std::string>> rows = {
      std::vector<std::string>(std::begin(header), std::end(header))};
  for (const MstTraceNode& n : r.nodes) {
    rows.push_back({std::to_string(n.worker), std::to_string(n.tasks), Num(n.lambda), Num(n.mu),
                    Num(n.rho), Num(n.service.mean), Num(n.service.scv), Num(n.service.offset),
                    Num(n.service.tail_mean), Num(n.service.share), Num(n.paper_d),
                    Num(n.service.ks), Num(n.arrival_scv), std::to_string(n.slots),
                    Num(n.response_measured), Num(n.response_dtd), Num(n.response_mm1)});
  }
  std::vector<size_t> width(rows[0].size(), 0);
  for (const auto& row : rows) {
    for (size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  }
  for (const auto& row : rows) {
    std::string line;
    for (size_t c = 0; c < row.size(); ++c)
      line += row[c] + std::string(width[c] - row[c].size() + 2, ' ');
    out << line.substr(0, line.find_last_not_of(' ') + 1) << "\n";
  }
  out << "MST measured " << Num(r.mean_sojourn) << " s\n";
  for (const MstTracePrediction& p : r.predictions) {
    out << "MST " << p.law << " ";
    if (p.ok)
      out << Num(p.mst) << " s (" << Percent(p.mst / r.mean_sojourn - 1) << ")";
    else
      out << "n/a";
    out << ": " << p.note << "\n";
  }
  if (r.predictions[0].ok) {
    out << "dtd gap: " << Percent(r.gap_dependence)
        << " from the nodes' dependence (measured -> independent), then " << Percent(r.gap_node_law)
        << " from the node response law (independent -> dtd)\n";
  }
  out << "assumptions (model: measured):\n";
  for (const MstTraceAssumption& a : r.assumptions) {
    out << "  " << (a.violated ? "VIOLATED " : "holds    ") << a.name << " (" << a.model
        << "): " << a.measured << "\n";
  }
}

json MstTraceJson(const MstTraceReport& r) {
  json j;
  j["jobs"] = r.jobs;
  j["excluded"] = json::array();
  for (const ExcludedJob& e : r.excluded)
    j["excluded"].push_back({{"job", e.id}, {"reason", e.reason}});
  j["maps_per_job"] = {r.maps_per_job_min, r.maps_per_job_max};
  j["first_submit"] = r.first_submit;
  j["arrival_span"] = r.arrival_span;
  j["job_rate"] = r.job_rate;
  j["other_attempts"] = r.other_attempts;
  j["sojourn"] = {{"mean", r.mean_sojourn}, {"p50", r.p50},         {"p90", r.p90},
                  {"p99", r.p99},           {"max", r.max_sojourn}, {"values", r.sojourn}};
  j["nodes"] = json::array();
  for (const MstTraceNode& n : r.nodes) {
    j["nodes"].push_back({{"worker", n.worker},
                          {"tasks", n.tasks},
                          {"jobs", n.jobs},
                          {"lambda", n.lambda},
                          {"mu", n.mu},
                          {"rho", n.rho},
                          {"service",
                           {{"n", n.service.n},
                            {"mean", n.service.mean},
                            {"scv", n.service.scv},
                            {"offset", n.service.offset},
                            {"tail_mean", n.service.tail_mean},
                            {"share", n.service.share},
                            {"ks", n.service.ks}}},
                          {"paper_d", n.paper_d},
                          {"arrival_scv", n.arrival_scv},
                          {"slots", n.slots},
                          {"fifo_inversions", n.fifo_inversions},
                          {"response_measured", n.response_measured},
                          {"response_dtd", n.response_dtd},
                          {"response_mm1", n.response_mm1}});
  }
  j["predictions"] = json::array();
  for (const MstTracePrediction& p : r.predictions) {
    json q = {{"law", p.law}, {"ok", p.ok}, {"note", p.note}};
    q["mst"] = p.ok ? json(p.mst) : json(nullptr);
    j["predictions"].push_back(q);
  }
  j["gap"] = {{"dependence", r.gap_dependence}, {"node_law", r.gap_node_law}};
  j["assumptions"] = json::array();
  for (const MstTraceAssumption& a : r.assumptions) {
    j["assumptions"].push_back({{"name", a.name},
                                {"measured", a.measured},
                                {"model", a.model},
                                {"size", a.size},
                                {"violated", a.violated}});
  }
  return j;
}

}  // namespace mr::experiment
