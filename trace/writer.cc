#include "trace/writer.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string_view>

// nlohmann's float formatting (Grisu2, then printf("%g")-like layout with ".0" on a whole
// number): the bytes the trace's doubles had when every line was a dumped nlohmann::json.
#include <nlohmann/detail/conversions/to_chars.hpp>

#include "trace/event_fields.h"

namespace mr::trace {
namespace {

// The length of the well-formed UTF-8 sequence (Unicode's table 3-7) that starts at s[i], a
// byte >= 0x80; 0 when it is not one.
size_t Utf8Length(std::string_view s, size_t i) {
  auto at = [&](size_t k) { return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0u; };
  auto tail = [&](size_t k) { return at(k) >= 0x80 && at(k) <= 0xBF; };
  const unsigned c = at(0);
  if (c >= 0xC2 && c <= 0xDF) return tail(1) ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    const unsigned lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
    return at(1) >= lo && at(1) <= hi && tail(2) ? 3 : 0;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    const unsigned lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
    return at(1) >= lo && at(1) <= hi && tail(2) && tail(3) ? 4 : 0;
  }
  return 0;
}

// A JSON string as nlohmann dumps one (ensure_ascii off): '"', '\\' and the control
// characters escaped (\b \t \n \f \r, else \u00xx), every other byte as it is; a byte that
// starts no well-formed UTF-8 sequence becomes U+FFFD. Runs of plain bytes are copied at once.
void PutString(std::string& out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  size_t run = 0;  // the first byte not yet copied
  size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\' && c < 0x80) {
      ++i;
      continue;
    }
    if (c >= 0x80) {
      if (const size_t n = Utf8Length(s, i); n > 0) {
        i += n;
        continue;
      }
    }
    out.append(s.data() + run, i - run);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\t': out += "\\t"; break;
      case '\n': out += "\\n"; break;
      case '\f': out += "\\f"; break;
      case '\r': out += "\\r"; break;
      default:
        if (c < 0x20) {
          const char esc[] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 15]};
          out.append(esc, sizeof esc);
        } else {
          out += "\xEF\xBF\xBD";  // U+FFFD for a byte of broken UTF-8
        }
    }
    run = ++i;
  }
  out.append(s.data() + run, s.size() - run);
  out += '"';
}

void Put(std::string& out, std::string_view v) { PutString(out, v); }
void Put(std::string& out, const std::string& v) { PutString(out, v); }
void Put(std::string& out, bool v) { out += v ? "true" : "false"; }

template <class Int>
  requires std::is_integral_v<Int>
void PutInteger(std::string& out, Int v) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, static_cast<size_t>(r.ptr - buf));
}
void Put(std::string& out, int64_t v) { PutInteger(out, v); }
void Put(std::string& out, uint64_t v) { PutInteger(out, v); }

void Put(std::string& out, double v) {
  if (!std::isfinite(v)) {  // JSON has no NaN or infinity; nlohmann wrote null
    out += "null";
    return;
  }
  char buf[64];
  const char* end = nlohmann::detail::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, static_cast<size_t>(end - buf));
}

void Put(std::string& out, const std::vector<std::string>& v) {
  out += '[';
  for (size_t i = 0; i < v.size(); ++i) {
    if (i > 0) out += ',';
    PutString(out, v[i]);
  }
  out += ']';
}

// A std::map's order is the bytewise order of its keys, as a JSON object's in nlohmann.
void Put(std::string& out, const Counters& v) {
  out += '{';
  bool first = true;
  for (const auto& [name, value] : v) {
    if (!first) out += ',';
    first = false;
    PutString(out, name);
    out += ':';
    PutInteger(out, value);
  }
  out += '}';
}

// One key of an event and where its value is (null: the field has none), with the writer of
// its type. An event's slots are collected in the field table's order (trace/event_fields.h)
// and written in the order of their keys.
struct Slot {
  std::string_view key;
  const void* value;
  void (*put)(std::string&, const void*);
};

template <class T>
void PutErased(std::string& out, const void* value) {
  Put(out, *static_cast<const T*>(value));
}

constexpr size_t kMaxSlots = 32;  // more keys than any event has (AttemptEnd: 16)

struct Slots {
  Slot slot[kMaxSlots];
  size_t n = 0;

  template <class T>
  void Add(std::string_view key, const T* value) {
    if (n == kMaxSlots) std::abort();  // an event with more fields than kMaxSlots: raise it
    slot[n++] = Slot{key, value, &PutErased<T>};
  }
  template <class T>
  void operator()(const char* key, const std::optional<T>& value) {
    Add<T>(key, value ? &*value : nullptr);
  }
};

template <class S>
void Collect(const S& ev, const std::string_view& name, Slots& slots) {
  slots.Add("event", &name);
  slots.Add("t", &ev.t);
  slots.Add("job", &ev.job);
  internal::Fields(ev, slots);
}

// The slots of an S in the order of their keys, computed once per type. A key is written
// as it is, so every key must be a plain name (checked here, on the first event of a type).
template <class S>
const std::vector<uint8_t>& KeyOrder() {
  static const std::vector<uint8_t> order = [] {
    const S blank{};
    const std::string_view no_name;
    Slots slots;
    Collect(blank, no_name, slots);
    std::vector<uint8_t> out(slots.n);
    for (size_t i = 0; i < slots.n; ++i) {
      out[i] = static_cast<uint8_t>(i);
      for (char c : slots.slot[i].key) {
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) std::abort();
      }
    }
    std::sort(out.begin(), out.end(),
              [&](uint8_t a, uint8_t b) { return slots.slot[a].key < slots.slot[b].key; });
    return out;
  }();
  return order;
}

template <class S>
void PutEvent(std::string& out, const S& ev, std::string_view name) {
  const std::vector<uint8_t>& order = KeyOrder<S>();
  Slots slots;
  Collect(ev, name, slots);
  out += '{';
  bool first = true;
  for (const uint8_t i : order) {
    const Slot& s = slots.slot[i];
    if (s.value == nullptr) continue;
    if (!first) out += ',';
    first = false;
    out += '"';
    out += s.key;
    out += "\":";
    s.put(out, s.value);
  }
  out += '}';
}

}  // namespace

void AppendEventJson(const Event& e, std::string& out) {
  std::visit([&](const auto& ev) { PutEvent(out, ev, NameOf(e)); }, e);
}

std::string EventJson(const Event& e) {
  std::string out;
  AppendEventJson(e, out);
  return out;
}

std::string EventsJsonArray(const std::vector<Event>& events) {
  std::string out = "[";
  for (size_t i = 0; i < events.size(); ++i) {
    if (i > 0) out += ',';
    AppendEventJson(events[i], out);
  }
  out += ']';
  return out;
}

}  // namespace mr::trace
