#include "scheduler/policies/capacity_queues.h"

#include <cctype>
#include <charconv>
#include <cmath>

#include "common/file_util.h"
#include "common/units.h"

namespace mr::sched {
namespace {

constexpr size_t kMaxQueueName = 63;
constexpr std::string_view kDefault = "default";

std::vector<std::string_view> Tokens(std::string_view line) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    const size_t start = i;
    while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

bool ValidName(std::string_view name) {
  if (name.empty() || name.size() > kMaxQueueName) return false;
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-') return false;
  }
  return true;
}

// "30", "30%", "12.5": a percentage in [lo, 100] ((lo, 100] when lo_open); an error message or "".
std::string ParsePercent(std::string_view key, std::string_view text, double lo, bool lo_open, double* out) {
  std::string_view digits = text;
  if (!digits.empty() && digits.back() == '%') digits.remove_suffix(1);
  double v = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  const bool parsed = !digits.empty() && ec == std::errc() && end == digits.data() + digits.size();
  if (!parsed || !std::isfinite(v) || v < lo || (lo_open && v == lo) || v > 100) {
    return std::string(key) + " must be a percentage in " + (lo_open ? "(" : "[") + FormatNumber(lo, "%g") +
           ", 100], not '" + std::string(text) + "'";
  }
  *out = v;
  return "";
}

// "4": a slot count in [0, 1e6]; an error message or "".
std::string ParseSlots(std::string_view key, std::string_view text, int* out) {
  int v = -1;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || v < 0 || v > 1000000) {
    return std::string(key) + " must be a whole number of slots in [0, 1000000], not '" + std::string(text) + "'";
  }
  *out = v;
  return "";
}

// Applies one "key=value" token; returns an error message or "".
std::string ApplyField(std::string_view tok, QueueConfig* q, bool* has_max) {
  const size_t eq = tok.find('=');
  if (eq == std::string_view::npos) return "expected key=value, got '" + std::string(tok) + "'";
  const std::string_view key = tok.substr(0, eq), value = tok.substr(eq + 1);
  if (key == "capacity") return ParsePercent(key, value, 0, /*lo_open=*/true, &q->capacity);
  if (key == "max_capacity") {
    *has_max = true;
    return ParsePercent(key, value, 0, /*lo_open=*/true, &q->max_capacity);
  }
  if (key == "map_slots") return ParseSlots(key, value, &q->slots[0]);
  if (key == "reduce_slots") return ParseSlots(key, value, &q->slots[1]);
  if (key == "max_map_slots") return ParseSlots(key, value, &q->max_slots[0]);
  if (key == "max_reduce_slots") return ParseSlots(key, value, &q->max_slots[1]);
  if (key == "label") {
    Result<Label> label = ParseLabel(value);
    if (!label.ok()) return "label: " + label.status().message();
    q->label = std::move(*label);
    return "";
  }
  return "unknown key '" + std::string(key) +
         "' (known: capacity, max_capacity, map_slots, reduce_slots, max_map_slots, max_reduce_slots, label)";
}

// Parses one non-empty, comment-free line; returns an error message or "".
std::string ParseLine(std::string_view line, QueueConfig* q) {
  const std::vector<std::string_view> tok = Tokens(line);
  if (tok[0] != "queue") return "expected 'queue NAME key=value...', got '" + std::string(tok[0]) + "'";
  if (tok.size() < 2 || tok[1].find('=') != std::string_view::npos) return "missing queue name";
  if (!ValidName(tok[1])) {
    return "queue name '" + std::string(tok[1]) + "' must be 1..63 bytes of [A-Za-z0-9._-]";
  }
  q->name = std::string(tok[1]);
  bool has_max = false;
  for (size_t i = 2; i < tok.size(); ++i) {
    std::string err = ApplyField(tok[i], q, &has_max);
    if (!err.empty()) return err;
  }
  const std::string who = "queue '" + q->name + "'";
  const bool any_slots = q->slots[0] >= 0 || q->slots[1] >= 0 || q->max_slots[0] >= 0 || q->max_slots[1] >= 0;
  if (q->bound() && (q->capacity > 0 || has_max || any_slots)) {
    return who + ": label= binds it to its workers; capacity= and the slot counts are for the other queues";
  }
  if (any_slots) {
    if (q->capacity > 0 || has_max) return who + ": capacity= or map_slots=/reduce_slots=, not both";
    if (q->slots[0] < 0 || q->slots[1] < 0) return who + ": map_slots= and reduce_slots= go together";
    for (int k : {0, 1}) {
      if (q->max_slots[k] >= 0 && q->max_slots[k] < q->slots[k]) {
        return who + ": " + (k == 0 ? "max_map_slots " : "max_reduce_slots ") + std::to_string(q->max_slots[k]) +
               " is below its guarantee " + std::to_string(q->slots[k]);
      }
    }
    return "";
  }
  if (!q->bound() && q->capacity <= 0) {
    return who + " needs capacity=PERCENT, map_slots=N reduce_slots=N or label=KEY=VALUE";
  }
  if (has_max && q->max_capacity < q->capacity) {
    return who + ": max_capacity " + FormatNumber(q->max_capacity, "%g") + " is below its capacity " +
           FormatNumber(q->capacity, "%g");
  }
  return "";
}

// Another queue of `queues` with q's name or q's label: an error message, or "".
std::string Duplicate(const std::vector<QueueConfig>& queues, const QueueConfig& q) {
  for (const QueueConfig& p : queues) {
    if (p.name == q.name) return "queue '" + q.name + "' defined twice";
    if (q.bound() && p.bound() && *p.label == *q.label) {
      return "label " + q.label->key + "=" + q.label->value + " is bound to queue '" + p.name + "' already";
    }
  }
  return "";
}

}  // namespace

CapacityQueues::CapacityQueues() {
  QueueConfig q;
  q.name = std::string(kDefault);
  q.capacity = 100;
  queues_.push_back(std::move(q));
}

Result<CapacityQueues> CapacityQueues::Parse(std::string_view text, std::string_view source) {
  CapacityQueues table;
  table.queues_.clear();
  int line_no = 0;
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    ++line_no;
    line = line.substr(0, line.find('#'));
    if (Tokens(line).empty()) continue;
    QueueConfig q;
    std::string err = ParseLine(line, &q);
    if (err.empty()) err = Duplicate(table.queues_, q);
    if (err.empty() && !q.bound()) {
      for (const QueueConfig& p : table.queues_) {
        if (!p.bound() && p.in_slots() != q.in_slots()) {
          err = "queue '" + q.name + "' gives its guarantee in " + (q.in_slots() ? "slots" : "capacity=") +
                ", queue '" + p.name + "' in " + (p.in_slots() ? "slots" : "capacity=") + ": one way for every queue";
          break;
        }
      }
    }
    if (!err.empty()) {
      return Status::InvalidArgument(std::string(source) + ":" + std::to_string(line_no) + ": " + err);
    }
    table.queues_.push_back(std::move(q));
  }
  if (table.queues_.empty()) return Status::InvalidArgument(std::string(source) + ": no queue defined");
  double sum = 0;
  std::string parts;
  for (const QueueConfig& q : table.queues_) {
    if (q.bound() || q.in_slots()) continue;
    sum += q.capacity;
    parts += (parts.empty() ? "" : ", ") + q.name + " " + FormatNumber(q.capacity, "%g") + "%";
  }
  // A tolerance for decimals that a planner wrote (33.333 three times) and that sum to 100.
  if (sum > 100 + 1e-6) {
    return Status::InvalidArgument(std::string(source) + ": the queues' capacities sum to " +
                                   FormatNumber(sum, "%g") + "% (" + parts + "), more than 100%");
  }
  return table;
}

Result<CapacityQueues> CapacityQueues::Load(const std::string& path) {
  MR_ASSIGN_OR_RETURN(std::string text, ReadFileToString(path));
  return Parse(text, path);
}

int CapacityQueues::Find(std::string_view queue) const {
  if (queue.empty()) queue = kDefault;
  for (size_t i = 0; i < queues_.size(); ++i) {
    if (queues_[i].name == queue) return static_cast<int>(i);
  }
  return -1;
}

Status CapacityQueues::Check(std::string_view queue) const {
  if (Find(queue) >= 0) return Status::Ok();
  if (queue.empty()) {
    return Status::InvalidArgument("the job names no queue and there is no 'default' queue (known: " + Names() + ")");
  }
  return Status::InvalidArgument("unknown queue '" + std::string(queue) + "' (known: " + Names() + ")");
}

std::string CapacityQueues::Names() const {
  std::string out;
  for (const QueueConfig& q : queues_) out += (out.empty() ? "" : ", ") + q.name;
  return out;
}

}  // namespace mr::sched
