// SPDX-License-Identifier: Apache-2.0
// The node models built into the simulator: nd_tree_net and nd_torus_net at the node's
// default sizes (CMakeLists.txt's collnet_node_rtl).
// The Verilated (plain C++) model headers come before any other: with SystemC seen first,
// verilated.h would take the models for SystemC ones.
#include "Vtorus_net.h"
#include "Vtorus_net___024root.h"
#include "Vtree_net.h"
#include "Vtree_net___024root.h"
#include "verilated.h"
#include "verilated_fst_c.h"
// clang-format off
#include "systemc/node_sides.hpp"
// clang-format on

namespace collnet::sim {

const NodeModels& builtin_node_models() { return sides::node_models<Vtree_net, Vtorus_net>(); }

}  // namespace collnet::sim
