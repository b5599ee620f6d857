// SPDX-License-Identifier: Apache-2.0
#include "driver/neighbourhoods.hpp"

#include <algorithm>
#include <sstream>
#include <tuple>

namespace collnet::driver {

unsigned Neighbourhood::at(const fw::TorusLayout& t, unsigned i, unsigned j) const {
  fw::Coord c = corner;
  c[first] = (c[first] + i) % t.dims()[first];
  c[second] = (c[second] + j) % t.dims()[second];
  return t.rank(c);
}

unsigned Neighbourhoods::local_root(unsigned k, unsigned root_node, const fw::TorusLayout& t) const {
  if (root_node < of_node.size() && of_node[root_node] == static_cast<int>(k)) return root_node;
  return t.rank(list[k].corner);
}

std::vector<unsigned> Neighbourhoods::order(unsigned root_node) const {
  const unsigned root_k = static_cast<unsigned>(of_node.at(root_node));
  std::vector<unsigned> o{root_k};
  for (unsigned k = 0; k < list.size(); ++k)
    if (k != root_k) o.push_back(k);
  return o;
}

Neighbourhoods find_neighbourhoods(const fw::Coord& dims, const std::vector<unsigned>& members, unsigned first,
                                   unsigned second) {
  const fw::TorusLayout t(dims);
  const unsigned third = 3 - first - second;
  std::vector<bool> member(t.nodes(), false), placed(t.nodes(), false);
  for (unsigned m : members) member.at(m) = true;
  auto free_member = [&](const fw::Coord& c) {
    const unsigned n = t.rank(c);
    return member[n] && !placed[n];
  };
  std::vector<unsigned> order(members);
  std::sort(order.begin(), order.end(), [&](unsigned a, unsigned b) {
    const fw::Coord ca = t.coord(a), cb = t.coord(b);
    return std::tie(ca[third], ca[second], ca[first]) < std::tie(cb[third], cb[second], cb[first]);
  });
  order.erase(std::unique(order.begin(), order.end()), order.end());

  Neighbourhoods out;
  out.of_node.assign(t.nodes(), -1);
  const unsigned n1 = dims[first], n2 = dims[second];
  for (unsigned m : order) {
    if (placed[m]) continue;
    Neighbourhood nb;
    nb.first = first;
    nb.second = second;
    nb.corner = t.coord(m);
    // The run along the first dimension: the negative direction, then the positive.
    while (nb.len_first < n1) {
      fw::Coord p = nb.corner;
      p[first] = (p[first] + n1 - 1) % n1;
      if (!free_member(p)) break;
      nb.corner = p;
      ++nb.len_first;
    }
    while (nb.len_first < n1) {
      fw::Coord q = nb.corner;
      q[first] = (q[first] + nb.len_first) % n1;
      if (!free_member(q)) break;
      ++nb.len_first;
    }
    if (nb.len_first == n1) nb.corner = t.coord(m);  // a whole ring: start where the search did
    // Rows of members under the run, in the positive direction of the second.
    while (nb.len_second < n2) {
      bool whole = true;
      for (unsigned i = 0; i < nb.len_first && whole; ++i) {
        fw::Coord r = nb.corner;
        r[first] = (r[first] + i) % n1;
        r[second] = (r[second] + nb.len_second) % n2;
        whole = free_member(r);
      }
      if (!whole) break;
      ++nb.len_second;
    }
    const int k = static_cast<int>(out.list.size());
    for (unsigned j = 0; j < nb.len_second; ++j)
      for (unsigned i = 0; i < nb.len_first; ++i) {
        const unsigned n = nb.at(t, i, j);
        placed[n] = true;
        out.of_node[n] = k;
        nb.nodes.push_back(n);
      }
    std::sort(nb.nodes.begin(), nb.nodes.end());
    out.list.push_back(std::move(nb));
  }
  return out;
}

Neighbourhoods find_neighbourhoods(const fw::Coord& dims, const std::vector<unsigned>& members) {
  static constexpr unsigned kOrientations[6][2] = {{0, 1}, {1, 0}, {1, 2}, {2, 1}, {0, 2}, {2, 0}};
  Neighbourhoods best;
  bool have = false;
  for (const auto& o : kOrientations) {
    Neighbourhoods n = find_neighbourhoods(dims, members, o[0], o[1]);
    if (!have || n.list.size() < best.list.size()) {
      best = std::move(n);
      have = true;
    }
  }
  return best;
}

std::string draw(const fw::Coord& dims, const Neighbourhoods& n, unsigned root_node) {
  std::ostringstream s;
  if (n.list.empty()) return "no members\n";
  const fw::TorusLayout t(dims);
  const unsigned first = n.list[0].first, second = n.list[0].second, third = 3 - first - second;
  const char* names = "xyz";
  static const std::string kLetters = "abcdefghijklmnopqrstuvwxyz";
  std::vector<bool> is_root(t.nodes(), false);
  for (unsigned k = 0; k < n.list.size(); ++k) is_root[n.local_root(k, root_node, t)] = true;
  for (unsigned v = 0; v < dims[third]; ++v) {
    bool any = false;
    for (unsigned node = 0; node < t.nodes(); ++node) any = any || (t.coord(node)[third] == v && n.of_node[node] >= 0);
    if (!any) continue;
    s << "plane " << names[third] << "=" << v << " (" << names[first] << " across, " << names[second] << " down)\n";
    for (unsigned j = 0; j < dims[second]; ++j) {
      s << "  ";
      for (unsigned i = 0; i < dims[first]; ++i) {
        fw::Coord c{};
        c[first] = i;
        c[second] = j;
        c[third] = v;
        const unsigned node = t.rank(c);
        const int k = n.of_node[node];
        char ch = '.';
        if (k >= 0) {
          ch = kLetters[static_cast<unsigned>(k) % kLetters.size()];
          if (is_root[node]) ch = static_cast<char>(ch - 'a' + 'A');
        }
        s << ch;
      }
      s << "\n";
    }
  }
  return s.str();
}

}  // namespace collnet::driver
