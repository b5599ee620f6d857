// What a node's firmware is told about itself at boot: its rank, the machine's size and
// how its tree links are wired, where it sits on the torus. The machine fills it in; firmware never guesses wiring.
#pragma once

#include <array>
#include <cstdint>

namespace collnet::fw {

struct Personality {
  unsigned rank = 0;
  unsigned nodes = 1;
  std::array<unsigned, 3> shape{1, 1, 1};  // X, Y, Z
  std::array<unsigned, 3> coord{0, 0, 0};  // this node's torus coordinates (fw::TorusLayout)
  unsigned torus_links_down = 0;           // bit d: torus link d marked down (the router avoids it)
  int tree_up_link = -1;                   // link to the parent in the machine tree, -1 at rank 0
  unsigned tree_down_links = 0;            // bit l: link l leads to a child in the machine tree
};

}  // namespace collnet::fw
