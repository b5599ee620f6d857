// SPDX-License-Identifier: Apache-2.0
// Member sets of nodes on the command line (`collnet run --ranks`, `collnet neighbourhoods
// --ranks`) and in the tests: a list, a file, random, or one of the irregular shapes
// the regular neighbourhoods are measured on (docs/neighbourhoods.md).
//
//   0,5,6,11,20     these nodes (number_list.hpp)
//   FILE            a file of node numbers, separated by commas, spaces or newlines (a JSON
//                   array reads as one)
//   random:P        each node with probability P percent (0 < P <= 100), seeded; at least two
//   plane-holes     the z = 0 plane without the nodes at x % 3 == 1 and y % 3 == 1
//   checkerboard    every node with x + y + z even (no two members neighbours)
//   l-shape         in the z = 0 plane, x < 2 or y < 2 (an L two nodes thick)
//   two-boxes       two 2x2x2 boxes (clipped to the machine): one at the origin, one at the
//                   middle of every dimension
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "firmware/torus_layout.hpp"

namespace collnet::reference {

// The nodes `spec` names on a torus of `dims`, sorted. Throws std::invalid_argument naming
// what is wrong (an unreadable file, a bad number, P out of range, no member at all).
std::vector<unsigned> member_nodes(const std::string& spec, const fw::Coord& dims, uint64_t seed);
// The names above, for the help.
const char* member_set_names();

}  // namespace collnet::reference
