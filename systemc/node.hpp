// One node of the machine: the Verilated node RTL (nd_node) inside a SystemC module that is
// sensitive to the clock only. At each rising edge it drives the model's link inputs (tree
// and torus) from the incoming link wires and the bus request of its processor or agent,
// evaluates the edge, and puts the registered outputs on the outgoing wires. Processors
// wait on edge_event(); an attached EdgeAgent runs right after the edge.
#pragma once

#include <systemc>

#include <array>
#include <cstdint>
#include <memory>

#include "bus_port.hpp"
#include "link.hpp"

class Vnode;
class VerilatedContext;

namespace collnet::sim {

class Node : public sc_core::sc_module, public BusPort {
 public:
  SC_HAS_PROCESS(Node);
  Node(sc_core::sc_module_name name, unsigned rank, VerilatedContext& context);
  ~Node() override;

  sc_core::sc_in<bool> clk;

  // Tree link l of this node sends on `out` and receives on `in`.
  void connect(unsigned link, LinkWire& out, const LinkWire& in);
  // Torus link d (direction 2*dim + minus) sends on `out` and receives on `in`.
  void connect_torus(unsigned dir, TorusWire& out, const TorusWire& in);
  // The node's torus coordinates, the torus size and links marked down (static).
  void set_torus_config(const std::array<unsigned, 3>& coord, const std::array<unsigned, 3>& dims, unsigned links_down);
  // An agent to run right after every clock edge (none: nullptr).
  void attach(EdgeAgent* agent) { agent_ = agent; }

  // Presents a bus access for the next clock edge; its read data is bus_rdata() (word 0,
  // all an ordinary register returns) or bus_rvector() (all four words) after it.
  void present(const BusRequest& req) override { request_ = req; }
  // The node's processors share its bus, first come first served: an access takes a
  // ticket, waits until its ticket is served, holds the bus for the whole access and
  // then serves the next ticket. A task that polls in a loop cannot starve the others.
  uint64_t take_bus_ticket() { return next_ticket_++; }
  bool bus_serving(uint64_t ticket) const { return serving_ == ticket; }
  void release_bus() { ++serving_; }
  uint64_t bus_rdata() const;
  std::array<uint64_t, 4> bus_rvector() const override;
  uint64_t torus_status() const override;
  bool error_flag() const;

  // One clock cycle: drive the inputs, evaluate the edge, drive the outputs, run the agent.
  // The clock's rising edge calls it (and then notifies edge_event()); Machine::advance
  // calls it directly when it steps the nodes in quanta.
  void step();

  const sc_core::sc_event& edge_event() const { return edge_; }
  uint64_t cycle() const { return cycle_; }
  unsigned rank() const { return rank_; }
  Vnode& model() { return *model_; }

 private:
  void on_posedge();

  unsigned rank_;
  std::unique_ptr<Vnode> model_;
  struct TorusPorts;
  static std::array<TorusPorts, 6> torus_ports(Vnode& m);
  std::unique_ptr<const std::array<TorusPorts, 6>> tor_ports_;
  std::array<LinkWire*, 3> out_{};
  std::array<const LinkWire*, 3> in_{};
  std::array<TorusWire*, 6> tor_out_{};
  std::array<const TorusWire*, 6> tor_in_{};
  EdgeAgent* agent_ = nullptr;
  BusRequest request_;
  uint64_t next_ticket_ = 0, serving_ = 0;
  sc_core::sc_event edge_;
  uint64_t cycle_ = 0;
};

}  // namespace collnet::sim
