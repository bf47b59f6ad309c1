#include "scheduler/stages/map_placement.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <numeric>

#include "common/units.h"

namespace mr::sched {
namespace {

constexpr PlacementModeRow kModes[] = {
    {"pull", PlacementMode::kPull, "no queues: a free slot takes any pending map (Hadoop's pull)"},
    {"even", PlacementMode::kEven, "equal rate to every worker (the paper's fair split)"},
    {"dep", PlacementMode::kDep, "rate in proportion to mu_i: equal utilisation (deterministic equilibrium)"},
    {"sep", PlacementMode::kSep, "equal spare rate mu_i - lambda_i, clamped at 0 (stochastic equilibrium)"},
    {"mep", PlacementMode::kMep, "equal mean response under --placement-model (means equilibrium)"},
};

// A credit stays within a few tasks of 0 while the shares stand; the clamp forgets old
// shares quickly when they change (a worker joins or leaves, rates are re-measured).
constexpr double kMaxCredit = 2.0;

constexpr PlacementFlag kFlags[] = {
    {"placement", "pull",
     "which worker a map runs on: pull (a free slot takes any pending map), or dispatch at the job's arrival "
     "to one worker's queue: even, dep, sep, mep (docs/mst.md, \"Live placement\")"},
    {"placement-model", "dtd", "mep: the workers' mean-response model, dtd, mg1 or gg1"},
    {"placement-d", "0", "mep dtd: the deterministic coefficient D >= 0 of the map work"},
    {"placement-scv", "1",
     "mep mg1/gg1: squared coefficient of variation of map service times, one value or one per worker id"},
    {"placement-ca2", "1", "mep gg1: squared coefficient of variation of map inter-arrival times"},
    {"placement-rates", nullptr,
     "service rates mu (map tasks/s) of workers 1, 2, ... (e.g. 2,4,4; 0 = measure); not given: measured "
     "online from finished maps (before any, from --speed)"},
};

// A comma-separated list of numbers, each >= 0.
Result<std::vector<double>> ParseList(std::string_view flag, std::string_view text) {
  std::vector<double> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(',', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view item = text.substr(start, end - start);
    double v = 0;
    auto r = std::from_chars(item.data(), item.data() + item.size(), v);
    if (item.empty() || r.ec != std::errc() || r.ptr != item.data() + item.size() || !std::isfinite(v) || v < 0) {
      return Status::InvalidArgument("--" + std::string(flag) + " '" + std::string(text) +
                                     "': expected comma-separated numbers >= 0, got '" + std::string(item) + "'");
    }
    out.push_back(v);
    start = end + 1;
  }
  return out;
}

Result<double> ParseNonNegative(std::string_view flag, std::string_view text) {
  MR_ASSIGN_OR_RETURN(std::vector<double> v, ParseList(flag, text));
  if (v.size() != 1) {
    return Status::InvalidArgument("--" + std::string(flag) + " '" + std::string(text) + "': expected one number");
  }
  return v[0];
}

}  // namespace

std::span<const PlacementFlag> PlacementFlags() { return kFlags; }

Result<PlacementConfig> PlacementConfigFromFlags(const std::map<std::string, std::string, std::less<>>& given) {
  PlacementConfig c;
  auto text = [&given](const char* name) -> const std::string* {
    auto it = given.find(name);
    return it == given.end() ? nullptr : &it->second;
  };
  if (const std::string* t = text("placement")) {
    auto mode = ParsePlacementMode(*t);
    if (!mode.ok()) return Status::InvalidArgument("--placement: " + mode.status().message());
    c.mode = *mode;
  }
  if (c.mode != PlacementMode::kMep) {
    for (const char* f : {"placement-model", "placement-d", "placement-scv", "placement-ca2"}) {
      if (text(f) != nullptr) {
        return Status::InvalidArgument("--" + std::string(f) + " applies to --placement mep only (placement is " +
                                       std::string(PlacementModeName(c.mode)) + ")");
      }
    }
  }
  if (const std::string* t = text("placement-model")) {
    auto m = model::ParseMeanResponseModel(*t);
    if (!m.ok()) return Status::InvalidArgument("--placement-model: " + m.status().message());
    c.mep.model = *m;
  }
  if (const std::string* t = text("placement-d")) {
    MR_ASSIGN_OR_RETURN(c.mep.d, ParseNonNegative("placement-d", *t));
  }
  if (const std::string* t = text("placement-scv")) {
    MR_ASSIGN_OR_RETURN(c.mep.service_scv, ParseList("placement-scv", *t));
  }
  if (const std::string* t = text("placement-ca2")) {
    MR_ASSIGN_OR_RETURN(c.mep.arrival_scv, ParseNonNegative("placement-ca2", *t));
  }
  if (const std::string* t = text("placement-rates")) {
    if (c.mode == PlacementMode::kPull) {
      return Status::InvalidArgument("--placement-rates needs a --placement other than pull");
    }
    MR_ASSIGN_OR_RETURN(c.given_rates, ParseList("placement-rates", *t));
  }
  return c;
}

std::span<const PlacementModeRow> PlacementModeTable() { return kModes; }

std::string PlacementModeList(std::string_view separator) {
  std::string list;
  for (const PlacementModeRow& r : kModes) {
    if (!list.empty()) list += separator;
    list += r.name;
  }
  return list;
}

Result<PlacementMode> ParsePlacementMode(std::string_view name) {
  for (const PlacementModeRow& r : kModes) {
    if (name == r.name) return r.mode;
  }
  return Status::InvalidArgument("unknown placement '" + std::string(name) + "' (known: " + PlacementModeList() +
                                 ")");
}

std::string_view PlacementModeName(PlacementMode mode) {
  for (const PlacementModeRow& r : kModes) {
    if (r.mode == mode) return r.name;
  }
  return "?";
}

std::vector<NodeRate> NodeRates(const Snapshot& snap, std::span<const double> given_rates) {
  double measured_per_speed = 0;
  int measured = 0;
  for (const WorkerView& w : snap.workers) {
    if (w.map_task_rate > 0 && w.speed > 0) {
      measured_per_speed += w.map_task_rate / w.speed;
      ++measured;
    }
  }
  const double per_speed = measured > 0 ? measured_per_speed / measured : 1.0;
  std::vector<NodeRate> nodes;
  nodes.reserve(snap.workers.size());
  for (const WorkerView& w : snap.workers) {
    const int slots = std::max(0, w.map_slots) + std::max(0, w.unified_slots);
    if (slots == 0) continue;
    NodeRate n{w.id, 0, ""};
    if (w.id >= 1 && w.id <= given_rates.size() && given_rates[w.id - 1] > 0) {
      n.mu = given_rates[w.id - 1];
      n.source = "given";
    } else if (w.map_task_rate > 0) {
      n.mu = w.map_task_rate * slots;
      n.source = "measured";
    } else {
      n.mu = std::max(w.speed, 1e-9) * per_speed * slots;
      n.source = "speed";
    }
    nodes.push_back(n);
  }
  return nodes;
}

void ArrivalRateMeter::Record(double time, int maps) {
  arrivals_.emplace_back(time, std::max(0, maps));
  if (arrivals_.size() > kWindow) arrivals_.pop_front();
}

double ArrivalRateMeter::Rate(double now) const {
  if (arrivals_.size() < 2) return 0;
  double maps = 0;
  double latest = arrivals_.front().first;
  for (size_t i = 1; i < arrivals_.size(); ++i) {
    maps += arrivals_[i].second;
    latest = std::max(latest, arrivals_[i].first);
  }
  const double span = std::max(now, latest) - arrivals_.front().first;
  return span > 0 ? maps / span : 0;
}

std::vector<double> MapPlacement::Split(std::span<const NodeRate> nodes, double lambda,
                                        std::string* fallback) const {
  std::vector<double> mu;
  mu.reserve(nodes.size());
  for (const NodeRate& n : nodes) mu.push_back(n.mu);
  const double total = std::accumulate(mu.begin(), mu.end(), 0.0);
  std::vector<double> shares(nodes.size(), 0.0);
  if (nodes.empty() || total <= 0) return shares;
  if (config_.mode == PlacementMode::kEven) {
    std::fill(shares.begin(), shares.end(), 1.0 / static_cast<double>(nodes.size()));
    return shares;
  }
  auto dep = [&] {
    for (size_t i = 0; i < mu.size(); ++i) shares[i] = mu[i] / total;
    return shares;
  };
  if (config_.mode == PlacementMode::kDep) return dep();
  if (!(lambda > 0)) {
    *fallback = "lambda unknown (fewer than two jobs seen)";
    return dep();
  }
  if (lambda >= total) {
    *fallback = "lambda " + FormatNumber(lambda) + " >= sum mu " + FormatNumber(total);
    return dep();
  }
  model::MepParams params = config_.mep;
  // Per-worker scv values follow the worker ids; the solver wants them per node.
  if (params.service_scv.size() > 1) {
    std::vector<double> scv;
    for (const NodeRate& n : nodes) {
      scv.push_back(n.id >= 1 && n.id <= params.service_scv.size() ? params.service_scv[n.id - 1] : 1.0);
    }
    params.service_scv = std::move(scv);
  }
  // A live split cannot dispatch a negative rate: the clamped forms of the paper's S-EP and
  // M-EP (mst_placement.h), which give a too-slow worker no maps.
  const model::Placement p =
      config_.mode == PlacementMode::kSep ? model::Placement::kSepClamp : model::Placement::kMepClamp;
  Result<std::vector<double>> rates = model::PlacementRates(p, mu, lambda, params);
  if (!rates.ok()) {
    *fallback = rates.status().message();
    return dep();
  }
  for (size_t i = 0; i < rates->size(); ++i) shares[i] = std::max(0.0, (*rates)[i]) / lambda;
  return shares;
}

size_t MapPlacement::Pick(std::span<const NodeRate> nodes, std::span<const double> shares) {
  size_t best = nodes.size();
  double best_credit = 0;
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (shares[i] <= 0) continue;
    double& c = credit_[nodes[i].id];
    c = std::min(kMaxCredit, c + shares[i]);
    if (best == nodes.size() || c > best_credit) {
      best = i;
      best_credit = c;
    }
  }
  credit_[nodes[best].id] = std::max(-kMaxCredit, best_credit - 1.0);
  return best;
}

std::vector<QueueMap> MapPlacement::Dispatch(const Snapshot& snap) {
  std::vector<QueueMap> out;
  // Arrivals: each unfinished job is counted once, at the first round that sees it.
  std::set<JobId> present;
  for (const JobView& j : snap.jobs) {
    present.insert(j.id);
    if (seen_.insert(j.id).second) arrivals_.Record(j.submit_time, j.maps_total);
  }
  std::erase_if(seen_, [&present](JobId id) { return !present.contains(id); });
  size_t pending = 0;
  for (const JobView& j : snap.jobs) pending += j.pending_maps.size();
  if (pending == 0) return out;

  const std::vector<NodeRate> nodes = NodeRates(snap, config_.given_rates);
  std::erase_if(credit_, [&nodes](const auto& kv) {
    return std::none_of(nodes.begin(), nodes.end(), [&kv](const NodeRate& n) { return n.id == kv.first; });
  });
  const double lambda = arrivals_.Rate(snap.now);
  std::string fallback;
  const std::vector<double> shares = Split(nodes, lambda, &fallback);
  if (std::none_of(shares.begin(), shares.end(), [](double s) { return s > 0; })) return out;

  last_split_ = std::string(PlacementModeName(config_.mode)) + " lambda=" + FormatNumber(lambda, "%.4g");
  for (size_t i = 0; i < nodes.size(); ++i) {
    last_split_ += " w" + std::to_string(nodes[i].id) + "=" + FormatNumber(shares[i], "%.3g") + "(mu " +
                   FormatNumber(nodes[i].mu, "%.3g") + " " + nodes[i].source + ")";
  }
  if (!fallback.empty()) last_split_ += " [dep split: " + fallback + "]";

  out.reserve(pending);
  for (const JobView& j : snap.jobs) {
    for (int index : j.pending_maps) out.push_back({j.id, index, nodes[Pick(nodes, shares)].id});
  }
  return out;
}

}  // namespace mr::sched
