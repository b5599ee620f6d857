// SPDX-License-Identifier: Apache-2.0
// What a node's firmware is told about itself at boot: its rank, the machine's size and
// how its tree links are wired, where it sits on the torus, which nodes are down. The machine fills it in; firmware never guesses wiring.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "firmware/down_nodes.hpp"
#include "firmware/torus_routes.hpp"

namespace collnet::fw {

struct Personality {
  unsigned rank = 0;
  unsigned nodes = 1;
  std::array<unsigned, 3> shape{1, 1, 1};  // X, Y, Z
  std::array<unsigned, 3> coord{0, 0, 0};  // this node's torus coordinates (fw::TorusLayout)
  unsigned torus_links_down = 0;           // bit d: torus link d marked down (the router avoids it)
  // The machine tree's live links: up to the parent (-1 at rank 0, and below a down node),
  // and bit l of down: link l leads to a live child.
  int tree_up_link = -1;
  unsigned tree_down_links = 0;
  // The nodes down from boot (down_nodes.hpp), shared by every node; null when none is.
  std::shared_ptr<const DownNodes> down;
  // With nodes or links down: how to reach every node from every other without them
  // (fw::routes_around), computed once for the machine and shared by every node; null
  // when nothing is down.
  std::shared_ptr<const std::vector<std::vector<TorusRoute>>> torus_routes;
};

}  // namespace collnet::fw
