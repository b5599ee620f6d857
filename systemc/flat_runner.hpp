// SPDX-License-Identifier: Apache-2.0
// How the flat engine drives one Verilated nd_machine model: each cycle it applies every
// node's bus access, evaluates the falling and the rising clock edge of the whole machine
// once, and lets every node's agent act on what the edge produced. Included only by the
// generated flat_models.cpp, after the model headers (see node.cpp on header order).
#pragma once

#include <memory>
#include <stdexcept>
#include <vector>

#include "verilated.h"
#include "verilated_fst_c.h"
#include "systemc/bus_words.hpp"
#include "firmware/bus_port.hpp"
#include "systemc/coverage.hpp"
#include "systemc/model_clock.hpp"
#include "systemc/traffic_run.hpp"

namespace collnet::sim {

template <class Model>
class FlatRunner {
 public:
  // One node's bus on the flat model.
  class Port : public fw::BusPort {
   public:
    Port(Model& m, unsigned rank) : m_(m), rank_(rank) {}
    void present(const fw::BusRequest& req) override { req_ = req; }
    std::array<uint64_t, 4> bus_rvector() const override { return bus_words(m_.bus_rdata_o[rank_]); }
    uint64_t torus_status() const override { return m_.tor_status_o[rank_]; }
    void apply() {
      m_.bus_req_i[rank_] = req_.active;
      if (!req_.active) return;
      m_.bus_we_i[rank_] = req_.write;
      m_.bus_priv_i[rank_] = req_.privileged;
      m_.bus_addr_i[rank_] = req_.addr;
      set_bus_words(m_.bus_wdata_i[rank_], req_.wdata);
      req_.active = false;
    }

   private:
    Model& m_;
    unsigned rank_;
    fw::BusRequest req_;
  };

  static workload::TrafficResult run(const TrafficOptions& o, workload::TrafficSetup& setup) {
    VerilatedContext context;
    context.timeunit(-9);
    context.timeprecision(-12);
    if (!o.machine.trace_path.empty()) context.traceEverOn(true);
    auto m = std::make_unique<Model>(&context, "machine");
    const unsigned n = setup.nodes();
    std::vector<Port> ports;
    ports.reserve(n);
    for (unsigned r = 0; r < n; ++r) {
      ports.emplace_back(*m, r);
      m->tor_link_down_i[r] = o.machine.torus_links_down(r);
      m->bus_req_i[r] = 0;
    }
    std::unique_ptr<VerilatedFstC> fst;
    if (!o.machine.trace_path.empty()) {
      fst = std::make_unique<VerilatedFstC>();
      m->trace(fst.get(), 99);
      fst->open(o.machine.trace_path.c_str());
    }
    reset_model(*m);

    uint64_t cycle = 0;
    auto step = [&](uint64_t cycles) {
      for (uint64_t c = 0; c < cycles; ++c, ++cycle) {
        for (Port& p : ports) p.apply();
        // Both edges: the blocks of a hierarchically Verilated machine each keep their own
        // record of the clock, which clock_cycle() cannot mark.
        m->clk_i = 0;
        m->eval();
        if (fst) fst->dump(1000 * cycle);
        m->clk_i = 1;
        m->eval();
        if (fst) fst->dump(1000 * cycle + 500);
        for (unsigned r = 0; r < n; ++r) setup.agent(r)->after_edge(cycle, ports[r]);
      }
      if (o.on_step) o.on_step(cycle);
    };
    workload::TrafficResult res = setup.run(o.idle_limit, o.drain_limit, step);
    if (fst) fst->close();
    m->final();
    write_coverage(context, "flat");
    return res;
  }
};

}  // namespace collnet::sim
