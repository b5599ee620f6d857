// SPDX-License-Identifier: Apache-2.0
// The point-to-point engine of one node: MPI's message matching and its eager and
// rendezvous protocols over the node's torus FIFOs (p2p_envelope.hpp). It lives in the
// node's memory (NodeTasks) and serves all the node's tasks: whichever task calls
// progress() while no other task of the node holds the FIFOs injects what any of them has
// queued and files whatever has arrived, as a network interface would.
//
// Matching (MPI's rules): a message matches the oldest posted receive of its destination
// task whose communicator, source (or kAnySource) and tag (or kAnyTag) fit; a new receive
// takes the oldest unexpected message that fits. Messages from one task to one node
// travel in order (deterministic routing, one injection FIFO), so two messages that match
// the same receive are matched in the order they were sent.
//
// Protocols: a message of at most `eager_limit` bytes goes at once (eager), if the
// sender's node still holds that much credit at the destination node; otherwise it
// announces itself with a request to send, waits for the receiver's clear to send, and
// streams its data adaptively (several minimal paths), the receiver placing each packet by
// its index. Eager data that arrives before its receive waits in the receiving node's
// memory; each sending node may hold at most its credit there (unexpected_limit divided
// among the nodes), and the receiver gives credit back when the data leaves that memory.
// So unexpected eager data never exceeds unexpected_limit; beyond it senders wait for
// their receives (rendezvous), holding their data themselves. An unexpected request to
// send costs an envelope record (kRecordBytes) for as long as it waits.
//
// Between tasks of one node a message is copied through memory: at once into a posted
// receive, into the node's unexpected memory if the node's own share has room (of any
// length: it costs no network), or else straight from the sender's buffer when the
// receive comes.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "firmware/memory_regions.hpp"
#include "firmware/regmap.hpp"
#include "firmware/task_context.hpp"
#include "firmware/torus_layout.hpp"
#include "driver/p2p_envelope.hpp"
#include "driver/p2p_request.hpp"

namespace collnet::driver {

struct P2pConfig {
  size_t eager_limit = 4096;              // bytes: longer messages use the rendezvous protocol
  size_t unexpected_limit = 1024 * 1024;  // bytes of unexpected eager data a node may hold
};

class P2pEngine {
 public:
  static constexpr unsigned kOrderedFifo = 0;   // eager and request-to-send packets
  static constexpr unsigned kDataFifo = 1;      // rendezvous data
  static constexpr unsigned kControlFifo = 2;   // clear to send, credits (high priority)
  static constexpr size_t kRecordBytes = 32;    // an unexpected message's envelope record

  // Counters, for tests and reports.
  struct Stats {
    uint64_t eager = 0, rendezvous = 0, local = 0;  // messages sent, by protocol
    uint64_t dma_gets = 0;  // rendezvous messages this node received by a remote get (the DMA engine)
    uint64_t unexpected = 0;                         // messages that arrived before their receive
    size_t unexpected_bytes = 0, unexpected_peak = 0;  // eager data held for receives not yet posted
    size_t records = 0, records_peak = 0;              // unexpected messages waiting
    uint64_t forwarded_out = 0;  // packets sent through an intermediate node (around what is down)
    uint64_t relayed = 0;        // packets this node sent on as the intermediate node
    uint64_t cancelled_sends = 0;  // sends of this node's tasks withdrawn (MPI_Cancel)
  };

  P2pEngine() = default;
  P2pEngine(const P2pEngine&) = delete;
  P2pEngine& operator=(const P2pEngine&) = delete;

  // Called by every task before its first point-to-point call; the first one sets the
  // engine up for its node (throws collnet::Error on a configuration that cannot work).
  void attach(fw::TaskContext& task, const P2pConfig& config);

  // Starts a send of `bytes` at `buf` to world rank `dest` (another task of this node, or
  // a task of another node) on the communicator with context id `context`. `buf` must stay
  // unchanged until the request completes. `eager_limit` overrides the configured one
  // for this message (a caller that knows rendezvous serves it better). A `synchronous`
  // send (MPI_Ssend) completes only once its receive has matched it: it goes by
  // rendezvous whatever its length, and to a task of this node it is never buffered.
  Request isend(fw::TaskContext& task, unsigned context, const void* buf, size_t bytes, unsigned dest_world,
                unsigned tag, std::optional<size_t> eager_limit = std::nullopt, bool synchronous = false);
  // Starts a receive of at most `capacity` bytes into `buf` from world rank `source_world`
  // (or kAnySource) with `tag` (or kAnyTag), on the communicator with context id `context`.
  Request irecv(fw::TaskContext& task, unsigned context, void* buf, size_t capacity, unsigned source_world, unsigned tag);
  // The oldest unexpected message a receive with these arguments would match (MPI_Iprobe);
  // nothing if there is none yet.
  struct Found {
    unsigned source_world = 0, tag = 0;
    size_t bytes = 0;
  };
  std::optional<Found> probe(fw::TaskContext& task, unsigned context, unsigned source_world, unsigned tag);
  // Withdraws `r` if no receive has matched it (MPI_Cancel): it completes as cancelled.
  // A receive not yet matched, and a send still queued here or held by a task of this node,
  // go at once (true). A send on its way to or held at another node is asked back: a
  // kSwTagCancel packet follows its packets on their path, the receiving node withdraws it
  // if no receive has taken it, and the send completes when the answer is back, as
  // cancelled or as sent (false; as for a receive already matched, and a send withdrawn
  // already).
  bool cancel(fw::TaskContext& task, const Request& r);

  // Line broadcasts, for the collectives' torus-deposit bcast: chunk `index` (at most
  // p2p::kDataWords words) of broadcast `id` (the caller's) in a deposit packet
  // along dimension `dim`, `hops` nodes the + way (> 0) or the - way (< 0), left at every
  // node it passes and the last (n - 1 the + way: every other node of the line).
  // Throws collnet::Error with nodes or links down (a line cannot go around them).
  void deposit(fw::TaskContext& task, uint32_t id, uint32_t index, unsigned dim, int hops, const uint64_t* words,
               size_t n);
  // The chunks of broadcast `id` this node holds, by index: arrived, or put there by a task
  // of this node. Held until line_done has been called `tasks` times.
  std::map<uint32_t, std::vector<uint64_t>>& line_chunks(uint32_t id) { return lines_[id].chunks; }
  void line_done(uint32_t id, unsigned tasks);
  // Deposit packets queued and not yet injected (a broadcast's sends are done when none is).
  bool line_sends_pending() const { return !deposit_out_.empty(); }

  // Class routes (class_routes.hpp): tells `node`, which a freed route passed without a
  // member there, that class `cls` is free on it (a control packet); and, on that node, the
  // classes such packets have freed since the last call.
  void release_route(unsigned node, unsigned cls);
  std::vector<unsigned> take_released_routes();
  // Control packets (clear to send, credit, route releases) not yet injected.
  bool control_pending() const { return !control_.empty(); }

  // Moves packets: files what the node has received and injects what fits. Costs at least
  // one register access unless another task of the node holds the FIFOs. Returns whether
  // it did anything beyond looking.
  bool progress(fw::TaskContext& task);
  // Whether a wait inside a collective should call progress(): the engine has packets to
  // inject, or the node's reception FIFOs hold packets (cpu.torus_pending(), a wire the
  // processor sees for free, as an interrupt line), or the task has fibers to resume (or
  // is one, which then gives the processor back).
  bool wants_progress(fw::TaskContext& task) const;
  // Interrupts, for a task that computes while it has fibers on a node with the DMA engine
  // (mpi::Rank::compute): the processor computes until one is raised, then serves it.
  // enable_interrupts() points the engine's event line at the counters of the messages
  // under way (a register write when they changed since the last, none otherwise);
  // interrupt_pending() is what raises one: the reception FIFOs' and the engine's lines,
  // packets waiting to be injected and room for them, the handler woken.
  // serve_interrupt() is progress(), returning whether it or the task's fibers moved
  // anything (then there may be more to do at once; if not, the processor computes until
  // the lines next change). A rendezvous message started in an interrupt goes by the
  // engine to any node (dma_send).
  void enable_interrupts(fw::TaskContext& task);
  bool interrupt_pending(fw::TaskContext& task) const;
  bool serve_interrupt(fw::TaskContext& task);

  // A task's handler, for a layer above that serves requests arriving on some of its
  // communicators (one-sided MPI, mpi/window.cpp): it runs at the end of every progress()
  // that task calls (never inside itself), and a message for the task on a `watched`
  // context that arrives before its receive makes wants_progress() true for that task, so
  // a task waiting in any call serves it. Null `fn` removes it.
  void set_handler(unsigned task, std::function<void()> fn);
  void watch(unsigned task, unsigned context, bool on);
  // A poller of a task's: a step of work started and not waited for (a started barrier,
  // started_barrier.hpp) that runs at the end of every progress() that task calls, so it
  // advances while the task waits in any call. It returns false once it has nothing more
  // to do, and is dropped. A step that finds nothing to do costs nothing (its requests'
  // done flags, as the handler's wake-up).
  void add_poller(unsigned task, std::function<bool()> fn);
  // A fiber of a task's processor (fw::Fiber: a communicator's started collectives,
  // Communicator::post_background) that the task resumes at the end of every progress() it
  // calls itself, until the fiber ends. The fiber gives the processor back at the end of
  // its own outermost progress(), so it runs one step of its waits each time; while a task
  // has fibers, its waits inside collectives call progress() (wants_progress).
  void add_fiber(unsigned task, std::shared_ptr<fw::Fiber> fiber);
  bool has_fibers(unsigned task);

  const Stats& stats() const { return stats_; }
  const P2pConfig& config() const { return config_; }

 private:
  struct SendOp {
    std::shared_ptr<RequestState> req;
    unsigned dst_node = 0;
    p2p::Envelope env;       // the envelope of its first packet
    bool eager = false;
    uint32_t id = 0;         // rendezvous: the id its clear to send names
    uint32_t recv_id = 0;    // rendezvous: the receiver's id, from the clear to send
    uint64_t next = 0;       // the next packet to inject
    uint64_t packets = 0;
    // rendezvous by the DMA engine (p2p_dma.cpp): the counter (plus one; 0: none) that
    // counts down the words the node's engine sends for the receiver's remote get
    unsigned dma_counter = 0;
    bool cancel = false;     // not a message: the kSwTagCancel packet asking `req` back
  };
  struct Posted {
    std::shared_ptr<RequestState> req;
    unsigned dst_task = 0;
    unsigned source_world = kAnySource;
    unsigned tag = kAnyTag;
  };
  enum class Kind { Eager, Rts, Local };
  struct Unexpected {
    Kind kind = Kind::Eager;
    unsigned context = 0, source_world = 0, tag = 0, dst_task = 0;
    size_t bytes = 0;
    std::vector<uint8_t> data;   // eager: the message as it arrives
    size_t filled = 0;           // eager: bytes arrived
    size_t charge = 0;           // eager: credit it holds (given back when it leaves)
    unsigned src_node = 0;       // eager, rts: the sender's node
    uint32_t send_id = 0;        // rts
    uint64_t dma_addr = 0;       // rts: the sender's buffer, for a remote get (dma_counter > 0)
    unsigned dma_counter = 0;    // rts: the sender's counter plus one (0: no remote get)
    std::shared_ptr<RequestState> send;      // local: the sender's request
    std::shared_ptr<RequestState> matched;   // eager, still arriving: the receive it went to
    uint64_t seq = 0;                        // eager: its number among its source task's to this task
    std::weak_ptr<RequestState> origin;      // from a task of this node: its send (MPI_Cancel finds it)
  };
  using UnexpectedIt = std::list<Unexpected>::iterator;
  // An eager message arriving from one source: into a receive's buffer, or unexpected.
  struct Stream {
    std::shared_ptr<RequestState> req;    // matched at arrival
    UnexpectedIt ux;                      // else: queued
    bool queued = false;
    size_t bytes = 0, filled = 0;
    uint64_t next_index = 1;
  };
  struct RndvRecv {
    std::shared_ptr<RequestState> req;
    uint64_t packets = 0, got = 0;
  };
  struct Control {
    unsigned dst_node = 0;
    unsigned sw_tag = 0;
    uint64_t word = 0;
  };

  struct Line {  // a line broadcast's chunks at this node
    std::map<uint32_t, std::vector<uint64_t>> chunks;
    unsigned done = 0;  // tasks finished with it
  };
  struct DepositOut {  // a deposit packet to inject
    unsigned dim = 0;
    int hops = 1;  // nodes along dim, the + way (> 0) or the - way (< 0)
    std::vector<uint64_t> payload;
  };
  struct Relay {  // a forwarded packet this node sends on
    unsigned dst_node = 0;
    unsigned chunks = 1;
    std::vector<uint64_t> payload;
  };

  // A header to `dst_node`: deterministic, or adaptive for rendezvous data; with nodes or
  // links down, the hints of the route around them (a pair that needs an intermediate node
  // is emit's to handle).
  fw::TorusHeader header_to(unsigned dst_node, bool adaptive) const;
  // The node a packet to `dst_node` must be forwarded through, or -1 (direct).
  int via_to(unsigned dst_node) const;
  // Whether `dst_node` differs from this node in two or more coordinates, so that several
  // minimal paths lead there (rendezvous data then takes the priority VC's path too).
  bool several_paths(unsigned dst_node) const;
  // Injects packet `h` (software tag and chunks set) with `payload` for `dst_node` through
  // `fifo` if `room` holds it, and takes its flits from `room`; returns false, injecting
  // nothing, if it does not fit. For a pair that needs an intermediate node the packet goes
  // there wrapped (kSwTagForward: deterministic, through the ordered FIFO, so the pair's
  // packets keep their order over both legs).
  using Room = std::array<unsigned, fw::regmap::kTrInjFifos>;  // free flits per injection FIFO
  bool emit(fw::TaskContext& task, unsigned dst_node, const fw::TorusHeader& h, const std::vector<uint64_t>& payload,
            unsigned fifo, Room& room);
  // A kSwTagForward packet: sent on (relay_), or, here at its destination, unwrapped and filed.
  void on_forward(fw::TaskContext& task, const fw::TorusPacket& p);
  bool try_lock(fw::TaskContext& task);
  void unlock(fw::TaskContext& task);
  bool move_packets(fw::TaskContext& task);  // progress() without the handler
  // With the FIFOs held.
  void drain(fw::TaskContext& task, unsigned fifo);
  void file(fw::TaskContext& task, const fw::TorusPacket& p);
  // Injects what fits of every queue: deposits, relays, control, ordered, streaming.
  bool inject(fw::TaskContext& task, const fw::TorusStatus& st);
  bool inject_deposits(fw::TaskContext& task, Room& room);
  bool inject_relays(fw::TaskContext& task, Room& room);
  bool inject_control(fw::TaskContext& task, Room& room);
  bool inject_ordered(fw::TaskContext& task, Room& room);
  bool inject_streaming(fw::TaskContext& task, Room& room);
  // The payload of `op`'s packet `op.next`, `first_word` ahead of its data; sets h.chunks.
  std::vector<uint64_t> data_packet(const SendOp& op, fw::TorusHeader& h, uint64_t first_word);

  bool matches(const Posted& p, unsigned context, unsigned source_world, unsigned tag, unsigned dst_task) const;
  // The oldest posted receive a message fits, removed from the list; or nothing.
  std::shared_ptr<RequestState> take_posted(unsigned context, unsigned source_world, unsigned tag, unsigned dst_task);
  // The message is matched to `req`: its status is set, and a message longer than the
  // receive's capacity fails it (MPI_ERR_TRUNCATE) once the message is all there.
  static void set_status(RequestState& req, unsigned source_world, unsigned tag, size_t bytes);
  static void finish(RequestState& req);
  void give_credit(unsigned src_node, size_t bytes);
  // The record of a message that arrived before its receive, from its first packet.
  Unexpected arrived(Kind kind, const p2p::Envelope& env, unsigned src_node) const;
  // The packets of an eager message; they return the bytes copied out of unexpected
  // memory (a receive that came while the message arrived), for the caller to charge.
  size_t on_first(unsigned src_node, const p2p::Envelope& env, const uint64_t* words, size_t available);
  size_t on_next(unsigned src_node, const p2p::Envelope& env, const uint64_t* words, size_t available);
  void on_rts(fw::TaskContext& task, unsigned src_node, const p2p::Envelope& env, uint32_t send_id, uint64_t dma_addr,
              unsigned dma_counter);
  void on_cts(unsigned src_node, uint32_t send_id, uint32_t recv_id);
  // A send withdrawn: kSwTagCancel (at its receiving node) and the answer (at its own).
  bool cancel_send(fw::TaskContext& task, const Request& r);
  // With the FIFOs held: withdraws a send still queued here or held for a task of this
  // node; whether it did.
  bool withdraw_here(const std::shared_ptr<RequestState>& req);
  void on_cancel(unsigned src_node, const p2p::Envelope& env);
  void on_cancel_ack(unsigned src_node, p2p::Envelope env);
  // A send withdrawn: completes as cancelled, counted.
  void withdrawn(RequestState& req);
  // Removes an unexpected message's record, giving back the eager credit it held.
  void drop_unexpected(UnexpectedIt it);
  // The key of a (node, source task, destination task) pair's eager message count.
  static uint64_t pair_key(unsigned node, unsigned src_task, unsigned dst_task) {
    return (uint64_t{node} << 2 * p2p::kTaskBits) | (src_task << p2p::kTaskBits) | dst_task;
  }
  void on_data(unsigned src_node, uint32_t recv_id, uint64_t index, const uint64_t* words, size_t available);
  size_t stream_data(std::map<unsigned, Stream>::iterator it, const uint64_t* words, size_t available);
  // The receive `req` takes the request to send from `src_node`: clear to send.
  void accept_rts(fw::TaskContext& task, const std::shared_ptr<RequestState>& req, unsigned src_node,
                  uint32_t send_id, size_t bytes, uint64_t dma_addr, unsigned dma_counter);
  // The receive takes an unexpected message (removed from the queue), or, for eager data
  // still arriving, the rest of it. Returns the bytes copied (the caller charges them,
  // after the engine's state is consistent again).
  size_t take_unexpected(fw::TaskContext& task, UnexpectedIt it, const std::shared_ptr<RequestState>& req);

  // Rendezvous by the torus DMA engine (p2p_dma.cpp), on nodes that have it: the request
  // to send names the sender's buffer and a counter of its node; the receiver sets a
  // counter of its own to its buffer and queues a remote get, whose descriptor makes the
  // sender's engine put the message straight into the receive buffer. Each side completes
  // when its counter reaches zero; no processor moves a word.
  static constexpr unsigned kDmaScratchCounter = fw::regmap::kDmCounters - 1;  // a remote get's own words
  struct DmaSend {
    unsigned counter = 0;
    std::unique_ptr<fw::RegisteredRegion> region;
  };
  struct DmaRecv {
    std::shared_ptr<RequestState> req;
    unsigned counter = 0;
    std::unique_ptr<std::array<uint64_t, fw::regmap::kDmDescWords>> desc;  // the put the sender's engine runs
    std::unique_ptr<fw::RegisteredRegion> data, desc_region;
  };
  // Sets the node's counters aside for point-to-point once (those alltoall's engine path
  // does not use); whether the engine can carry this node's rendezvous messages at all.
  bool dma_ready(fw::TaskContext& task);
  // Starts `op` (a rendezvous send of `buf`) by the engine if it can: its counter, its
  // region registered; false leaves it to the processors.
  bool dma_send(fw::TaskContext& task, SendOp& op, const void* buf);
  // Takes a request to send that offers a remote get: true once the get is queued.
  bool dma_accept(fw::TaskContext& task, const std::shared_ptr<RequestState>& req, unsigned src_node,
                  uint64_t addr, unsigned counter, size_t bytes);
  // Completes the sends and receives whose counters reached zero (a register read each).
  bool dma_poll(fw::TaskContext& task);
  // The receiver answered with a clear to send instead: the processors stream it.
  void dma_drop_send(uint32_t id);
  std::map<uint32_t, DmaSend> dma_sends_;  // by send id
  std::list<DmaRecv> dma_recvs_;
  std::vector<unsigned> dma_free_;         // counters free for point-to-point
  int dma_state_ = -1;                     // -1 not yet looked at, 0 no engine path, 1 ready
  int dma_fifos_ = -1;                     // the engine's FIFOs each way, once dma_ready read them
  bool* dma_queue_held_ = nullptr;         // NodeTasks::dma_queue_held (dma_queue.hpp)

 public:
  // The node's flag that serialises its tasks' descriptor writes (NodeTasks sets it).
  void share_dma_queue(bool* held) { dma_queue_held_ = held; }

 private:
  void note_records();

  bool attached_ = false;
  P2pConfig config_;
  fw::TorusLayout layout_{std::array<unsigned, 3>{1, 1, 1}};
  unsigned nodes_ = 1, tasks_ = 1, node_ = 0;
  size_t credit_per_node_ = 0;
  std::shared_ptr<const std::vector<std::vector<fw::TorusRoute>>> routes_;  // null: nothing down
  bool busy_ = false;  // a task of the node holds the torus FIFOs

  std::list<Posted> posted_;
  std::list<Unexpected> unexpected_;
  struct Handler {
    std::function<void()> fn;
    std::set<unsigned> contexts;  // watched
    bool woken = false;            // a message arrived on one since it last ran
    bool running = false;
  };
  std::vector<Handler> handlers_;  // by task of the node
  struct Pollers {
    std::vector<std::function<bool()>> fns;
    bool running = false;
  };
  std::vector<Pollers> pollers_;  // by task of the node
  void run_pollers(fw::TaskContext& task);
  std::vector<std::vector<std::shared_ptr<fw::Fiber>>> fibers_;  // by task of the node, not ended
  // A task's interrupts (serve_interrupt). By task of the node, sized once at attach():
  // serve_interrupt holds a task's across the waits of its progress(), while other tasks
  // run.
  struct Interrupts {
    bool serving = false;      // it serves one now (dma_send)
    bool fiber_moved = false;  // its fiber's last step moved packets
  };
  std::vector<Interrupts> interrupts_;
  uint64_t dma_events_ = 0;  // what RegDmEventEn was last set to (enable_interrupts)
  // Packets wait to be injected; task's handler is woken and not running (wants_progress,
  // interrupt_pending).
  bool packets_queued() const;
  bool handler_woken(unsigned task) const;
  void run_fibers(fw::TaskContext& task);
  // Wakes the handler of `u`'s task if it watches `u`'s context (an unexpected message filed).
  void wake(const Unexpected& u);
  void run_handler(fw::TaskContext& task);
  std::map<unsigned, Stream> streams_;         // by the sender's world rank
  std::map<uint32_t, RndvRecv> rndv_recv_;     // by receive id
  std::deque<std::shared_ptr<SendOp>> ordered_;  // eager messages and requests to send, in order
  std::map<uint32_t, std::shared_ptr<SendOp>> awaiting_cts_;
  // Eager messages counted per pair (pair_key): sent to each node, and arrived from each.
  std::map<uint64_t, uint64_t> eager_sent_, eager_arrived_;
  // Sends asked back and not yet answered, by destination node and kSwTagCancel envelope.
  std::map<std::pair<unsigned, uint64_t>, std::shared_ptr<RequestState>> cancelling_;
  std::deque<std::shared_ptr<SendOp>> streaming_;  // rendezvous data to inject
  std::deque<Control> control_;
  std::deque<Relay> relay_;                          // forwarded packets to send on
  std::deque<DepositOut> deposit_out_;               // line broadcast chunks to send
  std::map<uint32_t, Line> lines_;                   // line broadcasts at this node, by id
  std::map<unsigned, std::vector<uint64_t>> halves_;  // by origin node: a two-part packet's first part
  std::vector<unsigned> released_routes_;             // classes freed here by other nodes
  // Per destination node, the eager bytes this node may still send there (a node not in
  // the map has its whole share, credit_per_node_), and per source node the credit to give
  // back. Maps, not a vector per node: a node talks to few others, and a vector of every
  // node on every node is nodes squared (64 GiB on 65,536 nodes).
  std::map<unsigned, size_t> credit_;
  std::map<unsigned, size_t> owed_;
  std::set<unsigned> owed_ready_;  // the nodes of owed_ owed at least credit_batch()
  // Credit goes back once it is worth a packet: a quarter of a node's share.
  size_t credit_batch() const { return std::max<size_t>(1, credit_per_node_ / 4); }
  size_t& credit(unsigned node) { return credit_.try_emplace(node, credit_per_node_).first->second; }
  size_t local_used_ = 0;       // unexpected eager data between tasks of this node
  uint32_t next_id_ = 1;
  Stats stats_;
};

}  // namespace collnet::driver
