// SPDX-License-Identifier: Apache-2.0
#include "reference/member_sets.hpp"

#include <algorithm>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>

#include "reference/number_list.hpp"

namespace collnet::reference {

namespace {

std::vector<unsigned> where(const fw::Coord& dims, bool (*in)(const fw::Coord&, const fw::Coord&)) {
  const fw::TorusLayout t(dims);
  std::vector<unsigned> out;
  for (unsigned n = 0; n < t.nodes(); ++n)
    if (in(t.coord(n), dims)) out.push_back(n);
  return out;
}

}  // namespace

const char* member_set_names() { return "a list, a file, random:P, plane-holes, checkerboard, l-shape, two-boxes"; }

std::vector<unsigned> member_nodes(const std::string& spec, const fw::Coord& dims, uint64_t seed) {
  const unsigned nodes = dims[0] * dims[1] * dims[2];
  std::vector<unsigned> out;
  if (spec.rfind("random:", 0) == 0) {
    const std::string p = spec.substr(7);
    double percent = 0;
    try {
      size_t used = 0;
      percent = std::stod(p, &used);
      if (used != p.size()) throw std::invalid_argument("");
    } catch (const std::exception&) {
      throw std::invalid_argument("'" + spec + "': '" + p + "' is not a percentage");
    }
    if (!(percent > 0 && percent <= 100))
      throw std::invalid_argument("'" + spec + "': the percentage must be above 0 and at most 100");
    std::mt19937_64 rng(seed);
    std::bernoulli_distribution take(percent / 100);
    for (unsigned n = 0; n < nodes; ++n)
      if (take(rng)) out.push_back(n);
    // At least two members: the lowest nodes not taken yet.
    for (unsigned n = 0; out.size() < std::min(2u, nodes) && n < nodes; ++n)
      if (!std::binary_search(out.begin(), out.end(), n)) out.insert(std::upper_bound(out.begin(), out.end(), n), n);
  } else if (spec == "plane-holes") {
    out = where(dims,
                [](const fw::Coord& c, const fw::Coord&) { return c[2] == 0 && !(c[0] % 3 == 1 && c[1] % 3 == 1); });
  } else if (spec == "checkerboard") {
    out = where(dims, [](const fw::Coord& c, const fw::Coord&) { return (c[0] + c[1] + c[2]) % 2 == 0; });
  } else if (spec == "l-shape") {
    out = where(dims, [](const fw::Coord& c, const fw::Coord&) { return c[2] == 0 && (c[0] < 2 || c[1] < 2); });
  } else if (spec == "two-boxes") {
    out = where(dims, [](const fw::Coord& c, const fw::Coord& d) {
      bool first = true, second = true;
      for (unsigned k = 0; k < 3; ++k) {
        first = first && c[k] < 2;
        second = second && c[k] >= d[k] / 2 && c[k] < d[k] / 2 + 2;
      }
      return first || second;
    });
  } else if (!spec.empty() && spec.find_first_not_of("0123456789,") == std::string::npos) {
    out = parse_number_list(spec, nodes, "node");
    std::sort(out.begin(), out.end());
  } else {
    std::ifstream f(spec);
    if (!f)
      throw std::invalid_argument("'" + spec +
                                  "' is neither a list of nodes, a readable file nor one of: " + member_set_names());
    std::stringstream text;
    text << f.rdbuf();
    std::string all = text.str();
    for (char& ch : all)
      if (ch == '[' || ch == ']' || ch == '\n' || ch == '\r' || ch == '\t' || ch == ' ') ch = ',';
    std::string list;
    for (const std::string& item : split_list(all))
      if (!item.empty()) list += (list.empty() ? "" : ",") + item;
    if (list.empty()) throw std::invalid_argument("the file '" + spec + "' lists no node");
    try {
      out = parse_number_list(list, nodes, "node");
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("the file '" + spec + "': " + e.what());
    }
    std::sort(out.begin(), out.end());
  }
  if (out.empty())
    throw std::invalid_argument("'" + spec + "' names no node of a " + std::to_string(dims[0]) + "x" +
                                std::to_string(dims[1]) + "x" + std::to_string(dims[2]) + " machine");
  return out;
}

}  // namespace collnet::reference
