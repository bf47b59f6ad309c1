// The placement solvers (fair/dep/sep/mep splits of a job stream over mapper nodes) are
// defined in scheduler/mst_placement.h, because the master's --placement stage
// (scheduler/map_placement.h) calls them and the scheduler library cannot depend on model/.
// They keep the mr::model namespace; model code includes them through this header.
#pragma once

#include "scheduler/stages/mst_placement.h"
