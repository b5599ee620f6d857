// SPDX-License-Identifier: Apache-2.0
// Verilated headers first (see node.cpp).
#include "verilated.h"
// clang-format off
#include "systemc/machine.hpp"
#include "systemc/host_limits.hpp"
#include "systemc/coverage.hpp"
#include "firmware/tree_layout.hpp"
#include "systemc/trace_writer.hpp"
#include "systemc/model_library.hpp"
// clang-format on

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <stdexcept>

namespace collnet::sim {

Machine::Machine(const MachineConfig& config, Transport* transport)
    : config_(config), wiring_(config.shape.nodes()), transport_(transport) {
  config_.validate();
  if (config_.partitions > 1 && (!transport_ || transport_->size() != config_.partitions))
    throw std::invalid_argument("a machine in " + std::to_string(config_.partitions) +
                                " partitions needs the transport of as many processes");
  plan_ = PartitionPlan::cut(config_, config_.partitions);
  self_ = config_.partitions > 1 ? transport_->rank() : 0;
  // SystemC prints a banner when its kernel first starts; a program built on collnet has
  // not asked for it (SYSTEMC_DISABLE_COPYRIGHT_MESSAGE set by the user still wins).
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  if (sc_core::sc_get_status() != sc_core::SC_ELABORATION)
    throw std::logic_error("a simulated machine can be built only once per process (SystemC cannot restart)");

  // sc_stop() is how a finished run ends, not news for the user.
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);

  context_ = std::make_unique<VerilatedContext>();
  context_->timeunit(-9);
  context_->timeprecision(-9);
  if (!config_.trace_path.empty()) context_->traceEverOn(true);

  clock_ = std::make_unique<MachineClock>("clock");

  // The node models: built in, or a model library for other sizes (built on first use;
  // the partitions of one machine take turns on its lock, and partition 0 tells of it).
  const NodeModels& models = node_models_for(config_.sizes, [this](const std::string& step) {
    if (self_ == 0) std::fprintf(stderr, "collnet: %s\n", step.c_str());
  });

  const unsigned n = config_.shape.nodes();
  // This partition's nodes (every node, in one process); the others' entries stay empty.
  std::vector<Node*> raw;
  nodes_.resize(n);
  for (unsigned r = 0; r < n; ++r) {
    if (!local(r)) continue;
    nodes_[r] = std::make_unique<Node>(("node" + std::to_string(r)).c_str(), r, *context_,
                                       config_.trace_path.empty() ? config_.idle_skip : IdleSkip::Off, models);
    nodes_[r]->clk(clock_->clk);
    if (config_.sizes.get("torus.dma")) nodes_[r]->attach_memory(config_.memory);
    raw.push_back(nodes_[r].get());
  }
  first_ = raw.front();

  out_wires_.assign(n, {nullptr, nullptr, nullptr});
  out_barrier_wires_.assign(n, {nullptr, nullptr, nullptr});
  // A wire with one end in another partition is made at both: the sender's end carries
  // what it puts to the receiver's replica once per quantum (its id the same in both).
  const std::vector<TreeEdge> edges = wiring_.edges();
  for (uint32_t i = 0; i < edges.size(); ++i) {
    const TreeEdge& e = edges[i];
    const bool parent = local(e.parent), child = local(e.child);
    if (!parent && !child) continue;
    auto down = std::make_unique<LinkWire>(config_.tree_latency, quantum());  // parent -> child
    auto up = std::make_unique<LinkWire>(config_.tree_latency, quantum());    // child -> parent
    auto gi_down = std::make_unique<BarrierWire>(config_.barrier_latency, quantum());
    auto gi_up = std::make_unique<BarrierWire>(config_.barrier_latency, quantum());
    if (parent) {
      nodes_[e.parent]->connect(e.parent_link, *down, *up, *gi_down, *gi_up);
      out_wires_[e.parent][e.parent_link] = down.get();
      out_barrier_wires_[e.parent][e.parent_link] = gi_down.get();
    }
    if (child) {
      nodes_[e.child]->connect(e.child_link, *up, *down, *gi_up, *gi_down);
      out_wires_[e.child][e.child_link] = up.get();
      out_barrier_wires_[e.child][e.child_link] = gi_up.get();
    }
    if (parent != child) {
      const unsigned peer = plan_.owner[parent ? e.child : e.parent];
      cut_tree_.add(4 * i, peer, parent, down.get());
      cut_tree_.add(4 * i + 1, peer, child, up.get());
      cut_barrier_.add(4 * i + 2, peer, parent, gi_down.get());
      cut_barrier_.add(4 * i + 3, peer, child, gi_up.get());
    }
    wires_.push_back(std::move(down));
    wires_.push_back(std::move(up));
    barrier_wires_.push_back(std::move(gi_down));
    barrier_wires_.push_back(std::move(gi_up));
  }
  const uint16_t tree_rate = MachineConfig::rate_word(config_.tree_cycles_per_flit);
  const uint16_t torus_rate = MachineConfig::rate_word(config_.torus_cycles_per_flit);
  for (Node* node : raw) node->set_link_rates(tree_rate, torus_rate);

  // The torus: node r's link d sends to its neighbour that way, which receives it on the
  // opposite link; dimensions of size 1 have no links.
  const fw::TorusLayout torus(config_.shape.dims());
  torus_out_.resize(n);
  const uint32_t torus_ids = 4 * static_cast<uint32_t>(edges.size());
  for (unsigned r = 0; r < n; ++r)
    for (unsigned d = 0; d < 6; ++d) {
      if (!torus.has_link(d)) continue;
      const unsigned to = torus.neighbour(r, d);
      if (!local(r) && !local(to)) continue;
      torus_out_[r][d] = std::make_unique<TorusWire>(config_.torus_latency[d / 2], quantum());
      if (local(r) != local(to))
        cut_torus_.add(torus_ids + 6 * r + d, plan_.owner[local(r) ? to : r], local(r), torus_out_[r][d].get());
    }
  std::set<unsigned> peers;  // the partitions the cut wires join this one to
  for (const auto& w : cut_tree_.out) peers.insert(w.peer);  // every cut tree link sends one way each
  for (const auto& w : cut_torus_.out) peers.insert(w.peer);  // and every cut torus link
  peers_.assign(peers.begin(), peers.end());
  // The agreement rides on the exchanges if every partition neighbours every other.
  if (this->transport())  // (the member; `transport` is the argument here)
    agree_along_ = transport_->allreduce(peers_.size() + 1 == plan_.partitions() ? 1 : 0, Transport::Op::Min) == 1;
  for (unsigned r = 0; r < n; ++r) {
    if (!local(r)) continue;
    for (unsigned d = 0; d < 6; ++d)
      if (torus.has_link(d))
        nodes_[r]->connect_torus(d, *torus_out_[r][d], *torus_out_[torus.neighbour(r, d)][fw::TorusLayout::opposite(d)]);
    nodes_[r]->set_torus_config(torus.coord(r), torus.dims(), config_.torus_links_down(r));
  }

  apply_link_faults(torus);

  personalities_.resize(n);
  std::shared_ptr<const fw::DownNodes> down;
  if (!config_.down_nodes.empty()) down = std::make_shared<const fw::DownNodes>(config_.down());
  std::shared_ptr<const std::vector<std::vector<fw::TorusRoute>>> routes;
  const fw::TorusFaults faults = config_.torus_faults();
  if (std::any_of(faults.links_down.begin(), faults.links_down.end(), [](unsigned b) { return b != 0; }))
    routes = std::make_shared<const std::vector<std::vector<fw::TorusRoute>>>(fw::routes_around(torus, faults));
  for (unsigned r = 0; r < n; ++r) {
    fw::Personality& p = personalities_[r];
    p.rank = r;
    p.nodes = n;
    p.shape = config_.shape.dims();
    wiring_.describe(r, p, down.get());
    p.down = down;
    p.coord = torus.coord(r);
    p.torus_links_down = config_.torus_links_down(r);
    p.torus_routes = routes;
  }

  const unsigned tasks = config_.tasks_per_node;
  total_tasks_ = n * tasks;
  // Every processor is a SystemC thread: say now if the host cannot hold them all.
  const unsigned threads_per_node = tasks + (config_.coprocessor ? 1 : 0);
  if (const auto budget = MapBudget::of_this_process(uint64_t{raw.size()} * threads_per_node)) budget->check();
  processors_.reserve(n * tasks);
  firmware_.reserve(n * tasks);
  system_firmware_.reserve(n * tasks);
  barrier_firmware_.reserve(n * tasks);
  torus_firmware_.reserve(n * tasks);
  tasks_.reserve(n * tasks);
  for (unsigned r = 0; r < n; ++r) {
    if (!local(r)) continue;
    for (unsigned t = 0; t < tasks; ++t) {
      const unsigned id = static_cast<unsigned>(processors_.size());  // this partition's numbering
      task_ids_.push_back(r * tasks + t);
      const std::string name = tasks == 1 ? "cpu" + std::to_string(r) : "cpu" + std::to_string(r) + "_" + std::to_string(t);
      processors_.push_back(std::make_unique<Cpu>(
          name.c_str(), *nodes_[r], t, config_.access_cycles, [this, id] { fn_(tasks_[id]); },
          [this, id] { task_finished(id); }, config_.stack_bytes));
      fw::Processor* cpu = processors_[id].get();
      CoprocessorPair* pair = nullptr;
      if (config_.coprocessor) {  // the node's second processor, bus master `tasks` (after its tasks')
        coprocessors_.push_back(std::make_unique<CoprocessorPair>("cpu" + std::to_string(r) + "_co", *nodes_[r],
                                                                  *processors_[id], tasks, config_.access_cycles,
                                                                  config_.stack_bytes));
        pair = coprocessors_.back().get();
        cpu = pair;
      }
      firmware_.push_back(std::make_unique<fw::TreeFirmware>(*cpu, personalities_[r]));
      system_firmware_.push_back(std::make_unique<fw::TreeFirmware>(*cpu, personalities_[r], fw::Vc::System));
      barrier_firmware_.push_back(std::make_unique<fw::BarrierFirmware>(*cpu, personalities_[r]));
      torus_firmware_.push_back(std::make_unique<fw::TorusFirmware>(*cpu, personalities_[r]));
      tasks_.push_back(fw::TaskContext{r, t, tasks, *cpu, *firmware_[id], *system_firmware_[id],
                            *barrier_firmware_[id], *torus_firmware_[id], personalities_[r],
                            nodes_[r]->dma_memory(), pair});
    }
  }

  if (!config_.trace_path.empty()) {  // this partition's traced nodes (a partition may have none)
    std::vector<Node*> traced;
    for (unsigned r : config_.trace_nodes)
      if (local(r)) traced.push_back(nodes_[r].get());
    if (config_.trace_nodes.empty()) traced = raw;
    if (!traced.empty()) {
      trace_ = std::make_unique<TraceWriter>("trace", config_.trace_file(self_), traced, config_.shape.dims(), config_.sizes);
      trace_->clk(clock_->clk);
    }
  }
  const unsigned local_nodes = static_cast<unsigned>(raw.size());
  const unsigned threads = std::min(config_.threads, local_nodes);
  if (threads > 1) pool_ = std::make_unique<ShardPool>(threads);
  // Each host thread's nodes share a scratch buffer for idle detection (Quiescence).
  scratch_.resize(threads);
  for (unsigned s = 0; s < threads; ++s) {
    const auto [begin, end] = ShardPool::range(local_nodes, threads, s);
    for (unsigned i = begin; i < end; ++i) raw[i]->use_scratch(&scratch_[s]);
  }
  local_nodes_ = std::move(raw);
}

template <class Flit>
void Machine::CutWires<Flit>::add(uint32_t id, unsigned peer, bool sending, DelayWire<Flit>* wire) {
  if (!sending) {
    in[id] = wire;
    return;
  }
  out.push_back({id, peer, wire, std::make_unique<std::atomic<uint64_t>>(0)});
  wire->notify(out.back().note.get());
}

template <class Flit>
void Machine::CutWires<Flit>::pack(uint64_t from, unsigned n, std::map<unsigned, Transport::Bytes>& to) {
  std::vector<Flit> words(n);
  for (Wire& w : out) {
    const uint64_t note = w.note->load(std::memory_order_relaxed);
    if (note == w.sent) continue;  // nothing put this quantum: the replica is alike
    w.sent = note;
    w.wire->copy_out(from, n, words.data());
    Transport::Bytes& b = to[w.peer];
    const size_t at = b.size();
    b.resize(at + sizeof w.id + n * sizeof(Flit));
    std::memcpy(b.data() + at, &w.id, sizeof w.id);
    std::memcpy(b.data() + at + sizeof w.id, words.data(), n * sizeof(Flit));
  }
}

template <class Flit>
size_t Machine::CutWires<Flit>::unpack(uint64_t from, unsigned n, const uint8_t* data, size_t size) {
  uint32_t id;
  std::memcpy(&id, data, sizeof id);
  const auto it = in.find(id);
  if (it == in.end()) return 0;
  if (size < sizeof id + n * sizeof(Flit))
    throw std::runtime_error("partitions: a quantum's message ends inside wire " + std::to_string(id) + "'s words");
  std::vector<Flit> words(n);
  std::memcpy(words.data(), data + sizeof id, n * sizeof(Flit));
  it->second->copy_in(from, n, words.data());
  return sizeof id + n * sizeof(Flit);
}

namespace {
// The record of a quantum's message that carries the sender's part of the agreement
// (Machine::exchange): an id no wire has, then the five words.
constexpr uint32_t kAgreementId = ~uint32_t{0};
}  // namespace

void Machine::exchange(uint64_t from, unsigned n, Agreement* agreement) {
  if (!transport()) return;  // one process: no wire leaves it, the agreement is its own
  // The host time spent here, waiting for the other partitions mostly: sync_seconds().
  struct Timed {
    double& seconds;
    std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
    ~Timed() { seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); }
  } timed{sync_seconds_};
  if (peers_.empty()) {  // no wire to another partition: only the agreement
    if (agreement) *agreement = agree(*agreement);
    return;
  }
  // One message per neighbouring partition: a record per wire put to, its id (unique over
  // every kind of wire) and its words. When every other partition is a neighbour, the
  // agreement of a quantum's end rides along, instead of a collective of its own.
  std::map<unsigned, Transport::Bytes> to;
  cut_tree_.pack(from, n, to);
  cut_barrier_.pack(from, n, to);
  cut_torus_.pack(from, n, to);
  const bool along = agreement && agree_along_;
  std::vector<Transport::Bytes> sends;
  for (unsigned p : peers_) {
    Transport::Bytes& b = to[p];
    if (along) {
      const uint64_t words[5] = {agreement->aligned, agreement->finished, agreement->done, agreement->stop_at,
                                 agreement->last_finish};
      const size_t at = b.size();
      b.resize(at + sizeof kAgreementId + sizeof words);
      std::memcpy(b.data() + at, &kAgreementId, sizeof kAgreementId);
      std::memcpy(b.data() + at + sizeof kAgreementId, words, sizeof words);
    }
    sends.push_back(std::move(b));
  }
  Agreement all = agreement ? *agreement : Agreement{};
  for (const Transport::Bytes& b : transport_->exchange(peers_, sends)) {
    for (size_t at = 0; at < b.size();) {
      const uint8_t* record = b.data() + at;
      const size_t left = b.size() - at;
      uint32_t id = 0;
      std::memcpy(&id, record, std::min(sizeof id, left));
      if (along && id == kAgreementId) {
        uint64_t w[5];
        if (left < sizeof id + sizeof w) throw std::runtime_error("partitions: a quantum's message ends inside its agreement");
        std::memcpy(w, record + sizeof id, sizeof w);
        all = {all.aligned + w[0], all.finished + w[1], all.done + w[2], std::min(all.stop_at, w[3]),
               std::max(all.last_finish, w[4])};
        at += sizeof id + sizeof w;
        continue;
      }
      size_t read = cut_tree_.unpack(from, n, record, left);
      if (!read) read = cut_barrier_.unpack(from, n, record, left);
      if (!read) read = cut_torus_.unpack(from, n, record, left);
      if (!read)
        throw std::runtime_error("partitions: a quantum's message names a wire that does not enter this partition");
      at += read;
    }
  }
  if (agreement) *agreement = along ? all : agree(*agreement);
}

Node::Activity Machine::activity() const {
  Node::Activity sum;
  for (const Node* node : local_nodes_) sum += node->activity();
  if (transport()) {
    std::vector<uint64_t> v{sum.tree_evaluated, sum.tree_skipped, sum.torus_evaluated, sum.torus_skipped};
    transport_->allreduce(v, Transport::Op::Sum);
    sum = {v[0], v[1], v[2], v[3]};
  }
  return sum;
}

// The nodes' models are still there: the coverage database points into them.
Machine::~Machine() { write_coverage(*context_, "machine"); }

void Machine::task_finished(unsigned id) {
  // A task that met a hardware error (a link down, a refused route) ends the run: the
  // others would wait for its packets until the watchdog.
  bool hardware = false;
  if (const std::exception_ptr& f = processors_[id]->failure()) {
    try {
      std::rethrow_exception(f);
    } catch (const fw::HardwareError&) {
      hardware = true;
    } catch (...) {
    }
  }
  ++finished_;
  last_finish_ = cycle();
  if (hardware && !advancing_) stop();
}

void Machine::stop() {
  if (stop_at_ == kNoStop) stop_at_ = cycle();
}

void Machine::advance(uint64_t cycles) {
  if (!advancing_) {
    if (sc_core::sc_get_status() != sc_core::SC_ELABORATION)
      throw std::logic_error("Machine::advance cannot follow Machine::run (SystemC cannot restart)");
    advancing_ = true;
    fn_ = [](fw::TaskContext&) {};
  }
  if (lockstep()) {  // under the kernel, as run() steps: a partition a quantum at a time
    const uint64_t piece = transport() ? config_.shortest_latency() : cycles;
    for (uint64_t done = 0; done < cycles;) {
      const uint64_t k = std::min(piece, cycles - done), from = cycle();
      clock_->release(k);
      sc_core::sc_start(sc_core::sc_time(static_cast<double>(k), sc_core::SC_NS));
      exchange(from, static_cast<unsigned>(k), nullptr);
      done += k;
    }
    return;
  }
  // Temporal decoupling (SystemC TLM-2.0's loosely-timed quantum) with a quantum no longer
  // than the link latency, which makes it exact: in a quantum of q cycles starting at t a
  // node reads only what its neighbours sent before t - latency + q <= t, i.e. in earlier
  // quanta, so each node can run all q cycles before the next one starts, with its state
  // in cache. No processor runs in advance(), so nothing else needs the kernel. For the
  // same reason the nodes of one quantum may run in any order, or at once: with threads,
  // each takes a contiguous range of ranks, and the pool's join ends the quantum.
  const unsigned n = static_cast<unsigned>(local_nodes_.size());
  for (uint64_t done = 0; done < cycles;) {
    const uint64_t q = std::min<uint64_t>(quantum(), cycles - done);
    const uint64_t from = cycle();
    auto step_range = [this, q](unsigned begin, unsigned end) {
      for (unsigned i = begin; i < end; ++i)
        for (uint64_t k = 0; k < q; ++k) local_nodes_[i]->step();
    };
    if (pool_) {
      pool_->run([&](unsigned s) {
        const auto [begin, end] = ShardPool::range(n, pool_->shards(), s);
        step_range(begin, end);
      });
    } else {
      step_range(0, n);
    }
    exchange(from, static_cast<unsigned>(q), nullptr);
    done += q;
  }
}

void Machine::align() {
  ++aligned_;  // run() releases the tasks once all are here (at the next quantum's start)
  sc_core::wait(aligned_event_);
  if (unwinding_) throw TaskCancelled{};
}

Machine::Result Machine::run(TaskFn fn) {
  if (sc_core::sc_get_status() != sc_core::SC_ELABORATION || advancing_)
    throw std::logic_error("Machine::run cannot follow run() or advance() (SystemC cannot restart)");
  if (config_.threads > 1)
    throw std::invalid_argument("threads " + std::to_string(config_.threads) +
                                " and processors: processors run under the SystemC kernel, in one thread; "
                                "use threads = 1");
  fn_ = std::move(fn);
  // The kernel runs a quantum at a time: the shortest wire's latency, cut short at the
  // watchdog and when a watch is due. Between quanta (the kernel paused at a whole cycle,
  // every edge before it done) the run decides what waits for everyone: tasks that all
  // reached align() go on together, half a cycle into the next quantum; the run ends once
  // every task has returned or one asked to stop (stop()), and reports the cycle that
  // happened in. These rules depend on the quantum alone, not on how the machine is
  // cut into processes, which is what keeps a partitioned run cycle for cycle the same.
  const uint64_t quantum = config_.shortest_latency(), watchdog = config_.watchdog_cycles;
  std::vector<uint64_t> due;
  for (const Watch& w : watches_) due.push_back(w.period);
  const auto t0 = std::chrono::steady_clock::now();
  uint64_t now = 0;
  Agreement a{0, 0, 0, kNoStop, 0};
  while (now < watchdog) {
    uint64_t next = std::min((now / quantum + 1) * quantum, watchdog);
    for (uint64_t d : due) next = std::min(next, d);
    bool leapt = false;
    if (now % quantum == 0) {
      // Cycles in which no node would change and no processor or task act: the nodes
      // leap over them and the kernel passes them with no clock edge. What the run
      // decides at the quanta's ends cannot change in them, nor can a watch's view.
      uint64_t limit = watchdog;
      for (uint64_t d : due) limit = std::min(limit, d);
      if (const uint64_t quiet = quiet_cycles(now, limit); quiet > 0) {
        for (Node* node : local_nodes_) node->leap(quiet);
        next = now + quiet;
        leapt = true;
      }
    }
    if (!leapt) clock_->release(next - now);
    sc_core::sc_start(sc_core::sc_time(static_cast<double>(next - now), sc_core::SC_NS));
    const uint64_t from = now;
    now = next;
    for (size_t i = 0; i < watches_.size(); ++i)
      if (due[i] == now) {
        watches_[i].fn();
        due[i] += watches_[i].period;
      }
    // A watch may end a stretch between quantum boundaries; what the run decides, it
    // decides at the boundaries alone, so watching changes nothing in the run.
    const bool boundary = now % quantum == 0 || now == watchdog;
    Agreement here{aligned_, finished_, done_, stop_at_, last_finish_};
    exchange(from, static_cast<unsigned>(now - from), boundary ? &here : nullptr);
    if (!boundary) continue;
    a = here;
    done_agreed_ = static_cast<unsigned>(a.done);
    if (a.stop_at != kNoStop || a.finished == total_tasks_) break;
    if (a.aligned == total_tasks_) {
      aligned_ = 0;
      aligned_event_.notify(sc_core::sc_time(0.5, sc_core::SC_NS));
    }
  }
  const bool finished_all = a.finished == total_tasks_;
  const auto t1 = std::chrono::steady_clock::now();
  close_trace();

  Result res;
  res.wall_seconds = std::chrono::duration<double>(t1 - t0).count();
  res.cycles = a.stop_at != kNoStop ? a.stop_at : finished_all ? a.last_finish : cycle();
  std::vector<unsigned> waiting;  // this partition's processors whose task has not returned
  for (unsigned i = 0; i < processors_.size(); ++i) {
    if (!processors_[i]->finished()) waiting.push_back(i), res.unfinished.push_back(task_ids_[i]);
    if (processors_[i]->failure()) res.failures.emplace_back(task_ids_[i], processors_[i]->failure());
    // Work a task posted that failed its coprocessor (one task per node: the same index).
    if (i < coprocessors_.size() && coprocessors_[i]->coprocessor().failure())
      res.failures.emplace_back(task_ids_[i], coprocessors_[i]->coprocessor().failure());
  }
  res.finished = finished_all;
  share_outcome(res);
  unwind(waiting);
  return res;
}

uint64_t Machine::quiet_cycles(uint64_t now, uint64_t limit) const {
  if (transport() || !config_.trace_path.empty() || config_.idle_skip != IdleSkip::On) return 0;
  const uint64_t quantum = config_.shortest_latency();
  if (limit <= now + quantum) return 0;
  for (const Node* node : local_nodes_)
    if (!node->quiet()) return 0;
  // A process that wakes at time t acts at the first edge at or after t at the earliest.
  const sc_core::sc_time wait = sc_core::sc_time_to_pending_activity();
  if (wait < sc_core::sc_max_time() - sc_core::sc_time_stamp()) {
    const double wake_ns = (sc_core::sc_time_stamp() + wait).to_seconds() * 1e9;
    limit = std::min(limit, static_cast<uint64_t>(std::ceil(wake_ns - 1e-6)));
  }
  return limit > now ? (limit - now) / quantum * quantum : 0;
}

Machine::Agreement Machine::agree(const Agreement& a) {
  if (!transport()) return a;
  std::vector<uint64_t> sums{a.aligned, a.finished, a.done};
  transport_->allreduce(sums, Transport::Op::Sum);
  std::vector<uint64_t> most{~a.stop_at, a.last_finish};  // the earliest stop: ~max(~x) = min(x)
  transport_->allreduce(most, Transport::Op::Max);
  return {sums[0], sums[1], sums[2], ~most[0], most[1]};
}

namespace {

std::string what(const std::exception_ptr& e) {
  try {
    std::rethrow_exception(e);
  } catch (const std::exception& x) {
    return x.what();
  } catch (...) {
    return "an exception that is not a std::exception";
  }
}

}  // namespace

void Machine::share_outcome(Result& res) {
  if (!transport()) return;
  Message mine;
  mine.put(res.unfinished);
  mine.put(res.failures.size());
  for (const auto& [id, e] : res.failures) mine.put(id), mine.put(what(e));
  std::vector<unsigned> flagged;
  for (const Node* node : local_nodes_)
    if (node->error_flag()) flagged.push_back(node->rank());
  mine.put(flagged);
  const std::vector<Transport::Bytes> all = transport_->allgather(mine.bytes());
  remote_error_.assign(nodes_.size(), false);
  for (unsigned p = 0; p < all.size(); ++p) {
    if (p == self_) continue;
    Message theirs{all[p]};
    for (unsigned id : theirs.values<unsigned>()) res.unfinished.push_back(id);
    for (uint64_t k = theirs.get(); k > 0; --k) {
      const auto id = static_cast<unsigned>(theirs.get());
      res.failures.emplace_back(id, std::make_exception_ptr(std::runtime_error(theirs.text())));
    }
    for (unsigned r : theirs.values<unsigned>()) remote_error_.at(r) = true;
  }
  // In task order, as one process lists them.
  std::sort(res.unfinished.begin(), res.unfinished.end());
  std::stable_sort(res.failures.begin(), res.failures.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
}

bool Machine::node_error(unsigned rank) const {
  if (nodes_.at(rank)) return nodes_[rank]->error_flag();
  return rank < remote_error_.size() && remote_error_[rank];
}

void Machine::unwind(const std::vector<unsigned>& unfinished) {
  // A task that has not returned sits in a wait with its stack: cancel it and resume it
  // once, without a clock edge (the hardware does not move), so it unwinds and frees what
  // it holds instead of being dropped with its coroutine. Then the kernel stops for good.
  // Coprocessors never return: they unwind the same way.
  if (!unfinished.empty() || !coprocessors_.empty()) {
    unwinding_ = true;
    for (unsigned id : unfinished) processors_[id]->cancel();
    for (auto& pair : coprocessors_) pair->coprocessor().cancel();
    for (Node* node : local_nodes_) node->wake_processors();
    aligned_event_.notify();
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
  }
  sc_core::sc_stop();
}

void Machine::finish() { close_trace(); }

void Machine::close_trace() {
  if (config_.trace_path.empty()) return;
  const WaveView v = wave_view({});  // every partition's say
  if (trace_) trace_->close(v);
}

WaveView Machine::wave_view(WaveView v) const {
  if (!v.networks.empty()) return v;
  // The networks the run used (every partition's), the tree first; the tree when it used none.
  bool tree = false, torus = false;
  for (unsigned r = 0; r < nodes_.size(); ++r) {
    for (unsigned l = 0; l < 3; ++l) tree = tree || link_flits(r, l) > 0;
    for (unsigned d = 0; d < 6; ++d) torus = torus || torus_link_flits(r, d) > 0;
  }
  if (transport()) {
    std::vector<uint64_t> used{tree, torus};
    transport_->allreduce(used, Transport::Op::Max);
    tree = used[0] != 0, torus = used[1] != 0;
  }
  if (tree || !torus) v.networks.push_back(WaveNetwork::Tree);
  if (torus) v.networks.push_back(WaveNetwork::Torus);
  return v;
}

void Machine::write_wave_view(const WaveView& view) {
  if (config_.trace_path.empty()) throw std::logic_error("Machine::write_wave_view: the machine writes no trace");
  const WaveView v = wave_view(view);  // every partition's say
  if (trace_) trace_->write_view(v);
}

uint64_t Machine::torus_link_flits(unsigned rank, unsigned dir) const {
  const auto& w = torus_out_.at(rank).at(dir);
  return w ? w->flits() : 0;
}

uint64_t Machine::link_flits(unsigned rank, unsigned link) const {
  const LinkWire* w = out_wires_.at(rank).at(link);
  return w ? w->flits() : 0;
}

Machine::NodeTraffic Machine::node_traffic(unsigned rank) const {
  NodeTraffic t;
  // (A partitioned machine counts a wire where its sender is: summed over the partitions,
  // these are the whole machine's.)
  const fw::TreeLayout tree(static_cast<unsigned>(nodes_.size()));
  for (unsigned l = 0; l < 3; ++l) {
    const bool up = l == fw::TreeLayout::kUpLink;
    if (up ? rank == 0 : !tree.has_child(rank, l)) continue;
    if (const LinkWire* w = out_wires_.at(rank)[l]) {
      t.tree_out += w->flits();
      t.barrier_out += out_barrier_wires_[rank][l]->raised();
    }
    // The far end's link back: the parent's link to this node, or a child's up link.
    const unsigned far = up ? fw::TreeLayout::parent(rank) : fw::TreeLayout::child(rank, l);
    const unsigned back = up ? fw::TreeLayout::link_to(rank) : fw::TreeLayout::kUpLink;
    if (const LinkWire* w = out_wires_.at(far)[back]) {
      t.tree_in += w->flits();
      t.barrier_in += out_barrier_wires_[far][back]->raised();
    }
  }
  const fw::TorusLayout torus(config_.shape.dims());
  for (unsigned d = 0; d < 6; ++d) {
    t.torus_out += torus_link_flits(rank, d);
    if (torus.has_link(d)) t.torus_in += torus_link_flits(torus.neighbour(rank, d), fw::TorusLayout::opposite(d));
  }
  return t;
}

std::vector<Machine::LinkEnd> Machine::link_counters() {
  std::vector<LinkEnd> ends;
  for (unsigned r = 0; r < nodes_.size(); ++r) {
    if (!nodes_[r]) continue;  // another partition's
    for (unsigned l = 0; l < 3; ++l)
      if (out_wires_[r][l]) ends.push_back({r, false, l, nodes_[r]->link_counters(false, l)});
    for (unsigned d = 0; d < 6; ++d)
      if (torus_out_[r][d]) ends.push_back({r, true, d, nodes_[r]->link_counters(true, d), nodes_[r]->torus_perf(d)});
  }
  return ends;
}

std::vector<std::pair<unsigned, unsigned>> Machine::torus_links_declared_down() {
  std::vector<std::pair<unsigned, unsigned>> ends;
  for (unsigned r = 0; r < nodes_.size(); ++r) {
    if (!nodes_[r] || !nodes_[r]->error_flag()) continue;
    for (unsigned d = 0; d < 6; ++d)
      if (torus_out_[r][d] && nodes_[r]->link_counters(true, d).down) ends.emplace_back(r, d);
  }
  if (!transport()) return ends;
  std::vector<uint32_t> flat;  // node, direction, node, direction, ...
  for (const auto& [r, d] : ends) flat.insert(flat.end(), {r, d});
  Message mine;
  mine.put(flat);
  ends.clear();
  for (const Transport::Bytes& part : transport_->allgather(mine.bytes())) {
    const std::vector<uint32_t> theirs = Message(part).values<uint32_t>();
    for (size_t i = 0; i + 1 < theirs.size(); i += 2) ends.emplace_back(theirs[i], theirs[i + 1]);
  }
  std::sort(ends.begin(), ends.end());  // by node and direction, as one process lists them
  return ends;
}

uint64_t Machine::bits_flipped() const {
  uint64_t n = 0;
  for (const auto& w : wires_) n += w->bits_flipped();
  for (const auto& ws : torus_out_)
    for (const auto& w : ws)
      if (w) n += w->bits_flipped();
  return n;
}

namespace {
// A wire's own generator seed: splitmix64 of the run's fault seed and the wire's index.
uint64_t wire_seed(uint64_t seed, uint64_t index) {
  uint64_t z = seed + (index + 1) * 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
}  // namespace

void Machine::apply_link_faults(const fw::TorusLayout& torus) {
  static_assert(LinkWire::kNever == ~uint64_t{0}, "MachineConfig::cut_cycle's never");
  const auto cut_at = [this](bool is_torus, unsigned rank, unsigned link) {
    return config_.cut_cycle(is_torus, rank, link);
  };
  const std::vector<TreeEdge> edges = wiring_.edges();
  for (const MachineConfig::LinkCut& c : config_.link_cuts)
    if (!c.torus && std::none_of(edges.begin(), edges.end(), [&](const TreeEdge& e) {
          return (e.parent == c.rank && e.parent_link == c.link) || (e.child == c.rank && e.child_link == c.link);
        }))
      throw std::invalid_argument("link cut: tree link " + std::to_string(c.link) + " of node " +
                                  std::to_string(c.rank) + " is not connected");
  if (config_.link_ber <= 0 && !config_.any_cut() && config_.down_nodes.empty()) return;
  // Each wire's seed is its index among every wire of the machine; a partition sets the
  // faults of the wires it sends on (others' are another partition's, or replicas).
  uint64_t index = 0;
  for (const TreeEdge& e : edges) {
    // Both directions of a cut link stop, whichever end the cut names.
    const uint64_t at = std::min(cut_at(false, e.parent, e.parent_link), cut_at(false, e.child, e.child_link));
    for (LinkWire* w : {out_wires_[e.parent][e.parent_link], out_wires_[e.child][e.child_link]}) {
      const uint64_t seed = wire_seed(config_.fault_seed, index++);
      if (w) w->set_faults(config_.link_ber, seed, at);
    }
    // The barrier wires beside it take no bit errors, but a cut link's go quiet too.
    for (BarrierWire* w : {out_barrier_wires_[e.parent][e.parent_link], out_barrier_wires_[e.child][e.child_link]})
      if (w) w->set_faults(0, 1, at);
  }
  for (unsigned r = 0; r < torus_out_.size(); ++r)
    for (unsigned d = 0; d < 6; ++d)
      if (torus.has_link(d)) {
        const uint64_t at =
            std::min(cut_at(true, r, d), cut_at(true, torus.neighbour(r, d), fw::TorusLayout::opposite(d)));
        const uint64_t seed = wire_seed(config_.fault_seed, 1'000'000'000ull + index++);
        if (local(r)) torus_out_[r][d]->set_faults(config_.link_ber, seed, at);
      }
}

}  // namespace collnet::sim
