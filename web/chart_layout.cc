#include "web/chart_layout.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <queue>
#include <set>
#include <tuple>

#include "common/units.h"
#include "trace/attempts.h"

namespace mr::web {

namespace {

std::string Seconds(double s) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f s", s);
  return buf;
}

// An attempt as the chart draws it.
struct AttemptView {
  std::string task;
  int attempt = 0;
  int worker = 0;
  std::string slot;
  double start = 0, end = 0;
  bool ended = false;
  std::string status, error;
  uint64_t bytes_in = 0, bytes_out = 0, records_in = 0, records_out = 0;
  std::vector<std::pair<std::string, std::string>> counters;  // spills, combine.*, user.*
};

struct Fetch {
  std::string reducer, map;
  int src = 0, dst = 0;
  double start = 0, end = 0;
  bool ended = false;
  std::string status;
  uint64_t bytes = 0;
};

// The chart's view of one attempt: worker and slot from its last event (the slot from
// the task when no event has one); the worker-measured start, else its assignment. An
// attempt a master restart found running ends there, lost.
AttemptView View(const trace::Attempt& a) {
  AttemptView v;
  v.task = a.task;
  v.attempt = static_cast<int>(a.attempt);
  v.slot = a.task.rfind("r-", 0) == 0 ? "reduce" : "map";
  if (a.started) {
    v.worker = static_cast<int>(a.started->worker.value_or(0));
    if (a.started->slot) v.slot = *a.started->slot;
    v.start = a.started->t;
  }
  if (const auto& e = a.ended) {
    v.worker = static_cast<int>(e->worker.value_or(0));
    if (e->slot) v.slot = *e->slot;
    v.ended = true;
    v.end = e->t;
    v.start = e->start.value_or(a.started ? a.started->t : e->t);
    v.status = e->status.value_or("ok");
    v.error = e->error.value_or("");
    v.bytes_in = e->bytes_in.value_or(0);
    v.bytes_out = e->bytes_out.value_or(0);
    v.records_in = e->records_in.value_or(0);
    v.records_out = e->records_out.value_or(0);
    for (const auto& [name, value] : e->counters.value_or(trace::Counters{})) {
      v.counters.emplace_back(name, std::to_string(value));
    }
  } else if (a.restart) {
    // The attempts the old master was waiting for died with it (the workers cancel them
    // when they register again): they end here, lost, not at the end of the trace.
    v.ended = true;
    v.end = *a.restart;
    v.status = "lost";
    v.error = "master restarted";
  }
  return v;
}

Fetch NewFetch(const std::tuple<std::string, std::string, int>& key, int dst, double start) {
  Fetch f;
  std::tie(f.reducer, f.map, f.src) = key;
  f.dst = dst;
  f.start = start;
  return f;
}

std::tuple<std::string, std::string, int> FetchKey(const std::optional<std::string>& task,
                                                   const std::optional<std::string>& map,
                                                   const std::optional<int64_t>& src) {
  return {task.value_or(""), map.value_or(""), static_cast<int>(src.value_or(0))};
}

// fetch_start and fetch_end paired first in, first out per (reducer, map, source).
std::vector<Fetch> CollectFetches(const std::vector<trace::Event>& events) {
  std::map<std::string, int> reducer_worker;  // from reduce_place
  for (const auto& ev : events) {
    if (const auto* p = std::get_if<trace::ReducePlace>(&ev)) {
      reducer_worker[p->task.value_or("")] = static_cast<int>(p->worker.value_or(0));
    }
  }
  std::vector<Fetch> out;
  std::map<std::tuple<std::string, std::string, int>, std::vector<size_t>> open;
  for (const auto& ev : events) {
    if (const auto* r = std::get_if<trace::MasterRestart>(&ev)) {  // fetches in flight died with their reducers
      for (auto& [key, pending] : open) {
        for (size_t i : pending) {
          out[i].ended = true;
          out[i].end = r->t;
          out[i].status = "lost";
        }
        pending.clear();
      }
    } else if (const auto* s = std::get_if<trace::FetchStart>(&ev)) {
      auto key = FetchKey(s->task, s->map, s->src_worker);
      auto rw = reducer_worker.find(std::get<0>(key));
      open[key].push_back(out.size());
      out.push_back(NewFetch(key, rw == reducer_worker.end() ? 0 : rw->second, s->t));
    } else if (const auto* e = std::get_if<trace::FetchEnd>(&ev)) {
      auto key = FetchKey(e->task, e->map, e->src_worker);
      auto& pending = open[key];
      if (pending.empty()) {
        pending.push_back(out.size());
        out.push_back(NewFetch(key, 0, 0));
      }
      Fetch& f = out[pending.front()];
      pending.erase(pending.begin());
      f.ended = true;
      f.end = e->t;
      f.start = e->start.value_or(f.start == 0 ? f.end : f.start);
      if (e->worker) f.dst = static_cast<int>(*e->worker);
      f.status = e->status.value_or("ok");
      f.bytes = e->bytes.value_or(0);
    }
  }
  return out;
}

int SlotOrder(const std::string& slot) {
  if (slot == "map") return 0;
  if (slot == "reduce") return 1;
  if (slot == "unified") return 2;
  return 3;
}

std::string AttemptTooltip(const AttemptView& a, double s, double e) {
  std::string t = a.task + " attempt " + std::to_string(a.attempt) + "\nworker " + std::to_string(a.worker) +
                  ", " + a.slot + " slot\n" + Seconds(s) + " – " + Seconds(e) + " (" + Seconds(e - s) + ")";
  if (!a.ended) return t + "\nrunning";
  t += "\nin " + FormatBytes(static_cast<double>(a.bytes_in)) + ", " + std::to_string(a.records_in) + " records";
  t += "\nout " + FormatBytes(static_cast<double>(a.bytes_out)) + ", " + std::to_string(a.records_out) + " records";
  for (const auto& [name, value] : a.counters) t += "\n" + name + " " + value;
  t += "\nstatus " + a.status;
  if (!a.error.empty()) t += ": " + a.error;
  return t;
}

std::string FetchTooltip(const Fetch& f, double s, double e) {
  std::string t = f.reducer + " ← " + f.map + "\nw" + std::to_string(f.src) + "→w" + std::to_string(f.dst) + "\n" +
                  Seconds(s) + " – " + Seconds(e) + " (" + Seconds(e - s) + ")";
  if (!f.ended) return t + "\nrunning";
  t += "\n" + FormatBytes(static_cast<double>(f.bytes));
  if (e > s) t += " at " + FormatBytes(static_cast<double>(f.bytes) / (e - s)) + "/s";
  return t + "\nstatus " + f.status;
}

// A group of bars that share lanes before packing: one (worker, slot) or one link.
struct Group {
  std::tuple<int, int, int, int> order;  // sort key: attempts first, then links
  std::string slot;
  int worker = 0, src = 0;
  std::vector<Bar> bars;
};

void AddLanes(Group& g, ChartLayout& out) {
  std::sort(g.bars.begin(), g.bars.end(), [](const Bar& a, const Bar& b) {
    return std::tie(a.start, a.end, a.label) < std::tie(b.start, b.end, b.label);
  });
  std::vector<std::pair<double, double>> iv;
  for (const auto& b : g.bars) iv.emplace_back(b.start, b.end);
  std::vector<int> sub = PackIntervals(iv);
  int n = sub.empty() ? 0 : *std::max_element(sub.begin(), sub.end()) + 1;
  int base = static_cast<int>(out.lanes.size());
  for (int i = 0; i < n; ++i) {
    Lane l;
    l.slot = g.slot;
    l.worker = g.worker;
    l.src_worker = g.src;
    l.index = i;
    std::string w = "w" + std::to_string(g.worker);
    if (g.slot == "shuffle") {
      std::string link = "w" + std::to_string(g.src) + "→" + w;
      l.id = "w" + std::to_string(g.src) + "-" + w + "-shuffle-" + std::to_string(i);
      l.label = link + " shuffle" + (i == 0 ? "" : " (" + std::to_string(i + 1) + ")");
    } else {
      l.id = w + "-" + g.slot + "-" + std::to_string(i);
      l.label = w + " " + g.slot + " " + std::to_string(i);
    }
    out.lanes.push_back(std::move(l));
  }
  for (size_t i = 0; i < g.bars.size(); ++i) {
    g.bars[i].lane = base + sub[i];
    out.bars.push_back(std::move(g.bars[i]));
  }
}

void LayoutBars(const std::vector<trace::Event>& events, double last_t, ChartLayout& out) {
  std::map<std::tuple<int, int, int, int>, Group> groups;
  for (const trace::Attempt& traced : trace::CollectAttempts(events)) {
    const AttemptView a = View(traced);
    Bar b;
    b.start = a.start - out.origin;
    b.end = std::max(b.start, (a.ended ? a.end : last_t) - out.origin);
    b.running = !a.ended;
    b.kind = a.ended && a.status == "killed" ? BarKind::kKilled
             : a.ended && a.status != "ok"    ? BarKind::kFailed
             : a.task.rfind("r-", 0) == 0     ? BarKind::kReduce
                                              : BarKind::kMap;
    b.label = a.task;
    b.bytes = a.bytes_out;
    b.tooltip = AttemptTooltip(a, b.start, b.end);
    auto key = std::make_tuple(0, a.worker, SlotOrder(a.slot), 0);
    Group& g = groups[key];
    g.slot = a.slot;
    g.worker = a.worker;
    g.bars.push_back(std::move(b));
  }
  for (const Fetch& f : CollectFetches(events)) {
    Bar b;
    b.start = f.start - out.origin;
    b.end = std::max(b.start, (f.ended ? f.end : last_t) - out.origin);
    b.running = !f.ended;
    b.kind = f.ended && f.status != "ok" ? BarKind::kFailed : BarKind::kFetch;
    b.label = f.reducer + " ← " + f.map;
    b.bytes = f.bytes;
    b.tooltip = FetchTooltip(f, b.start, b.end);
    auto key = std::make_tuple(1, f.src, f.dst, 0);
    Group& g = groups[key];
    g.slot = "shuffle";
    g.worker = f.dst;
    g.src = f.src;
    g.bars.push_back(std::move(b));
  }
  for (auto& [key, g] : groups) AddLanes(g, out);
}

// Bytes moved over [start, end] (relative to the origin).
struct Moved {
  double start = 0, end = 0;
  double bytes = 0;
};

// The rate plot's input: the source servers' `served` reports when the trace has any (bytes
// sent, in flight or not, the same reports the measured rate in status reads), else each
// finished fetch's bytes over its span (a trace from before `served` existed).
std::vector<Moved> MovedBytes(const std::vector<trace::Event>& events, const ChartLayout& out) {
  std::vector<Moved> moved;
  for (const auto& ev : events) {
    const auto* s = std::get_if<trace::Served>(&ev);
    if (s == nullptr || s->bytes.value_or(0) == 0) continue;
    moved.push_back({s->start.value_or(s->t) - out.origin, s->t - out.origin, static_cast<double>(*s->bytes)});
  }
  if (!moved.empty()) return moved;
  for (const Bar& b : out.bars) {
    if (b.kind != BarKind::kFetch || b.running || b.bytes == 0) continue;
    moved.push_back({b.start, b.end, static_cast<double>(b.bytes)});
  }
  return moved;
}

void FillRate(int buckets, const std::vector<Moved>& moved, ChartLayout& out) {
  buckets = std::max(buckets, 1);
  out.bucket_seconds = out.duration > 0 ? out.duration / buckets : 1.0 / buckets;
  out.rate_bytes.assign(buckets, 0.0);
  const double w = out.bucket_seconds;
  auto bucket_of = [&](double t) { return std::clamp(static_cast<int>(std::floor(t / w)), 0, buckets - 1); };
  for (const Moved& m : moved) {
    double s = std::max(m.start, 0.0), e = std::max(m.end, s);
    if (e - s <= 0) {
      out.rate_bytes[bucket_of(s)] += m.bytes;
      continue;
    }
    int first = bucket_of(s), last = bucket_of(e);
    for (int i = first; i <= last; ++i) {
      double lo = i == first ? s : i * w;
      double hi = i == last ? e : (i + 1) * w;
      if (hi > lo) out.rate_bytes[i] += m.bytes * (hi - lo) / (e - s);
    }
  }
}

}  // namespace

std::string_view BarKindName(BarKind kind) {
  switch (kind) {
    case BarKind::kMap: return "map";
    case BarKind::kReduce: return "reduce";
    case BarKind::kFetch: return "fetch";
    case BarKind::kFailed: return "failed";
    case BarKind::kKilled: return "killed";
  }
  return "map";
}

std::vector<int> PackIntervals(const std::vector<std::pair<double, double>>& intervals) {
  std::vector<size_t> order(intervals.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return intervals[a] < intervals[b]; });
  using Busy = std::pair<double, int>;  // (end, lane)
  std::priority_queue<Busy, std::vector<Busy>, std::greater<>> busy;
  std::set<int> free;
  int lanes = 0;
  std::vector<int> lane(intervals.size(), 0);
  for (size_t i : order) {
    auto [start, end] = intervals[i];
    while (!busy.empty() && busy.top().first <= start) {
      free.insert(busy.top().second);
      busy.pop();
    }
    int l;
    if (free.empty()) {
      l = lanes++;
    } else {
      l = *free.begin();
      free.erase(free.begin());
    }
    lane[i] = l;
    busy.emplace(std::max(start, end), l);
  }
  return lane;
}

ChartLayout BuildChartLayout(const std::vector<trace::Event>& events, int rate_buckets, double until) {
  ChartLayout out;
  out.status = "running";
  bool have_origin = false;
  double first_t = 0, last_t = 0;
  for (size_t i = 0; i < events.size(); ++i) {
    double t = trace::TimeOf(events[i]);
    first_t = i == 0 ? t : std::min(first_t, t);
    last_t = i == 0 ? t : std::max(last_t, t);
  }
  out.origin = first_t;
  if (!events.empty()) last_t = std::max(last_t, until);
  for (const auto& ev : events) {
    if (out.job.empty()) out.job = trace::JobOf(ev);
    if (const auto* s = std::get_if<trace::JobSubmit>(&ev); s && !have_origin) {
      have_origin = true;
      out.origin = s->t;
      out.name = s->name.value_or("");
      out.kind = s->kind.value_or("");
      out.policy = s->policy.value_or("");
    } else if (const auto* e = std::get_if<trace::JobEnd>(&ev)) {
      // The chart ends with the job: reports that arrive after it (the last `served`
      // interval) do not stretch the axis.
      last_t = e->t;
      out.status = e->status.value_or("done");
      out.error = e->error.value_or("");
      out.response_time = e->response_time.value_or(e->t - out.origin);
      if (e->counters) out.counters = *e->counters;
    } else if (const auto* sh = std::get_if<trace::Share>(&ev)) {
      out.shares.emplace_back(sh->t - out.origin, sh->share.value_or(0));
    } else if (const auto* d = std::get_if<trace::Decision>(&ev)) {
      Decision row;
      row.t = d->t - out.origin;
      row.worker = static_cast<int>(d->worker.value_or(0));
      row.policy = d->policy.value_or("");
      row.note = d->note.value_or("");
      row.tasks = d->tasks.value_or(std::vector<std::string>{});
      out.decisions.push_back(std::move(row));
    }
  }
  out.duration = std::max(0.0, last_t - out.origin);
  std::stable_sort(out.shares.begin(), out.shares.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::stable_sort(out.decisions.begin(), out.decisions.end(),
                   [](const Decision& a, const Decision& b) { return a.t < b.t; });
  LayoutBars(events, last_t, out);
  FillRate(rate_buckets, MovedBytes(events, out), out);
  return out;
}

}  // namespace mr::web
