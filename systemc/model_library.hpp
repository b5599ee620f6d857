// SPDX-License-Identifier: Apache-2.0
// Node models for sizes other than the defaults (docs/design-space.md). A set of sizes is
// built once: Verilator with the sizes as parameter overrides on nd_tree_net and
// nd_torus_net, compiled with model_library_entry.cpp into a shared library (a model
// library) that holds its own copy of the Verilator runtime and exports one function. The
// library goes into a cache directory, in an entry named by a digest of the sizes, the
// RTL's content, the interface (kNodeModelsAbi) and the build's recipe, so that the next run
// with the same sizes loads it at once, and a change to any of them builds afresh.
// An entry is used only if its manifest matches what the run would build and its library
// loads; anything else (a deleted file, a half-written entry, a library of another RTL) is
// built again, never loaded. Builds of one entry by several processes at once (a
// partitioned machine's) take turns on a lock in the entry's directory.
#pragma once

#include <functional>
#include <string>

#include "systemc/node_models.hpp"
#include "systemc/node_sizes.hpp"

namespace collnet::sim {

// The interface a model library is built against: bumped whenever NodeModels, the port
// tables or the sides' classes change, so that a library of another interface is refused.
inline constexpr unsigned kNodeModelsAbi = 1;

// Reports the steps of a build (each a line, e.g. "verilating nd_torus_net"); may be empty.
using BuildProgress = std::function<void(const std::string&)>;

// The cache directory: $COLLNET_MODEL_CACHE if set, else $XDG_CACHE_HOME/collnet/models,
// else ~/.cache/collnet/models.
std::string model_cache_dir();

struct ModelLibraryInfo {
  std::string dir;       // the cache entry
  std::string digest;    // its name: what it was built from
  bool built = false;    // built by this call (false: found in the cache)
  double build_seconds = 0;
};

// The node models for `sizes`: the built-in ones at the defaults (no build, no cache);
// otherwise the cached library's, built first if missing or not what the run needs.
// Throws std::runtime_error naming what failed (a build's error names its log). `info`,
// when given, says where the models came from.
const NodeModels& node_models_for(const NodeSizes& sizes, const BuildProgress& progress = {},
                                  ModelLibraryInfo* info = nullptr);

}  // namespace collnet::sim
