// SPDX-License-Identifier: Apache-2.0
#include "mpi/cartesian.hpp"

#include <cstddef>
namespace collnet::mpi {

int Cartesian::size() const {
  long p = 1;
  for (int d : dims) p *= d;
  return static_cast<int>(p);
}

std::vector<int> Cartesian::coords(int rank) const {
  std::vector<int> c(dims.size());
  for (size_t i = dims.size(); i-- > 0;) {
    c[i] = rank % dims[i];
    rank /= dims[i];
  }
  return c;
}

int Cartesian::rank_at(std::vector<int> coords) const {
  int rank = 0;
  for (size_t i = 0; i < dims.size(); ++i) {
    int x = coords[i];
    if (periods[i])
      x = ((x % dims[i]) + dims[i]) % dims[i];
    else if (x < 0 || x >= dims[i])
      return kOffGrid;
    rank = rank * dims[i] + x;
  }
  return rank;
}

std::pair<int, int> Cartesian::shift(int rank, int dim, int disp) const {
  std::vector<int> at = coords(rank);
  const int here = at[static_cast<size_t>(dim)];
  at[static_cast<size_t>(dim)] = here - disp;
  const int source = rank_at(at);
  at[static_cast<size_t>(dim)] = here + disp;
  return {source, rank_at(at)};
}

}  // namespace collnet::mpi
