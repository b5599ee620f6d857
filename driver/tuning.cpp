// SPDX-License-Identifier: Apache-2.0
#include "driver/tuning.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "driver/error.hpp"

namespace collnet::driver {

Tuning::Tuning(std::vector<TuningRule> rules) : rules_(std::move(rules)) {
  for (const TuningRule& r : rules_) {
    if (r.algorithm == Algorithm::Auto || !applies(r.collective, r.algorithm))
      throw Error(std::string("tuning: ") + to_string(r.algorithm) + " is not an algorithm of " + to_string(r.collective));
    if (r.ranks == 0) throw Error(std::string("tuning: a rule for ") + to_string(r.collective) + " names 0 ranks");
  }
  std::stable_sort(rules_.begin(), rules_.end(), [](const TuningRule& a, const TuningRule& b) {
    if (a.collective != b.collective) return a.collective < b.collective;
    if (a.ranks != b.ranks) return a.ranks < b.ranks;
    return a.up_to_bytes < b.up_to_bytes;
  });
}

std::optional<Algorithm> Tuning::pick(Collective c, unsigned ranks, size_t bytes) const {
  // The measured communicator size nearest `ranks`, by ratio.
  std::optional<unsigned> nearest;
  double best = 0;
  for (const TuningRule& r : rules_) {
    if (r.collective != c) continue;
    const double d = std::fabs(std::log2(static_cast<double>(r.ranks)) - std::log2(static_cast<double>(std::max(1u, ranks))));
    if (!nearest || d < best) {
      nearest = r.ranks;
      best = d;
    }
  }
  if (!nearest) return std::nullopt;
  std::optional<Algorithm> last;
  for (const TuningRule& r : rules_) {
    if (r.collective != c || r.ranks != *nearest) continue;
    if (bytes <= r.up_to_bytes) return r.algorithm;
    last = r.algorithm;
  }
  return last;
}

}  // namespace collnet::driver
