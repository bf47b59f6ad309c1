#include "yarn/fair_allocation.h"

#include <charconv>
#include <cmath>
#include <sstream>

#include "common/markup_escape.h"
#include "yarn/xml_tree.h"

namespace mr::yarn {
namespace {

// "3072 mb, 2 vcores" for m map and r reduce containers.
std::string Resources(const YarnContainers& c, int64_t maps, int64_t reduces) {
  return std::to_string(maps * c.map_mb + reduces * c.reduce_mb) + " mb, " +
         std::to_string(maps * c.map_vcores + reduces * c.reduce_vcores) + " vcores";
}

bool ParseInt(std::string_view s, int64_t* out) {
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && end == s.data() + s.size() && *out >= 0;
}

std::string_view Trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// "X mb, Y vcores" (either order, spaces optional, as YARN reads it) -> memory and vcores.
Status ParseResources(std::string_view text, int64_t* mb, int64_t* vcores) {
  bool have_mb = false, have_vcores = false;
  std::string_view rest = text;
  while (!rest.empty()) {
    size_t comma = rest.find(',');
    std::string_view part = Trimmed(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    size_t digits = 0;
    while (digits < part.size() && part[digits] >= '0' && part[digits] <= '9') ++digits;
    std::string_view unit = Trimmed(part.substr(digits));
    int64_t value = 0;
    if (digits == 0 || !ParseInt(part.substr(0, digits), &value)) {
      return Status::InvalidArgument("'" + std::string(text) + "' is not 'X mb, Y vcores'");
    }
    if (unit == "mb" && !have_mb) {
      *mb = value, have_mb = true;
    } else if (unit == "vcores" && !have_vcores) {
      *vcores = value, have_vcores = true;
    } else {
      return Status::InvalidArgument("'" + std::string(text) + "' is not 'X mb, Y vcores'");
    }
  }
  if (!have_mb || !have_vcores) return Status::InvalidArgument("'" + std::string(text) + "' is not 'X mb, Y vcores'");
  return Status::Ok();
}

// Memory and vcores -> whole numbers of map and reduce containers (Cramer's rule).
Status Containers(const YarnContainers& c, int64_t mb, int64_t vcores, int* maps, int* reduces) {
  const int64_t det = c.map_vcores * c.reduce_mb - c.reduce_vcores * c.map_mb;
  const int64_t m = vcores * c.reduce_mb - mb * c.reduce_vcores;
  const int64_t r = c.map_vcores * mb - c.map_mb * vcores;
  if (det == 0 || m % det != 0 || r % det != 0 || m / det < 0 || r / det < 0 || m / det > 1000000 ||
      r / det > 1000000) {
    return Status::InvalidArgument(std::to_string(mb) + " mb, " + std::to_string(vcores) +
                                   " vcores is not a whole number of map containers (" + std::to_string(c.map_mb) +
                                   " mb, " + std::to_string(c.map_vcores) + " vcores) and reduce containers (" +
                                   std::to_string(c.reduce_mb) + " mb, " + std::to_string(c.reduce_vcores) +
                                   " vcores)");
  }
  *maps = static_cast<int>(m / det);
  *reduces = static_cast<int>(r / det);
  return Status::Ok();
}

Status ReadQueue(const XmlElement& q, const YarnContainers& c, const std::string& where, FairQueue* out) {
  const std::string* name = q.Attribute("name");
  if (name == nullptr) return Status::InvalidArgument(where + ": a queue without a name");
  if (std::string why = CheckQueueName(*name); !why.empty()) return Status::InvalidArgument(where + ": " + why);
  out->pool.name = *name;
  for (const XmlElement& e : q.children) {
    const std::string at = where + " (queue " + *name + ", " + e.name + ")";
    if (e.name == "queue") {
      return Status::InvalidArgument(where + ": queue " + *name + " has sub-queues; mrlab's pools are one level");
    } else if (e.name == "weight") {
      double w = 0;
      auto [end, ec] = std::from_chars(e.text.data(), e.text.data() + e.text.size(), w);
      if (ec != std::errc() || end != e.text.data() + e.text.size() || !std::isfinite(w) || w <= 0) {
        return Status::InvalidArgument(at + ": a weight must be a positive number, not '" + e.text + "'");
      }
      out->pool.weight = w;
    } else if (e.name == "minResources" || e.name == "maxResources") {
      int64_t mb = 0, vcores = 0;
      Status st = ParseResources(e.text, &mb, &vcores);
      if (st.ok()) {
        const bool min = e.name == "minResources";
        st = Containers(c, mb, vcores, min ? &out->pool.min_maps : &out->pool.max_maps,
                        min ? &out->pool.min_reduces : &out->pool.max_reduces);
      }
      if (!st.ok()) return st.WithContext(at);
    } else if (e.name == "schedulingPolicy") {
      out->scheduling_policy = e.text;
    } else {
      out->ignored.push_back(e.name);
    }
  }
  const sched::PoolConfig& p = out->pool;
  if ((p.max_maps == 0) != (p.max_reduces == 0)) {
    return Status::InvalidArgument(where + ": queue " + *name +
                                   "'s maxResources allow no map or no reduce container; a pool's 0 means no maximum");
  }
  if ((p.max_maps > 0 && p.min_maps > p.max_maps) || (p.max_reduces > 0 && p.min_reduces > p.max_reduces)) {
    return Status::InvalidArgument(where + ": queue " + *name + "'s minResources exceed its maxResources");
  }
  return Status::Ok();
}

}  // namespace

Status YarnContainers::Check() const {
  if (map_mb <= 0 || reduce_mb <= 0 || map_vcores <= 0 || reduce_vcores <= 0) {
    return Status::InvalidArgument("container sizes must be positive");
  }
  if (map_vcores * reduce_mb == reduce_vcores * map_mb) {
    return Status::InvalidArgument(
        "the map and reduce containers have the same memory per vcore, so a queue's resources could not be read "
        "back as map and reduce slots: give them different sizes (e.g. --map-container-mb 1024 "
        "--reduce-container-mb 2048)");
  }
  return Status::Ok();
}

bool IsSchedulingPolicy(std::string_view policy) { return policy == "fair" || policy == "fifo" || policy == "drf"; }

std::string CheckQueueName(std::string_view name) {
  if (name.empty()) return "an empty queue name";
  for (char ch : name) {
    const bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_' ||
                    ch == '-';
    if (!ok) return "queue name '" + std::string(name) + "': YARN takes letters, digits, '_' and '-'";
  }
  if (name == "root") return "'root' is YARN's top queue, not a pool";
  return "";
}

Result<std::string> FairAllocationXml(std::span<const sched::PoolConfig> pools, const FairExport& options) {
  MR_RETURN_IF_ERROR(options.containers.Check());
  if (!IsSchedulingPolicy(options.scheduling_policy)) {
    return Status::InvalidArgument("scheduling policy '" + options.scheduling_policy + "': expected fair, fifo or drf");
  }
  const YarnContainers& c = options.containers;
  std::ostringstream out;
  out << "<?xml version=\"1.0\"?>\n"
      << "<!-- Written by mr export yarn-fair. Slots as containers: a map " << c.map_mb << " mb, " << c.map_vcores
      << " vcores (mapreduce.map.memory.mb, mapreduce.map.cpu.vcores); a reduce " << c.reduce_mb << " mb, "
      << c.reduce_vcores << " vcores (mapreduce.reduce.*). -->\n"
      << "<allocations>\n";
  for (const sched::PoolConfig& p : pools) {
    if (std::string why = CheckQueueName(p.name); !why.empty()) return Status::InvalidArgument("pool " + p.name + ": " + why);
    if ((p.max_maps == 0) != (p.max_reduces == 0)) {
      return Status::InvalidArgument("pool " + p.name +
                                     ": YARN's maxResources bounds map and reduce containers together; give both "
                                     "max_maps and max_reduces, or neither");
    }
    out << "  <queue name=\"" << MarkupEscape(p.name) << "\">\n"
        << "    <weight>" << ShortestNumber(p.weight) << "</weight>\n";
    if (p.min_maps > 0 || p.min_reduces > 0) {
      out << "    <minResources>" << Resources(c, p.min_maps, p.min_reduces) << "</minResources>\n";
    }
    if (p.max_maps > 0) out << "    <maxResources>" << Resources(c, p.max_maps, p.max_reduces) << "</maxResources>\n";
    out << "    <schedulingPolicy>" << options.scheduling_policy << "</schedulingPolicy>\n"
        << "  </queue>\n";
  }
  out << "  <defaultQueueSchedulingPolicy>" << options.scheduling_policy << "</defaultQueueSchedulingPolicy>\n"
      << "  <queuePlacementPolicy>\n"
      << "    <rule name=\"specified\" create=\"false\"/>\n"
      << "    <rule name=\"default\"/>\n"
      << "  </queuePlacementPolicy>\n"
      << "</allocations>\n";
  return out.str();
}

Result<std::vector<FairQueue>> ParseFairAllocation(std::string_view xml, const YarnContainers& containers,
                                                   const std::string& source) {
  MR_RETURN_IF_ERROR(containers.Check());
  MR_ASSIGN_OR_RETURN(XmlElement root, ParseXml(xml, source));
  if (root.name != "allocations") {
    return Status::InvalidArgument(source + ": the root element is <" + root.name + ">, not <allocations>");
  }
  std::vector<const XmlElement*> queues;
  for (const XmlElement& e : root.children) {
    if (e.name != "queue") continue;
    const std::string* name = e.Attribute("name");
    if (name != nullptr && *name == "root") {
      for (const XmlElement& child : e.children) {
        if (child.name == "queue") queues.push_back(&child);
      }
    } else {
      queues.push_back(&e);
    }
  }
  std::vector<FairQueue> out;
  for (const XmlElement* q : queues) {
    FairQueue fq;
    MR_RETURN_IF_ERROR(ReadQueue(*q, containers, source + ":" + std::to_string(q->line), &fq));
    for (const FairQueue& seen : out) {
      if (seen.pool.name == fq.pool.name) {
        return Status::InvalidArgument(source + ":" + std::to_string(q->line) + ": queue " + fq.pool.name + " twice");
      }
    }
    out.push_back(std::move(fq));
  }
  return out;
}

std::string PoolsFileText(std::span<const sched::PoolConfig> pools) {
  std::ostringstream out;
  for (const sched::PoolConfig& p : pools) {
    out << "pool " << p.name;
    if (p.min_maps > 0) out << " min_maps=" << p.min_maps;
    if (p.min_reduces > 0) out << " min_reduces=" << p.min_reduces;
    if (p.max_maps > 0) out << " max_maps=" << p.max_maps;
    if (p.max_reduces > 0) out << " max_reduces=" << p.max_reduces;
    out << " weight=" << ShortestNumber(p.weight) << "\n";
  }
  return out.str();
}

}  // namespace mr::yarn
