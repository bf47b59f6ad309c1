#include "experiment/cluster_shape.h"

#include <algorithm>
#include <string>
#include <vector>

namespace mr::experiment {

namespace {

// straggler: {offset: 2s, rate: 0.5, tail: exp|pareto, seed: 7, shape: 3}: offset and rate
// required; tail exp, seed 1, shape 3 (pareto only) by default.
Result<StragglerSpec> ParseStraggler(const YamlNode& node) {
  if (!node.IsMap()) return node.Error("straggler is a map (offset, rate, tail, seed, shape)");
  MR_RETURN_IF_ERROR(node.CheckMap({"offset", "rate", "tail", "seed", "shape"}));
  StragglerSpec s;
  s.enabled = true;
  s.seed = 1;
  MR_ASSIGN_OR_RETURN(YamlNode offset, node.Require("offset"));
  MR_ASSIGN_OR_RETURN(s.offset, offset.Duration());
  MR_ASSIGN_OR_RETURN(YamlNode rate, node.Require("rate"));
  MR_ASSIGN_OR_RETURN(s.rate, rate.Number(0, 1e6, /*min_open=*/true));
  if (auto v = node.Get("tail")) {
    MR_ASSIGN_OR_RETURN(std::string tail, v->Text());
    Result<StragglerTail> parsed = ParseStragglerTail(tail);
    if (!parsed.ok()) return v->Error("must be exp or pareto, got '" + tail + "'");
    s.tail = *parsed;
  }
  if (auto v = node.Get("seed")) {
    MR_ASSIGN_OR_RETURN(int64_t seed, v->Int(0, INT64_MAX));
    s.seed = static_cast<uint64_t>(seed);
  }
  if (auto v = node.Get("shape")) {
    if (s.tail != StragglerTail::kPareto) return v->Error("shape applies to the pareto tail only");
    MR_ASSIGN_OR_RETURN(s.shape, v->Number(1, 1e6, /*min_open=*/true));
  }
  if (Status st = s.Validate(); !st.ok()) return node.Error(st.message());
  return s;
}

// labels: {class: fast, rack: r1}: KEY: VALUE entries, each as `mr worker --label KEY=VALUE`.
Result<WorkerLabels> ParseLabels(const YamlNode& node) {
  if (!node.IsMap()) return node.Error("labels is a map of KEY: VALUE (e.g. {class: fast})");
  MR_ASSIGN_OR_RETURN(auto entries, node.Entries());
  std::vector<Label> labels;
  for (const auto& [key, value] : entries) {
    MR_ASSIGN_OR_RETURN(std::string text, value.Text());
    labels.push_back({key, std::move(text)});
  }
  Result<WorkerLabels> made = WorkerLabels::Make(std::move(labels));
  if (!made.ok()) return node.Error(made.status().message());
  return made;
}

Result<WorkerGroup> ParseGroup(const YamlNode& node) {
  MR_RETURN_IF_ERROR(node.CheckMap({"count", "map_slots", "reduce_slots", "unified_slots", "speed", "shuffle_bandwidth",
                                    "shuffle_link_rate", "fetches_per_source", "receiver_shares", "straggler",
                                    "labels"}));
  WorkerGroup g;
  if (auto v = node.Get("count")) {
    MR_ASSIGN_OR_RETURN(g.count, v->Int(1, 1000));
  }
  if (auto v = node.Get("unified_slots")) {
    MR_ASSIGN_OR_RETURN(g.unified_slots, v->Int(0, 1000));
    // A group that names unified slots has only those unless it names the others too.
    g.map_slots = g.reduce_slots = 0;
  }
  if (auto v = node.Get("map_slots")) {
    MR_ASSIGN_OR_RETURN(g.map_slots, v->Int(0, 1000));
  }
  if (auto v = node.Get("reduce_slots")) {
    MR_ASSIGN_OR_RETURN(g.reduce_slots, v->Int(0, 1000));
  }
  if (auto v = node.Get("speed")) {
    MR_ASSIGN_OR_RETURN(g.speed, v->Number(0, 1000, /*min_open=*/true));
  }
  if (auto v = node.Get("shuffle_bandwidth")) {
    MR_ASSIGN_OR_RETURN(g.shuffle_bandwidth, v->Rate());
  }
  if (auto v = node.Get("shuffle_link_rate")) {  // auto | off | RATE, as mr worker takes it
    MR_ASSIGN_OR_RETURN(g.shuffle_link_rate, v->Text());
    if (g.shuffle_link_rate != "auto" && g.shuffle_link_rate != "off") {
      MR_ASSIGN_OR_RETURN(double rate, v->Rate());
      if (!(rate > 0)) return v->Error("shuffle_link_rate is auto, off or a rate > 0");
      if (g.shuffle_bandwidth > 0) return v->Error("give shuffle_bandwidth or a shuffle_link_rate rate, not both");
    }
  }
  if (auto v = node.Get("fetches_per_source")) {
    MR_ASSIGN_OR_RETURN(g.fetches_per_source, v->Int(1, 16));
  }
  if (auto v = node.Get("receiver_shares")) {
    MR_ASSIGN_OR_RETURN(g.receiver_shares, v->Bool());
  }
  if (auto v = node.Get("straggler")) {
    MR_ASSIGN_OR_RETURN(g.straggler, ParseStraggler(*v));
  }
  if (auto v = node.Get("labels")) {
    MR_ASSIGN_OR_RETURN(g.labels, ParseLabels(*v));
  }
  return g;
}

}  // namespace

Result<ClusterShape> ParseClusterShape(const YamlNode& node) {
  MR_RETURN_IF_ERROR(
      node.CheckMap({"kind", "link", "workers", "heartbeat_ms", "slow_start", "work", "receiver_links"}));
  ClusterShape c;
  if (auto v = node.Get("kind")) {
    MR_ASSIGN_OR_RETURN(std::string kind, v->Text());
    if (kind == ClusterKindName(ClusterKind::kLocal)) {
      c.kind = ClusterKind::kLocal;
    } else if (kind == ClusterKindName(ClusterKind::kNetns)) {
      c.kind = ClusterKind::kNetns;
    } else {
      return v->Error("must be local or netns, got '" + kind + "'");
    }
  }
  if (auto v = node.Get("link")) {
    if (c.kind != ClusterKind::kNetns) return v->Error("link applies to kind: netns only (a local cluster has no links)");
    MR_ASSIGN_OR_RETURN(c.link_rate, v->Rate());
    if (!(c.link_rate > 0)) return v->Error("link must be a positive rate, e.g. 20MB/s");
  } else if (c.kind == ClusterKind::kNetns) {
    return node.Error("kind: netns needs link: RATE (every host's link, e.g. 20MB/s)");
  }
  c.receiver_links = c.kind == ClusterKind::kNetns;
  if (auto v = node.Get("receiver_links")) {
    MR_ASSIGN_OR_RETURN(std::string on, v->Text());
    if (on != "on" && on != "off") return v->Error("must be on or off, got '" + on + "'");
    c.receiver_links = on == "on";
  }
  MR_ASSIGN_OR_RETURN(YamlNode workers, node.Require("workers"));
  MR_ASSIGN_OR_RETURN(std::vector<YamlNode> groups, workers.Items());
  if (groups.empty()) return workers.Error("needs at least one worker group");
  int map_slots = 0, reduce_slots = 0;
  for (const YamlNode& g : groups) {
    MR_ASSIGN_OR_RETURN(WorkerGroup group, ParseGroup(g));
    map_slots += group.count * (group.map_slots + group.unified_slots);
    reduce_slots += group.count * (group.reduce_slots + group.unified_slots);
    c.groups.push_back(group);
  }
  if (map_slots == 0 || reduce_slots == 0) {
    return workers.Error(
        "the cluster needs at least one map slot and one reduce slot (a unified slot is both)");
  }
  if (auto v = node.Get("heartbeat_ms")) {
    MR_ASSIGN_OR_RETURN(int64_t ms, v->Int(1, 60000));
    c.heartbeat_ms = static_cast<uint32_t>(ms);
  }
  if (auto v = node.Get("slow_start")) {
    MR_ASSIGN_OR_RETURN(c.slow_start, v->Number(0, 1));
  }
  if (auto v = node.Get("work")) {
    MR_ASSIGN_OR_RETURN(std::string mode, v->Text());
    if (mode == WorkModeName(WorkMode::kBurn)) {
      c.work = WorkMode::kBurn;
    } else if (mode == WorkModeName(WorkMode::kSleep)) {
      c.work = WorkMode::kSleep;
    } else {
      return v->Error("must be burn or sleep, got '" + mode + "'");
    }
  }
  return c;
}

const char* WorkModeName(WorkMode mode) { return mode == WorkMode::kSleep ? "sleep" : "burn"; }

const char* ClusterKindName(ClusterKind kind) { return kind == ClusterKind::kNetns ? "netns" : "local"; }

double SimulatedShuffleBandwidth(const ClusterShape& shape, const WorkerGroup& group) {
  const double cap = group.shuffle_bandwidth, link = shape.link_rate;
  if (cap > 0 && link > 0) return std::min(cap, link);
  return cap > 0 ? cap : link;
}

Result<model::ClusterSpec> ToClusterSpec(const ClusterShape& shape) {
  model::ClusterSpec spec;
  for (size_t g = 0; g < shape.groups.size(); ++g) {
    const WorkerGroup& group = shape.groups[g];
    const double bandwidth = SimulatedShuffleBandwidth(shape, group);
    if (!(bandwidth > 0)) {
      return Status::InvalidArgument("worker group " + std::to_string(g + 1) +
                                     " has no shuffle cap: the simulator needs a finite link rate");
    }
    model::WorkerSpec w;
    w.map_slots = group.map_slots;
    w.reduce_slots = group.reduce_slots;
    w.unified_slots = group.unified_slots;
    w.speed = group.speed;
    w.shuffle_bandwidth = bandwidth;
    w.labels = group.labels;
    for (int i = 0; i < group.count; ++i) {
      w.straggler = group.straggler;
      if (w.straggler.enabled) w.straggler.seed = group.straggler.seed + static_cast<uint64_t>(i);
      spec.worker_specs.push_back(w);
    }
  }
  if (spec.worker_specs.empty()) return Status::InvalidArgument("the cluster has no workers");
  spec.workers = static_cast<int>(spec.worker_specs.size());
  spec.slow_start = shape.slow_start;
  spec.receiver_links = shape.receiver_links;
  spec.refresh_rounds = kMasterRefreshRounds;
  return spec;
}

}  // namespace mr::experiment
