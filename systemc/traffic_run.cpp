// SPDX-License-Identifier: Apache-2.0
#include "systemc/traffic_run.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>

#include "firmware/regmap.hpp"
#include "firmware/torus_layout.hpp"
#include "systemc/flat_engine.hpp"
#include "systemc/machine.hpp"
#include "systemc/transport.hpp"

namespace collnet::sim {

namespace {

// How the partitions of a machine pool their traffic books (workload::TrafficParts).
workload::TrafficParts parts_of(Machine& machine) {
  using Journal = workload::TrafficLedger::Journal;
  Transport* t = machine.transport();
  workload::TrafficParts parts;
  parts.local = [&machine](unsigned rank) { return machine.local(rank); };
  parts.pool = [t](Journal mine) {
    Message m;
    m.put(mine.created), m.put(mine.delivered), m.put(mine.last_move);
    std::vector<Journal> all;
    for (const Transport::Bytes& bytes : t->allgather(m.bytes())) {
      Message theirs(bytes);
      Journal& j = all.emplace_back();
      j.created = theirs.values<workload::TrafficLedger::Created>();
      j.delivered = theirs.values<workload::TrafficLedger::Delivered>();
      j.last_move = theirs.get();
    }
    return all;
  };
  parts.sum = [t](std::vector<uint64_t>& values) { t->allreduce(values, Transport::Op::Sum); };
  return parts;
}

workload::TrafficResult run_systemc(const TrafficOptions& o) {
  workload::TrafficSetup setup(fw::TorusLayout(o.machine.shape.dims()), o.machine.torus_faults(), o.spec, o.window);
  Machine machine(o.machine, o.transport);
  for (unsigned r = 0; r < setup.nodes(); ++r) machine.attach(r, setup.agent(r));  // this partition's
  const std::optional<workload::TrafficParts> parts =
      machine.transport() ? std::optional(parts_of(machine)) : std::nullopt;
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
                                         o.machine.any_torus_cut() ? &control : nullptr, parts ? &*parts : nullptr);
  res.threads = machine.threads();
  res.idle_skipped = machine.activity().skipped_share();
  if (o.inspect) o.inspect(machine, res);
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
