// SPDX-License-Identifier: Apache-2.0
#include "systemc/traffic_run.hpp"

#include <algorithm>
#include <stdexcept>

#include "firmware/regmap.hpp"
#include "firmware/torus_layout.hpp"
#include "systemc/flat_engine.hpp"
#include "systemc/machine.hpp"

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
  if (engine == Engine::Flat && machine.lockstep)
    throw std::invalid_argument("lockstep and the flat engine: the flat engine is one model, "
                                "stepped a cycle at a time already");
}

namespace {

workload::TrafficResult run_systemc(const TrafficOptions& o) {
  workload::TrafficSetup setup(fw::TorusLayout(o.machine.shape.dims()), o.machine.torus_faults(), o.spec, o.window);
  Machine machine(o.machine);
  for (unsigned r = 0; r < setup.nodes(); ++r) machine.attach(r, setup.agent(r));
  // The control system watches for torus links going down when some may (--link-down).
  workload::TrafficControl control;
  control.links_declared_down = [&] { return machine.torus_links_declared_down(); };
  control.mark_links_down = [&](unsigned rank, unsigned links) { machine.set_torus_links_down(rank, links); };
  uint64_t ran = 0, next_sample = o.sample_every;
  auto step = [&](uint64_t n) {
    while (n > 0) {  // cut at the sample cycles; advance() in pieces is the same cycle for cycle
      const uint64_t k = o.sample_every ? std::min(n, next_sample - ran) : n;
      machine.advance(k);
      ran += k;
      n -= k;
      if (o.sample_every && ran == next_sample) {
        if (o.on_sample) o.on_sample(machine);
        next_sample += o.sample_every;
      }
    }
    if (o.on_step) o.on_step(ran);
  };
  workload::TrafficResult res = setup.run(o.idle_limit, o.drain_limit, step,
                                         o.machine.any_torus_cut() ? &control : nullptr);
  res.threads = machine.threads();
  res.idle_skipped = machine.activity().skipped_share();
  if (o.inspect) o.inspect(machine);
  machine.finish();
  if (!o.machine.trace_path.empty())  // the whole run, with the measurement's window marked
    machine.write_wave_view({{}, 0, 0, {{o.window.warmup, "warmup ends"}, {o.window.warmup + o.window.cycles, "measurement ends"}}});
  return res;
}

}  // namespace

workload::TrafficResult run_traffic(const TrafficOptions& o) {
  o.validate();
  if (o.engine == Engine::Flat) {
    workload::TrafficSetup setup(fw::TorusLayout(o.machine.shape.dims()), o.machine.torus_faults(), o.spec,
                                 o.window);
    return run_flat(o, setup);
  }
  return run_systemc(o);
}

}  // namespace collnet::sim
