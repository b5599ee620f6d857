// A synthetic-traffic run on the torus: warm up, measure, then stop creating packets and
// drain until every packet is delivered. The same agents drive either engine: the SystemC
// machine (one Verilated node per SystemC module, links as delays) or the flat model (one
// Verilated top holding every node and link). A run fails when packets are lost,
// duplicated or corrupted, or when nothing moves for `idle_limit` cycles while packets are
// in flight (a deadlock).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "machine_config.hpp"
#include "traffic_agent.hpp"
#include "traffic_ledger.hpp"
#include "traffic_pattern.hpp"

namespace collnet::sim {

enum class Engine { SystemC, Flat };
std::string to_string(Engine e);
Engine parse_engine(const std::string& text);  // throws std::invalid_argument

struct TrafficOptions {
  MachineConfig machine;       // shape, link latency, down nodes and links, trace path
  TrafficSpec spec;
  TrafficWindow window{1000, 10000};
  uint64_t idle_limit = 10000;  // the deadlock watchdog
  uint64_t drain_limit = 0;     // cycles allowed for draining (0: 10 x (warmup + cycles) + 100000)
  Engine engine = Engine::SystemC;

  void validate() const;  // throws std::invalid_argument naming the bad option
};

struct TrafficResult {
  unsigned nodes = 0, senders = 0;
  double offered = 0, accepted = 0;  // flits per node per cycle in the window (all nodes)
  double avg_latency = 0, p99_latency = 0, max_latency = 0;
  double avg_hops = 0;               // minimal hops, averaged over the latency samples
  uint64_t measured_packets = 0;     // packets created in the window (latency samples)
  uint64_t created = 0, delivered = 0, lost = 0, duplicated = 0, corrupted = 0;
  bool deadlock = false, drain_timeout = false;
  uint64_t cycles = 0;
  unsigned threads = 1;              // host threads that stepped the nodes
  double idle_skipped = 0;           // share of node sides' clock edges skipped as quiescent (SystemC engine)
  double wall_seconds = 0, sim_cycles_per_second = 0, node_cycles_per_second = 0;
  bool ok() const { return !deadlock && !drain_timeout && lost == 0 && duplicated == 0 && corrupted == 0; }
};

// What both engines share: the pattern, the books and one agent per node.
class TrafficSetup {
 public:
  explicit TrafficSetup(const TrafficOptions& o);
  TrafficAgent* agent(unsigned rank) { return agents_[rank].get(); }
  unsigned nodes() const { return static_cast<unsigned>(agents_.size()); }
  void stop_creating();
  TrafficLedger& ledger() { return ledger_; }
  unsigned senders() const { return senders_; }

  // Advances an engine (`step(n)` runs n cycles) through warmup, measurement and drain;
  // fills the result.
  TrafficResult run(const TrafficOptions& o, const std::function<void(uint64_t)>& step);

 private:
  TrafficResult summarize(uint64_t cycles, double wall, bool deadlock, bool timeout);

  fw::TorusLayout layout_;
  TrafficPattern pattern_;
  TrafficLedger ledger_;
  std::vector<std::vector<fw::TorusRoute>> routes_;
  std::vector<std::unique_ptr<TrafficAgent>> agents_;
  unsigned senders_ = 0;
};

// Runs traffic on the chosen engine. Throws std::invalid_argument for bad options, and
// std::runtime_error when the flat engine has no model of the shape.
TrafficResult run_traffic(const TrafficOptions& o);

}  // namespace collnet::sim
