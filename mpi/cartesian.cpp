// SPDX-License-Identifier: Apache-2.0
#include "mpi/cartesian.hpp"

#include <cstddef>
#include <string>
namespace collnet::mpi {

int Cartesian::size() const {
  long p = 1;
  for (int d : dims) p *= d;
  return static_cast<int>(p);
}

std::string Cartesian::text() const {
  std::string t;
  for (size_t i = 0; i < dims.size(); ++i) t += (i ? "x" : "") + std::to_string(dims[i]);
  return t;
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

std::optional<TorusEmbedding> embed(const Cartesian& k, const std::array<unsigned, 3>& shape, unsigned tasks) {
  // The machine's axes longer than 1: X, Y, Z and the tasks. Each grid dimension longer
  // than 1 takes the first unused one of its length, or else a torus axis with the tasks
  // inside it (a length of axis x tasks: the node's tasks side by side, then the next
  // node along the axis, as Blue Gene/L's virtual-node mode mapped TXYZ); every such axis
  // must be taken.
  const unsigned lengths[4] = {shape[0], shape[1], shape[2], tasks};
  bool used[4] = {false, false, false, false};
  TorusEmbedding e;
  for (int d : k.dims) {
    int found = -1;
    if (d > 1)
      for (int a = 0; a < 4 && found < 0; ++a)
        if (!used[a] && lengths[a] == static_cast<unsigned>(d)) found = a;
    if (d > 1 && found < 0 && tasks > 1 && !used[3])
      for (int a = 0; a < 3 && found < 0; ++a)
        if (!used[a] && lengths[a] > 1 && lengths[a] * tasks == static_cast<unsigned>(d)) found = 4 + a;
    if (d > 1 && found < 0) return std::nullopt;
    if (found >= 4) used[3] = true;
    if (found >= 0) used[found % 4] = true;
    e.axis.push_back(found);
  }
  for (int a = 0; a < 4; ++a)
    if (lengths[a] > 1 && !used[a]) return std::nullopt;
  return e;
}

int TorusEmbedding::rank_of(const Cartesian& k, unsigned world, const std::array<unsigned, 3>& shape,
                            unsigned tasks) const {
  const unsigned node = world / tasks;
  const unsigned place[4] = {node % shape[0], (node / shape[0]) % shape[1], node / (shape[0] * shape[1]),
                             world % tasks};
  std::vector<int> c(k.dims.size(), 0);
  for (size_t i = 0; i < c.size(); ++i) {
    if (axis[i] >= 4)
      c[i] = static_cast<int>(place[axis[i] - 4] * tasks + place[3]);
    else if (axis[i] >= 0)
      c[i] = static_cast<int>(place[axis[i]]);
  }
  return k.rank_at(c);
}

std::string TorusEmbedding::text(const Cartesian& k) const {
  static const char* const names[7] = {"x", "y", "z", "tasks", "tasks+x", "tasks+y", "tasks+z"};
  std::string along;
  for (size_t i = 0; i < k.dims.size(); ++i) along += std::string(i ? "," : "") + (axis[i] < 0 ? "-" : names[axis[i]]);
  return "grid " + k.text() + " along " + along;
}

}  // namespace collnet::mpi
