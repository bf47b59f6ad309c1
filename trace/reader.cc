#include "trace/reader.h"

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

#include <nlohmann/json.hpp>

#include "trace/event_fields.h"

namespace mr::trace {
namespace {

using nlohmann::json;

std::optional<int64_t> ToInt64(const json& j) {
  if (j.is_number_integer() && !j.is_number_unsigned()) return j.get<int64_t>();
  if (j.is_number_unsigned()) {
    const uint64_t u = j.get<uint64_t>();
    if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return std::nullopt;
    return static_cast<int64_t>(u);
  }
  const double d = j.get<double>();
  if (!(std::fabs(d) < 9.2e18)) return std::nullopt;  // beyond int64, or not finite
  return static_cast<int64_t>(d);
}

std::optional<uint64_t> ToUint64(const json& j) {
  if (j.is_number_unsigned()) return j.get<uint64_t>();
  if (j.is_number_integer()) return std::nullopt;  // negative
  const double d = j.get<double>();
  if (!(d >= 0 && d < 1.8e19)) return std::nullopt;
  return static_cast<uint64_t>(d);
}

// One member from the line's value, or nothing when the value does not fit it.
void Read(const json& j, std::optional<std::string>& out) {
  if (j.is_string()) out = j.get<std::string>();
}
void Read(const json& j, std::optional<double>& out) {
  if (j.is_number() && std::isfinite(j.get<double>())) out = j.get<double>();
}
void Read(const json& j, std::optional<int64_t>& out) {
  if (j.is_number()) out = ToInt64(j);
}
void Read(const json& j, std::optional<uint64_t>& out) {
  if (j.is_number()) out = ToUint64(j);
}
void Read(const json& j, std::optional<bool>& out) {
  if (j.is_boolean()) out = j.get<bool>();
}
void Read(const json& j, std::optional<std::vector<std::string>>& out) {
  if (!j.is_array()) return;
  out.emplace();
  for (const json& item : j) out->push_back(item.is_string() ? item.get<std::string>() : item.dump());
}
void Read(const json& j, std::optional<Counters>& out) {
  if (!j.is_object()) return;
  out.emplace();
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (!it->is_number()) continue;
    if (std::optional<int64_t> v = ToInt64(*it)) (*out)[it.key()] = *v;
  }
}

struct Get {
  const json& in;
  template <class T>
  void operator()(const char* key, std::optional<T>& out) {
    if (auto it = in.find(key); it != in.end()) Read(*it, out);
  }
};

Status CheckEvent(const json& ev) {
  if (!ev.is_object()) return Status::InvalidArgument("not a JSON object");
  auto e = ev.find("event");
  if (e == ev.end() || !e->is_string()) return Status::InvalidArgument("missing string field \"event\"");
  auto t = ev.find("t");
  if (t == ev.end() || !t->is_number()) return Status::InvalidArgument("missing numeric field \"t\"");
  return Status::Ok();
}

// The alternative of Event with index I, default-constructed (EventType -> struct).
template <size_t... I>
Event Blank(size_t index, std::index_sequence<I...>) {
  Event out;
  ((index == I ? (void)out.emplace<I>() : (void)0), ...);
  return out;
}

Result<Event> FromJson(const json& j) {
  MR_RETURN_IF_ERROR(CheckEvent(j));
  const std::string name = j.at("event").get<std::string>();
  const EventType type = EventTypeFromName(name);
  Event out = Blank(static_cast<size_t>(type), std::make_index_sequence<kEventTypes>());
  std::visit(
      [&](auto& ev) {
        ev.t = j.at("t").get<double>();
        if (auto job = j.find("job"); job != j.end() && job->is_string()) ev.job = job->get<std::string>();
        Get get{j};
        internal::Fields(ev, get);
      },
      out);
  if (auto* u = std::get_if<Unknown>(&out)) u->name = name;
  return out;
}

}  // namespace

Result<Event> ParseEvent(std::string_view line) {
  json j = json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Status::InvalidArgument("not valid JSON");
  return FromJson(j);
}

Result<std::vector<Event>> ParseTraceLines(std::string_view text) {
  std::vector<Event> events;
  size_t line_no = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    std::string_view line = text.substr(pos, nl - pos);
    pos = nl + 1;
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    Result<Event> ev = ParseEvent(line);
    if (!ev.ok()) return Status::InvalidArgument("line " + std::to_string(line_no) + ": " + ev.status().message());
    events.push_back(std::move(*ev));
  }
  return events;
}

Result<std::vector<Event>> ReadTraceFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::NotFound("cannot open trace '" + path + "'");
  std::ostringstream buf;
  buf << in.rdbuf();
  if (in.bad()) return Status::IoError("cannot read trace '" + path + "'");
  auto events = ParseTraceLines(buf.str());
  if (!events.ok()) return events.status().WithContext(path);
  return events;
}

Result<std::vector<Event>> ParseTraceArray(std::string_view json_text) {
  json doc = json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_array()) return Status::InvalidArgument("trace is not a JSON array");
  std::vector<Event> events;
  events.reserve(doc.size());
  for (size_t i = 0; i < doc.size(); ++i) {
    Result<Event> ev = FromJson(doc[i]);
    if (!ev.ok()) return Status::InvalidArgument("event " + std::to_string(i) + ": " + ev.status().message());
    events.push_back(std::move(*ev));
  }
  return events;
}

}  // namespace mr::trace
