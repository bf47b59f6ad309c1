#include "web/pages.h"

#include <algorithm>
#include <cctype>
#include <sstream>

#include "common/units.h"
#include "web/chart_layout.h"
#include "web/markup.h"
#include "web/svg_chart.h"

namespace mr::web {

namespace {

using nlohmann::json;

const char kStyle[] = R"CSS(
body{font-family:"DejaVu Sans",Helvetica,Arial,sans-serif;margin:0;color:#222;background:#fff}
header{background:#2d3e50;color:#fff;padding:10px 20px;display:flex;align-items:baseline;gap:18px}
header a{color:#fff;text-decoration:none;font-weight:bold;font-size:18px}
header span{color:#c9d3dd;font-size:13px}
main{padding:12px 20px}
h1{font-size:20px;margin:6px 0 10px} h2{font-size:16px;margin:18px 0 6px}
table{border-collapse:collapse;font-size:13px}
th,td{border-bottom:1px solid #e3e6e9;padding:3px 10px;text-align:left;vertical-align:top}
th{background:#f4f6f8} td.num{text-align:right;font-variant-numeric:tabular-nums}
.cards{display:flex;flex-wrap:wrap;gap:10px;margin-bottom:8px}
.card{border:1px solid #dde2e6;border-radius:6px;padding:8px 14px;min-width:120px}
.card b{display:block;font-size:20px} .card small{color:#667}
.state-RUNNING{color:#1f6fb2;font-weight:bold} .state-SUCCEEDED{color:#2e7d32;font-weight:bold}
.state-FAILED{color:#c62828;font-weight:bold}
.chart{overflow-x:auto;border:1px solid #e3e6e9;margin:6px 0}
.bar:hover{stroke:#000;stroke-width:1}
.muted{color:#778}
)CSS";

// Re-fetches the page every 2 s while <body data-live="1">, swaps <main>, and
// derives the cluster's current shuffle rate from the change in bytes sent.
const char kScript[] = R"JS(
(function(){
  var timer = null;
  function rate(oldEl, newEl, dt){
    if (!oldEl || !newEl || dt <= 0) return;
    var d = Number(newEl.dataset.bytes) - Number(oldEl.dataset.bytes);
    var out = document.getElementById("shuffle-rate");
    if (out && d >= 0) out.textContent = (d / dt / 1e6).toFixed(2) + " MB/s";
  }
  function refresh(){
    var before = document.getElementById("shuffle-sent");
    var old = before ? before.cloneNode(true) : null, t0 = Date.now();
    fetch(location.href, {cache: "no-store"}).then(function(r){ return r.text(); }).then(function(text){
      var doc = new DOMParser().parseFromString(text, "text/html");
      var fresh = doc.getElementById("content");
      if (fresh) document.getElementById("content").innerHTML = fresh.innerHTML;
      rate(old, document.getElementById("shuffle-sent"), (Date.now() - t0 + 2000) / 1000);
      if (doc.body.dataset.live !== "1") { document.body.dataset.live = "0"; clearInterval(timer); }
    }).catch(function(){});
  }
  if (document.body.dataset.live === "1") timer = setInterval(refresh, 2000);
})();
)JS";

std::string Page(const std::string& title, const std::string& content, bool live) {
  std::ostringstream s;
  s << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
    << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>" << Escape(title)
    << "</title><style>" << kStyle << "</style></head>\n<body data-live=\"" << (live ? 1 : 0) << "\">\n"
    << "<header><a href=\"/\">mrlab</a><span>MapReduce cluster status</span></header>\n<main id=\"content\">\n"
    << content << "</main>\n<script>" << kScript << "</script>\n</body></html>\n";
  return s.str();
}

// Field access that tolerates missing or mistyped fields ("-" when absent).
std::string Text(const json& j, const char* key) {
  if (!j.is_object()) return "-";
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return "-";
  if (it->is_string()) return it->get<std::string>().empty() ? "-" : it->get<std::string>();
  if (it->is_number_float()) return Fixed(it->get<double>(), 2);
  return it->dump();
}
double Number(const json& j, const char* key) {
  if (!j.is_object()) return 0;
  auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : 0;
}
std::string Bytes(const json& j, const char* key) { return FormatBytes(Number(j, key)); }
std::string Of(const json& j, const char* done, const char* total) {
  return Text(j, done) + " / " + Text(j, total);
}

std::string Card(const std::string& value, const std::string& label, const std::string& id = "") {
  return "<div class=\"card\"" + (id.empty() ? "" : " id=\"" + id + "\"") + "><b>" + value + "</b><small>" +
         Escape(label) + "</small></div>";
}

std::string Cell(const std::string& text, bool num = false) {
  return num ? "<td class=\"num\">" + Escape(text) + "</td>" : "<td>" + Escape(text) + "</td>";
}

std::string Header(std::initializer_list<const char*> names) {
  std::string s = "<tr>";
  for (const char* n : names) s += std::string("<th>") + n + "</th>";
  return s + "</tr>\n";
}

std::string ClusterCards(const json& c) {
  std::string cards;
  cards += Card(Escape(Text(c, "workers")), "workers");
  cards += Card(Escape(Of(c, "map_busy", "map_slots")), "map slots busy");
  cards += Card(Escape(Of(c, "reduce_busy", "reduce_slots")), "reduce slots busy");
  if (Number(c, "unified_slots") > 0) cards += Card(Escape(Of(c, "unified_busy", "unified_slots")), "unified slots busy");
  double cap = Number(c, "shuffle_capacity");
  cards += "<div class=\"card\" id=\"shuffle-sent\" data-bytes=\"" + Fixed(Number(c, "shuffle_bytes_sent"), 0) +
           "\"><b id=\"shuffle-rate\">" + Escape(FormatBytes(Number(c, "shuffle_bytes_sent"))) +
           "</b><small>shuffle sent (rate after the next refresh) of " +
           Escape(cap > 0 ? FormatBytes(cap) + "/s capacity" : "unlimited capacity") + "</small></div>";
  return "<div class=\"cards\">" + cards + "</div>\n";
}

std::string WorkerRows(const json& workers, double now) {
  std::string rows;
  if (!workers.is_array()) return rows;
  for (const auto& w : workers) {
    double bw = Number(w, "shuffle_bandwidth");
    double hb = Number(w, "last_heartbeat");
    rows += "<tr>" + Cell("w" + Text(w, "id")) + Cell(Text(w, "host") + ":" + Text(w, "shuffle_port")) +
            Cell(Of(w, "running_map", "map_slots"), true) + Cell(Of(w, "running_reduce", "reduce_slots"), true) +
            Cell(Of(w, "running_unified", "unified_slots"), true) + Cell(Text(w, "speed"), true) +
            Cell(Text(w, "queued_maps"), true) +
            Cell(bw > 0 ? FormatBytes(bw) + "/s" : "unlimited", true) + Cell(Bytes(w, "shuffle_bytes_sent"), true) +
            Cell(hb > 0 ? Fixed(std::max(0.0, now - hb), 1) + " s ago" : "-", true) + "</tr>\n";
  }
  return rows;
}

std::string JobLink(const json& job) {
  std::string id = Text(job, "id");
  return "<a href=\"/jobs/" + Escape(id) + "\">" + Escape(id) + "</a>";
}

std::string StateCell(const json& job) {
  std::string state = Text(job, "state");
  return "<td class=\"state-" + Escape(state) + "\">" + Escape(state) + "</td>";
}

std::string ResponseTime(const json& job) {
  double submit = Number(job, "submit_time"), end = Number(job, "end_time");
  return end > 0 && submit > 0 ? FormatSeconds(end - submit) : "-";
}

std::string JobRows(const json& jobs) {
  std::string rows;
  if (!jobs.is_array()) return rows;
  for (const auto& j : jobs) {
    rows += "<tr><td>" + JobLink(j) + "</td>" + Cell(Text(j, "name")) + StateCell(j) + Cell(Text(j, "phase")) +
            Cell(Of(j, "maps_done", "maps_total") + " (" + Text(j, "maps_running") + " running)", true) +
            Cell(Of(j, "reduces_done", "reduces_total") + " (" + Text(j, "reduces_running") + " running)", true) +
            Cell(Bytes(j, "shuffle_bytes_fetched") + " / " + Bytes(j, "shuffle_bytes_total"), true) +
            Cell(Text(j, "share"), true) + Cell(Text(j, "policy")) + Cell(ResponseTime(j), true) + "</tr>\n";
  }
  return rows;
}

std::string JobSummary(const json& job) {
  std::string s = "<div class=\"cards\">";
  s += Card("<span class=\"state-" + Escape(Text(job, "state")) + "\">" + Escape(Text(job, "state")) + "</span>",
            "phase " + Text(job, "phase"));
  s += Card(Escape(Of(job, "maps_done", "maps_total")), "maps done, " + Text(job, "maps_running") + " running");
  s += Card(Escape(Of(job, "reduces_done", "reduces_total")),
            "reduces done, " + Text(job, "reduces_running") + " running");
  s += Card(Escape(Bytes(job, "shuffle_bytes_fetched")), "shuffled of " + Bytes(job, "shuffle_bytes_total"));
  s += Card(Escape(Text(job, "share")), "shuffle share");
  // Measured, not modelled: the last 2 s while the job runs, the whole shuffle's mean after.
  bool live = JobIsLive(job);
  double rate = Number(job, live ? "shuffle_rate" : "shuffle_rate_mean");
  s += Card(Escape(rate > 0 ? FormatBytes(rate) + "/s" : "-"),
            live ? "shuffle rate (last 2 s)" : "shuffle rate (mean)", "shuffle-rate");
  s += Card(Escape(ResponseTime(job)), "response time");
  // The straggling-mappers paper's sojourn: submit to the last map output available.
  const double sojourn = Number(job, "sojourn_time");
  s += Card(Escape(sojourn > 0 ? FormatSeconds(sojourn) : "-"), "sojourn time (to last map output)");
  s += "</div>\n<table>";
  json est = job.is_object() && job.contains("estimate") ? job["estimate"] : json::object();
  s += "<tr><th>job</th>" + Cell(Text(job, "job")) + "</tr><tr><th>policy</th>" + Cell(Text(job, "policy")) +
       "</tr><tr><th>output</th>" + Cell(Text(job, "output")) + "</tr><tr><th>estimate</th>" +
       Cell(Text(est, "source") + ": map " + FormatSeconds(Number(est, "map_seconds")) + ", shuffle " +
            Bytes(est, "shuffle_bytes")) +
       "</tr>";
  if (job.is_object() && job.contains("combine_ratio") && job["combine_ratio"].is_number()) {
    s += "<tr><th>combine ratio</th>" + Cell(Fixed(Number(job, "combine_ratio"), 3) + " (combine.records_out / "
         "combine.records_in)") + "</tr>";
  }
  if (Text(job, "error") != "-") s += "<tr><th>error</th>" + Cell(Text(job, "error")) + "</tr>";
  return s + "</table>\n";
}

std::string DecisionsTable(const ChartLayout& l) {
  constexpr size_t kMaxRows = 300;
  if (l.decisions.empty()) return "<p class=\"muted\">no decisions recorded yet</p>\n";
  std::string s = "<table id=\"decisions\">" + Header({"t", "worker", "policy", "tasks", "note"});
  size_t first = l.decisions.size() > kMaxRows ? l.decisions.size() - kMaxRows : 0;
  for (size_t i = first; i < l.decisions.size(); ++i) {
    const Decision& d = l.decisions[i];
    std::string tasks;
    for (const auto& t : d.tasks) tasks += (tasks.empty() ? "" : " ") + t;
    s += "<tr>" + Cell(Fixed(d.t, 3) + " s", true) + Cell("w" + std::to_string(d.worker)) + Cell(d.policy) +
         Cell(tasks) + Cell(d.note) + "</tr>\n";
  }
  s += "</table>\n";
  if (first > 0) s += "<p class=\"muted\">the " + std::to_string(first) + " earliest decisions are not shown</p>\n";
  return s;
}

std::string CountersTable(const json& counters) {
  if (!counters.is_object() || counters.empty()) return "<p class=\"muted\">no counters yet</p>\n";
  std::string s = "<table id=\"counters\">" + Header({"counter", "value"});
  for (auto it = counters.begin(); it != counters.end(); ++it) {
    s += "<tr>" + Cell(it.key()) + Cell(it->is_string() ? it->get<std::string>() : it->dump(), true) + "</tr>\n";
  }
  return s + "</table>\n";
}

}  // namespace

bool JobIsLive(const json& job) {
  std::string state = Text(job, "state");
  std::transform(state.begin(), state.end(), state.begin(), [](unsigned char c) { return std::toupper(c); });
  return state != "SUCCEEDED" && state != "FAILED" && state != "KILLED";
}

std::string ClusterPageHtml(const json& cluster, const json& workers, const json& jobs, double now) {
  std::string c = "<h1>Cluster <span class=\"muted\">policy " + Escape(Text(cluster, "policy")) + ", placement " +
                  Escape(Text(cluster, "placement")) + "</span></h1>\n";
  c += ClusterCards(cluster);
  c += "<h2>Workers</h2>\n<table id=\"workers\">" +
       Header({"worker", "shuffle server", "map busy", "reduce busy", "unified busy", "speed", "queued maps",
               "shuffle cap", "shuffle sent", "heartbeat"}) +
       WorkerRows(workers, now) + "</table>\n";
  c += "<h2>Jobs</h2>\n<table id=\"jobs\">" +
       Header({"job", "name", "state", "phase", "maps", "reduces", "shuffle", "share", "policy", "response"}) +
       JobRows(jobs) + "</table>\n";
  if (!jobs.is_array() || jobs.empty()) c += "<p class=\"muted\">no jobs yet</p>\n";
  return Page("mrlab cluster", c, true);
}

std::string JobPageHtml(const json& job, const std::vector<json>& trace) {
  ChartLayout layout = BuildChartLayout(trace);
  std::string id = Text(job, "id");
  std::string c = "<h1 id=\"job-id\">" + Escape(id) + " <span class=\"muted\">" + Escape(Text(job, "name")) +
                  "</span></h1>\n";
  c += JobSummary(job);
  c += "<h2>Tasks and shuffle over time</h2>\n<p class=\"muted\">one row per slot (map, reduce) and per shuffle "
       "link (source worker → reducer's worker); hover a bar for details; below, the job's shuffle rate and "
       "its share (dashed)</p>\n<div class=\"chart\">" +
       RenderSvgChart(layout) + "</div>\n";
  c += "<h2>Scheduler decisions</h2>\n" + DecisionsTable(layout);
  json counters = job.is_object() && job.contains("counters") && !job["counters"].empty() ? job["counters"]
                                                                                          : layout.counters;
  c += "<h2>Counters</h2>\n" + CountersTable(counters);
  return Page(id + " — mrlab", c, JobIsLive(job));
}

std::string ErrorPageHtml(int code, const std::string& message) {
  return Page("mrlab: " + std::to_string(code), "<h1>" + std::to_string(code) + "</h1>\n<p>" + Escape(message) +
                                                   "</p>\n<p><a href=\"/\">back to the cluster</a></p>\n",
              false);
}

}  // namespace mr::web
