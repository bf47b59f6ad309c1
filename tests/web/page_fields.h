// What the page tests (cluster_browser_test.cc, srpt_page_test.cc) read from a page's DOM
// and what the API's fields say that page must show (docs/web.md), so each page field is
// checked against /api/jobs/ID by one definition under every policy.
#pragma once

#include <string>
#include <utility>

#include <nlohmann/json.hpp>

namespace mr::testing {

// The master logs the status page's address (port 0 = any free port): "http://host:port",
// or "" if it did not within 5 s.
std::string StatusPageUrl(const std::string& cluster_dir);

// The text of the element with id="ID" in a DOM dump ("" if absent).
std::string ById(const std::string& dom, const std::string& id);
// The value of the card whose div has id="ID" (<div class="card" id="ID"><b>VALUE</b>),
// "" if absent.
std::string CardValue(const std::string& dom, const std::string& id);
// The percentage a phase card shows (-1 if absent).
int PhasePercent(const std::string& dom, const std::string& phase);
// A rate as the views print it ("1.5 MiB/s", "512 B/s") in bytes/s; -1 if it is not one
// (no unit, "-", "measuring…").
double RateShown(const std::string& text);

// What the API's document says the page shows.
int Percent(const nlohmann::json& job, const char* phase);
std::string UtcClock(double t);
std::string SinceSubmit(const nlohmann::json& job, const char* field);
// The share card: the policy's share while the job runs with map output waiting, "-"
// otherwise, under every policy.
std::string ShareShown(const nlohmann::json& job);
// The sojourn card: the time when sojourn_time is set, else why not: "n/a" with the reason
// for a job that will never have one, "-" while maps run.
std::pair<std::string, std::string> SojournShown(const nlohmann::json& job);
// The estimate row: "n/a under POLICY" when the policy reads none, "- (none yet)" before
// there is one, else "SOURCE: map S slot-seconds, shuffle BYTES".
std::string EstimateShown(const nlohmann::json& job);

}  // namespace mr::testing
