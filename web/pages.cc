#include "web/pages.h"

#include <algorithm>
#include <cctype>
#include <ctime>
#include <vector>
#include <sstream>

#include "common/units.h"
#include "common/worker_labels.h"
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
.state-FAILED{color:#c62828;font-weight:bold} .state-KILLED{color:#8d6e00;font-weight:bold}
.pct{display:block;height:4px;background:#e3e6e9;margin-top:4px} .pct i{display:block;height:4px;background:#4e79a7}
pre.stderr{background:#f8f0f0;border:1px solid #e8c8c8;padding:6px 10px;font-size:12px;max-width:1100px;overflow-x:auto;white-space:pre-wrap}
.chart{overflow-x:auto;border:1px solid #e3e6e9;margin:6px 0}
.bar:hover{stroke:#000;stroke-width:1}
.muted{color:#778}
.wlabel{display:inline-block;background:#eef2f6;border:1px solid #d5dde5;border-radius:3px;padding:0 5px;margin:0 3px 1px 0;font-size:12px}
)CSS";

// Re-fetches the page every 2 s while <body data-live="1"> and swaps <main>.
const char kScript[] = R"JS(
(function(){
  var timer = null;
  function refresh(){
    fetch(location.href, {cache: "no-store"}).then(function(r){ return r.text(); }).then(function(text){
      var doc = new DOMParser().parseFromString(text, "text/html");
      var fresh = doc.getElementById("content");
      if (fresh) document.getElementById("content").innerHTML = fresh.innerHTML;
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
// The policy's shuffle share of a running job with map output waiting; "-" otherwise (it
// then applies to nothing), under every policy (docs/web.md).
std::string ShareText(const json& job) {
  return JobIsLive(job) && Number(job, "shuffle_bytes_waiting") > 0 ? Fixed(Number(job, "share"), 2) : "-";
}
// "w3 worker-2": a worker's id and its name (its name label, else its host), as every view shows it.
std::string WorkerText(const json& j, const char* id_key, const char* name_key) {
  const std::string name = Text(j, name_key);
  return "w" + Text(j, id_key) + (name == "-" ? "" : " " + name);
}
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
  // The master's measured rate (bytes/s sent over the last 2 s, all jobs); "-" before any
  // byte was sent.
  double cap = Number(c, "shuffle_capacity"), sent = Number(c, "shuffle_bytes_sent");
  const std::string rate = sent > 0 ? FormatBytes(Number(c, "shuffle_rate")) + "/s" : "-";
  cards += "<div class=\"card\" id=\"shuffle-sent\" data-bytes=\"" + Fixed(sent, 0) + "\"><b id=\"shuffle-rate\">" +
           Escape(rate) + "</b><small><span id=\"shuffle-rate-label\">shuffle rate, last 2 s</span>, " +
           Escape(cap > 0 ? "of " + FormatBytes(cap) + "/s capacity" : "no cap (--shuffle-bandwidth unset)") +
           "; " + Escape(FormatBytes(Number(c, "shuffle_bytes_sent"))) + " sent in all</small></div>";
  return "<div class=\"cards\">" + cards + "</div>\n";
}

// A worker's labels ({"class": "fast"}) as one chip each, "class=fast"; "-" for none.
std::string LabelsCell(const json& w) {
  auto it = w.is_object() ? w.find("labels") : w.end();
  std::string chips;
  if (it != w.end() && it->is_object()) {
    for (const auto& [key, value] : it->items()) {
      if (key == kNameLabel) continue;  // shown as the worker's name
      std::string text = key + "=" + (value.is_string() ? value.get<std::string>() : value.dump());
      chips += "<span class=\"wlabel\">" + Escape(text) + "</span>";
    }
  }
  return chips.empty() ? Cell("-") : "<td class=\"labels\">" + chips + "</td>";
}

// The policy's queues (--policy capacity), one row each: what it is guaranteed, holds, lends
// and borrows of each kind of slot (docs/web.md).
std::string QueueTable(const json& cluster) {
  if (!cluster.is_object() || !cluster.contains("queues") || !cluster["queues"].is_array() ||
      cluster["queues"].empty()) {
    return "";
  }
  std::string rows;
  for (const auto& q : cluster["queues"]) {
    std::string share = Text(q, "label") != "-"       ? "workers " + Text(q, "label")
                        : Number(q, "capacity") > 0 ? Fixed(Number(q, "capacity"), 1) + "%"
                                                    : std::string("in slots");
    if (Number(q, "max_capacity") > 0) share += ", max " + Fixed(Number(q, "max_capacity"), 1) + "%";
    rows += "<tr>" + Cell(Text(q, "name")) + Cell(share) + Cell(Text(q, "jobs"), true);
    for (const char* kind : {"map", "reduce"}) {
      const json k = q.contains(kind) ? q[kind] : json::object();
      rows += Cell(Text(k, "in_use") + " / " + Fixed(Number(k, "guaranteed"), 1), true) +
              Cell(Fixed(Number(k, "lent"), 1), true) + Cell(Fixed(Number(k, "borrowed"), 1), true);
    }
    rows += "</tr>\n";
  }
  return "<h2>Queues</h2>\n<table id=\"queues\">" +
         Header({"queue", "share", "jobs", "map in use / guaranteed", "lent", "borrowed", "reduce in use / guaranteed",
                 "lent", "borrowed"}) +
         rows + "</table>\n";
}

std::string WorkerRows(const json& workers, double now) {
  std::string rows;
  if (!workers.is_array()) return rows;
  for (const auto& w : workers) {
    double bw = Number(w, "shuffle_bandwidth");
    double hb = Number(w, "last_heartbeat");
    rows += "<tr>" + Cell(WorkerText(w, "id", "name")) + Cell(Text(w, "host") + ":" + Text(w, "shuffle_port")) +
            LabelsCell(w) + Cell(Of(w, "running_map", "map_slots"), true) + Cell(Of(w, "running_reduce", "reduce_slots"), true) +
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

// Seconds after the job's submission, the one time base of a job page: "+12.3 s".
std::string SinceSubmit(const json& job, double t) {
  double submit = Number(job, "submit_time");
  return t > 0 && submit > 0 ? "+" + FormatSeconds(std::max(0.0, t - submit)) : "-";
}

// Epoch seconds as a UTC clock time, "22:41:07" ("-" for none).
std::string ClockTime(double t) {
  if (t <= 0) return "-";
  time_t secs = static_cast<time_t>(t);
  struct tm tm{};
  gmtime_r(&secs, &tm);
  char clock[32];
  std::strftime(clock, sizeof clock, "%H:%M:%S", &tm);
  return clock;
}

// The cluster list's submit time: the clock time and its age, "22:41:07 (3.00 s ago)".
std::string ClockAndAge(double t, double now) {
  if (t <= 0) return "-";
  return ClockTime(t) + " (" + FormatSeconds(std::max(0.0, now - t)) + " ago)";
}

// A phase's progress, from the master's "progress" object (never recomputed here).
double PhaseFraction(const json& job, const char* phase) {
  return job.is_object() && job.contains("progress") ? Number(job["progress"], phase) : 0;
}

std::string ResponseTime(const json& job) {
  double submit = Number(job, "submit_time"), end = Number(job, "end_time");
  return end > 0 && submit > 0 ? FormatSeconds(end - submit) : "-";
}

// Newest first (by submit time; the API lists by id), as Hadoop's job lists do.
std::string JobRows(const json& jobs, double now) {
  std::string rows;
  if (!jobs.is_array()) return rows;
  std::vector<const json*> order;
  for (const auto& j : jobs) order.push_back(&j);
  std::stable_sort(order.begin(), order.end(),
                   [](const json* a, const json* b) { return Number(*a, "submit_time") > Number(*b, "submit_time"); });
  for (const json* p : order) {
    const json& j = *p;
    rows += "<tr data-job=\"" + Escape(Text(j, "id")) + "\"><td>" + JobLink(j) + "</td>" + Cell(Text(j, "name")) +
            StateCell(j) + Cell(ClockAndAge(Number(j, "submit_time"), now), true);
    for (const char* phase : {"map", "shuffle", "reduce"}) {
      rows += "<td class=\"num\" data-phase=\"" + std::string(phase) + "\">" +
              Escape(FormatPercent(PhaseFraction(j, phase))) + "</td>";
    }
    rows += Cell(Bytes(j, "shuffle_bytes_fetched"), true) + Cell(ShareText(j), true) + Cell(Text(j, "policy")) +
            Cell(ResponseTime(j), true) + "</tr>\n";
  }
  return rows;
}

// A phase's card: its percentage (the master's number, rounded down) and what it counts.
std::string PhaseCard(const json& job, const char* phase, const std::string& detail) {
  double f = PhaseFraction(job, phase);
  return "<div class=\"card\" data-phase=\"" + std::string(phase) + "\"><b>" + Escape(FormatPercent(f)) +
         "</b><small>" + Escape(std::string(phase) + ": " + detail) + "</small><span class=\"pct\"><i style=\"width:" +
         Fixed(std::clamp(f, 0.0, 1.0) * 100, 1) + "%\"></i></span></div>";
}

std::string ProgressCards(const json& job) {
  std::string map = Of(job, "maps_done", "maps_total") + " maps done, " + Text(job, "maps_running") + " running";
  if (Number(job, "input_bytes") > 0) {
    map = Bytes(job, "input_bytes_read") + " of " + Bytes(job, "input_bytes") + " read; " + map;
  }
  // Expected, not "so far": the map output is extrapolated to the maps still to run, so
  // the card cannot read "all shuffled" in the middle of the map phase.
  const bool maps_pending = JobIsLive(job) && Number(job, "maps_done") < Number(job, "maps_total");
  std::string shuffle =
      maps_pending && Number(job, "maps_done") == 0
          ? "nothing to fetch before the first map ends"
          : Bytes(job, "shuffle_bytes_fetched") + " fetched of " + Bytes(job, "shuffle_bytes_expected") +
                (maps_pending ? " expected" : "");
  std::string reduce =
      Of(job, "reduces_done", "reduces_total") + " reduces done, " + Text(job, "reduces_running") + " running";
  return PhaseCard(job, "map", map) + PhaseCard(job, "shuffle", shuffle) + PhaseCard(job, "reduce", reduce);
}

// State, kept apart from the phases: what runs now while RUNNING, when it ended after.
std::string StateCard(const json& job) {
  std::string state = Text(job, "state");
  std::string phase = Text(job, "phase");
  std::string label = JobIsLive(job) ? (phase == "-" ? "starting" : "in " + phase)
                                     : "ended " + SinceSubmit(job, Number(job, "end_time"));
  return "<div class=\"card\"><b id=\"job-state\" class=\"state-" + Escape(state) + "\">" + Escape(state) +
         "</b><small id=\"job-phase\">" + Escape(label) + "</small></div>";
}

// The time-weighted mean of the share steps the chart draws, over the time they cover
// (-1 when the trace has none): policies switch a job's share often (FIFO gives 1 only
// while the job has map output waiting), so "now" alone says little.
double MeanShare(const ChartLayout& l) {
  if (l.shares.empty() || l.duration <= l.shares.front().first) return -1;
  double area = 0;
  for (size_t i = 0; i < l.shares.size(); ++i) {
    double until = i + 1 < l.shares.size() ? l.shares[i + 1].first : l.duration;
    area += l.shares[i].second * std::max(0.0, until - l.shares[i].first);
  }
  return area / (l.duration - l.shares.front().first);
}

// The share card: the status's share, which the chart's dashed line ends at (an ended job
// holds none: the master traces its drop to 0), and the line's mean once it has risen above 0.
std::string ShareCard(const json& job, const ChartLayout& l) {
  // A line that never left 0 (no map output has waited yet) has no mean worth a "0.00".
  const bool ever = std::any_of(l.shares.begin(), l.shares.end(), [](const auto& p) { return p.second > 0; });
  double mean = ever ? MeanShare(l) : -1;
  const bool waiting = Number(job, "shuffle_bytes_waiting") > 0;
  return "<div class=\"card\"><b id=\"job-share\">" + Escape(ShareText(job)) + "</b><small>" +
         (!JobIsLive(job) ? "shuffle share (ended: none)"
                          : waiting ? "shuffle share now" : "shuffle share now: no map output waiting") +
         (mean >= 0 ? "; mean " + Fixed(mean, 2) + " over the dashed line" : std::string()) + "</small></div>";
}

// The straggling-mappers paper's sojourn: submit to the last map output available to the
// reducers. Where the job has none, the card says why, as `mr status JOB` does: "n/a" when
// it never will (no maps; ended before they all finished), "-" while a map still runs.
std::string SojournCard(const json& job) {
  const double sojourn = Number(job, "sojourn_time");
  std::string value = "-";
  std::string note = "sojourn time: some map has not finished yet";
  if (sojourn > 0) {
    value = FormatSeconds(sojourn);
    note = "sojourn time: submit to the last map output";
  } else if (Number(job, "maps_total") == 0) {
    value = "n/a";
    note = "sojourn time: the job has no maps";
  } else if (!JobIsLive(job)) {
    value = "n/a";
    note = "sojourn time: the job ended before all its maps finished";
  }
  return "<div class=\"card\"><b id=\"job-sojourn\">" + Escape(value) + "</b><small id=\"job-sojourn-note\">" +
         Escape(note) + "</small></div>";
}

std::string JobSummary(const json& job, const ChartLayout& layout) {
  std::string s = "<div class=\"cards\">" + StateCard(job) + ProgressCards(job) + ShareCard(job, layout);
  // Measured, not modelled: the last 2 s while the job runs, the whole shuffle's mean after.
  bool live = JobIsLive(job);
  double rate = Number(job, live ? "shuffle_rate" : "shuffle_rate_mean");
  s += Card(Escape(rate > 0 ? FormatBytes(rate) + "/s" : "-"),
            live ? "shuffle rate (last 2 s)" : "shuffle rate (mean)", "shuffle-rate");
  s += Card(Escape(ResponseTime(job)), "response time");
  s += SojournCard(job);
  s += "</div>\n<table id=\"job-facts\">";
  json est = job.is_object() && job.contains("estimate") ? job["estimate"] : json::object();
  s += "<tr><th>job</th>" + Cell(Text(job, "job")) + "</tr><tr><th>policy</th>" + Cell(Text(job, "policy")) +
       "</tr><tr><th>output</th>" + Cell(Text(job, "output")) + "</tr>";
  if (Text(job, "queue") != "-") s += "<tr><th>queue</th><td id=\"job-queue\">" + Escape(Text(job, "queue")) + "</td></tr>";
  // Times on this page count from the submission; the submission itself is a clock time.
  s += "<tr><th>submitted</th><td id=\"job-submitted\">" + Escape(ClockTime(Number(job, "submit_time"))) +
       " UTC</td></tr><tr><th>started</th><td id=\"job-started\">" + Escape(SinceSubmit(job, Number(job, "start_time"))) +
       "</td></tr><tr><th>ended</th><td id=\"job-ended\">" + Escape(SinceSubmit(job, Number(job, "end_time"))) +
       "</td></tr>";
  const bool used = !est.contains("used_by_policy") || est["used_by_policy"] != false;
  s += "<tr><th>estimate</th><td id=\"job-estimate\">" +
       Escape(!used ? "n/a under " + Text(job, "policy")
              : Text(est, "source") == "none" ? std::string("- (none yet)")
              : Text(est, "source") + ": map " + FormatSeconds(Number(est, "map_seconds")) + " slot-seconds, shuffle " +
                    Bytes(est, "shuffle_bytes")) +
       "</td></tr>";
  if (job.is_object() && job.contains("combine_ratio") && job["combine_ratio"].is_number()) {
    s += "<tr><th>combine ratio</th>" + Cell(Fixed(Number(job, "combine_ratio"), 3) + " (combine.records_out / "
         "combine.records_in)") + "</tr>";
  }
  if (Text(job, "error") != "-") s += "<tr><th>error</th><td id=\"job-error\">" + Escape(Text(job, "error")) + "</td></tr>";
  return s + "</table>\n";
}

// The latest failed attempt: where and when, its error and the tail of its stderr
// (escaped: it is whatever the user's program printed).
std::string FailedAttemptSection(const json& job) {
  if (!job.is_object() || !job.contains("last_failed_attempt") || !job["last_failed_attempt"].is_object()) return "";
  const json& f = job["last_failed_attempt"];
  std::string s = "<h2>Last failed attempt</h2>\n<p id=\"failed-attempt\">" + Escape(Text(f, "task")) + " attempt " +
                  Escape(Text(f, "attempt")) + " on " + Escape(WorkerText(f, "worker", "worker_name")) + ", " +
                  Escape(SinceSubmit(job, Number(f, "time"))) + ": " + Escape(Text(f, "error")) + "</p>\n";
  std::string tail = f.contains("stderr_tail") && f["stderr_tail"].is_string() ? f["stderr_tail"].get<std::string>() : "";
  if (tail.empty()) return s + "<p class=\"muted\">its stderr was empty</p>\n";
  return s + "<p class=\"muted\">the last lines it wrote to stderr:</p>\n<pre class=\"stderr\" id=\"failed-stderr\">" +
         Escape(tail) + "</pre>\n";
}

// An allocating policy's (flex) latest allocation per pool: slots, bounds, order, metric,
// prediction ("" when the job has none).
std::string AllocationSection(const json& job) {
  if (!job.is_object() || !job.contains("allocations") || !job["allocations"].is_array() ||
      job["allocations"].empty()) {
    return "";
  }
  std::string s =
      "<h2>Allocation</h2>\n<table id=\"allocations\"><tr><th>slots of</th><th>allocated</th><th>min</th>"
      "<th>max</th><th>place</th><th>order</th><th>metric</th><th>predicted completion</th><th>objective</th>"
      "<th>computed</th></tr>\n";
  for (const json& a : job["allocations"]) {
    s += "<tr><td>" + Escape(Text(a, "slot")) + "</td><td>" + Escape(Text(a, "slots")) + "</td><td>" +
         Escape(Text(a, "min_slots")) + "</td><td>" + Escape(Text(a, "max_slots")) + "</td><td>" +
         std::to_string(static_cast<int>(Number(a, "rank")) + 1) + "</td><td>" + Escape(Text(a, "order")) +
         "</td><td>" + Escape(Text(a, "metric")) + "</td><td>" + Escape(SinceSubmit(job, Number(a, "completion"))) +
         "</td><td>" + Escape(Text(a, "predicted")) + "</td><td>" + Escape(SinceSubmit(job, Number(a, "time"))) +
         "</td></tr>\n";
  }
  return s + "</table>\n";
}

std::string DecisionsTable(const ChartLayout& l) {
  constexpr size_t kMaxRows = 300;
  if (l.decisions.empty()) return "<p class=\"muted\">no decisions recorded yet</p>\n";
  std::string s = "<table id=\"decisions\">" + Header({"since submit", "worker", "policy", "tasks", "note"});
  size_t first = l.decisions.size() > kMaxRows ? l.decisions.size() - kMaxRows : 0;
  for (size_t i = first; i < l.decisions.size(); ++i) {
    const Decision& d = l.decisions[i];
    std::string tasks;
    for (const auto& t : d.tasks) tasks += (tasks.empty() ? "" : " ") + t;
    s += "<tr>" + Cell("+" + FormatSeconds(d.t), true) + Cell("w" + std::to_string(d.worker)) + Cell(d.policy) +
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
       Header({"worker", "shuffle server", "labels", "map busy", "reduce busy", "unified busy", "speed", "queued maps",
               "shuffle cap", "shuffle sent", "heartbeat"}) +
       WorkerRows(workers, now) + "</table>\n";
  c += QueueTable(cluster);
  c += "<h2>Jobs</h2>\n<table id=\"jobs\">" +
       Header({"job", "name", "state", "submitted (UTC)", "map", "shuffle", "reduce", "shuffled", "share", "policy",
               "response"}) +
       JobRows(jobs, now) + "</table>\n";
  if (!jobs.is_array() || jobs.empty()) c += "<p class=\"muted\">no jobs yet</p>\n";
  return Page("mrlab cluster", c, true);
}

std::string JobPageHtml(const json& job, const std::vector<trace::Event>& trace, double now) {
  ChartLayout layout = BuildChartLayout(trace, 100, JobIsLive(job) ? now : 0);
  std::string id = Text(job, "id");
  std::string c = "<h1 id=\"job-id\">" + Escape(id) + " <span class=\"muted\">" + Escape(Text(job, "name")) +
                  "</span></h1>\n";
  c += JobSummary(job, layout);
  c += AllocationSection(job);
  c += FailedAttemptSection(job);
  c += "<h2>Tasks and shuffle over time</h2>\n<p class=\"muted\">one row per slot (map, reduce) and per shuffle "
       "link (source worker → reducer's worker); hover a bar for details; below, the job's shuffle rate and "
       "its share (dashed)</p>\n<div class=\"chart\">" +
       RenderSvgChart(layout) + "</div>\n";
  c += "<h2>Scheduler decisions</h2>\n" + DecisionsTable(layout);
  json counters = job.is_object() && job.contains("counters") && !job["counters"].empty() ? job["counters"]
                                                                                          : json(layout.counters);
  c += "<h2>Counters</h2>\n" + CountersTable(counters);
  return Page(id + " — mrlab", c, JobIsLive(job));
}

std::string ErrorPageHtml(int code, const std::string& message) {
  return Page("mrlab: " + std::to_string(code), "<h1>" + std::to_string(code) + "</h1>\n<p>" + Escape(message) +
                                                   "</p>\n<p><a href=\"/\">back to the cluster</a></p>\n",
              false);
}

}  // namespace mr::web
