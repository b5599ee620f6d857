// SPDX-License-Identifier: Apache-2.0
// Node models for sizes other than the defaults (docs/design-space.md). A set of sizes is
// built once: Verilator with the sizes as parameter overrides on nd_tree_net and
// nd_torus_net, compiled with model_library_entry.cpp into a shared library (a model
// library) that holds its own copy of the Verilator runtime and exports one function. The
// library goes into the model cache (systemc/build_cache.hpp), in an entry named by a digest
// of the sizes, the RTL's content, the interface (kNodeModelsAbi) and the build's recipe, so
// that the next run with the same sizes loads it at once, and a change to any of them builds
// afresh. An entry whose library does not load is built again, never used. Builds of one
// entry by several processes at once (a partitioned machine's) take turns on its lock.
#pragma once

#include "systemc/build_cache.hpp"
#include "systemc/node_models.hpp"
#include "systemc/node_sizes.hpp"

namespace collnet::sim {

// The interface a model library is built against: bumped whenever NodeModels, the port
// tables or the sides' classes change, so that a library of another interface is refused.
inline constexpr unsigned kNodeModelsAbi = 3;  // 2: the torus side's DMA memory port; 3: its read and write sides apart

// Where a variant's node models came from: the cache entry, and whether this call built it.
using ModelLibraryInfo = CacheEntryInfo;

// The node models for `sizes`: the built-in ones at the defaults (no build, no cache);
// otherwise the cached library's, built first if missing or not what the run needs.
// Throws std::runtime_error naming what failed (a build's error names its log). `info`,
// when given, says where the models came from.
const NodeModels& node_models_for(const NodeSizes& sizes, const BuildProgress& progress = {},
                                  ModelLibraryInfo* info = nullptr);

}  // namespace collnet::sim
