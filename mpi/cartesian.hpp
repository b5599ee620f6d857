// SPDX-License-Identifier: Apache-2.0
// A Cartesian topology (MPI_Cart_create, MPI_Cart_sub): each dimension's size and whether
// it wraps. Ranks are numbered row-major, the last dimension varying fastest.
#pragma once

#include <utility>
#include <vector>

namespace collnet::mpi {

struct Cartesian {
  std::vector<int> dims;
  std::vector<bool> periods;

  int size() const;
  // Rank `rank`'s coordinates.
  std::vector<int> coords(int rank) const;
  // The rank at `coords`, periodic dimensions wrapped; kOffGrid off a non-periodic edge.
  static constexpr int kOffGrid = -1;
  int rank_at(std::vector<int> coords) const;
  // MPI_Cart_shift: the ranks `disp` below and above `rank` along `dim` (source, dest);
  // kOffGrid off a non-periodic edge.
  std::pair<int, int> shift(int rank, int dim, int disp) const;
};

}  // namespace collnet::mpi
