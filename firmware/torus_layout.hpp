// SPDX-License-Identifier: Apache-2.0
// Where ranks sit on the torus: rank r of an X x Y x Z machine is at x = r % X,
// y = (r / X) % Y, z = r / (X * Y), and link d (direction 2 * dimension + 1 if minus) of a
// node leads to the neighbour one step that way, wrapping around. A dimension of size 1
// has no links; in a dimension of size 2 both directions reach the same neighbour over
// two separate links. The machine wires by it and firmware addresses by it.
#pragma once

#include <array>
#include <string>

namespace collnet::fw {

using Coord = std::array<unsigned, 3>;

class TorusLayout {
 public:
  explicit TorusLayout(const Coord& dims) : dims_(dims) {}

  const Coord& dims() const { return dims_; }
  unsigned nodes() const { return dims_[0] * dims_[1] * dims_[2]; }
  Coord coord(unsigned rank) const { return {rank % dims_[0], (rank / dims_[0]) % dims_[1], rank / (dims_[0] * dims_[1])}; }
  unsigned rank(const Coord& c) const { return c[0] + dims_[0] * (c[1] + dims_[1] * c[2]); }
  bool has_link(unsigned dir) const { return dims_[dir / 2] >= 2; }
  static unsigned opposite(unsigned dir) { return dir ^ 1u; }
  // A direction's name: "x+", "x-", "y+", "y-", "z+", "z-" (dir 0..5).
  static const char* dir_name(unsigned dir) {
    static const char* const kNames[] = {"x+", "x-", "y+", "y-", "z+", "z-"};
    return dir < 6 ? kNames[dir] : "?";
  }
  // The direction a name names, or 6 if it names none.
  static unsigned dir_named(const std::string& name) {
    for (unsigned d = 0; d < 6; ++d)
      if (name == dir_name(d)) return d;
    return 6;
  }
  unsigned neighbour(unsigned rank, unsigned dir) const {
    Coord c = coord(rank);
    const unsigned k = dir / 2, n = dims_[k];
    c[k] = (dir & 1u) ? (c[k] + n - 1) % n : (c[k] + 1) % n;
    return this->rank(c);
  }
  // Hops from a to b along dimension k going the + way (the - way is n - this, if not 0).
  unsigned plus_hops(const Coord& a, const Coord& b, unsigned k) const { return (b[k] + dims_[k] - a[k]) % dims_[k]; }
  // Hops on a minimal route from a to b.
  unsigned distance(const Coord& a, const Coord& b) const {
    unsigned h = 0;
    for (unsigned k = 0; k < 3; ++k) {
      const unsigned p = plus_hops(a, b, k);
      h += p < dims_[k] - p ? p : dims_[k] - p;
    }
    return h;
  }

 private:
  Coord dims_;
};

}  // namespace collnet::fw
