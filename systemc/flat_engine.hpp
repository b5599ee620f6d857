// SPDX-License-Identifier: Apache-2.0
// The flat engine: the whole machine as one Verilated top (rtl/node/nd_machine.sv, every
// node and link in RTL, no SystemC), driven by the same traffic agents as the SystemC
// machine. A model is built per shape at configure time (COLLNET_FLAT_SHAPES) with the
// default link latency; flat_shapes() lists them.
#pragma once

#include <string>
#include <vector>

#include "systemc/traffic_run.hpp"

namespace collnet::sim {

// "XxYxZ/L" for every flat model built (shape and link latency).
std::vector<std::string> flat_models();
// Throws std::runtime_error naming the built models when none matches the machine.
workload::TrafficResult run_flat(const TrafficOptions& o, workload::TrafficSetup& setup);

}  // namespace collnet::sim
