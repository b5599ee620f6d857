// SPDX-License-Identifier: Apache-2.0
// The simulated machine: one Verilated node per rank, wired into the tree with links of
// the configured latency, one processor per node running a task function, optional FST
// tracing of every node. SystemC cannot restart a simulation, so a process builds and
// runs at most one Machine.
#pragma once

#include <systemc>

#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "firmware/barrier_firmware.hpp"
#include "firmware/machine_model.hpp"
#include "firmware/personality.hpp"
#include "firmware/task_context.hpp"
#include "firmware/torus_firmware.hpp"
#include "firmware/torus_layout.hpp"
#include "firmware/tree_firmware.hpp"
#include "systemc/coprocessor_pair.hpp"
#include "systemc/cpu.hpp"
#include "systemc/link.hpp"
#include "systemc/machine_clock.hpp"
#include "systemc/machine_config.hpp"
#include "systemc/node.hpp"
#include "systemc/partition_plan.hpp"
#include "systemc/shard_pool.hpp"
#include "systemc/transport.hpp"
#include "systemc/tree_wiring.hpp"
#include "systemc/wave_view.hpp"

class VerilatedContext;

namespace collnet::sim {

class TraceWriter;

class Machine : public fw::MachineModel {
 public:
  // With config.partitions > 1, this process builds and runs its partition only
  // (partition_plan() names it), joined to the others by `transport` (one per process).
  explicit Machine(const MachineConfig& config, Transport* transport = nullptr);
  ~Machine();
  Machine(const Machine&) = delete;
  Machine& operator=(const Machine&) = delete;

  // Runs `fn` on every task's processor until all return or the watchdog expires.
  // Result::unfinished and failures name tasks by node * tasks_per_node + task. Throws
  // std::invalid_argument if MachineConfig::threads > 1 (processors run in the kernel).
  Result run(TaskFn fn) override;

  // Calls `fn` every `period` cycles while run() runs, between cycles (outside the
  // kernel, with every edge up to the cycle done): a monitor, which may stop() it. A
  // partitioned machine's partitions must watch with the same periods (they run the same
  // stretches between exchanges).
  void watch(uint64_t period, std::function<void()> fn) { watches_.push_back({period, std::move(fn)}); }
  // Ends run() at the end of the current quantum, as the watchdog would: tasks that have
  // not returned are reported unfinished, and the run's cycles are this cycle.
  void stop();

  // Runs the machine for `cycles` more cycles with no tasks: the agents attached to its
  // nodes do the work. May be called again to go on; not together with run(). Steps each
  // node MachineConfig::shortest_latency() cycles at a time, on MachineConfig::threads host threads, unless
  // MachineConfig::lockstep (the results are the same cycle for cycle). With more than one
  // thread, agents of different nodes run concurrently: what they share must be
  // thread-safe (workload::TrafficLedger is).
  void advance(uint64_t cycles);
  uint64_t cycle() const { return first_->cycle(); }
  const PartitionPlan& partition_plan() const { return plan_; }
  unsigned partition() const { return self_; }
  // Whether node `rank` is simulated by this process.
  bool local(unsigned rank) const { return plan_.owner[rank] == self_; }
  // Host threads advance() steps the nodes with: MachineConfig::threads, at most one per node.
  unsigned threads() const { return pool_ ? pool_->shards() : 1; }
  // Ends an advance()d run: closes the waveform file, if any, and writes its view over the
  // whole run, showing the networks that carried flits.
  void finish();
  // Rewrites the trace's GTKWave view (after run() or finish()): to open on a window of the
  // run, with markers; networks left empty are those the run used. Throws std::logic_error
  // without a trace.
  void write_wave_view(const WaveView& view);

  // Called by every task: returns once all tasks have called it, all in the same cycle.
  // A simulation convenience (free of modelled cost), used to start measurements together.
  void align() override;

  const MachineConfig& config() const { return config_; }
  unsigned nodes() const override { return static_cast<unsigned>(nodes_.size()); }
  unsigned tasks_per_node() const override { return config_.tasks_per_node; }
  unsigned tree_depth() const { return wiring_.depth(); }
  // Flits sent by `rank` on its tree link `link` so far (0 for an unconnected link).
  uint64_t link_flits(unsigned rank, unsigned link) const;
  // Flits sent by `rank` on its torus link `dir` so far (0 where there is no link).
  uint64_t torus_link_flits(unsigned rank, unsigned dir) const;
  // What crossed a node's edge so far on each network, both ways: flits sent on its tree
  // and torus links, and the words with a bit set its barrier wires carried (a node down
  // from boot shows zeros everywhere: nothing is sent to it, and its wires carry nothing).
  struct NodeTraffic {
    uint64_t tree_out = 0, tree_in = 0, torus_out = 0, torus_in = 0, barrier_out = 0, barrier_in = 0;
  };
  NodeTraffic node_traffic(unsigned rank) const;
  // (Another partition's node: as it was when run() ended.)
  bool node_error(unsigned rank) const override;
  void mark_done() override { ++done_; }
  unsigned done() const override { return done_agreed_; }
  // The transport joining this partition to the others (null in one process).
  Transport* transport() const { return plan_.partitions() > 1 ? transport_ : nullptr; }
  // Host seconds this partition has spent in the exchanges and agreements with the
  // others so far: waiting for them, mostly (0 in one process).
  double sync_seconds() const { return sync_seconds_; }
  // One connected link end's link-layer counters (lk_port), read through the node's service
  // port: reading changes nothing in the run.
  struct LinkEnd {
    unsigned rank;
    bool torus;     // torus link (direction 0..5) or tree link (0..2)
    unsigned link;
    fw::LinkCounters counters;
    fw::TorusLinkPerf perf{};  // torus links: the router's per-VC counters (tr_perf)
  };
  std::vector<LinkEnd> link_counters();
  // Torus link ends (rank, direction) whose link layer has declared the link down: read,
  // as a control system would, from the nodes that raise their error flag only.
  // A partitioned machine's: every partition's (each partition must call it, at the same
  // cycle).
  std::vector<std::pair<unsigned, unsigned>> torus_links_declared_down();
  // Marks node `rank`'s torus links in `links_down` (bit d: direction d) down in its
  // router from the next cycle on: the router no longer uses them and ignores their input.
  // (Another partition's node: nothing here; its own partition marks them.)
  // The memory behind node `rank`'s torus DMA engine (Node::attach_memory): null unless
  // the machine's torus sides were built with the engine (torus.dma) and the node is this
  // partition's.
  DmaMemory* dma_memory(unsigned rank) { return local(rank) ? nodes_.at(rank)->dma_memory() : nullptr; }
  void set_torus_links_down(unsigned rank, unsigned links_down) {
    if (local(rank)) nodes_.at(rank)->set_torus_links_down(links_down);
  }
  // Bits the wires' faults have flipped so far (MachineConfig::link_ber).
  uint64_t bits_flipped() const;
  // Clock edges the nodes' sides were evaluated for and skipped as idle, summed (over every
  // partition: each partition must call it).
  Node::Activity activity() const;
  // Attaches an agent to node `rank`'s bus (instead of running tasks there).
  // (Another partition's node: nothing here; its own partition attaches its agent.)
  void attach(unsigned rank, fw::EdgeAgent* agent) {
    if (local(rank)) nodes_.at(rank)->attach(agent);
  }

 private:
  void task_finished(unsigned id);
  // Ends run(): lets the tasks in `unfinished` unwind, then stops the kernel.
  void unwind(const std::vector<unsigned>& unfinished);
  // `v` with the networks the run used, if it names none (each partition must call it).
  WaveView wave_view(WaveView v) const;
  void close_trace();  // closes this partition's trace, if it writes one (each partition must call it)
  // advance() steps the nodes one cycle at a time under the kernel (asked for, or needed
  // by the per-cycle trace) or else the shortest wire's latency in cycles per node at a time.
  bool lockstep() const { return config_.lockstep || !config_.trace_path.empty(); }
  // run(): the cycles from `now` (a quantum's start) on, in whole quanta and short of
  // `limit`, whose edges change nothing — every node quiet() and nothing due in the kernel
  // before the last of them (a processor idling, a task's wake-up) — so that the run can
  // leap over them; 0 when it cannot (partitions, a waveform, idle skipping not on).
  uint64_t quiet_cycles(uint64_t now, uint64_t limit) const;
  unsigned quantum() const { return lockstep() ? 1 : config_.shortest_latency(); }

  MachineConfig config_;
  TreeWiring wiring_;
  Transport* transport_ = nullptr;
  PartitionPlan plan_;
  unsigned self_ = 0;  // this process's partition
  // The wires between this partition and the others, of one kind: those it sends on (the
  // sender's end) and those it receives on (the replica), by id.
  template <class Flit>
  struct CutWires {
    struct Wire {
      uint32_t id;
      unsigned peer;  // the partition at the other end
      DelayWire<Flit>* wire;
      // A sending wire's note (DelayWire::notify): put() moves it, so a value other than
      // the one last sent means the wire was put to this quantum.
      std::unique_ptr<std::atomic<uint64_t>> note;
      uint64_t sent = 0;
    };
    std::vector<Wire> out;
    std::map<uint32_t, DelayWire<Flit>*> in;  // the replicas, by id
    void add(uint32_t id, unsigned peer, bool sending, DelayWire<Flit>* wire);
    // The words put on the sending wires in cycles [from, from + n), appended to each
    // peer's message as (id, words).
    void pack(uint64_t from, unsigned n, std::map<unsigned, std::vector<uint8_t>>& to);
    // The record at `data` into its replica, if its id is one of this kind's: the bytes
    // read, or 0.
    size_t unpack(uint64_t from, unsigned n, const uint8_t* data, size_t size);
  };
  CutWires<LinkFlit> cut_tree_;
  CutWires<BarrierBits> cut_barrier_;
  CutWires<TorusFlit> cut_torus_;
  std::vector<unsigned> peers_;  // the partitions a cut wire leads to or comes from
  bool agree_along_ = false;     // every partition has every other as a peer (exchange)
  double sync_seconds_ = 0;
  // Carries the cut wires' words of cycles [from, from + n) between the partitions; at a
  // quantum's end, with `agreement` (this partition's part), makes it every partition's.
  struct Agreement;
  void exchange(uint64_t from, unsigned n, Agreement* agreement);
  // What the run decides between quanta, over every partition: tasks at align(), tasks
  // returned, the earliest stop() and the latest return.
  struct Agreement {
    uint64_t aligned = 0, finished = 0, done = 0, stop_at = ~uint64_t{0}, last_finish = 0;
  };
  // This partition's part `a` summed (the earliest stop, the latest return) over every
  // partition, by collectives of their own.
  Agreement agree(const Agreement& a);
  // Makes `res` the whole machine's: every partition's unfinished and failed tasks (a
  // failure from another partition comes as a std::runtime_error with its message), and
  // which of the others' nodes have their error flag set.
  void share_outcome(Result& res);
  std::vector<bool> remote_error_;  // by node: another partition's, flagged when run() ended
  std::vector<Node*> local_nodes_;
  Node* first_ = nullptr;           // this partition's first node (its cycle is the machine's)
  std::vector<unsigned> task_ids_;  // each of this partition's processors' task id
  unsigned total_tasks_ = 0;        // every partition's
  std::unique_ptr<VerilatedContext> context_;
  std::unique_ptr<MachineClock> clock_;
  std::vector<std::unique_ptr<Node>> nodes_;
  // Sets every wire's bit errors and cuts from the configuration (MachineConfig::link_ber,
  // link_cuts); throws std::invalid_argument for a cut of an unconnected tree link.
  void apply_link_faults(const fw::TorusLayout& torus);
  std::vector<std::unique_ptr<LinkWire>> wires_;
  std::vector<std::array<LinkWire*, 3>> out_wires_;
  // The barrier wires beside each tree link, by sending node and link.
  std::vector<std::unique_ptr<BarrierWire>> barrier_wires_;
  std::vector<std::array<BarrierWire*, 3>> out_barrier_wires_;
  std::vector<std::array<std::unique_ptr<TorusWire>, 6>> torus_out_;
  std::vector<fw::Personality> personalities_;
  std::vector<std::unique_ptr<fw::TreeFirmware>> firmware_;
  std::vector<std::unique_ptr<fw::TreeFirmware>> system_firmware_;
  std::vector<std::unique_ptr<fw::BarrierFirmware>> barrier_firmware_;
  std::vector<std::unique_ptr<fw::TorusFirmware>> torus_firmware_;
  std::vector<std::unique_ptr<Cpu>> processors_;
  // In coprocessor mode, each task's processor and its node's coprocessor, by task (the
  // task's fw::Processor: firmware and driver code pays on whichever runs it).
  std::vector<std::unique_ptr<CoprocessorPair>> coprocessors_;
  // What each task's code gets: its node and task number, its processor (each task has
  // its own; a node's processors share its bus), its node's firmware and personality.
  std::vector<fw::TaskContext> tasks_;
  std::unique_ptr<TraceWriter> trace_;
  std::unique_ptr<ShardPool> pool_;  // advance()'s threads, if more than one
  std::vector<std::vector<unsigned char>> scratch_;  // one per host thread, for idle detection
  TaskFn fn_;
  struct Watch {
    uint64_t period;
    std::function<void()> fn;
  };
  std::vector<Watch> watches_;
  static constexpr uint64_t kNoStop = ~uint64_t{0};
  uint64_t stop_at_ = kNoStop;  // the cycle stop() was first called in
  uint64_t last_finish_ = 0;    // the cycle the last task returned in
  unsigned finished_ = 0;
  unsigned done_ = 0, done_agreed_ = 0;  // mark_done() here; and over every partition, at the last quantum's end
  bool advancing_ = false;  // advance(): processors run no task and never stop the simulation
  bool unwinding_ = false;  // run() has ended: tasks still waiting unwind (unwind())
  uint64_t aligned_ = 0;
  sc_core::sc_event aligned_event_;
};

}  // namespace collnet::sim
