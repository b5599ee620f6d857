// SPDX-License-Identifier: Apache-2.0
// A group of ranks that run collectives together: the world communicator (every task of
// every node, class route 0, context id 0) or any communicator split, duplicated or
// created from another. A rank is a task: with T tasks per node, node n runs world ranks
// n*T .. n*T+T-1. With nodes down from boot (fw::DownNodes) the world holds the tasks of
// the live nodes only, in node order; its class route is the machine tree's if that still
// joins them, and none otherwise. A communicator rides the combining network when it holds a class route
// (class_routes.hpp); one that could not get one (none free on every node its route
// passes, or the route leaves its parent's nodes) runs every collective on the torus.
// Communicators are told apart by a context id (context_ids.hpp).
//
// Buffers hold raw elements: each uint64_t carries one element's bit pattern in its low
// bits (datatype.hpp converts). For maxloc/minloc an element is a (value, index) pair held
// in two uint64_t: [2i] the value, [2i+1] the index; ties go to the smaller index.
// Every rank of the communicator calls each collective with the same count, type, op and
// root. Misuse raises collnet::Error naming the call and the argument.
//
// Point-to-point send and recv go over the torus instead (point_to_point.cpp).
//
// The Communicator is a façade: it checks a call's arguments, makes the ranks agree on
// them, resolves the algorithm once (choose) and runs the one the table names
// (collective_table.hpp) on a CollectiveContext; the algorithms live in tree_collectives,
// torus_collectives, neighbourhood_collectives, personalised and vector_collectives.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "driver/algorithm.hpp"
#include "driver/background_queue.hpp"
#include "driver/class_routes.hpp"
#include "driver/collective_call.hpp"
#include "driver/collective_state.hpp"
#include "driver/datatype.hpp"
#include "driver/error.hpp"
#include "driver/membership.hpp"
#include "driver/node_tasks.hpp"
#include "driver/op.hpp"
#include "driver/p2p_envelope.hpp"
#include "driver/pending_collective.hpp"
#include "firmware/processor.hpp"
#include "firmware/task_context.hpp"

namespace collnet::driver {

class CollectiveContext;

class Communicator {
 public:
  static constexpr unsigned kWorldClass = driver::kWorldClass;
  static constexpr unsigned kWorldChannel = driver::kWorldChannel;    // barrier-network channels kWorldChannel,
  static constexpr unsigned kWorldChannels = driver::kWorldChannels;  // kWorldChannel + 1 (alternately)
  static constexpr int kUndefined = -1;  // split's colour for a rank that joins none (MPI_UNDEFINED)

  // The world communicator of `task`'s machine; its class route must already be programmed.
  Communicator(fw::TaskContext& task, NodeTasks& node);

  unsigned rank() const { return group_.rank; }
  unsigned size() const { return group_.size; }
  // The class route its tree collectives use, or kNoClass (its collectives run on the torus).
  unsigned class_route() const { return group_.cls; }
  bool has_class_route() const { return group_.has_class_route(); }
  unsigned context() const { return group_.context; }
  // The world rank of this communicator's rank `r` (std::out_of_range if there is none).
  unsigned world_rank(unsigned r) const { return group_.world_rank(r); }
  // Its task: node * tasks per node + task on the machine (the world rank when no node is down).
  unsigned task_id(unsigned r) const { return group_.task_id(r); }
  // The node a rank runs on.
  unsigned node_of(unsigned r) const { return group_.node_of(r); }
  // Rank translation (MPI_Group_translate_ranks): the rank in `other` of this
  // communicator's rank `r`, or nothing when it is not a member there.
  std::optional<unsigned> rank_in(const Communicator& other, unsigned r) const;

  // ------------------------------------------------ communicator management
  // communicator_management.cpp; docs/communicators.md. All collective over this
  // communicator, in the same order on every rank.
  //
  // split: one communicator per colour, of the ranks that passed it, ordered by key (ties
  // by rank here); a rank passing kUndefined joins none and gets nothing. Each new one
  // takes a class route when one is free on every node its route passes and those nodes
  // all run ranks of this communicator (they program it); otherwise it runs on the torus.
  // Nodes on a route without members are covered by the identity-injection unit.
  std::optional<Communicator> split(int color, int key);
  // A communicator of the given ranks of this one (any order, no repeats), ranked in
  // increasing order of their rank here: split with one colour. Every rank passes the same
  // list; non-members get nothing. Throws collnet::Error naming a bad rank.
  std::optional<Communicator> create(std::vector<unsigned> ranks);
  // The same ranks in the same order with a context id of its own; it shares the class
  // route (and keeps the algorithm choices and argument checking).
  Communicator dup();
  // On the world communicator: a communicator of the world ranks `members`, in that rank
  // order, collective over those ranks only (MPI_Comm_create_group, intercommunicators):
  // they agree on a context id through messages to the first of them. It has no class
  // route (its collectives run on the torus). Every member passes the same list; throws
  // collnet::Error naming a repeated or unknown rank, or this rank missing from it.
  Communicator of_members(const std::vector<unsigned>& members);
  // Ends the communicator: once every rank has called it, its context id and (with its
  // last duplicate) its class route are free for others. Using it afterwards, or freeing
  // the world, raises collnet::Error.
  void free();
  bool freed() const { return freed_; }

  // The algorithm a collective runs (algorithm.hpp, docs/torus-algorithms.md): Auto, the
  // default, picks one per call; any other must apply to the collective (collnet::Error
  // naming the ones that do otherwise). Every rank of the communicator must choose the
  // same. The vector and personalised collectives not in Collective keep theirs.
  void set_algorithm(Collective c, Algorithm a);
  Algorithm algorithm(Collective c) const { return state_.algorithms[static_cast<unsigned>(c)]; }
  // The algorithm a call of `c` moving `bytes` bytes per rank of `type` runs (Auto resolved).
  Algorithm choose(Collective c, size_t bytes, Datatype type) const;
  // How alltoallv-segment (the segmented allgather) sends: piece size and destination order.
  void set_segment_options(const SegmentOptions& o);
  const SegmentOptions& segment_options() const { return state_.segment; }

  // Returns once every rank has called it. The tasks of a node meet on the node first;
  // the leader then joins the barrier network (world) or a one-word allreduce (a subset).
  void barrier();

  // The collectives take buffers as MPI does: `count` elements of `type` in their native
  // layout (datatype.hpp), packed at their natural width (a u8 buffer is one byte per
  // element), and for maxloc/minloc ValueIndex<T> pairs (value, int index). A program's
  // buffer passes straight through.
  //
  // recv[i] = op over all ranks of send[i], on every rank. send and recv may alias.
  void allreduce(const void* send, void* recv, size_t count, Datatype type, Op op);
  // The same, with the result on `root` only (other ranks may pass recv = nullptr).
  void reduce(const void* send, void* recv, size_t count, Datatype type, Op op, unsigned root);
  // buf on every rank becomes root's buf.
  void bcast(void* buf, size_t count, Datatype type, unsigned root);
  // recv[r*count + i] = rank r's send[i]: on `root` (gather) or every rank (allgather).
  // By OR: rank r owns positions r*count.., every other rank contributes zeros there, most
  // of them through the identity-injection unit.
  void gather(const void* send, void* recv, size_t count, Datatype type, unsigned root);
  void allgather(const void* send, void* recv, size_t count, Datatype type);
  // Inclusive prefix: recv[i] = op over ranks 0..rank of send[i]. Exclusive: over ranks
  // 0..rank-1; rank 0's recv is not written. By parallel-prefix broadcast: a message of
  // size() positions in which rank r contributes its data at positions r.. (r+1.. for
  // exscan) and the identity below; position p of the result is rank p's prefix.
  void scan(const void* send, void* recv, size_t count, Datatype type, Op op);
  void exscan(const void* send, void* recv, size_t count, Datatype type, Op op);

  // ------------------------------------------------ personalised and vector collectives
  // personalised.cpp, vector_collectives.cpp and torus_reductions.cpp; algorithms in
  // docs/vector-collectives.md. Arguments as MPI's: counts and displacements hold one
  // entry per rank of this communicator (rank order), in elements of `type`; buffers are
  // native, as above. kInPlace stands for MPI_IN_PLACE where MPI has it: as the send
  // buffer of alltoall(v), allgatherv, reduce_scatter(_block) and of gatherv at the root,
  // as the receive buffer of scatter(v) at the root. Counts may be zero; a null buffer
  // with a nonzero count, a count vector of the wrong length, blocks that do not fit, or
  // counts the ranks disagree on raise collnet::Error naming the call and the argument.
  // alltoall(v) and scatter(v) go over the torus (point-to-point, pairwise exchange);
  // gatherv, allgatherv and reduce_scatter(_block) are passes over the tree.
  // Op::Prod has no ALU: reduce, allreduce, scan, exscan and reduce_scatter with prod run
  // on the torus in a fixed order that depends only on size() (torus_reductions.cpp).
  static inline void* const kInPlace = driver::kInPlace;
  // recv[j*count ..] = rank j's send[rank()*count ..]. In place: the data comes from recv.
  void alltoall(const void* send, void* recv, size_t count, Datatype type);
  // alltoall, started: where it goes by the torus DMA engines (the algorithm chosen is
  // torus-linear and the nodes have the engine: docs/dma.md), the blocks move while the task
  // goes on and the result finishes it (test, finish); this task's next alltoall finishes
  // it first. Elsewhere nullptr, and nothing is done: the caller runs alltoall.
  std::shared_ptr<PendingCollective> start_alltoall(const void* send, void* recv, size_t count, Datatype type);
  // barrier, started (MPI_Ibarrier without a coprocessor): a dissemination over
  // point-to-point messages that advances whenever the task moves packets, so the task goes
  // on until it tests or finishes it (started_barrier.hpp), beside the task's other
  // collectives and other started barriers. nullptr on a communicator of one rank (nothing
  // to wait for).
  std::shared_ptr<PendingCollective> start_barrier();
  // Finishes, in the order started, the collectives this task started (on the engines, and
  // barriers; `engines_only`: those on the engines, what its next alltoall does first).
  void finish_started(bool engines_only = false);
  // Whether this task has an alltoall on the engines not yet finished.
  bool engines_busy();
  // A collective started and left running (a non-blocking one without a coprocessor):
  // `work` (the blocking call, with its arguments) is queued behind this communicator's
  // others and run, in the order started, by a fiber of the task's processor
  // (fw::Fiber) that the task resumes in every progress() it calls — in any call that
  // waits — so it advances while the task waits for something else, interleaved with the
  // started collectives of its other communicators. It runs as far as it can before this
  // returns. In the fiber, collectives keep to point-to-point messages on the torus
  // (CollectiveContext::background). `work` must catch what it throws. Returns false,
  // having done nothing, when the processor runs no fibers or the caller is one: the
  // caller then runs the work itself.
  bool post_background(std::function<void()> work);
  // Waits, moving the task's packets, until what was posted here has run; nothing in a
  // fiber. A collective the task calls on this communicator does it first, so its
  // collectives end in the order it calls them.
  void finish_background();
  // The same for every communicator of this task (before a datatype, op or communicator a
  // started collective may use is freed).
  void finish_all_background();
  // Whether collectives posted here have yet to run.
  bool background_busy() const { return background_.fiber && !background_.fiber->ended(); }
  // Whether collectives posted on any of this task's communicators have yet to run.
  bool background_anywhere();
  // Whether the calling code runs in a fiber of the task's processor.
  bool in_background() const { return task_.cpu.current_fiber() != nullptr; }
  // rank j's sendcounts[rank()] elements at its sdispls[rank()] go to this rank's recv at
  // rdispls[j]; recvcounts[j] must equal them. In place: from recv (recvcounts/rdispls).
  void alltoallv(const void* send, const std::vector<size_t>& sendcounts, const std::vector<size_t>& sdispls,
                 void* recv, const std::vector<size_t>& recvcounts, const std::vector<size_t>& rdispls,
                 Datatype type);
  // recv = root's send[rank()*count ..]; scatterv: root's sendcounts[rank()] elements at
  // displs[rank()] (recvcount must equal it). send, sendcounts and displs are read on the
  // root only; the root may pass recv = kInPlace (its block stays where it is).
  void scatter(const void* send, void* recv, size_t count, Datatype type, unsigned root);
  void scatterv(const void* send, const std::vector<size_t>& sendcounts, const std::vector<size_t>& displs,
                void* recv, size_t recvcount, Datatype type, unsigned root);
  // recv[displs[j] ..] = rank j's sendcount elements: on `root` (gatherv; recvcounts and
  // displs are read there only) or on every rank (allgatherv). Ranks own ranges of one
  // tree message, packed in rank order. In place: the rank's block is already in recv.
  void gatherv(const void* send, size_t sendcount, void* recv, const std::vector<size_t>& recvcounts,
               const std::vector<size_t>& displs, Datatype type, unsigned root);
  void allgatherv(const void* send, size_t sendcount, void* recv, const std::vector<size_t>& recvcounts,
                  const std::vector<size_t>& displs, Datatype type);
  // The op over all ranks of send (sum(recvcounts) elements, pairs for maxloc/minloc),
  // of which rank r receives the recvcounts[r] elements after those of ranks 0..r-1.
  // _block: recvcount elements each, send holds size()*recvcount. In place: send is
  // read from recv, whose first elements receive the result.
  void reduce_scatter(const void* send, void* recv, const std::vector<size_t>& recvcounts, Datatype type, Op op);
  void reduce_scatter_block(const void* send, void* recv, size_t recvcount, Datatype type, Op op);

  // Typed forms, the type taken from the element type (uint8_t .. double, ValueIndex<T>
  // for maxloc/minloc); the vector forms check the buffers' sizes.
  template <class T>
  void allreduce(const T* send, T* recv, size_t count, Op op) {
    check_elements<T>("allreduce", op);
    allreduce(send, recv, count, ElementType<T>::type, op);
  }
  template <class T>
  void allreduce(const std::vector<T>& send, std::vector<T>& recv, Op op) {
    if (recv.size() < send.size())
      throw Error("allreduce: receive buffer holds " + std::to_string(recv.size()) + " elements, send buffer " +
                  std::to_string(send.size()));
    allreduce(send.data(), recv.data(), send.size(), op);
  }
  template <class T>
  void bcast(T* buf, size_t count, unsigned root) {
    bcast(buf, count, ElementType<T>::type, root);
  }
  template <class T>
  void bcast(std::vector<T>& buf, unsigned root) { bcast(buf.data(), buf.size(), root); }
  template <class T>
  void allgather(const std::vector<T>& send, std::vector<T>& recv) {
    if (recv.size() < send.size() * size())
      throw Error("allgather: receive buffer holds " + std::to_string(recv.size()) + " elements, needs " +
                  std::to_string(send.size() * size()) + " (" + std::to_string(send.size()) + " from each of " +
                  std::to_string(size()) + " ranks)");
    allgather(send.data(), recv.data(), send.size(), ElementType<T>::type);
  }

  // Point-to-point (point_to_point.cpp, p2p_engine.hpp), with MPI's semantics: a message
  // of `count` elements of `type` (native layout, as for the collectives; a message is its
  // bytes) to or from a rank of this communicator, matched on (source, tag), either of
  // which a receive may leave open (kAnySource, kAnyTag). Two messages from one rank that
  // both match a receive are received in the order they were sent. A receive takes a
  // message of at most its own length (the status says how long it was); a longer one
  // fails it as truncated.
  //
  // isend/irecv start an operation and return a request; wait/test and their families
  // finish it (MPI_Wait*, MPI_Test*). A send's buffer must stay unchanged until its
  // request completes; send and recv are isend/irecv and wait. Every call moves the
  // node's packets along (progress), and so does every wait inside a collective, so a
  // rank busy in a collective never holds another rank's send back. Short messages go
  // eagerly, long ones (or when the receiver's memory for unexpected messages is used up,
  // see P2pConfig) by rendezvous: send then waits for the receive. Sends to a task of the
  // same node, this one included, are copied through the node's memory.
  // Tags 0..kMaxTag (from p2p::kFirstReservedTag up they are the library's own: the
  // collectives', started barriers'; a receive or probe for any tag never takes a message
  // on one); count 0 is a valid message. Misuse
  // throws collnet::Error naming the call and the argument: a rank outside the
  // communicator, a tag out of range, a null buffer, a message over kMaxBytes; a truncated
  // receive throws from its wait.
  static constexpr unsigned kMaxTag = p2p::kMaxTag;
  static constexpr uint64_t kMaxBytes = p2p::kMaxBytes;
  Request isend(const void* buf, size_t count, Datatype type, unsigned dest, unsigned tag = 0);
  // A synchronous send (MPI_Issend): completes only once the receive has matched it.
  Request issend(const void* buf, size_t count, Datatype type, unsigned dest, unsigned tag = 0);
  Request irecv(void* buf, size_t count, Datatype type, unsigned source = kAnySource, unsigned tag = kAnyTag);
  void send(const void* buf, size_t count, Datatype type, unsigned dest, unsigned tag = 0);
  Status recv(void* buf, size_t count, Datatype type, unsigned source = kAnySource, unsigned tag = kAnyTag);
  // Sends and receives at once (MPI_Sendrecv): neither waits for the other.
  Status sendrecv(const void* send_buf, size_t send_count, Datatype send_type, unsigned dest, unsigned send_tag,
                  void* recv_buf, size_t recv_count, Datatype recv_type, unsigned source, unsigned recv_tag);
  // Requests of any communicator of this task. The status of a receive names the source
  // as a rank of this communicator (the request's own, which wait checks).
  Status wait(Request& r);
  bool test(Request& r, Status* status = nullptr);
  std::vector<Status> waitall(std::vector<Request>& rs);
  bool testall(std::vector<Request>& rs, std::vector<Status>* statuses = nullptr);
  // The index of a request that completed (now null), or kNoRequest when all are null.
  static constexpr size_t kNoRequest = static_cast<size_t>(-1);
  size_t waitany(std::vector<Request>& rs, Status* status = nullptr);
  // A message a receive with these arguments would take, without taking it (MPI_Probe,
  // MPI_Iprobe).
  Status probe(unsigned source = kAnySource, unsigned tag = kAnyTag);
  std::optional<Status> iprobe(unsigned source = kAnySource, unsigned tag = kAnyTag);
  // Moves the node's packets once (what every call above does); returns whether any moved.
  bool progress();
  // Withdraws an unmatched receive (P2pEngine::cancel); whether it was.
  bool cancel(const Request& r);
  // Whether this task has something for progress() to do (P2pEngine::wants_progress).
  bool wants_progress();
  // A computing task's interrupts (P2pEngine::enable_interrupts, interrupt_pending,
  // serve_interrupt).
  void enable_interrupts();
  bool interrupt_pending();
  bool serve_interrupt();
  // The layer above's handler for this task, run by its progress() calls, and whether a
  // message on this communicator that waits for its receive wakes it
  // (P2pEngine::set_handler, watch).
  void set_handler(std::function<void()> fn);
  void watch(bool on);
  // The node's engine: its counters and configuration.
  const P2pEngine& p2p_engine() const { return node_.p2p; }

  // u64 elements.
  void send(const uint64_t* buf, size_t count, unsigned dest, unsigned tag = 0) {
    send(buf, count, Datatype::U64, dest, tag);
  }
  Status recv(uint64_t* buf, size_t count, unsigned source, unsigned tag = 0) {
    return recv(buf, count, Datatype::U64, source, tag);
  }
  // The whole vector, or at most buf.size() elements; any element type (its bytes travel).
  template <class T>
  void send(const std::vector<T>& buf, unsigned dest, unsigned tag = 0) {
    static_assert(std::is_trivially_copyable_v<T>, "a message is the bytes of its elements");
    send_bytes(buf.data(), buf.size(), sizeof(T), dest, tag);
  }
  template <class T>
  Status recv(std::vector<T>& buf, unsigned source, unsigned tag = 0) {
    static_assert(std::is_trivially_copyable_v<T>, "a message is the bytes of its elements");
    return recv_bytes(buf.data(), buf.size(), sizeof(T), source, tag);
  }

  // With checking on, every collective first agrees on its arguments (one extra one-packet
  // pass): ranks passing different counts, types, ops or roots all raise collnet::Error.
  // Off by default: a mismatch then shows as the adapter's header-mismatch error, because
  // the arguments are folded into every packet's tag.
  void set_argument_check(bool on) { state_.check_arguments = on; }

  // Statistics of the last data collective on this rank, over all its passes (the
  // leader's, with several tasks; zero on the others).
  const StreamStats& last() const { return state_.last; }

 private:
  friend class CollectiveContext;  // the collectives' point-to-point messages

  template <class T>
  static void check_elements(const char* call, Op op) {
    if (is_loc(op) != ElementType<T>::pairs)
      throw Error(std::string(call) + ": " + to_string(op) +
                  (is_loc(op) ? " reduces (value, index) pairs: pass ValueIndex<T> elements"
                              : " reduces plain elements, not (value, index) pairs"));
  }

  Communicator(fw::TaskContext& task, NodeTasks& node, Membership group, std::shared_ptr<RouteLease> lease);
  // The context a collective call runs in.
  CollectiveContext context(const CollectiveCall& call);
  // alltoall's and start_alltoall's: the arguments checked, then context().
  CollectiveContext alltoall_context(const void* send, void* recv, size_t count, Datatype type);
  // choose() as on the task's own thread: the set algorithm, else the tuning table's.
  Algorithm choose_for_task(Collective c, size_t bytes, Datatype type) const;
  // Runs collective `c`'s algorithm for `bytes` bytes per rank (Auto resolved here, once):
  // the table's entry, or Op::Prod's torus algorithm for a reduction with prod.
  void run(Collective c, CollectiveContext& ctx, size_t bytes);
  // allreduce, reduce, scan and exscan after their op and root are checked: the buffers
  // (recv where this rank `receives`), agreement, and the algorithm, or with prod `with_prod`.
  void reduction(Collective c, const CollectiveCall& call, bool receives, void (*with_prod)(CollectiveContext&));

  // Throws naming `call` when the communicator has been freed, or `root` is no rank.
  void check_live(const char* call) const;
  void check_root(const char* call, unsigned root) const;
  // The lowest context id free on every rank (an AND over this communicator), not taken
  // yet; throws naming `call` when there is none.
  unsigned common_context(const char* call);

  // Point-to-point arguments: the peer (`which`: "destination" or "source"), tag, `count`
  // elements of `size` bytes, buffer. Returns the message's length in bytes.
  size_t check_p2p(const char* call, const char* which, unsigned peer, unsigned tag, size_t count, size_t size,
                   const void* buf) const;
  // send and recv of `count` elements of `size` bytes each.
  void send_bytes(const void* buf, size_t count, size_t size, unsigned dest, unsigned tag);
  Status recv_bytes(void* buf, size_t count, size_t size, unsigned source, unsigned tag);
  // `eager_limit`: this message's, instead of the job's; `synchronous`: see issend
  // (P2pEngine::isend).
  Request isend_bytes(const void* buf, size_t count, size_t size, unsigned dest, unsigned tag,
                      std::optional<size_t> eager_limit = std::nullopt, bool synchronous = false);
  Request irecv_bytes(void* buf, size_t count, size_t size, unsigned source, unsigned tag);
  // The engine, set up for this task (P2pEngine::attach) on first use.
  P2pEngine& engine();
  // A completed request's status, with the source as a rank of this communicator; throws
  // what failed it.
  Status finish(Request& r);
  // The communicator rank of task `t` (node * tasks per node + task; a member).
  unsigned rank_of_task(unsigned t) const;
  // Throws naming `call` when the request is another communicator's.
  void check_request(const char* call, const Request& r) const;

  fw::TaskContext& task_;
  NodeTasks& node_;
  Membership group_;
  std::shared_ptr<RouteLease> lease_;  // the class route it holds (not the world's)
  bool freed_ = false;
  CollectiveState state_;
  BackgroundQueue background_;  // post_background's work and its fiber
};

}  // namespace collnet::driver
