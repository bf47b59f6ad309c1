#include "yarn/capacity_config.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <map>
#include <sstream>

#include "common/markup_escape.h"
#include "yarn/fair_allocation.h"
#include "yarn/xml_tree.h"

namespace mr::yarn {
namespace {

constexpr char kPrefix[] = "yarn.scheduler.capacity.root.";
constexpr int64_t kUnits = 10000;  // capacities are written to 1e-4 of a percent

// "33.3333" from 333333 units.
std::string Percent(int64_t units) {
  std::string s = std::to_string(units / kUnits);
  if (int64_t frac = units % kUnits; frac != 0) {
    std::string f = std::to_string(frac);
    f = std::string(4 - f.size(), '0') + f;
    while (f.back() == '0') f.pop_back();
    s += "." + f;
  }
  return s;
}

void Property(std::ostringstream& out, const std::string& name, const std::string& value) {
  out << "  <property>\n    <name>" << MarkupEscape(name) << "</name>\n    <value>" << MarkupEscape(value)
      << "</value>\n  </property>\n";
}

bool ParsePercent(const std::string& text, double* v) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *v);
  return ec == std::errc() && end == text.data() + text.size() && std::isfinite(*v);
}

}  // namespace

std::vector<sched::QueueConfig> PlanQueues(const model::BatchPlan& plan) {
  std::vector<sched::QueueConfig> out;
  if (plan.pools.size() < 2) {
    sched::QueueConfig q;
    q.name = "default";
    q.capacity = 100;
    out.push_back(q);
    return out;
  }
  for (size_t i = 0; i < plan.pools.size(); ++i) {
    sched::QueueConfig q;
    q.name = plan.pool_names[i];
    q.slots[0] = plan.pools[i].slots.map_slots;
    q.slots[1] = plan.pools[i].slots.reduce_slots;
    out.push_back(q);
  }
  return out;
}

Result<std::string> CapacitySchedulerXml(std::span<const sched::QueueConfig> queues, const CapacityExport& cluster) {
  if (queues.empty()) return Status::InvalidArgument("no queues to export");
  std::vector<int64_t> cap(queues.size()), max(queues.size(), 0);
  std::vector<std::string> notes;
  int64_t sum = 0;
  std::string names;
  for (size_t i = 0; i < queues.size(); ++i) {
    const sched::QueueConfig& q = queues[i];
    if (q.bound()) {
      return Status::InvalidArgument("queue " + q.name + " is bound to the label " + q.label->key + "=" +
                                     q.label->value + ": YARN's node labels are not exported (a queue with a capacity)");
    }
    if (std::string why = CheckQueueName(q.name); !why.empty()) return Status::InvalidArgument("queue " + q.name + ": " + why);
    double percent = q.capacity, max_percent = q.max_capacity;
    if (q.in_slots()) {
      if (cluster.map_slots <= 0) {
        return Status::InvalidArgument("queue " + q.name + " is given in slots: give the cluster's --map-slots");
      }
      percent = 100.0 * q.slots[0] / cluster.map_slots;
      max_percent = q.max_slots[0] >= 0 ? 100.0 * q.max_slots[0] / cluster.map_slots : 0;
      if (cluster.reduce_slots > 0 && q.slots[1] >= 0 &&
          std::abs(100.0 * q.slots[1] / cluster.reduce_slots - percent) > 1e-9) {
        notes.push_back(q.name + ": " + std::to_string(q.slots[0]) + " of " + std::to_string(cluster.map_slots) +
                        " map slots (the capacity) and " + std::to_string(q.slots[1]) + " of " +
                        std::to_string(cluster.reduce_slots) + " reduce slots");
      }
    }
    cap[i] = std::llround(percent * kUnits);
    max[i] = std::llround(max_percent * kUnits);
    sum += cap[i];
    names += (i ? "," : "") + q.name;
  }
  // Rounding to 1e-4 may leave a planner's thirds a unit or two off 100%: the last queue
  // takes the difference. Anything more is a file whose queues do not cover the cluster.
  const int64_t missing = 100 * kUnits - sum;
  if (std::llabs(missing) > static_cast<int64_t>(queues.size())) {
    return Status::InvalidArgument("the queues' capacities sum to " + Percent(sum) +
                                   "%; YARN needs root's queues to sum to 100%: add a queue (e.g. default) with the "
                                   "remaining " + Percent(missing) + "%");
  }
  cap.back() += missing;
  std::ostringstream out;
  out << "<?xml version=\"1.0\"?>\n<!-- Written by mr export yarn-capacity. -->\n";
  for (const std::string& n : notes) out << "<!-- " << MarkupEscape(n) << " -->\n";
  out << "<configuration>\n";
  Property(out, std::string(kPrefix) + "queues", names);
  for (size_t i = 0; i < queues.size(); ++i) {
    const std::string q = std::string(kPrefix) + queues[i].name + ".";
    Property(out, q + "capacity", Percent(cap[i]));
    if (max[i] > 0) Property(out, q + "maximum-capacity", Percent(max[i]));
    Property(out, q + "ordering-policy", "fifo");
    Property(out, q + "state", "RUNNING");
  }
  out << "</configuration>\n";
  return out.str();
}

Result<std::vector<sched::QueueConfig>> ParseCapacityScheduler(std::string_view xml, const std::string& source,
                                                                std::vector<std::string>* ignored) {
  MR_ASSIGN_OR_RETURN(XmlElement root, ParseXml(xml, source));
  if (root.name != "configuration") {
    return Status::InvalidArgument(source + ": the root element is <" + root.name + ">, not <configuration>");
  }
  std::map<std::string, std::string> props;  // the root.* properties, prefix dropped
  for (const XmlElement& p : root.children) {
    if (p.name != "property") continue;
    std::string name, value;
    for (const XmlElement& f : p.children) {
      if (f.name == "name") name = f.text;
      if (f.name == "value") value = f.text;
    }
    if (name.rfind(kPrefix, 0) == 0) props[name.substr(sizeof kPrefix - 1)] = value;
  }
  auto list = props.find("queues");
  if (list == props.end()) return Status::InvalidArgument(source + ": no " + std::string(kPrefix) + "queues");
  std::vector<sched::QueueConfig> out;
  std::stringstream names(list->second);
  for (std::string name; std::getline(names, name, ',');) {
    name.erase(0, name.find_first_not_of(" \t\n"));
    name.erase(name.find_last_not_of(" \t\n") + 1);
    if (std::string why = CheckQueueName(name); !why.empty()) return Status::InvalidArgument(source + ": " + why);
    sched::QueueConfig q;
    q.name = name;
    auto cap = props.find(name + ".capacity");
    if (cap == props.end()) return Status::InvalidArgument(source + ": queue " + name + " has no capacity");
    if (!ParsePercent(cap->second, &q.capacity) || q.capacity <= 0 || q.capacity > 100) {
      return Status::InvalidArgument(source + ": queue " + name + "'s capacity '" + cap->second +
                                     "' is not a percent in (0, 100]");
    }
    if (auto m = props.find(name + ".maximum-capacity"); m != props.end() && m->second != "-1") {
      if (!ParsePercent(m->second, &q.max_capacity) || q.max_capacity < q.capacity || q.max_capacity > 100) {
        return Status::InvalidArgument(source + ": queue " + name + "'s maximum-capacity '" + m->second +
                                       "' is not a percent in [capacity, 100]");
      }
    }
    if (props.count(name + ".queues")) {
      return Status::InvalidArgument(source + ": queue " + name + " has sub-queues; mrlab's queues are one level");
    }
    out.push_back(q);
  }
  if (ignored != nullptr) {
    for (const auto& [key, value] : props) {
      size_t dot = key.find('.');
      if (dot == std::string::npos) continue;  // root's own properties
      std::string what = key.substr(dot + 1);
      if (what != "capacity" && what != "maximum-capacity" && what != "ordering-policy" && what != "state") {
        ignored->push_back(std::string(kPrefix) + key);
      }
    }
  }
  return out;
}

std::string QueuesFileText(std::span<const sched::QueueConfig> queues) {
  std::ostringstream out;
  for (const sched::QueueConfig& q : queues) {
    out << "queue " << q.name << " capacity=" << ShortestNumber(q.capacity);
    if (q.max_capacity > 0) out << " max_capacity=" << ShortestNumber(q.max_capacity);
    out << "\n";
  }
  return out.str();
}

}  // namespace mr::yarn
