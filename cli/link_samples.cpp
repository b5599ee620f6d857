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

namespace {
// Each sample's period: the cycles since the sample before (or since cycle 0).
double period(const std::vector<uint64_t>& cycles, size_t i) {
  return static_cast<double>(cycles[i] - (i ? cycles[i - 1] : 0));
}
}  // namespace

std::vector<double> LinkSamples::Network::mean(const std::vector<uint64_t>& cycles) const {
  std::vector<double> m;
  for (size_t i = 0; i < sum.size(); ++i)
    m.push_back(links ? static_cast<double>(sum[i]) / (period(cycles, i) * links) : 0.0);
  return m;
}

std::vector<double> LinkSamples::Network::busiest(const std::vector<uint64_t>& cycles) const {
  std::vector<double> b;
  for (size_t i = 0; i < most.size(); ++i) b.push_back(static_cast<double>(most[i]) / period(cycles, i));
  return b;
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
  const std::vector<double> m = torus_.mean(cycle_);
  return m.empty() ? 0 : *std::max_element(m.begin(), m.end());
}

double LinkSamples::tree_peak() const {
  const std::vector<double> m = tree_.mean(cycle_);
  return m.empty() ? 0 : *std::max_element(m.begin(), m.end());
}

nlohmann::json LinkSamples::json() const {
  return {{"every", every_},
          {"cycle", cycle_},
          {"torus_utilisation", torus_.mean(cycle_)},
          {"torus_busiest", torus_.busiest(cycle_)},
          {"tree_utilisation", tree_.mean(cycle_)},
          {"tree_busiest", tree_.busiest(cycle_)}};
}

}  // namespace collnet::cli
