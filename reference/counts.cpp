// SPDX-License-Identifier: Apache-2.0
// The vector forms' counts: drawn from a seed, read from a file, packed.
#include "reference/counts.hpp"

#include <fstream>
#include <numeric>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace collnet::reference {

Counts seeded_counts(uint64_t seed, size_t members, size_t count) {
  auto mix = [](uint64_t x) {  // splitmix64
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
  };
  auto draw = [&](uint64_t key) {
    const uint64_t x = mix(mix(seed ^ 0xc0c0c0c0ull) ^ key);
    return (x >> 32) % 6 == 0 ? size_t{0} : static_cast<size_t>(x % (2 * count + 1));
  };
  Counts c;
  c.pair.assign(members, std::vector<size_t>(members, 0));
  for (size_t i = 0; i < members; ++i) {
    c.member.push_back(draw((uint64_t{1} << 62) + i));
    for (size_t j = 0; j < members; ++j) c.pair[i][j] = draw(i * members + j);
  }
  return c;
}

Counts read_counts_file(const std::string& path, size_t members) {
  std::ifstream f(path);
  if (!f) throw std::invalid_argument("cannot read '" + path + "'");
  return read_counts(f, path, members);
}

Counts read_counts(std::istream& f, const std::string& path, size_t members) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(f);
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(path + ": not JSON: " + e.what());
  }
  auto count = [&](const nlohmann::json& v, const std::string& where) {
    if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<long long>() >= 0))
      throw std::invalid_argument(path + ": " + where + " is not a count (an integer >= 0)");
    const uint64_t x = v.get<uint64_t>();
    if (x > (uint64_t{1} << 24)) throw std::invalid_argument(path + ": " + where + " is more than 2^24 elements");
    return static_cast<size_t>(x);
  };
  if (!j.is_array() || j.size() != members)
    throw std::invalid_argument(path + ": must be an array of " + std::to_string(members) + " entries, one per rank");
  Counts c;
  c.pair.assign(members, std::vector<size_t>(members, 0));
  c.member.assign(members, 0);
  const bool matrix = members > 0 && j[0].is_array();
  for (size_t i = 0; i < members; ++i) {
    if (!matrix) {
      c.member[i] = count(j[i], "entry " + std::to_string(i));
      continue;
    }
    if (!j[i].is_array() || j[i].size() != members)
      throw std::invalid_argument(path + ": row " + std::to_string(i) + " must be an array of " +
                                  std::to_string(members) + " counts");
    for (size_t k = 0; k < members; ++k)
      c.pair[i][k] = count(j[i][k], "row " + std::to_string(i) + " entry " + std::to_string(k));
  }
  for (size_t i = 0; i < members; ++i)
    for (size_t k = 0; k < members; ++k) {
      if (!matrix) c.pair[i][k] = c.member[k];
    }
  if (matrix)
    for (size_t i = 0; i < members; ++i) c.member[i] = c.pair[i][i];
  return c;
}

size_t total(const std::vector<size_t>& counts) { return std::accumulate(counts.begin(), counts.end(), size_t{0}); }

std::vector<size_t> packed(const std::vector<size_t>& counts) {
  std::vector<size_t> d(counts.size(), 0);
  for (size_t j = 1; j < counts.size(); ++j) d[j] = d[j - 1] + counts[j - 1];
  return d;
}

std::vector<size_t> sent_to(const Counts& c, size_t j) {
  std::vector<size_t> v;
  for (const auto& row : c.pair) v.push_back(row.at(j));
  return v;
}

}  // namespace collnet::reference
