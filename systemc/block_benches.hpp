// SPDX-License-Identifier: Apache-2.0
// The block testbenches of a variant (docs/design-space.md): the router's (tb/tb_tr_router.cpp
// on tr_router) and the combining adapter's (tb/tb_cn_adapter.cpp on cn_adapter), each built
// at the variant's sizes of its block — Verilator with the sizes as parameter overrides, the
// bench with them as its TB_* definitions — into an executable in the model cache
// (systemc/build_cache.hpp). The entry is named by the block's sizes and the content of the
// bench, the firmware it drives the block with and the block's RTL, so variants that share a
// block's sizes share its bench. collnet sweep runs them before a variant's numbers are used.
#pragma once

#include <string>
#include <vector>

#include "systemc/build_cache.hpp"
#include "systemc/node_sizes.hpp"

namespace collnet::sim {

struct BlockBench {
  std::string name;        // the testbench: "tb_tr_router"
  std::string block;       // the module it tests: "tr_router"
  std::string sizes;       // the block's sizes it was built at: "DynFlits=64 EscSlots=3 ..."
  std::string executable;  // a GoogleTest program: exit status 0 when every test passed
  CacheEntryInfo entry;
};

// The router's and the adapter's testbenches at `sizes`, built first unless the cache holds
// them. Throws std::runtime_error naming what failed (a build's error names its log).
std::vector<BlockBench> block_benches_for(const NodeSizes& sizes, const BuildProgress& progress = {});

}  // namespace collnet::sim
