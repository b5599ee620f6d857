// One access on a node's register bus, and what can make one: a processor, or an on-chip
// agent that streams packets (systemc/traffic_agent.hpp).
#pragma once

#include <array>
#include <cstdint>

namespace collnet::sim {

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

// The 256-bit bus data ports of a Verilated model (nd_node, or one node of nd_machine) are
// eight 32-bit words, least significant first.
template <class Wide>
std::array<uint64_t, 4> bus_words(const Wide& w) {
  std::array<uint64_t, 4> v{};
  for (unsigned i = 0; i < 4; ++i) v[i] = (uint64_t{w[2 * i + 1]} << 32) | w[2 * i];
  return v;
}
template <class Wide>
void set_bus_words(Wide& w, const std::array<uint64_t, 4>& v) {
  for (unsigned i = 0; i < 4; ++i) {
    w[2 * i] = static_cast<uint32_t>(v[i]);
    w[2 * i + 1] = static_cast<uint32_t>(v[i] >> 32);
  }
}

}  // namespace collnet::sim

namespace collnet::sim {

// Something attached to a node's bus that acts right after every clock edge (for
// example a traffic generator): it reads what the edge produced and presents the access
// for the next edge. It runs inside the node's own evaluation, so it costs no process.
class EdgeAgent {
 public:
  virtual ~EdgeAgent() = default;
  virtual void after_edge(uint64_t cycle, BusPort& port) = 0;
};

}  // namespace collnet::sim
