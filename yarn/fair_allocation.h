// YARN's Fair Scheduler allocation file (fair-scheduler.xml, docs/yarn.md) written from the
// pools mrlab runs with, and read back into them.
//
// A pool becomes a queue under root: weight -> <weight>, the minima -> <minResources>, the
// maxima -> <maxResources>, and <schedulingPolicy> (how YARN shares the queue among its
// applications). YARN has no map and reduce slots: it grants containers, and a MapReduce job
// asks for map containers and reduce containers of the sizes mapreduce.{map,reduce}.memory.mb
// and .cpu.vcores set. So a pool's m map and r reduce slots are the resources of m map and
// r reduce containers: memory m*map_mb + r*reduce_mb, vcores m*map_vcores + r*reduce_vcores.
// With containers whose memory per vcore differs (default 1024 MB and 2048 MB, one vcore
// each) the two numbers give m and r back exactly: that is the round trip.
// Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "scheduler/policies/pool_table.h"

namespace mr::yarn {

// The containers of a map and of a reduce task (mapreduce.map.memory.mb, ...).
struct YarnContainers {
  int64_t map_mb = 1024;
  int64_t reduce_mb = 2048;
  int64_t map_vcores = 1;
  int64_t reduce_vcores = 1;
  // InvalidArgument unless every size is positive and map and reduce containers differ in
  // memory per vcore (else m and r cannot be told apart when read back).
  Status Check() const;
};

// YARN's schedulingPolicy values.
bool IsSchedulingPolicy(std::string_view policy);  // fair, fifo, drf

struct FairExport {
  YarnContainers containers;
  std::string scheduling_policy = "fair";
};

// The allocation file. InvalidArgument for a pool name YARN refuses (empty, a '.', spaces),
// a pool with one maximum but not the other (YARN's maxResources bounds both), bad
// containers or an unknown scheduling policy.
Result<std::string> FairAllocationXml(std::span<const sched::PoolConfig> pools, const FairExport& options);

struct FairQueue {
  sched::PoolConfig pool;
  std::string scheduling_policy;  // as the file says; "" when absent
  std::vector<std::string> ignored;  // elements YARN reads that no mrlab pool has
};

// Reads an allocation file back: every leaf queue under <allocations> (or under a queue named
// "root") is a pool. InvalidArgument "SOURCE:LINE: what" for malformed XML, a nested queue,
// resources that are not whole map and reduce containers, or a bad weight.
Result<std::vector<FairQueue>> ParseFairAllocation(std::string_view xml, const YarnContainers& containers,
                                                   const std::string& source);

// The pools file (scheduler/policies/pool_table.h's format) of `pools`.
std::string PoolsFileText(std::span<const sched::PoolConfig> pools);

// A YARN queue name check: "" when fine, else the reason.
std::string CheckQueueName(std::string_view name);

}  // namespace mr::yarn
