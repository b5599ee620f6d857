// SPDX-License-Identifier: Apache-2.0
// The torus on whole simulated machines (each test runs its machine in a child process):
// firmware packet send and receive, the deposit bit's line broadcast, and synthetic traffic
// on odd shapes, at saturation, around a down node and on both engines.
#include <iostream>
#include <sstream>

#include <gtest/gtest.h>

#include "firmware/link_counters.hpp"
#include "firmware/torus_layout.hpp"
#include "firmware/torus_perf.hpp"
#include "tests/support/test_machine.hpp"
#include "tests/support/test_machine.hpp"
#include "systemc/flat_engine.hpp"
#include "systemc/machine.hpp"
#include "systemc/traffic_run.hpp"

namespace collnet {
namespace {

using test::run_isolated;
using test::machine_config;

std::string describe(const workload::TrafficResult& r) {
  std::ostringstream s;
  s << "created " << r.created << " delivered " << r.delivered << " lost " << r.lost << " duplicated " << r.duplicated
    << " corrupted " << r.corrupted << (r.deadlock ? " DEADLOCK" : "") << (r.drain_timeout ? " DRAIN TIMEOUT" : "")
    << " accepted " << r.accepted << " avg latency " << r.avg_latency;
  return s.str();
}

// Every node sends one packet to every other node with firmware; each receives them all,
// intact, from the right sources.
TEST(TorusMachine, FirmwareSendsEveryNodeAPacketToEveryOther) {
  for (const char* shape : {"2x2x2", "3x1x2"}) {
    const auto res = run_isolated([shape] {
      sim::Machine m(machine_config(shape));
      const unsigned n = m.nodes();
      const fw::TorusLayout layout(m.config().shape.dims());
      std::vector<std::string> problems(n);
      const auto run = m.run([&](fw::TaskContext& t) {
        for (unsigned d = 0; d < n; ++d) {
          if (d == t.node) continue;
          fw::TorusHeader h;
          h.dst = layout.coord(d);
          h.chunks = 1 + (t.node + d) % 3;
          h.deterministic = (t.node + d) % 2 == 0;
          std::vector<uint64_t> payload(4 * h.chunks);
          for (size_t i = 0; i < payload.size(); ++i) payload[i] = (uint64_t{t.node} << 32) | (d << 16) | i;
          t.torus.send(h, payload);
        }
        std::vector<bool> seen(n, false);
        for (unsigned k = 0; k + 1 < n; ++k) {
          const fw::TorusPacket p = t.torus.receive();
          const unsigned src = layout.rank(p.header.src);
          bool ok = src < n && src != t.node && !seen[src] && p.header.dst == layout.coord(t.node) &&
                    p.header.chunks == 1 + (src + t.node) % 3;
          for (size_t i = 0; ok && i < p.payload.size(); ++i)
            ok = p.payload[i] == ((uint64_t{src} << 32) | (t.node << 16) | i);
          if (!ok) problems[t.node] += "bad packet from node " + std::to_string(src) + "; ";
          if (src < n) seen[src] = true;
        }
        t.torus.check();
      });
      if (!run.finished) return std::string("the run did not finish");
      for (const auto& f : run.failures) {
        try {
          std::rethrow_exception(f.second);
        } catch (const std::exception& e) {
          return std::string("rank ") + std::to_string(f.first) + ": " + e.what();
        }
      }
      for (unsigned r = 0; r < n; ++r)
        if (!problems[r].empty()) return "node " + std::to_string(r) + ": " + problems[r];
      return std::string("ok");
    });
    ASSERT_TRUE(res.exited) << shape << ": " << res.report;
    EXPECT_EQ(res.report, "ok") << shape;
  }
}

// The routers' performance counters (tr_perf), read by firmware over the register bus once
// every packet has arrived, equal what the machine reads through the service port; per
// link, the VCs' flits add up to the link layer's, deterministic packets leave on the escape
// VC only, a VC is held at least a cycle per flit, and an address in the counters' window
// (or the link counters') that names no counter is refused, seen by the very next read of
// the error register.
TEST(TorusMachine, PerformanceCountersReadTheSameOverTheBusAsThroughTheServicePort) {
  const auto res = run_isolated([] {
    sim::Machine m(machine_config("3x2x1"));
    const unsigned n = m.nodes();
    const fw::TorusLayout layout(m.config().shape.dims());
    std::vector<std::array<fw::TorusLinkPerf, 6>> bus(n);
    std::vector<std::array<uint64_t, 6>> tx(n);
    std::vector<std::string> problems(n);
    const auto run = m.run([&](fw::TaskContext& t) {
      for (unsigned round = 0; round < 3; ++round) {
        for (unsigned d = 0; d < n; ++d) {
          if (d == t.node) continue;
          fw::TorusHeader h;
          h.dst = layout.coord(d);
          h.chunks = 1 + (t.node + d + round) % 4;
          h.deterministic = round == 1;  // the other rounds adaptive
          t.torus.send(h, std::vector<uint64_t>(4 * h.chunks, d));
        }
      }
      for (unsigned k = 0; k < 3 * (n - 1); ++k) t.torus.receive();
      m.align();  // every packet has arrived: the counters stand still
      for (unsigned d = 0; d < 6; ++d) {
        if (!layout.has_link(d)) continue;
        bus[t.node][d] = fw::read_torus_perf(t.cpu, d);
        tx[t.node][d] = fw::read_link_counters(t.cpu, true, d).tx_flits;
      }
      t.torus.clear_errors(~uint64_t{0});
      if (t.cpu.read(fw::torus_perf_address(0, 0, 0) + 8 * fw::regmap::kTrPerfCounters) != 0)
        problems[t.node] += "a hole in the counters' block read non-zero; ";
      if (!(t.torus.errors() >> fw::regmap::kTrErrBadAccess & 1)) problems[t.node] += "a hole was not refused; ";
      t.torus.clear_errors(~uint64_t{0});
      // The same, at once, for the link counters' area: past the sixth link's block.
      t.cpu.read(fw::regmap::reg_lk_torus(6));
      if (!(t.torus.errors() >> fw::regmap::kTrErrBadAccess & 1)) problems[t.node] += "a link-area hole was not refused; ";
      t.torus.clear_errors(~uint64_t{0});
    });
    if (!run.finished || !run.failures.empty()) return std::string("the run failed");
    uint64_t escape = 0, dynamic = 0, all = 0, wires = 0;
    for (const sim::Machine::LinkEnd& e : m.link_counters()) {
      if (!e.torus) continue;
      const std::string at = "node " + std::to_string(e.rank) + " link " + std::to_string(e.link) + ": ";
      uint64_t flits = 0;
      for (unsigned v = 0; v < 4; ++v) {
        const fw::TorusVcPerf& p = e.perf[v];
        const fw::TorusVcPerf& b = bus[e.rank][e.link][v];
        if (p.flits != b.flits || p.busy != b.busy || p.stall != b.stall)
          return at + "VC " + std::to_string(v) + " reads differently over the bus";
        if (p.busy < p.flits) return at + "VC " + std::to_string(v) + " busy fewer cycles than its flits";
        flits += p.flits;
      }
      if (flits != e.counters.tx_flits || flits != tx[e.rank][e.link])
        return at + std::to_string(flits) + " flits on its VCs, " + std::to_string(e.counters.tx_flits) +
               " sent by its link layer";
      escape += e.perf[fw::regmap::kTrVcEscape].flits;
      dynamic += e.perf[fw::regmap::kTrVcDyn0].flits + e.perf[fw::regmap::kTrVcDyn1].flits;
      if (e.perf[fw::regmap::kTrVcPrio].flits != 0) return at + "flits on the priority VC, which no packet took";
      all += flits;
      wires += m.torus_link_flits(e.rank, e.link);
    }
    if (all != wires) return "the counters hold " + std::to_string(all) + " flits, the wires carried " + std::to_string(wires);
    if (escape == 0 || dynamic == 0) return std::string("a round's packets are missing from their VCs");
    for (unsigned r = 0; r < n; ++r)
      if (!problems[r].empty()) return "node " + std::to_string(r) + ": " + problems[r];
    return std::string("ok");
  });
  ASSERT_TRUE(res.exited) << res.report;
  EXPECT_EQ(res.report, "ok");
}

// A deterministic packet with the deposit bit sent along x leaves a copy at every node of
// its line and nowhere else.
TEST(TorusMachine, ADepositPacketReachesEveryNodeOfItsLine) {
  const auto res = run_isolated([] {
    sim::Machine m(machine_config("4x4x4"));
    const fw::TorusLayout layout(m.config().shape.dims());
    const unsigned sender = layout.rank({0, 2, 1});
    std::vector<int> got(m.nodes(), 0);
    const auto run = m.run([&](fw::TaskContext& t) {
      if (t.node == sender) {
        fw::TorusHeader h;
        h.dst = {3, 2, 1};  // the last node on the line going x+ (x = 1, 2, 3)
        h.hints = 1;        // x+
        h.deterministic = true;
        h.deposit = true;
        h.chunks = 2;
        t.torus.send(h, std::vector<uint64_t>(8, 0x5eed));
      }
      // Every node looks for packets for a while.
      for (unsigned i = 0; i < 400; ++i)
        if (auto p = t.torus.try_receive()) got[t.node] += p->payload == std::vector<uint64_t>(8, 0x5eed) ? 1 : 100;
      t.torus.check();
    });
    if (!run.finished || !run.failures.empty()) return std::string("the run failed");
    std::string wrong;
    for (unsigned r = 0; r < m.nodes(); ++r) {
      const fw::Coord c = layout.coord(r);
      const int want = (c[1] == 2 && c[2] == 1 && c[0] != 0) ? 1 : 0;
      if (got[r] != want) wrong += "node " + std::to_string(r) + " got " + std::to_string(got[r]) + "; ";
    }
    return wrong.empty() ? std::string("ok") : wrong;
  });
  ASSERT_TRUE(res.exited) << res.report;
  EXPECT_EQ(res.report, "ok");
}

sim::TrafficOptions traffic(const std::string& shape, double rate, workload::Routing routing, uint64_t seed) {
  sim::TrafficOptions o;
  o.machine = machine_config(shape);
  o.spec.rate = rate;
  o.spec.routing = routing;
  o.spec.seed = seed;
  o.spec.chunks = 1 + seed % 3;
  o.window = {200, 3000};
  return o;
}

std::string run_traffic_checked(const sim::TrafficOptions& o) {
  const workload::TrafficResult r = sim::run_traffic(o);
  if (!r.ok() || r.delivered == 0) return describe(r);
  return "ok";
}

// Above saturation on odd shapes, with both routings: every packet arrives once, intact,
// and nothing deadlocks.
TEST(TorusTraffic, OddShapesAboveSaturationLoseNothing) {
  const uint64_t seed = 7;
  std::cout << "seed " << seed << "\n";
  for (const char* shape : {"3x5x7", "2x2x2", "1x1x16", "4x4x1"}) {
    for (workload::Routing routing : {workload::Routing::Dor, workload::Routing::Adaptive}) {
      const auto res = run_isolated([&] { return run_traffic_checked(traffic(shape, 0.9, routing, seed)); });
      ASSERT_TRUE(res.exited) << shape << ": " << res.report;
      EXPECT_EQ(res.report, "ok") << shape << (routing == workload::Routing::Dor ? " dor" : " adaptive");
    }
  }
}

// Every traffic pattern on 4x4x4 at a moderate load.
TEST(TorusTraffic, EveryPatternDelivers) {
  for (workload::Pattern p : {workload::Pattern::Uniform, workload::Pattern::Transpose, workload::Pattern::Bitcomp,
                              workload::Pattern::Hotspot, workload::Pattern::Neighbor}) {
    const auto res = run_isolated([p] {
      sim::TrafficOptions o = traffic("4x4x4", 0.3, workload::Routing::Adaptive, 3);
      o.spec.pattern = p;
      return run_traffic_checked(o);
    });
    ASSERT_TRUE(res.exited) << to_string(p) << ": " << res.report;
    EXPECT_EQ(res.report, "ok") << to_string(p);
  }
}

// With a node marked down, traffic between all the others is routed around it (software
// routes: hints, and a detour through another node where no dimension-order route exists).
TEST(TorusTraffic, TrafficIsDeliveredAroundADownNode) {
  const auto res = run_isolated([] {
    sim::TrafficOptions o = traffic("4x4x4", 0.3, workload::Routing::Adaptive, 5);
    o.machine.down_nodes = {21};
    return run_traffic_checked(o);
  });
  ASSERT_TRUE(res.exited) << res.report;
  EXPECT_EQ(res.report, "ok");
}

// Without the software routes, the same traffic would need the down node: the routers
// drop packets whose dimension-order route has a down link, and the run reports them lost.
TEST(TorusTraffic, RoutesAroundADownNodeUseDetoursWhereDimensionOrderCannot) {
  sim::MachineConfig m = machine_config("4x4x4");
  m.down_nodes = {21};
  const fw::TorusLayout L(m.shape.dims());
  const auto routes = fw::routes_around(L, m.torus_faults());
  unsigned detours = 0, pairs = 0;
  for (unsigned s = 0; s < L.nodes(); ++s)
    for (unsigned t = 0; t < L.nodes(); ++t) {
      if (s == t || s == 21 || t == 21) continue;
      ++pairs;
      EXPECT_TRUE(routes[s][t].deterministic);
      if (routes[s][t].via >= 0) {
        ++detours;
        EXPECT_NE(routes[s][t].via, 21);
        EXPECT_LT(routes[s][routes[s][t].via].via, 0) << "a detour's first leg is direct";
      }
    }
  EXPECT_EQ(pairs, 63u * 62u);
  EXPECT_GT(detours, 0u) << "some pairs have the down node on every dimension-order route";
}

// Runs the traffic in a child process and returns everything a cycle-for-cycle comparison
// looks at: the packet counts, accepted load, average, p99 and maximum latency, cycles.
std::string exact_run(const sim::TrafficOptions& o) {
  const auto res = run_isolated([o] {
    const workload::TrafficResult r = sim::run_traffic(o);
    std::ostringstream s;
    s << describe(r) << " p99 " << r.p99_latency << " max " << r.max_latency << " cycles " << r.cycles;
    return s.str();
  });
  EXPECT_TRUE(res.exited) << res.report;
  return res.report;
}

// The flat model and the SystemC machine run the same RTL with the same agents: the same
// seed gives the same packets, the same deliveries and the same latencies, cycle for cycle.
TEST(TorusTraffic, FlatAndSystemcEnginesAgreeCycleForCycle) {
  bool built = false;
  for (const std::string& m : sim::flat_models()) built = built || m == "2x2x2/4";
  ASSERT_TRUE(built) << "the build has no 2x2x2 flat model (COLLNET_FLAT_SHAPES)";
  sim::TrafficOptions o = traffic("2x2x2", 0.6, workload::Routing::Adaptive, 11);
  const std::string systemc = exact_run(o);
  o.engine = sim::Engine::Flat;
  EXPECT_EQ(systemc, exact_run(o));
  EXPECT_NE(systemc.find("lost 0 duplicated 0 corrupted 0"), std::string::npos) << systemc;
}

// advance() steps each node link-latency cycles at a time; that must change nothing, at
// any link latency, against stepping every node one cycle at a time under the kernel.
TEST(TorusTraffic, SteppingInQuantaAgreesWithLockstepCycleForCycle) {
  for (const unsigned latency : {1u, 3u, 4u}) {
    sim::TrafficOptions o = traffic("3x2x4", 0.8, workload::Routing::Adaptive, 5);
    o.machine.set_link_latency(latency);
    const std::string quanta = exact_run(o);
    o.machine.lockstep = true;
    EXPECT_EQ(quanta, exact_run(o)) << "link latency " << latency;
    EXPECT_NE(quanta.find("lost 0 duplicated 0 corrupted 0"), std::string::npos) << quanta;
  }
}

// Skipping the clock edges of quiescent node sides changes nothing, cycle for cycle: not
// at a light load, where most edges are skipped, nor near saturation, nor on two threads,
// nor in lockstep; check mode evaluates every skipped edge as well and would fail the run
// had one changed a model. At the light load skipping must actually happen.
TEST(TorusTraffic, SkippingIdleNodeSidesAgreesWithEvaluatingEverythingCycleForCycle) {
  struct Case {
    double rate;
    unsigned threads;
    bool lockstep;
  };
  for (const Case c : {Case{0.02, 1, false}, Case{0.8, 1, false}, Case{0.3, 2, false}, Case{0.3, 1, true}}) {
    sim::TrafficOptions o = traffic("3x2x4", c.rate, workload::Routing::Adaptive, 13);
    o.machine.threads = c.threads;
    o.machine.lockstep = c.lockstep;
    o.machine.idle_skip = sim::IdleSkip::Off;
    const std::string off = exact_run(o);
    EXPECT_NE(off.find("lost 0 duplicated 0 corrupted 0"), std::string::npos) << off;
    for (const sim::IdleSkip mode : {sim::IdleSkip::On, sim::IdleSkip::Check}) {
      o.machine.idle_skip = mode;
      EXPECT_EQ(off, exact_run(o)) << "rate " << c.rate << ", " << c.threads << " threads, idle skip "
                                   << sim::to_string(mode);
    }
  }
  const auto skipped = run_isolated([] {
    sim::TrafficOptions o = traffic("3x2x4", 0.02, workload::Routing::Adaptive, 13);
    return std::to_string(sim::run_traffic(o).idle_skipped);
  });
  ASSERT_TRUE(skipped.exited) << skipped.report;
  EXPECT_GT(std::stod(skipped.report), 0.5) << "at 0.02 flits/node/cycle most node sides are idle most of the time";
}

// advance() on several host threads steps disjoint ranges of nodes through each quantum at
// once; that must change nothing against one thread, including with uneven ranges (5
// threads on 24 nodes) and more threads than nodes (which starts one per node).
TEST(TorusTraffic, SteppingOnSeveralThreadsAgreesWithOneCycleForCycle) {
  for (const unsigned latency : {1u, 4u}) {
    sim::TrafficOptions o = traffic("3x2x4", 0.8, workload::Routing::Adaptive, 9);
    o.machine.set_link_latency(latency);
    const std::string one = exact_run(o);
    EXPECT_NE(one.find("lost 0 duplicated 0 corrupted 0"), std::string::npos) << one;
    for (const unsigned threads : {2u, 5u}) {
      o.machine.threads = threads;
      EXPECT_EQ(one, exact_run(o)) << "link latency " << latency << ", " << threads << " threads";
    }
  }
  const auto tiny = run_isolated([] {
    sim::TrafficOptions o = traffic("2x1x1", 0.5, workload::Routing::Adaptive, 2);
    o.machine.threads = 8;
    const workload::TrafficResult r = sim::run_traffic(o);
    return std::to_string(r.threads) + (r.ok() ? " ok" : " FAILED");
  });
  ASSERT_TRUE(tiny.exited) << tiny.report;
  EXPECT_EQ(tiny.report, "2 ok");
}

// Threads are for advance(): a processor-driven run, a lockstep run, a trace and the flat
// engine all refuse them, naming why.
TEST(TorusTraffic, ThreadsAreRefusedWhereTheyCannotApply) {
  sim::MachineConfig c = machine_config("2x2x2");
  c.threads = 0;
  EXPECT_THROW(c.validate(), std::invalid_argument);
  c.threads = 2;
  c.lockstep = true;
  EXPECT_THROW(c.validate(), std::invalid_argument);
  c.lockstep = false;
  c.trace_path = "t.fst";
  EXPECT_THROW(c.validate(), std::invalid_argument);
  c.trace_path.clear();
  EXPECT_NO_THROW(c.validate());
  sim::TrafficOptions o = traffic("2x2x2", 0.5, workload::Routing::Adaptive, 1);
  o.machine.threads = 2;
  o.engine = sim::Engine::Flat;
  EXPECT_THROW(o.validate(), std::invalid_argument);
  const auto res = run_isolated([] {
    sim::MachineConfig m = machine_config("2x2x2");
    m.threads = 2;
    sim::Machine machine(m);
    try {
      machine.run([](fw::TaskContext&) {});
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("run() accepted two threads");
  });
  ASSERT_TRUE(res.exited) << res.report;
  EXPECT_NE(res.report.find("one thread"), std::string::npos) << res.report;
}

}  // namespace
}  // namespace collnet
