// SPDX-License-Identifier: Apache-2.0
#include "cli/link_samples.hpp"

#include <algorithm>

#include "firmware/regmap.hpp"

namespace collnet::cli {

namespace rm = fw::regmap;

LinkSamples::LinkSamples(const fw::TorusLayout& layout, uint64_t every) : layout_(layout), every_(every) {
  for (unsigned d = 0; d < rm::kNumDirs; ++d) torus_.links += layout.has_link(d) ? layout.nodes() : 0;
  torus_.last.assign(size_t{layout.nodes()} * rm::kNumDirs, 0);
  tree_.links = 2 * (layout.nodes() - 1);  // a tree's edges, both ways
  tree_.last.assign(size_t{layout.nodes()} * rm::kNumLinks, 0);
}

void LinkSamples::Network::take(const std::vector<uint64_t>& counts, double period) {
  uint64_t sum = 0, most = 0;
  for (size_t i = 0; i < counts.size(); ++i) {
    const uint64_t delta = counts[i] - last[i];
    last[i] = counts[i];
    sum += delta;
    most = std::max(most, delta);
  }
  mean.push_back(links ? static_cast<double>(sum) / (period * links) : 0.0);
  busiest.push_back(static_cast<double>(most) / period);
}

void LinkSamples::take(sim::Machine& m, uint64_t cycle) {
  if (cycle <= last_cycle()) return;
  const double period = static_cast<double>(cycle - last_cycle());
  std::vector<uint64_t> torus(torus_.last.size()), tree(tree_.last.size());
  for (unsigned r = 0; r < layout_.nodes(); ++r) {
    for (unsigned d = 0; d < rm::kNumDirs; ++d) torus[size_t{r} * rm::kNumDirs + d] = m.torus_link_flits(r, d);
    for (unsigned l = 0; l < rm::kNumLinks; ++l) tree[size_t{r} * rm::kNumLinks + l] = m.link_flits(r, l);
  }
  torus_.take(torus, period);
  tree_.take(tree, period);
  cycle_.push_back(cycle);
}

double LinkSamples::peak() const {
  return torus_.mean.empty() ? 0 : *std::max_element(torus_.mean.begin(), torus_.mean.end());
}

double LinkSamples::tree_peak() const {
  return tree_.mean.empty() ? 0 : *std::max_element(tree_.mean.begin(), tree_.mean.end());
}

nlohmann::json LinkSamples::json() const {
  return {{"every", every_},
          {"cycle", cycle_},
          {"torus_utilisation", torus_.mean},
          {"torus_busiest", torus_.busiest},
          {"tree_utilisation", tree_.mean},
          {"tree_busiest", tree_.busiest}};
}

}  // namespace collnet::cli
