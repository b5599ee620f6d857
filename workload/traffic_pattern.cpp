// SPDX-License-Identifier: Apache-2.0
#include "workload/traffic_pattern.hpp"

#include <algorithm>
#include <stdexcept>

namespace collnet::workload {

namespace {
constexpr const char* kNames[] = {"uniform", "transpose", "bitcomp", "hotspot", "neighbor"};
}

std::string to_string(Pattern p) { return kNames[static_cast<unsigned>(p)]; }

Pattern parse_pattern(const std::string& text) {
  for (unsigned i = 0; i < 5; ++i)
    if (text == kNames[i]) return static_cast<Pattern>(i);
  throw std::invalid_argument("unknown traffic pattern '" + text +
                              "': expected uniform, transpose, bitcomp, hotspot or neighbor");
}

TrafficPattern::TrafficPattern(Pattern p, const fw::TorusLayout& layout, std::vector<bool> down, unsigned hotspot,
                               double hotspot_fraction)
    : pattern_(p), layout_(layout), down_(std::move(down)), hotspot_(hotspot), hotspot_fraction_(hotspot_fraction) {
  down_.resize(layout_.nodes(), false);
  for (unsigned r = 0; r < layout_.nodes(); ++r)
    if (!down_[r]) live_.push_back(r);
  if (live_.size() < 2) throw std::invalid_argument("traffic needs at least two live nodes");
  const fw::Coord& d = layout_.dims();
  if (p == Pattern::Transpose && d[0] != d[1])
    throw std::invalid_argument("the transpose pattern needs X == Y, the machine is " + std::to_string(d[0]) + "x" +
                                std::to_string(d[1]) + "x" + std::to_string(d[2]));
  if (p == Pattern::Hotspot) {
    if (hotspot_ >= layout_.nodes())
      throw std::invalid_argument("hotspot node " + std::to_string(hotspot_) + " is not on a machine of " +
                                  std::to_string(layout_.nodes()) + " nodes");
    if (down_[hotspot_]) throw std::invalid_argument("hotspot node " + std::to_string(hotspot_) + " is down");
    if (!(hotspot_fraction_ >= 0 && hotspot_fraction_ <= 1))
      throw std::invalid_argument("hotspot fraction must be 0..1");
  }
}

unsigned TrafficPattern::uniform(unsigned src, std::mt19937_64& rng) const {
  // A live node other than src, each equally likely.
  std::uniform_int_distribution<size_t> pick(0, live_.size() - 1);
  for (;;) {
    const unsigned r = live_[pick(rng)];
    if (r != src) return r;
  }
}

void TrafficPattern::set_down(unsigned rank) {
  down_.at(rank) = true;
  live_.erase(std::remove(live_.begin(), live_.end(), rank), live_.end());
}

std::optional<unsigned> TrafficPattern::destination(unsigned src, std::mt19937_64& rng) const {
  if (down_[src] || live_.size() < 2) return std::nullopt;
  const fw::Coord c = layout_.coord(src);
  const fw::Coord& d = layout_.dims();
  unsigned dst = src;
  switch (pattern_) {
    case Pattern::Uniform:
      return uniform(src, rng);
    case Pattern::Hotspot: {
      std::uniform_real_distribution<double> u(0.0, 1.0);
      if (src != hotspot_ && u(rng) < hotspot_fraction_) return hotspot_;
      return uniform(src, rng);
    }
    case Pattern::Transpose:
      dst = layout_.rank({c[1], c[0], c[2]});
      break;
    case Pattern::Bitcomp:
      dst = layout_.rank({d[0] - 1 - c[0], d[1] - 1 - c[1], d[2] - 1 - c[2]});
      break;
    case Pattern::Neighbor: {
      fw::Coord n = c;
      for (unsigned k = 0; k < 3; ++k)
        if (d[k] > 1) {
          n[k] = (c[k] + 1) % d[k];
          break;
        }
      dst = layout_.rank(n);
      break;
    }
  }
  if (dst == src || down_[dst]) return std::nullopt;
  return dst;
}

bool TrafficPattern::sends(unsigned src) const {
  if (down_[src]) return false;
  if (pattern_ == Pattern::Uniform || pattern_ == Pattern::Hotspot) return true;
  std::mt19937_64 unused(0);
  return destination(src, unused).has_value();
}

}  // namespace collnet::workload
