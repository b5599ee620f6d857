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

void LinkSamples::Network::take(const std::vector<uint64_t>& counts) {
  uint64_t all = 0, top = 0;
  for (size_t i = 0; i < counts.size(); ++i) {
    const uint64_t delta = counts[i] - last[i];
    last[i] = counts[i];
    all += delta;
    top = std::max(top, delta);
  }
  sum.push_back(all);
  most.push_back(top);
}

std::vector<double> LinkSamples::Network::per_cycle(const std::vector<uint64_t>& values,
                                                    const std::vector<uint64_t>& cycles, unsigned over) {
  std::vector<double> r;
  for (size_t i = 0; i < values.size(); ++i) {
    const double period = static_cast<double>(cycles[i] - (i ? cycles[i - 1] : 0));
    r.push_back(over ? static_cast<double>(values[i]) / (period * over) : 0.0);
  }
  return r;
}

void LinkSamples::take(sim::Machine& m, uint64_t cycle) {
  if (cycle <= last_cycle()) return;
  std::vector<uint64_t> torus(torus_.last.size()), tree(tree_.last.size());
  for (unsigned r = 0; r < layout_.nodes(); ++r) {
    for (unsigned d = 0; d < rm::kNumDirs; ++d) torus[size_t{r} * rm::kNumDirs + d] = m.torus_link_flits(r, d);
    for (unsigned l = 0; l < rm::kNumLinks; ++l) tree[size_t{r} * rm::kNumLinks + l] = m.link_flits(r, l);
  }
  torus_.take(torus);
  tree_.take(tree);
  cycle_.push_back(cycle);
}

void LinkSamples::combine(sim::Machine& m) {
  sim::Transport* t = m.transport();
  if (!t) return;
  for (Network* n : {&torus_, &tree_}) {
    t->allreduce(n->sum, sim::Transport::Op::Sum);
    t->allreduce(n->most, sim::Transport::Op::Max);
  }
}

double LinkSamples::peak() const {
  const std::vector<double> m = torus_.per_cycle(torus_.sum, cycle_, torus_.links);
  return m.empty() ? 0 : *std::max_element(m.begin(), m.end());
}

double LinkSamples::tree_peak() const {
  const std::vector<double> m = tree_.per_cycle(tree_.sum, cycle_, tree_.links);
  return m.empty() ? 0 : *std::max_element(m.begin(), m.end());
}

nlohmann::json LinkSamples::json() const {
  return {{"every", every_},
          {"cycle", cycle_},
          {"torus_utilisation", torus_.per_cycle(torus_.sum, cycle_, torus_.links)},
          {"torus_busiest", torus_.per_cycle(torus_.most, cycle_, 1)},
          {"tree_utilisation", tree_.per_cycle(tree_.sum, cycle_, tree_.links)},
          {"tree_busiest", tree_.per_cycle(tree_.most, cycle_, 1)}};
}

}  // namespace collnet::cli
