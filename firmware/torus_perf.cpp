#include "torus_perf.hpp"

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

TorusLinkPerf read_torus_perf(RegisterBus& bus, unsigned link) {
  TorusLinkPerf p;
  for (unsigned v = 0; v < rm::kTrNumVcs; ++v) {
    p[v].flits = bus.read(torus_perf_address(link, v, rm::kTrPerfFlits));
    p[v].busy = bus.read(torus_perf_address(link, v, rm::kTrPerfBusy));
    p[v].stall = bus.read(torus_perf_address(link, v, rm::kTrPerfStall));
  }
  return p;
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
