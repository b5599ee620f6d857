#include "link_samples.hpp"

#include <algorithm>

#include "firmware/regmap.hpp"

namespace collnet::cli {

LinkSamples::LinkSamples(const fw::TorusLayout& layout, uint64_t every) : layout_(layout), every_(every) {
  for (unsigned d = 0; d < fw::regmap::kNumDirs; ++d) links_ += layout.has_link(d) ? layout.nodes() : 0;
  last_.assign(size_t{layout.nodes()} * fw::regmap::kNumDirs, 0);
}

void LinkSamples::take(sim::Machine& m, uint64_t cycle) {
  uint64_t sum = 0, busiest = 0;
  for (unsigned r = 0; r < layout_.nodes(); ++r)
    for (unsigned d = 0; d < fw::regmap::kNumDirs; ++d) {
      uint64_t& last = last_[size_t{r} * fw::regmap::kNumDirs + d];
      const uint64_t f = m.torus_link_flits(r, d), delta = f - last;
      last = f;
      sum += delta;
      busiest = std::max(busiest, delta);
    }
  const double per = static_cast<double>(every_);
  cycle_.push_back(cycle);
  mean_.push_back(links_ ? static_cast<double>(sum) / (per * links_) : 0.0);
  busiest_.push_back(static_cast<double>(busiest) / per);
}

double LinkSamples::peak() const { return mean_.empty() ? 0 : *std::max_element(mean_.begin(), mean_.end()); }

nlohmann::json LinkSamples::json() const {
  return {{"every", every_}, {"cycle", cycle_}, {"torus_utilisation", mean_}, {"torus_busiest", busiest_}};
}

}  // namespace collnet::cli
