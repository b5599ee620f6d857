// SPDX-License-Identifier: Apache-2.0
// A Cartesian topology (MPI_Cart_create, MPI_Cart_sub): each dimension's size and whether
// it wraps. Ranks are numbered row-major, the last dimension varying fastest.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace collnet::mpi {

struct Cartesian {
  std::vector<int> dims;
  std::vector<bool> periods;

  int size() const;
  std::string text() const;  // "4x2x2"
  // Rank `rank`'s coordinates.
  std::vector<int> coords(int rank) const;
  // The rank at `coords`, periodic dimensions wrapped; kOffGrid off a non-periodic edge.
  static constexpr int kOffGrid = -1;
  int rank_at(std::vector<int> coords) const;
  // MPI_Cart_shift: the ranks `disp` below and above `rank` along `dim` (source, dest);
  // kOffGrid off a non-periodic edge.
  std::pair<int, int> shift(int rank, int dim, int disp) const;
};

// Where a grid's ranks go on the machine (MPI_Cart_create with reorder). When the grid's
// dimensions, those of 1 aside, are the torus's X, Y and Z and the node's tasks (if more
// than one) in some order, each follows one of them: `axis[i]` is 0, 1, 2 for X, Y, Z, 3
// for the tasks of a node, 4 + a for torus axis a with the node's tasks inside it (a
// length of tasks x that axis's), -1 for a dimension of 1. A rank then sits at the grid
// coordinates of its own place on the machine, so Cartesian neighbours are torus
// neighbours one hop apart (or tasks of one node), wrap-around included.
struct TorusEmbedding {
  std::vector<int> axis;
  // The grid rank of world rank `world` (node `world / tasks`, at fw::TorusLayout's place).
  int rank_of(const Cartesian& k, unsigned world, const std::array<unsigned, 3>& shape, unsigned tasks) const;
  std::string text(const Cartesian& k) const;  // "grid 4x4x4: dims 0,1,2 along z,y,x"
};
std::optional<TorusEmbedding> embed(const Cartesian& k, const std::array<unsigned, 3>& shape, unsigned tasks);

}  // namespace collnet::mpi
