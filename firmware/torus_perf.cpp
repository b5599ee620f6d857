// SPDX-License-Identifier: Apache-2.0
#include "firmware/torus_perf.hpp"

#include <stdexcept>
#include <string>

namespace collnet::fw {

namespace rm = regmap;

uint32_t torus_perf_address(unsigned link, unsigned vc, unsigned k) {
  if (link >= rm::kNumDirs) throw std::invalid_argument("torus link " + std::to_string(link) + " does not exist (0..5)");
  if (vc >= rm::kTrNumVcs) throw std::invalid_argument("torus VC " + std::to_string(vc) + " does not exist (0..3)");
  if (k >= rm::kTrPerfCounters)
    throw std::invalid_argument("performance counter " + std::to_string(k) + " does not exist (0..2)");
  return rm::reg_tr_perf(link) + rm::kTrPerfVcStride * vc + 8 * k;
}

std::array<uint32_t, kTorusPerfWords> torus_perf_addresses(unsigned link) {
  std::array<uint32_t, kTorusPerfWords> a{};
  for (unsigned v = 0; v < rm::kTrNumVcs; ++v)
    for (unsigned k = 0; k < rm::kTrPerfCounters; ++k) a[v * rm::kTrPerfCounters + k] = torus_perf_address(link, v, k);
  return a;
}

TorusLinkPerf decode_torus_perf(const TorusPerfWords& w) {
  TorusLinkPerf p;
  for (unsigned v = 0; v < rm::kTrNumVcs; ++v) {
    const uint64_t* c = &w[v * rm::kTrPerfCounters];
    p[v] = {c[rm::kTrPerfFlits], c[rm::kTrPerfBusy], c[rm::kTrPerfStall]};
  }
  return p;
}

TorusLinkPerf read_torus_perf(RegisterBus& bus, unsigned link) {
  const auto addresses = torus_perf_addresses(link);
  TorusPerfWords w{};
  for (unsigned i = 0; i < kTorusPerfWords; ++i) w[i] = bus.read(addresses[i]);
  return decode_torus_perf(w);
}

const char* torus_vc_name(unsigned vc) {
  switch (vc) {
    case rm::kTrVcDyn0: return "dyn0";
    case rm::kTrVcDyn1: return "dyn1";
    case rm::kTrVcEscape: return "escape";
    case rm::kTrVcPrio: return "priority";
    default: throw std::invalid_argument("torus VC " + std::to_string(vc) + " does not exist (0..3)");
  }
}

}  // namespace collnet::fw
