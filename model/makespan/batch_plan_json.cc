// The plan file (batch_plan.h; docs/makespan.md, "Plan file").
#include <map>

#include "model/makespan/batch_plan.h"
#include "model/makespan/profile_json.h"

namespace mr::model {

using nlohmann::json;

namespace {

constexpr const char* kFormat = "mrlab batch plan";
constexpr int kVersion = 1;
constexpr int64_t kMaxSlots = 100000000;

json OrderJson(const BatchPlan& plan, const std::vector<int>& order) {
  json names = json::array();
  for (int i : order) names.push_back(plan.jobs[i].name);
  return names;
}

json Planned(const BatchPlan& plan, const PlannedOrder& p) {
  return json{{"order", OrderJson(plan, p.order)}, {"makespan", p.makespan}, {"two_stage", p.two_stage}};
}

Result<json> Member(const json& o, const char* key, json::value_t type, const std::string& where) {
  auto it = o.find(key);
  if (it == o.end() || it->type() != type) {
    const char* what = type == json::value_t::object ? "an object" : type == json::value_t::array ? "a list" : "a string";
    return Status::InvalidArgument(where + ": '" + key + "' must be " + what);
  }
  return *it;
}

Result<std::vector<int>> ReadOrder(const json& o, const std::map<std::string, int>& index, const std::string& where) {
  MR_ASSIGN_OR_RETURN(json names, Member(o, "order", json::value_t::array, where));
  std::vector<int> out;
  for (const json& n : names) {
    auto it = n.is_string() ? index.find(n.get<std::string>()) : index.end();
    if (it == index.end()) return Status::InvalidArgument(where + ": 'order' names a job the plan does not list: " + n.dump());
    out.push_back(it->second);
  }
  return out;
}

Result<PlannedOrder> ReadPlanned(const json& doc, const char* key, const std::map<std::string, int>& index,
                                 const std::string& source) {
  const std::string where = source + ": " + key;
  MR_ASSIGN_OR_RETURN(json o, Member(doc, key, json::value_t::object, source));
  PlannedOrder p;
  MR_ASSIGN_OR_RETURN(p.order, ReadOrder(o, index, where));
  if (p.order.size() != index.size()) return Status::InvalidArgument(where + ": the order must list every job once");
  MR_ASSIGN_OR_RETURN(p.makespan, JsonNumber(o, "makespan", where));
  MR_ASSIGN_OR_RETURN(p.two_stage, JsonNumber(o, "two_stage", where));
  return p;
}

Result<BatchCluster> ReadCluster(const json& doc, const std::string& source) {
  const std::string where = source + ": cluster";
  MR_ASSIGN_OR_RETURN(json o, Member(doc, "cluster", json::value_t::object, source));
  BatchCluster c;
  MR_ASSIGN_OR_RETURN(int64_t w, JsonInteger(o, "workers", 1, kMaxSlots, where));
  MR_ASSIGN_OR_RETURN(int64_t m, JsonInteger(o, "map_slots", 1, kMaxSlots, where));
  MR_ASSIGN_OR_RETURN(int64_t r, JsonInteger(o, "reduce_slots", 1, kMaxSlots, where));
  c.workers = static_cast<int>(w);
  c.map_slots = static_cast<int>(m);
  c.reduce_slots = static_cast<int>(r);
  return c;
}

Result<PlanJob> ReadJob(const json& o, const std::string& where) {
  if (!o.is_object()) return Status::InvalidArgument(where + ": must be an object");
  PlanJob j;
  MR_ASSIGN_OR_RETURN(json name, Member(o, "name", json::value_t::string, where));
  j.name = name.get<std::string>();
  MR_ASSIGN_OR_RETURN(int64_t maps, JsonInteger(o, "maps", 1, kMaxSlots, where));
  MR_ASSIGN_OR_RETURN(int64_t reduces, JsonInteger(o, "reduces", 0, kMaxSlots, where));
  j.maps = static_cast<int>(maps);
  j.reduces = static_cast<int>(reduces);
  MR_ASSIGN_OR_RETURN(j.map_seconds, JsonNumber(o, "map_seconds", where));
  MR_ASSIGN_OR_RETURN(j.reduce_seconds, JsonNumber(o, "reduce_seconds", where));
  MR_ASSIGN_OR_RETURN(j.map_stage, JsonNumber(o, "map_stage", where));
  MR_ASSIGN_OR_RETURN(j.reduce_stage, JsonNumber(o, "reduce_stage", where));
  return j;
}

// The pools, each job in exactly one, their slots within the cluster's.
Status ReadPools(const json& bp, const std::map<std::string, int>& index, const std::string& where, BatchPlan& plan) {
  MR_ASSIGN_OR_RETURN(json pools, Member(bp, "pools", json::value_t::array, where));
  if (pools.empty() || pools.size() > 2) return Status::InvalidArgument(where + ": one or two pools expected");
  std::vector<int> seen(plan.jobs.size(), 0);
  int map_slots = 0, reduce_slots = 0;
  for (size_t p = 0; p < pools.size(); ++p) {
    const std::string at = where + ": pool " + std::to_string(p + 1);
    if (!pools[p].is_object()) return Status::InvalidArgument(at + ": must be an object");
    MR_ASSIGN_OR_RETURN(json name, Member(pools[p], "name", json::value_t::string, at));
    Pool pool;
    MR_ASSIGN_OR_RETURN(int64_t m, JsonInteger(pools[p], "map_slots", 1, kMaxSlots, at));
    MR_ASSIGN_OR_RETURN(int64_t r, JsonInteger(pools[p], "reduce_slots", 1, kMaxSlots, at));
    pool.slots = {static_cast<int>(m), static_cast<int>(r)};
    map_slots += pool.slots.map_slots;
    reduce_slots += pool.slots.reduce_slots;
    MR_ASSIGN_OR_RETURN(pool.order, ReadOrder(pools[p], index, at));
    MR_ASSIGN_OR_RETURN(pool.makespan, JsonNumber(pools[p], "makespan", at));
    for (int j : pool.order) {
      ++seen[j];
      plan.jobs[j].pool = static_cast<int>(p);
    }
    plan.pool_names.push_back(name.get<std::string>());
    plan.pools.push_back(std::move(pool));
  }
  for (size_t j = 0; j < seen.size(); ++j) {
    if (seen[j] != 1) {
      return Status::InvalidArgument(where + ": job '" + plan.jobs[j].name + "' is in " + std::to_string(seen[j]) +
                                     " pools, not one");
    }
  }
  if (map_slots > plan.cluster.map_slots || reduce_slots > plan.cluster.reduce_slots) {
    return Status::InvalidArgument(where + ": the pools have more slots than the cluster");
  }
  return Status::Ok();
}

}  // namespace

std::string BatchPlanToJson(const BatchPlan& plan) {
  json jobs = json::array();
  for (const PlanJob& j : plan.jobs) {
    jobs.push_back(json{{"name", j.name},
                        {"maps", j.maps},
                        {"reduces", j.reduces},
                        {"map_seconds", j.map_seconds},
                        {"reduce_seconds", j.reduce_seconds},
                        {"map_stage", j.map_stage},
                        {"reduce_stage", j.reduce_stage},
                        {"pool", plan.pool_names[j.pool]}});
  }
  json pools = json::array();
  for (size_t p = 0; p < plan.pools.size(); ++p) {
    const Pool& pool = plan.pools[p];
    pools.push_back(json{{"name", plan.pool_names[p]},
                         {"map_slots", pool.slots.map_slots},
                         {"reduce_slots", pool.slots.reduce_slots},
                         {"map_share", static_cast<double>(pool.slots.map_slots) / plan.cluster.map_slots},
                         {"reduce_share", static_cast<double>(pool.slots.reduce_slots) / plan.cluster.reduce_slots},
                         {"order", OrderJson(plan, pool.order)},
                         {"makespan", pool.makespan}});
  }
  json doc{{"format", kFormat},
           {"version", kVersion},
           {"cluster",
            {{"workers", plan.cluster.workers},
             {"map_slots", plan.cluster.map_slots},
             {"reduce_slots", plan.cluster.reduce_slots}}},
           {"jobs", jobs},
           {"johnson", Planned(plan, plan.johnson)},
           {"reverse_johnson", Planned(plan, plan.reverse_johnson)},
           {"fifo", Planned(plan, plan.fifo)},
           {"balancedpools",
            {{"makespan", plan.predicted_makespan},
             {"split", plan.split},
             {"simulations", plan.simulations},
             {"variants", plan.variants},
             {"pools", pools}}}};
  return doc.dump(1) + "\n";
}

Result<BatchPlan> ParseBatchPlan(std::string_view text, const std::string& source) {
  json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return Status::InvalidArgument(source + ": not valid JSON");
  if (!doc.is_object() || doc.value("format", "") != kFormat) {
    return Status::InvalidArgument(source + ": not a batch plan (no \"format\": \"" + kFormat + "\")");
  }
  if (doc.value("version", 0) != kVersion) {
    return Status::InvalidArgument(source + ": plan version " + doc.value("version", json(nullptr)).dump() +
                                   " is not " + std::to_string(kVersion));
  }
  BatchPlan plan;
  MR_ASSIGN_OR_RETURN(plan.cluster, ReadCluster(doc, source));
  MR_ASSIGN_OR_RETURN(json jobs, Member(doc, "jobs", json::value_t::array, source));
  if (jobs.empty()) return Status::InvalidArgument(source + ": 'jobs' is empty");
  std::map<std::string, int> index;
  for (size_t i = 0; i < jobs.size(); ++i) {
    MR_ASSIGN_OR_RETURN(PlanJob j, ReadJob(jobs[i], source + ": job " + std::to_string(i + 1)));
    if (!index.emplace(j.name, static_cast<int>(i)).second) {
      return Status::InvalidArgument(source + ": job name '" + j.name + "' is used twice");
    }
    plan.jobs.push_back(std::move(j));
  }
  MR_ASSIGN_OR_RETURN(plan.johnson, ReadPlanned(doc, "johnson", index, source));
  MR_ASSIGN_OR_RETURN(plan.reverse_johnson, ReadPlanned(doc, "reverse_johnson", index, source));
  MR_ASSIGN_OR_RETURN(plan.fifo, ReadPlanned(doc, "fifo", index, source));
  const std::string where = source + ": balancedpools";
  MR_ASSIGN_OR_RETURN(json bp, Member(doc, "balancedpools", json::value_t::object, source));
  MR_ASSIGN_OR_RETURN(plan.predicted_makespan, JsonNumber(bp, "makespan", where));
  MR_ASSIGN_OR_RETURN(int64_t split, JsonInteger(bp, "split", 0, kMaxSlots, where));
  MR_ASSIGN_OR_RETURN(plan.simulations, JsonInteger(bp, "simulations", 0, INT64_MAX, where));
  plan.split = static_cast<int>(split);
  if (auto v = bp.find("variants"); v != bp.end()) {  // absent in plans written before it existed
    if (!v->is_string()) return Status::InvalidArgument(where + ": 'variants' must be a string");
    plan.variants = v->get<std::string>();
  }
  MR_RETURN_IF_ERROR(ReadPools(bp, index, where, plan));
  return plan;
}

Status CheckPlanCluster(const BatchPlan& plan, const BatchCluster& actual, const std::string& source) {
  if (plan.cluster == actual) return Status::Ok();
  return Status::InvalidArgument(source + ": computed for " + plan.cluster.Describe() + "; this cluster has " +
                                 actual.Describe());
}

}  // namespace mr::model
