// SPDX-License-Identifier: Apache-2.0
// Software route choice around what is down on the torus. The routers route in dimension
// order on the escape VC and drop a packet whose dimension-order route needs a link marked
// down; software avoids that by choosing, for each pair of live nodes, the hint bits of a
// dimension-order route that touches no down node or link, or else an intermediate node
// whose two legs have such routes. One implementation for every sender (the synthetic
// traffic's agents today).
#pragma once

#include <vector>

#include "firmware/torus_layout.hpp"

namespace collnet::fw {

// What is down, per node: the node itself, and its links (bit d: the link in direction d,
// as the routers at both ends mark it).
struct TorusFaults {
  std::vector<bool> node_down;
  std::vector<unsigned> links_down;
};

// How a packet from one node reaches another: the header's hint bits and routing mode,
// and an intermediate node to forward through when no route avoids what is down.
struct TorusRoute {
  unsigned hints = 0;  // 0: the router picks minimal directions
  bool deterministic = false;
  int via = -1;  // forward through this node first (-1: direct)
};

// routes[s][t] for every pair of live nodes (deterministic, hinted, or through `via`);
// pairs with a down end are left default. Throws std::runtime_error naming a pair with no
// route even through another node.
std::vector<std::vector<TorusRoute>> routes_around(const TorusLayout& layout, const TorusFaults& faults);

}  // namespace collnet::fw
