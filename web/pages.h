// The status pages as self-contained HTML (inline CSS and script, nothing
// fetched from elsewhere). Each page wraps its changing part in
// <main id="content"> and, while something can still change, carries
// data-live="1" on <body>: a small inline script then re-fetches the page every
// 2 s and swaps the content in. Inputs are the /api documents of docs/web.md;
// missing fields show as "-". Pure functions; thread-safe.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "trace/event.h"

namespace mr::web {

// `/`: cluster overview, worker table and job list. `now` is epoch seconds,
// used for heartbeat ages.
std::string ClusterPageHtml(const nlohmann::json& cluster, const nlohmann::json& workers,
                            const nlohmann::json& jobs, double now);

// `/jobs/<id>`: job summary, Gantt chart + shuffle rate (inline SVG) of its trace, the
// decisions table and the counters (the job document's, else the trace's job_end's). `now` (epoch seconds; 0 = unknown) extends a live
// job's chart to the present, so its running bars and axis show how long it has run.
std::string JobPageHtml(const nlohmann::json& job, const std::vector<trace::Event>& trace, double now = 0);

// A short page for errors (404 and the like).
std::string ErrorPageHtml(int code, const std::string& message);

// True while a job state can still change ("RUNNING", anything not final).
bool JobIsLive(const nlohmann::json& job);

}  // namespace mr::web
