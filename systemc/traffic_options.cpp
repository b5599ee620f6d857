// SPDX-License-Identifier: Apache-2.0
// A traffic run's engine and options, checked without a machine (systemc/traffic_run.hpp):
// the command line checks them as it parses, before anything runs.
#include <stdexcept>
#include <string>

#include "firmware/regmap.hpp"
#include "systemc/traffic_run.hpp"

namespace collnet::sim {

std::string to_string(Engine e) { return e == Engine::Flat ? "flat" : "systemc"; }

Engine parse_engine(const std::string& text) {
  if (text == "systemc") return Engine::SystemC;
  if (text == "flat") return Engine::Flat;
  throw std::invalid_argument("unknown engine '" + text + "': expected systemc or flat");
}

void TrafficOptions::validate() const {
  machine.validate();
  if (!(spec.rate > 0) || spec.rate > 1.0)
    throw std::invalid_argument("offered rate " + std::to_string(spec.rate) +
                                " must be more than 0 and at most 1 flit per node per cycle");
  if (spec.chunks < 1 || spec.chunks > fw::regmap::kMaxChunks)
    throw std::invalid_argument("packet size " + std::to_string(spec.chunks) + " must be 1..8 chunks");
  if (window.cycles < 1) throw std::invalid_argument("the measurement needs at least one cycle");
  if (idle_limit < 1) throw std::invalid_argument("the deadlock watchdog needs at least one cycle");
  if (engine == Engine::Flat && machine.threads > 1)
    throw std::invalid_argument("threads " + std::to_string(machine.threads) +
                                " and the flat engine: the flat engine is one model, evaluated by one thread");
  if (engine == Engine::Flat && (machine.link_ber > 0 || machine.any_cut()))
    throw std::invalid_argument("link faults and the flat engine: bit errors and cuts are injected on the SystemC "
                                "machine's wires; the flat engine's links are inside its one model");
  if (engine == Engine::Flat && sample_every > 0)
    throw std::invalid_argument("sampling and the flat engine: samples read the SystemC machine's links; "
                                "use --engine systemc");
  if (engine == Engine::Flat && !machine.trace_nodes.empty())
    throw std::invalid_argument("trace nodes and the flat engine: the flat engine traces its one model whole");
  if (engine == Engine::Flat && machine.partitions > 1)
    throw std::invalid_argument("partitions and the flat engine: the flat engine is one model, in one process; "
                                "use --engine systemc");
  if (engine == Engine::Flat && machine.lockstep)
    throw std::invalid_argument("lockstep and the flat engine: the flat engine is one model, "
                                "stepped a cycle at a time already");
}

}  // namespace collnet::sim
