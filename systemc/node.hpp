// One node of the machine: the Verilated node RTL (nd_node) inside a SystemC module that is
// sensitive to the clock only. At each rising edge it drives the model's link inputs from
// the incoming link wires and the bus request of its processor, evaluates the edge once,
// and puts the registered outputs on the outgoing wires. Processors wait on edge_event().
#pragma once

#include <systemc>

#include <array>
#include <cstdint>
#include <memory>

#include "link.hpp"

class Vnd_node;
class VerilatedContext;

namespace collnet::sim {

// One register access. The bus carries four 64-bit words (a vector access); an ordinary
// register takes word 0 and ignores the rest.
struct BusRequest {
  bool active = false;
  bool write = false;
  bool privileged = false;
  uint32_t addr = 0;
  std::array<uint64_t, 4> wdata{};
};

class Node : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Node);
  Node(sc_core::sc_module_name name, unsigned rank, VerilatedContext& context);
  ~Node() override;

  sc_core::sc_in<bool> clk;

  // Link l of this node sends on `out` and receives on `in`.
  void connect(unsigned link, LinkWire& out, const LinkWire& in);

  // Presents a bus access for the next clock edge; its read data is bus_rdata() (word 0,
  // all an ordinary register returns) or bus_rvector() (all four words) after it.
  void present(const BusRequest& req) { request_ = req; }
  // The node's processors share its bus, first come first served: an access takes a
  // ticket, waits until its ticket is served, holds the bus for the whole access and
  // then serves the next ticket. A task that polls in a loop cannot starve the others.
  uint64_t take_bus_ticket() { return next_ticket_++; }
  bool bus_serving(uint64_t ticket) const { return serving_ == ticket; }
  void release_bus() { ++serving_; }
  uint64_t bus_rdata() const;
  std::array<uint64_t, 4> bus_rvector() const;
  bool error_flag() const;

  const sc_core::sc_event& edge_event() const { return edge_; }
  uint64_t cycle() const { return cycle_; }
  unsigned rank() const { return rank_; }
  Vnd_node& model() { return *model_; }

 private:
  void on_posedge();
  uint64_t bus_rword(unsigned w) const;  // word w of the 256-bit read data

  unsigned rank_;
  std::unique_ptr<Vnd_node> model_;
  std::array<LinkWire*, 3> out_{};
  std::array<const LinkWire*, 3> in_{};
  BusRequest request_;
  uint64_t next_ticket_ = 0, serving_ = 0;
  sc_core::sc_event edge_;
  uint64_t cycle_ = 0;
};

}  // namespace collnet::sim
