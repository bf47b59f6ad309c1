// The trace writer formats each event straight into a buffer (trace/writer.cc); until issue
// 29 it built a nlohmann::json object per event and dumped it. Every consumer (`mr trace`,
// `mr model`, the web pages, the bench scripts) reads those bytes, so the new lines must be
// the old ones. The old path is kept here, built from the same field table
// (trace/event_fields.h), as the reference: for every event type and random field values
// (strings that need escapes, multi-byte UTF-8, extreme and negative integers, doubles of
// every magnitude, -0.0, NaN and infinities, empty and full lists and counters) the new line
// is the old dump byte for byte, and parses to the same JSON.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "trace/event_fields.h"
#include "trace/reader.h"
#include "trace/writer.h"

namespace mr::trace {
namespace {

using nlohmann::json;

// ---- The old writer: a json object per event, keys sorted by nlohmann's std::map. ----
struct OldPut {
  json& out;
  template <class T>
  void operator()(const char* key, const std::optional<T>& value) {
    if (value) out[key] = *value;
  }
};

json OldJson(const Event& e) {
  json out = json::object();
  out["event"] = std::string(NameOf(e));
  std::visit(
      [&](const auto& ev) {
        out["t"] = ev.t;
        out["job"] = ev.job;
        OldPut put{out};
        internal::Fields(ev, put);
      },
      e);
  return out;
}

// ---- Random values of every kind a field has. ----
class Values {
 public:
  explicit Values(uint64_t seed) : rng_(seed) {}

  bool Coin(double p) { return std::bernoulli_distribution(p)(rng_); }
  size_t Below(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng_); }

  std::string String() {
    static const std::vector<std::string> kPieces = {
        "a", "Z", "0", " ", "m-00003", "job-000007", "\"", "\\", "/", "\b", "\f", "\n", "\r", "\t",
        std::string(1, '\0'), "\x01", "\x1f", "\x7f", "\xC3\xA9" /* é */, "\xE2\x82\xAC" /* € */,
        "\xF0\x9F\x98\x80" /* U+1F600 */, "\xEF\xBF\xBF" /* U+FFFF */, "\xF4\x8F\xBF\xBF" /* U+10FFFF */,
        "\xE0\xA0\x80" /* U+0800 */, "\xED\x9F\xBF" /* U+D7FF */, "\xC2\x80" /* U+0080 */, "{\"k\":[1,2]}",
        "exit 3: no such file"};
    std::string s;
    for (size_t n = Below(9); n > 0; --n) s += kPieces[Below(kPieces.size())];
    return s;
  }

  int64_t Int() {
    switch (Below(5)) {
      case 0: return std::numeric_limits<int64_t>::min();
      case 1: return std::numeric_limits<int64_t>::max();
      case 2: return static_cast<int64_t>(rng_());
      case 3: return -static_cast<int64_t>(Below(1000));
      default: return static_cast<int64_t>(Below(100000));
    }
  }

  uint64_t Uint() {
    switch (Below(3)) {
      case 0: return std::numeric_limits<uint64_t>::max();
      case 1: return rng_();
      default: return Below(1 << 20);
    }
  }

  double Double() {
    static const double kSpecial[] = {0.0,
                                      -0.0,
                                      2.0,
                                      -3.0,
                                      1e15,
                                      1e16,
                                      1e17,
                                      123456789012345678.0,
                                      0.1,
                                      1e-4,
                                      1e-5,
                                      5e-324,
                                      std::numeric_limits<double>::min(),
                                      std::numeric_limits<double>::max(),
                                      -std::numeric_limits<double>::max(),
                                      1795312633.1657953,
                                      std::numeric_limits<double>::quiet_NaN(),
                                      std::numeric_limits<double>::infinity(),
                                      -std::numeric_limits<double>::infinity()};
    switch (Below(4)) {
      case 0: return kSpecial[Below(std::size(kSpecial))];
      case 1: {  // any bit pattern (a NaN or an infinity now and then)
        return std::bit_cast<double>(static_cast<uint64_t>(rng_()));
      }
      case 2:
        return std::ldexp(std::uniform_real_distribution<double>(-1, 1)(rng_), static_cast<int>(Below(200)) - 100);
      default: return 1.79e9 + std::uniform_real_distribution<double>(0, 1e6)(rng_);  // an epoch time
    }
  }

  void Set(std::optional<std::string>& v) { v = String(); }
  void Set(std::optional<int64_t>& v) { v = Int(); }
  void Set(std::optional<uint64_t>& v) { v = Uint(); }
  void Set(std::optional<double>& v) { v = Double(); }
  void Set(std::optional<bool>& v) { v = Coin(0.5); }
  void Set(std::optional<std::vector<std::string>>& v) {
    v.emplace();
    for (size_t n = Below(5); n > 0; --n) v->push_back(String());
  }
  void Set(std::optional<Counters>& v) {
    v.emplace();
    for (size_t n = Below(5); n > 0; --n) (*v)[String()] = Int();
  }

 private:
  std::mt19937_64 rng_;
};

// Sets each optional field (or leaves it empty) at random.
struct Randomize {
  Values& values;
  template <class T>
  void operator()(const char*, std::optional<T>& v) {
    if (values.Coin(0.75)) values.Set(v);
  }
};

template <size_t... I>
Event Blank(size_t index, std::index_sequence<I...>) {
  Event out;
  ((index == I ? (void)out.emplace<I>() : (void)0), ...);
  return out;
}

Event RandomEvent(size_t type, Values& values) {
  Event e = Blank(type, std::make_index_sequence<kEventTypes>());
  std::visit(
      [&](auto& ev) {
        ev.t = values.Coin(0.9) ? 1.79e9 + static_cast<double>(values.Below(1000000)) / 7.0 : values.Double();
        ev.job = values.Coin(0.9) ? "job-000042" : values.String();
        Randomize r{values};
        internal::Fields(ev, r);
      },
      e);
  if (auto* u = std::get_if<Unknown>(&e)) u->name = values.String();
  return e;
}

TEST(EventJsonTest, EveryTypeWithRandomFieldsIsTheOldDumpByteForByte) {
  Values values(20261129);
  size_t compared = 0;
  for (size_t type = 0; type < static_cast<size_t>(kEventTypes); ++type) {
    for (int round = 0; round < 400; ++round) {
      const Event e = RandomEvent(type, values);
      const std::string old_line = OldJson(e).dump();
      const std::string line = EventJson(e);
      ASSERT_EQ(line, old_line) << EventTypeName(static_cast<EventType>(type)) << " round " << round;
      // Parsed, too (the test above implies it; this is what a consumer sees).
      ASSERT_EQ(json::parse(line), json::parse(old_line));
      // Appending keeps what the buffer held.
      std::string buffer = "prefix\n";
      AppendEventJson(e, buffer);
      ASSERT_EQ(buffer, "prefix\n" + old_line);
      ++compared;
    }
  }
  EXPECT_EQ(compared, 400u * kEventTypes);
}

// Every field of every type set at once: each key appears, in the order of the keys.
TEST(EventJsonTest, EveryFieldSetIsTheOldDump) {
  Values values(7);
  for (size_t type = 0; type < static_cast<size_t>(kEventTypes); ++type) {
    Event e = Blank(type, std::make_index_sequence<kEventTypes>());
    std::visit(
        [&](auto& ev) {
          ev.t = 1795312633.25;
          ev.job = "job-000001";
          auto all = [&](const char*, auto& v) { values.Set(v); };
          internal::Fields(ev, all);
        },
        e);
    if (auto* u = std::get_if<Unknown>(&e)) u->name = "from_the_future";
    EXPECT_EQ(EventJson(e), OldJson(e).dump()) << EventTypeName(static_cast<EventType>(type));
  }
}

TEST(EventJsonTest, ArrayIsTheOldDump) {
  Values values(11);
  EXPECT_EQ(EventsJsonArray({}), "[]");
  for (int round = 0; round < 50; ++round) {
    std::vector<Event> events;
    json old = json::array();
    for (size_t n = values.Below(6); n > 0; --n) {
      events.push_back(RandomEvent(values.Below(kEventTypes), values));
      old.push_back(OldJson(events.back()));
    }
    ASSERT_EQ(EventsJsonArray(events), old.dump());
  }
}

// What the reader makes of the new bytes is what it made of the old: the typed events of
// lines with finite numbers survive writer -> reader -> writer unchanged.
TEST(EventJsonTest, TheReaderReadsTheNewLinesBack) {
  Values values(3);
  for (size_t type = 0; type < static_cast<size_t>(kEventTypes); ++type) {
    for (int round = 0; round < 100; ++round) {
      Event e = RandomEvent(type, values);
      std::visit([](auto& ev) { ev.t = std::isfinite(ev.t) ? ev.t : 1.79e9; }, e);  // a line needs its t
      const std::string line = EventJson(e);
      Result<Event> read = ParseEvent(line);
      ASSERT_TRUE(read.ok()) << line;
      EXPECT_EQ(read->index(), e.index());
      if (line.find("null") == std::string::npos) {  // a non-finite double is read as absent
        Result<Event> old_read = ParseEvent(OldJson(e).dump());
        ASSERT_TRUE(old_read.ok());
        EXPECT_EQ(EventJson(*read), EventJson(*old_read)) << line;
      }
    }
  }
}

// Bytes that are not UTF-8 broke the old path (nlohmann throws from dump(), on the master's
// trace thread); the new one writes U+FFFD for each such byte and the line stays JSON.
TEST(EventJsonTest, BrokenUtf8BecomesTheReplacementCharacter) {
  const std::string bad[] = {"\xFF", "\xC0\xAF", "\xED\xA0\x80", "\xE2\x82", "\xF5\x80\x80\x80", "\x80"};
  const std::string r = "\xEF\xBF\xBD";
  const std::string want[] = {r, r + r, r + r + r, r + r, r + r + r + r, r};
  for (size_t i = 0; i < std::size(bad); ++i) {
    const Event e = Reexecute{.t = 1, .job = "job-000001", .reason = "a" + bad[i] + "b"};
    EXPECT_THROW(OldJson(e).dump(), json::type_error) << i;
    const json parsed = json::parse(EventJson(e));
    EXPECT_EQ(parsed.at("reason").get<std::string>(), "a" + want[i] + "b") << i;
  }
}

}  // namespace
}  // namespace mr::trace
