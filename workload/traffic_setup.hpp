// SPDX-License-Identifier: Apache-2.0
// A synthetic-traffic run, whatever machine it runs on: the pattern, the books, the routes
// around what is down and one agent per node; then warm up, measure, stop creating packets
// and drain until every packet is delivered. An engine attaches each node's agent to that
// node's bus and hands run() a function that advances the machine. A run fails when
// packets are lost, duplicated or corrupted, or when nothing moves for `idle_limit` cycles
// while packets are in flight (a deadlock).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "firmware/regmap.hpp"
#include "firmware/torus_layout.hpp"
#include "firmware/torus_routes.hpp"
#include "workload/traffic_agent.hpp"
#include "workload/traffic_ledger.hpp"
#include "workload/traffic_pattern.hpp"

namespace collnet::workload {

// Links that went down mid-run: how many, the recoveries (the network drained, then
// routes around them), the cycles those took, the packets sent again because the network
// lost them (dropped, cut short, or in the link's buffer), and those still waiting at their
// sources put on the new routes. A node whose every torus link went down is down: its
// packets not yet delivered, and those to it, are abandoned (neither sent again nor lost).
struct TrafficRecovery {
  unsigned links_gone_down = 0, recoveries = 0, nodes_gone_down = 0;
  uint64_t cycles = 0, resent = 0, requeued = 0, abandoned = 0;
};

struct TrafficResult {
  unsigned nodes = 0, senders = 0;
  double offered = 0, accepted = 0;  // flits per node per cycle in the window (all nodes)
  double avg_latency = 0, p99_latency = 0, max_latency = 0;
  double avg_hops = 0;               // minimal hops, averaged over the latency samples
  uint64_t measured_packets = 0;     // packets created in the window (latency samples)
  uint64_t created = 0, delivered = 0, lost = 0, duplicated = 0, corrupted = 0;
  TrafficRecovery recovery;
  // Packets that arrived cut short by a link going down (at most kDamagedPerLinkDown per
  // link gone down; any beyond that count as corrupted).
  uint64_t damaged = 0;
  bool deadlock = false, drain_timeout = false;
  uint64_t cycles = 0;
  unsigned threads = 1;              // host threads that stepped the nodes (the engine's to say)
  double idle_skipped = 0;           // share of node sides' clock edges skipped as quiescent (the engine's to say)
  double wall_seconds = 0, sim_cycles_per_second = 0, node_cycles_per_second = 0;
  bool ok() const { return !deadlock && !drain_timeout && lost == 0 && duplicated == 0 && corrupted == 0; }
};

// What the machine's control system (the service network) can see and do between
// steps of a run, for links that go down mid-run; an engine without it runs without.
struct TrafficControl {
  // Torus link ends (node, direction) whose link layer has declared the link down.
  std::function<std::vector<std::pair<unsigned, unsigned>>()> links_declared_down;
  // Sets node `rank`'s torus links marked down (bit d: direction d) in its router.
  std::function<void(unsigned rank, unsigned links_down)> mark_links_down;
};

// A machine simulated in parts, one process each (sim::Machine's partitions): which nodes
// this part runs, and how the parts pool what they saw. Every part runs the same
// TrafficSetup::run, step for step; its ledger hears from this part's agents only, and
// after every step the parts pool their ledgers' journals, so that what the run decides
// (the watchdog, the drain, the recoveries) it decides alike everywhere, on the whole
// machine's books.
struct TrafficParts {
  std::function<bool(unsigned rank)> local;
  // Every part's journal, in part order (this part's `mine` among them).
  std::function<std::vector<TrafficLedger::Journal>(TrafficLedger::Journal mine)> pool;
  // `values`, element by element, summed over the parts (in place).
  std::function<void(std::vector<uint64_t>& values)> sum;
};

// A packet cut short by a link going down is completed with zero flits by the router at
// the link's receiving end (tr_link_rx): at most one per virtual channel at each end.
constexpr unsigned kDamagedPerLinkDown = 2 * fw::regmap::kTrNumVcs;

class TrafficSetup {
 public:
  // `faults`: what is down on the torus (empty vectors: nothing). Down nodes neither send
  // nor receive; when anything is down, every packet takes a software route around it
  // (fw::routes_around), otherwise the routers choose. Throws std::invalid_argument when
  // the pattern does not fit the torus, std::runtime_error when a pair of live nodes has
  // no route.
  TrafficSetup(const fw::TorusLayout& layout, const fw::TorusFaults& faults, const TrafficSpec& spec,
               TrafficWindow window);
  TrafficAgent* agent(unsigned rank) { return agents_[rank].get(); }
  unsigned nodes() const { return static_cast<unsigned>(agents_.size()); }
  void stop_creating();
  TrafficLedger& ledger() { return ledger_; }
  unsigned senders() const { return senders_; }

  // Advances an engine (`step(n)` runs n cycles) through warmup, measurement and drain
  // (at most `drain_limit` cycles; 0: 10 x (warmup + cycles) + 100000); fills the result.
  // With `control`, every 100 cycles it looks for torus links declared down; when one
  // is, it marks the link down at both ends, pauses every source, waits until nothing
  // has arrived for a while (the network has drained: what needed the link was dropped
  // or cut short), and sends every packet not yet delivered again, routed around
  // everything down so far (fw::routes_around; a torus cut in two throws
  // std::runtime_error). A node cut off from all its neighbours is down from then on
  // (TrafficRecovery).
  // With `parts`, this is one part of a machine simulated in parts (TrafficParts); the
  // result is the whole machine's, the same in every part.
  TrafficResult run(uint64_t idle_limit, uint64_t drain_limit, const std::function<void(uint64_t)>& step,
                    const TrafficControl* control = nullptr, const TrafficParts* parts = nullptr);

 private:
  TrafficResult summarize(uint64_t cycles, double wall, bool deadlock, bool timeout);
  // Marks the links newly declared down; false if there were none.
  bool mark_new_links_down(const TrafficControl& control);
  // Whether every torus link of `rank` is down.
  bool cut_off(unsigned rank) const;
  // The recovery after links went down (see run()), counted in recovery_.
  void recover(const TrafficControl& control, const std::function<void(uint64_t)>& step, uint64_t& now,
               const TrafficParts* parts);
  // Damaged packets that a link going down explains.
  uint64_t damage_allowed() const { return uint64_t{kDamagedPerLinkDown} * recovery_.links_gone_down; }

  fw::TorusLayout layout_;
  fw::TorusFaults faults_;  // what is down so far: at the start, and what went down since
  TrafficRecovery recovery_;
  TrafficPattern pattern_;
  TrafficLedger ledger_;
  std::vector<std::vector<fw::TorusRoute>> routes_;
  std::vector<std::unique_ptr<TrafficAgent>> agents_;
  unsigned senders_ = 0;
};

}  // namespace collnet::workload
