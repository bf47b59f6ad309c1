#include "trace/writer.h"

#include <nlohmann/json.hpp>

#include "trace/event_fields.h"

namespace mr::trace {
namespace {

using nlohmann::json;

// Sets each field that has a value; nlohmann keeps an integer an integer and a double a
// double, so 2 and 2.0 are written as the master always wrote them.
struct Put {
  json& out;
  template <class T>
  void operator()(const char* key, const std::optional<T>& value) {
    if (value) out[key] = *value;
  }
};

json ToJson(const Event& e) {
  json out = json::object();
  out["event"] = std::string(NameOf(e));
  std::visit(
      [&](const auto& ev) {
        out["t"] = ev.t;
        out["job"] = ev.job;
        Put put{out};
        internal::Fields(ev, put);
      },
      e);
  return out;
}

}  // namespace

std::string EventJson(const Event& e) { return ToJson(e).dump(); }

std::string EventsJsonArray(const std::vector<Event>& events) {
  json out = json::array();
  for (const Event& e : events) out.push_back(ToJson(e));
  return out.dump();
}

}  // namespace mr::trace
