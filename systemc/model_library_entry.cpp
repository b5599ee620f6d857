// SPDX-License-Identifier: Apache-2.0
// The one function a model library exports (systemc/model_library.hpp): the NodeModels of
// the nd_tree_net and nd_torus_net it was built with, and the interface it was built
// against. Compiled by the library's build, never into the simulator; everything else in
// the library, its Verilator runtime included, is local to it (model_library.map).
// The Verilated model headers come first, as in node_models.cpp.
#include "Vtorus_net.h"
#include "Vtorus_net___024root.h"
#include "Vtree_net.h"
#include "Vtree_net___024root.h"
#include "verilated.h"
#include "verilated_fst_c.h"
// clang-format off
#include "systemc/model_library.hpp"
#include "systemc/node_sides.hpp"
// clang-format on

extern "C" __attribute__((visibility("default"))) const collnet::sim::NodeModels* collnet_node_models(unsigned* abi) {
  *abi = collnet::sim::kNodeModelsAbi;
  return &collnet::sim::sides::node_models<Vtree_net, Vtorus_net>();
}
