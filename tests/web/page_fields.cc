// The page tests' readers of the DOM and of the API's fields (page_fields.h).
#include "tests/web/page_fields.h"

#include <ctime>
#include <regex>

#include "common/units.h"
#include "tests/cluster/cluster_fixture.h"
#include "web/markup.h"

namespace mr::testing {

// The master logs the status page's address (port 0 = any free port): "http://host:port",
// or "" if it did not within 5 s.
std::string StatusPageUrl(const std::string& cluster_dir) {
  std::string http;
  std::regex re("status page on (http://[0-9.:]+)/");
  WaitUntil([&] {
    std::smatch m;
    std::string log = ReadFile(cluster_dir + "/master.log");
    if (std::regex_search(log, m, re)) http = m[1];
    return !http.empty();
  }, 5, 0.05);
  return http;
}

// The text of the element with id="ID" in a DOM dump ("" if absent).
std::string ById(const std::string& dom, const std::string& id) {
  std::smatch m;
  if (!std::regex_search(dom, m, std::regex("id=\"" + id + "\"[^>]*>([^<]*)<"))) return "";
  return m[1];
}

// The percentage a phase card shows (-1 if absent).
int PhasePercent(const std::string& dom, const std::string& phase) {
  std::smatch m;
  if (!std::regex_search(dom, m, std::regex("data-phase=\"" + phase + "\"><b>([0-9]+)%</b>"))) return -1;
  return std::stoi(m[1]);
}

int Percent(const nlohmann::json& job, const char* phase) {
  return std::stoi(FormatPercent(job.at("progress").at(phase).get<double>()));
}

std::string UtcClock(double t) {
  time_t secs = static_cast<time_t>(t);
  struct tm tm{};
  gmtime_r(&secs, &tm);
  char buf[16];
  std::strftime(buf, sizeof buf, "%H:%M:%S", &tm);
  return buf;
}

std::string SinceSubmit(const nlohmann::json& job, const char* field) {
  double t = job.at(field).get<double>();
  return t > 0 ? "+" + web::FormatSeconds(t - job.at("submit_time").get<double>()) : "-";
}

// The share card as the API's fields define it (docs/web.md): the policy's share while the
// job runs with map output waiting, "-" otherwise, under every policy.
std::string ShareShown(const nlohmann::json& job) {
  const std::string state = job.value("state", "");
  const bool live = state != "SUCCEEDED" && state != "FAILED" && state != "KILLED";
  return live && job.value("shuffle_bytes_waiting", 0.0) > 0 ? web::Fixed(job.at("share").get<double>(), 2) : "-";
}

// The sojourn card as the API's fields define it: the time when sojourn_time is set, else
// why not: "n/a" with the reason for a job that will never have one, "-" while maps run.
std::pair<std::string, std::string> SojournShown(const nlohmann::json& job) {
  const std::string state = job.value("state", "");
  const bool live = state != "SUCCEEDED" && state != "FAILED" && state != "KILLED";
  const double sojourn = job.value("sojourn_time", 0.0);
  if (sojourn > 0) return {web::FormatSeconds(sojourn), "sojourn time: submit to the last map output"};
  if (job.value("maps_total", 0) == 0) return {"n/a", "sojourn time: the job has no maps"};
  if (!live) return {"n/a", "sojourn time: the job ended before all its maps finished"};
  return {"-", "sojourn time: some map has not finished yet"};
}

std::string CardValue(const std::string& dom, const std::string& id) {
  std::smatch m;
  if (!std::regex_search(dom, m, std::regex("id=\"" + id + "\"><b>([^<]*)</b>"))) return "";
  return m[1];
}

double RateShown(const std::string& text) {
  std::smatch m;
  if (!std::regex_match(text, m, std::regex(R"(([0-9]+(?:\.[0-9]+)?) (B|KiB|MiB|GiB)/s)"))) return -1;
  const std::string unit = m[2];
  const double scale = unit == "B" ? 1 : unit == "KiB" ? 1024.0 : unit == "MiB" ? 1024.0 * 1024 : 1024.0 * 1024 * 1024;
  return std::stod(m[1]) * scale;
}

std::string EstimateShown(const nlohmann::json& job) {
  const nlohmann::json& est = job.at("estimate");
  if (!est.at("used_by_policy").get<bool>()) return "n/a under " + job.at("policy").get<std::string>();
  if (est.at("source") == "none") return "- (none yet)";
  return est.at("source").get<std::string>() + ": map " + web::FormatSeconds(est.at("map_seconds").get<double>()) +
         " slot-seconds, shuffle " + FormatBytes(est.at("shuffle_bytes").get<double>());
}

}  // namespace mr::testing
