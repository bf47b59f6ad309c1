#include "trace/attempts.h"

#include <algorithm>
#include <map>
#include <utility>

namespace mr::trace {

std::optional<TaskRef> ParseTaskId(std::string_view id) {
  if (id.size() < 3 || id.size() > 11 || (id[0] != 'm' && id[0] != 'r') || id[1] != '-') return std::nullopt;
  int index = 0;
  for (char c : id.substr(2)) {
    if (c < '0' || c > '9') return std::nullopt;
    index = index * 10 + (c - '0');
  }
  return TaskRef{id[0], index};
}

namespace {

struct Slot {
  Attempt attempt;
  size_t first = 0;        // position of its first event
  std::optional<size_t> end_at;  // position of its (last) attempt_end
};

}  // namespace

std::vector<Attempt> CollectAttempts(const std::vector<Event>& events) {
  std::vector<Slot> slots;
  std::map<std::pair<std::string, int64_t>, size_t> index;
  auto find = [&](const std::optional<std::string>& task, const std::optional<int64_t>& attempt, size_t at) -> Slot& {
    auto key = std::make_pair(task.value_or(""), attempt.value_or(0));
    auto [it, fresh] = index.emplace(key, slots.size());
    if (fresh) {
      slots.emplace_back();
      slots.back().attempt.task = key.first;
      slots.back().attempt.ref = ParseTaskId(key.first);
      slots.back().attempt.attempt = key.second;
      slots.back().first = at;
    }
    return slots[it->second];
  };
  for (size_t i = 0; i < events.size(); ++i) {
    if (const auto* s = std::get_if<AttemptStart>(&events[i])) {
      Slot& slot = find(s->task, s->attempt, i);
      if (!slot.attempt.ended) slot.attempt.started = *s;
    } else if (const auto* e = std::get_if<AttemptEnd>(&events[i])) {
      Slot& slot = find(e->task, e->attempt, i);
      slot.attempt.ended = *e;
      slot.end_at = i;
    } else if (const auto* r = std::get_if<MasterRestart>(&events[i])) {
      for (Slot& slot : slots) {
        if (!slot.attempt.ended && !slot.attempt.restart) slot.attempt.restart = r->t;
      }
    }
  }
  std::stable_sort(slots.begin(), slots.end(), [](const Slot& a, const Slot& b) {
    if (a.end_at.has_value() != b.end_at.has_value()) return a.end_at.has_value();
    return a.end_at ? *a.end_at < *b.end_at : a.first < b.first;
  });
  std::vector<Attempt> out;
  out.reserve(slots.size());
  for (Slot& slot : slots) out.push_back(std::move(slot.attempt));
  return out;
}

}  // namespace mr::trace
