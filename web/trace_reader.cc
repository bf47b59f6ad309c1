#include "web/trace_reader.h"

#include <fstream>
#include <sstream>

namespace mr::web {

namespace {

Status CheckEvent(const nlohmann::json& ev) {
  if (!ev.is_object()) return Status::InvalidArgument("not a JSON object");
  auto e = ev.find("event");
  if (e == ev.end() || !e->is_string()) return Status::InvalidArgument("missing string field \"event\"");
  auto t = ev.find("t");
  if (t == ev.end() || !t->is_number()) return Status::InvalidArgument("missing numeric field \"t\"");
  return Status::Ok();
}

}  // namespace

Result<std::vector<nlohmann::json>> ParseTraceLines(std::string_view text) {
  std::vector<nlohmann::json> events;
  size_t line_no = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    std::string_view line = text.substr(pos, nl - pos);
    pos = nl + 1;
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    nlohmann::json ev = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    Status st = ev.is_discarded() ? Status::InvalidArgument("not valid JSON") : CheckEvent(ev);
    if (!st.ok()) return Status::InvalidArgument("line " + std::to_string(line_no) + ": " + st.message());
    events.push_back(std::move(ev));
  }
  return events;
}

Result<std::vector<nlohmann::json>> ReadTraceFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::NotFound("cannot open trace '" + path + "'");
  std::ostringstream buf;
  buf << in.rdbuf();
  if (in.bad()) return Status::IoError("cannot read trace '" + path + "'");
  auto events = ParseTraceLines(buf.str());
  if (!events.ok()) return events.status().WithContext(path);
  return events;
}

Result<std::vector<nlohmann::json>> ParseTraceArray(std::string_view json_text) {
  nlohmann::json doc = nlohmann::json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_array()) return Status::InvalidArgument("trace is not a JSON array");
  std::vector<nlohmann::json> events;
  events.reserve(doc.size());
  for (size_t i = 0; i < doc.size(); ++i) {
    Status st = CheckEvent(doc[i]);
    if (!st.ok()) return Status::InvalidArgument("event " + std::to_string(i) + ": " + st.message());
    events.push_back(std::move(doc[i]));
  }
  return events;
}

}  // namespace mr::web
