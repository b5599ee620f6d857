// SPDX-License-Identifier: Apache-2.0
// Synthetic traffic patterns on the torus: where a packet from a node goes.
//   uniform    any other live node, equally likely
//   transpose  (x, y, z) -> (y, x, z); needs X == Y; nodes with x == y send nothing
//   bitcomp    (x, y, z) -> (X-1-x, Y-1-y, Z-1-z): the bit complement when sizes are powers of
//              two; a node that is its own complement sends nothing
//   hotspot    the hotspot node with probability hotspot_fraction, else uniform
//   neighbor   (x+1, y, z) with wrap-around (along the first dimension of size > 1)
// Down nodes neither send nor receive; a fixed pattern whose destination is down sends
// nothing from that node.
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "firmware/torus_layout.hpp"

namespace collnet::workload {

enum class Pattern { Uniform, Transpose, Bitcomp, Hotspot, Neighbor };

std::string to_string(Pattern p);
// Throws std::invalid_argument naming the known patterns.
Pattern parse_pattern(const std::string& text);

class TrafficPattern {
 public:
  // Throws std::invalid_argument when the pattern does not fit the shape (transpose needs
  // X == Y) or leaves no live node to send to.
  TrafficPattern(Pattern p, const fw::TorusLayout& layout, std::vector<bool> down, unsigned hotspot = 0,
                 double hotspot_fraction = 0.1);

  // The destination of the next packet from `src`, or none when `src` sends nothing.
  std::optional<unsigned> destination(unsigned src, std::mt19937_64& rng) const;
  // Whether `src` sends at all under this pattern.
  bool sends(unsigned src) const;
  // Node `rank` went down mid-run: from now on it neither sends nor receives (with fewer
  // than two live nodes left, nobody sends).
  void set_down(unsigned rank);

 private:
  unsigned uniform(unsigned src, std::mt19937_64& rng) const;

  Pattern pattern_;
  fw::TorusLayout layout_;
  std::vector<bool> down_;
  std::vector<unsigned> live_;  // ranks that are up
  unsigned hotspot_;
  double hotspot_fraction_;
};

}  // namespace collnet::workload
