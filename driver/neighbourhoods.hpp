// SPDX-License-Identifier: Apache-2.0
// The regular neighbourhoods of an irregular set of nodes (docs/neighbourhoods.md).
//
// A member set with topological gaps is cut into logical planes without gaps: rectangles
// in a plane of two torus dimensions (the first and the second; the third fixed), every node
// of which is a member. Each member is in exactly one. Found greedily, as the claim
// describes a member establishing its plane: the first member not yet placed (in order of
// the third, second, then first coordinate) searches the first dimension in the negative
// and the positive direction for members next to it, one hop at a time, and the second
// dimension in the positive direction for rows of members under that run; the rectangle
// stops at the first gap. Every orientation of the two dimensions is tried and the one
// giving the fewest neighbourhoods kept (ties: x then y, first).
//
// A neighbourhood's local root is the collective's root node in the root's neighbourhood,
// the rectangle's first corner elsewhere. Rooted collectives then run in two phases
// (torus_collectives.cpp): within every neighbourhood from or to its local root (a local
// tree; for bcast the deposit bit's line broadcasts, first along the run of the first
// dimension through the local root, then along the second from every node of that run),
// and among the local roots (a tree of them rooted at the root's).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "firmware/torus_layout.hpp"

namespace collnet::driver {

struct Neighbourhood {
  unsigned first = 0, second = 1;  // the plane's dimensions (the third is fixed)
  fw::Coord corner{};              // the first node: the run starts here (wrapping)
  unsigned len_first = 1, len_second = 1;
  std::vector<unsigned> nodes;     // its nodes, sorted

  // The node `i` hops along `first` and `j` along `second` from the corner.
  unsigned at(const fw::TorusLayout& t, unsigned i, unsigned j) const;
};

struct Neighbourhoods {
  std::vector<Neighbourhood> list;   // in the order found
  std::vector<int> of_node;          // per node of the machine: its neighbourhood, or -1

  // The local root of neighbourhood `k` for a collective rooted at node `root_node`.
  unsigned local_root(unsigned k, unsigned root_node, const fw::TorusLayout& t) const;
  // The neighbourhoods in the order of the local roots' tree: `root_node`'s first, then the
  // others as found.
  std::vector<unsigned> order(unsigned root_node) const;
};

// The neighbourhoods of `members` (distinct nodes of a torus of `dims`, any order).
Neighbourhoods find_neighbourhoods(const fw::Coord& dims, const std::vector<unsigned>& members);
// The neighbourhoods found with the first dimension `first` and the second `second`.
Neighbourhoods find_neighbourhoods(const fw::Coord& dims, const std::vector<unsigned>& members, unsigned first,
                                   unsigned second);

// A text picture: one block per plane of the chosen orientation that holds a member, a
// letter per neighbourhood (a..z, cycling), '.' for a node that is not a member, and the
// letter in upper case at each local root for a collective rooted at `root_node`.
std::string draw(const fw::Coord& dims, const Neighbourhoods& n, unsigned root_node);

}  // namespace collnet::driver
