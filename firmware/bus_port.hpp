// SPDX-License-Identifier: Apache-2.0
// One access on a node's register bus, and what can make one: a processor, or an on-chip
// agent that streams packets (workload/traffic_agent.hpp). The machine implements the
// port (sim::Node, and each node of the flat model) and runs the agents attached to it;
// an agent sees nothing of the machine but this.
#pragma once

#include <array>
#include <cstdint>

namespace collnet::fw {

// The bus carries four 64-bit words (a vector access); an ordinary register takes word 0
// and ignores the rest.
struct BusRequest {
  bool active = false;
  bool write = false;
  bool privileged = false;
  uint32_t addr = 0;
  std::array<uint64_t, 4> wdata{};
};

// A node's bus as an agent sees it between two clock edges: the access to present at the
// next edge, the read data of the access at the last edge, and the torus FIFO levels
// (RegTrStatus, wired out of the node).
class BusPort {
 public:
  virtual ~BusPort() = default;
  virtual void present(const BusRequest& req) = 0;
  virtual std::array<uint64_t, 4> bus_rvector() const = 0;
  virtual uint64_t torus_status() const = 0;
};

// Something attached to a node's bus that acts right after every clock edge (for
// example a traffic generator): it reads what the edge produced and presents the access
// for the next edge. It runs inside the node's own evaluation, so it costs no process.
class EdgeAgent {
 public:
  virtual ~EdgeAgent() = default;
  virtual void after_edge(uint64_t cycle, BusPort& port) = 0;
};

}  // namespace collnet::fw
