// SPDX-License-Identifier: Apache-2.0
// One node of the machine: the node RTL inside a SystemC module that is sensitive to the
// clock only. The node is two Verilated models, its tree side (nd_tree_net) and its torus
// side (nd_torus_net), made by a NodeModels (node_models.hpp: the built-in ones, or a model
// library's for other sizes); this class does what nd_node does around them (the register
// bus decode). At each rising edge it drives the models' link inputs from the incoming link
// wires and the bus request of its processor or agent, evaluates the edge, and puts the
// registered outputs on the outgoing wires. A side that is quiescent (Quiescence) is not
// evaluated: a tree collective costs next to nothing on the torus side, and torus traffic
// next to nothing on the tree side. Processors wait on edge_event(); an attached
// fw::EdgeAgent runs right after the edge.
#pragma once

#include <systemc>

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "firmware/bus_port.hpp"
#include "firmware/link_counters.hpp"
#include "firmware/torus_perf.hpp"
#include "systemc/dma_memory.hpp"
#include "systemc/link.hpp"
#include "systemc/node_models.hpp"
#include "systemc/quiescence.hpp"

class VerilatedContext;
class VerilatedFstC;

namespace collnet::sim {

class Node : public sc_core::sc_module, public fw::BusPort {
 public:
  SC_HAS_PROCESS(Node);
  Node(sc_core::sc_module_name name, unsigned rank, VerilatedContext& context, IdleSkip idle_skip = IdleSkip::On,
       const NodeModels& models = builtin_node_models());
  ~Node() override;

  sc_core::sc_in<bool> clk;

  // Tree link l of this node sends on `out` and receives on `in`; the barrier bits of that
  // link go on `gi_out` and come from `gi_in`.
  void connect(unsigned link, LinkWire& out, LinkWire& in, BarrierWire& gi_out, BarrierWire& gi_in);
  // The links' serialisation rates, cycles per flit in 8.8 fixed point (lk_port's cpf_i;
  // MachineConfig::rate_word). Static: set before the first edge.
  void set_link_rates(uint16_t tree_cpf, uint16_t torus_cpf);
  // Torus link d (direction 2*dim + minus) sends on `out` and receives on `in`.
  void connect_torus(unsigned dir, TorusWire& out, TorusWire& in);
  // The node's torus coordinates, the torus size and links marked down (static).
  void set_torus_config(const std::array<unsigned, 3>& coord, const std::array<unsigned, 3>& dims, unsigned links_down);
  // Marks torus links down from the next edge on (bit d: direction d), as the control
  // system does when a link fails mid-run.
  void set_torus_links_down(unsigned links_down);
  // The node's memory behind the torus DMA engine's port, for a node whose torus side was
  // built with the engine (torus.dma): the register bus's window WinDma then goes to the
  // torus side, and the engine's requests are served from the regions registered with
  // dma_memory(). Set before the first edge. A node without it has no DMA window (its
  // addresses go to the tree side, as nd_node's) and dma_memory() is null.
  void attach_memory(const DmaMemory::Timing& timing);
  DmaMemory* dma_memory() { return memory_.get(); }
  // An agent to run right after every clock edge (none: nullptr).
  void attach(fw::EdgeAgent* agent) { agent_ = agent; }
  // The buffer idle-cycle detection copies model state into; shared by the nodes that one
  // host thread steps (see Quiescence). Needed unless idle skipping is off.
  void use_scratch(std::vector<unsigned char>* scratch);

  // Presents a bus access for the next clock edge; its read data is bus_rdata() (word 0,
  // all an ordinary register returns) or bus_rvector() (all four words) after it.
  void present(const fw::BusRequest& req) override { request_ = req; }
  // The node's processors share its bus. A processor asks for it with its access
  // (request_bus) and waits edges until it holds it; at an edge where the bus is free the
  // node grants it to the oldest request, the lowest task first among those asked in the
  // same cycle, and evaluates that access at the edge. The order never depends on the
  // order the host resumes the processors in, and a task that polls in a loop cannot
  // starve the others. The holder keeps the bus for its whole access (several cycles with
  // MachineConfig::access_cycles) and releases it right after the last.
  void request_bus(unsigned task, const fw::BusRequest& req) { bus_waiting_.push_back({cycle_, task, req}); }
  bool bus_held_by(unsigned task) const { return bus_holder_ == static_cast<int>(task); }
  void release_bus() { bus_holder_ = -1; }
  uint64_t bus_rdata() const;
  std::array<uint64_t, 4> bus_rvector() const override;
  uint64_t torus_status() const override;
  // The DMA engine's event line (dma_event_o) as of the torus side's last evaluation; false
  // without the engine.
  bool dma_event() const;
  bool error_flag() const;
  // The link layer's counters of tree link l (torus = false) or torus link d, read through
  // the sides' service ports: no clock edge, no bus access, nothing in the run changes.
  fw::LinkCounters link_counters(bool torus, unsigned link);
  // Torus link `link`'s performance counters (tr_perf), through the torus side's service
  // port, as link_counters.
  fw::TorusLinkPerf torus_perf(unsigned link);

  // One clock cycle: drive the inputs, evaluate the edge, drive the outputs, run the agent.
  // The clock's rising edge calls it (and then notifies edge_event()); Machine::advance
  // calls it directly when it steps the nodes in quanta.
  void step();

  // Processor `task`'s edge event (made on first asking, before the run): each processor
  // of a node has its own, notified in task order, so that the node's processors, which
  // share its memory, run in the same order after every edge however the host orders
  // the simulation's other processes (a partitioned machine has fewer of them).
  const sc_core::sc_event& edge_event(unsigned task);
  // Resumes the processors waiting on edge_event() without a clock edge, now: how a run
  // that has ended lets its cancelled tasks unwind (Machine::run).
  void wake_processors() {
    for (const auto& e : edges_) e->notify();
    wake_.notify();
  }
  // What a processor idling through many cycles (Cpu::idle) also waits for: wake_processors.
  const sc_core::sc_event& wake_event() const { return wake_; }
  // Notified when the torus side's status word (its FIFO levels, torus_status()) or its DMA
  // engine's event line (dma_event()) changes, once something has asked for it: what an
  // idle coprocessor sleeps on, and an interrupted computation (Cpu::idle_until).
  const sc_core::sc_event& torus_status_event() {
    torus_status_watched_ = true;
    return torus_status_changed_;
  }
  uint64_t cycle() const { return cycle_; }
  unsigned rank() const { return rank_; }
  // A processor of the node waits for its next edge (Cpu: between the two calls).
  void edge_wait_begins() { ++edge_waiters_; }
  void edge_wait_ends() { --edge_waiters_; }
  // Whether the node's edges change nothing until something outside it acts: both sides
  // at a fixed point, no input still to arrive on a wire, no bus request or processor
  // waiting for an edge, no memory access in flight, no agent. Between edges.
  bool quiet() const;
  // `n` such edges pass at once (Machine::run, when every node is quiet()): the cycle
  // count and the sides' skipped edges move as n steps would have moved them.
  void leap(uint64_t n);
  // Adds both models to a waveform (scopes <node>.nd_tree_net and <node>.nd_torus_net).
  void trace(VerilatedFstC& fst);

  // Clock edges each side was evaluated for and skipped as idle.
  struct Activity {
    uint64_t tree_evaluated = 0, tree_skipped = 0, torus_evaluated = 0, torus_skipped = 0;

    Activity& operator+=(const Activity& o) {
      tree_evaluated += o.tree_evaluated, tree_skipped += o.tree_skipped;
      torus_evaluated += o.torus_evaluated, torus_skipped += o.torus_skipped;
      return *this;
    }
    // Shares of clock edges skipped as idle (0 when there were none).
    double tree_skipped_share() const { return share(tree_skipped, tree_evaluated + tree_skipped); }
    double torus_skipped_share() const { return share(torus_skipped, torus_evaluated + torus_skipped); }
    double skipped_share() const {
      return share(tree_skipped + torus_skipped, tree_evaluated + tree_skipped + torus_evaluated + torus_skipped);
    }

   private:
    static double share(uint64_t part, uint64_t all) { return all ? double(part) / double(all) : 0.0; }
  };
  Activity activity() const;

 private:
  void on_posedge();
  bool drive_tree();   // drives the tree side's inputs; true if any changed
  bool drive_torus();  // the same for the torus side
  void read_tree_outputs();   // after an evaluation of the tree side
  void read_torus_outputs();  // after an evaluation of the torus side
  bool drive_memory();        // the memory port's inputs for this edge; true if any changed
  // nd_node's decode, with the DMA window when the node has the engine.
  bool to_torus(uint16_t addr) const;

  unsigned rank_;
  std::unique_ptr<TreeSideModel> tree_;
  std::unique_ptr<TorusSideModel> torus_;
  Quiescence tree_idle_, torus_idle_;
  // The link flits last driven into each side (written again only when they change), and
  // each side's registered link outputs as of its last evaluation: a side that is skipped
  // is not touched at all, which keeps its memory out of the cache.
  std::array<LinkFlit, 3> tree_in_{}, tree_out_{};
  std::array<BarrierBits, 3> gi_in_{}, gi_out_{};
  std::array<TorusFlit, 6> torus_in_{}, torus_out_{};
  uint64_t torus_status_ = 0;  // tor_status_o as of the torus side's last evaluation (polled often)
  bool dma_event_ = false;     // dma_event() as of then
  bool tree_req_ = false, torus_req_ = false;  // the bus request last driven into each side
  // Per incoming wire, the last cycle this node must read it at (DelayWire::notify).
  std::array<std::atomic<uint64_t>, 3> tree_read_until_{};
  std::array<std::atomic<uint64_t>, 3> gi_read_until_{};
  std::array<std::atomic<uint64_t>, 6> torus_read_until_{};
  bool primed_ = false;  // the first cycle drives every input
  bool torus_config_changed_ = true;
  bool tree_config_changed_ = true;
  bool sel_torus_ = false;  // nd_node's registered read select: the last access went to the torus
  std::unique_ptr<DmaMemory> memory_;  // the DMA engine's memory (attach_memory)
  std::array<WireSender<LinkFlit>, 3> out_{};
  std::array<const LinkWire*, 3> in_{};
  std::array<WireSender<BarrierBits>, 3> gi_wire_out_{};
  std::array<const BarrierWire*, 3> gi_wire_in_{};
  std::array<WireSender<TorusFlit>, 6> tor_out_{};
  std::array<const TorusWire*, 6> tor_in_{};
  fw::EdgeAgent* agent_ = nullptr;
  fw::BusRequest request_;
  struct BusWait {
    uint64_t cycle;  // asked in
    unsigned task;
    fw::BusRequest req;
  };
  std::vector<BusWait> bus_waiting_;
  int bus_holder_ = -1;  // the task holding the bus (-1: none)
  void grant_bus();      // at an edge: the free bus to the first waiting access
  std::vector<std::unique_ptr<sc_core::sc_event>> edges_;  // each processor's, by task (edge_event)
  unsigned edge_waiters_ = 0;                              // processors waiting for the next edge (edge_wait_begins)
  sc_core::sc_event wake_;  // wake_processors(), for processors in a timed wait
  sc_core::sc_event torus_status_changed_;  // torus_status_event()
  bool torus_status_watched_ = false;
  uint64_t cycle_ = 0;
};

}  // namespace collnet::sim
