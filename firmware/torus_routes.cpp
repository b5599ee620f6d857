// SPDX-License-Identifier: Apache-2.0
#include "firmware/torus_routes.hpp"

#include <stdexcept>
#include <string>

#include "firmware/torus_packet.hpp"

namespace collnet::fw {

namespace {

// Walks the dimension-order route from s to t with direction bits `hints`; false if it
// touches a down node or link.
bool clear_path(const TorusLayout& L, const TorusFaults& m, unsigned s, unsigned t, unsigned hints) {
  unsigned at = s;
  const Coord target = L.coord(t);
  for (unsigned k = 0; k < 3; ++k) {
    const unsigned dir = 2 * k + ((hints >> (2 * k)) & 2u ? 1 : 0);
    while (L.coord(at)[k] != target[k]) {
      if ((m.links_down[at] >> dir) & 1u) return false;
      at = L.neighbour(at, dir);
      if (m.node_down[at]) return false;
    }
  }
  return true;
}

// A dimension-order route from s to t that avoids what is down: the hint bits, or -1.
int clear_route(const TorusLayout& L, const TorusFaults& m, unsigned s, unsigned t) {
  const Coord a = L.coord(s), b = L.coord(t);
  const unsigned minimal = minimal_hints(a, b, L.dims());
  // The minimal directions first, then every other combination of directions.
  for (unsigned flip = 0; flip < 8; ++flip) {
    unsigned hints = 0;
    bool valid = true;
    for (unsigned k = 0; k < 3; ++k) {
      if (a[k] == b[k]) {
        if (flip >> k & 1u) valid = false;  // nothing to flip in this dimension
        continue;
      }
      const unsigned h = (minimal >> (2 * k)) & 3u;
      hints |= ((flip >> k & 1u) ? (h ^ 3u) : h) << (2 * k);
    }
    if (valid && clear_path(L, m, s, t, hints)) return static_cast<int>(hints);
  }
  return -1;
}

}  // namespace

std::vector<std::vector<TorusRoute>> routes_around(const TorusLayout& L, const TorusFaults& m) {
  const unsigned n = L.nodes();
  if (m.node_down.size() != n || m.links_down.size() != n)
    throw std::invalid_argument("routes_around: faults of " + std::to_string(m.node_down.size()) + " nodes for a torus of " +
                                std::to_string(n));
  std::vector<std::vector<TorusRoute>> routes(n, std::vector<TorusRoute>(n));
  std::vector<std::vector<int>> direct(n, std::vector<int>(n, -1));
  for (unsigned s = 0; s < n; ++s)
    for (unsigned t = 0; t < n; ++t)
      if (s != t && !m.node_down[s] && !m.node_down[t]) direct[s][t] = clear_route(L, m, s, t);
  for (unsigned s = 0; s < n; ++s) {
    for (unsigned t = 0; t < n; ++t) {
      if (s == t || m.node_down[s] || m.node_down[t]) continue;
      TorusRoute& r = routes[s][t];
      r.deterministic = true;
      if (direct[s][t] >= 0) {
        r.hints = static_cast<unsigned>(direct[s][t]);
        continue;
      }
      for (unsigned v = 0; v < n && r.via < 0; ++v)
        if (v != s && v != t && direct[s][v] >= 0 && direct[v][t] >= 0) r.via = static_cast<int>(v);
      if (r.via < 0)
        throw std::runtime_error("no route from node " + std::to_string(s) + " to node " + std::to_string(t) +
                                 " avoids what is down, even through another node");
    }
  }
  return routes;
}

}  // namespace collnet::fw
