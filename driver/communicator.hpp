// SPDX-License-Identifier: Apache-2.0
// A group of ranks that run collectives together: the world communicator (every task of
// every node, class route 0, context id 0) or any communicator split, duplicated or
// created from another. A rank is a task: with T tasks per node, node n runs ranks
// n*T .. n*T+T-1. A communicator rides the combining network when it holds a class route
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
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "driver/algorithm.hpp"
#include "driver/class_routes.hpp"
#include "driver/neighbourhoods.hpp"
#include "driver/datatype.hpp"
#include "driver/error.hpp"
#include "driver/encoding.hpp"
#include "driver/node_tasks.hpp"
#include "driver/op.hpp"
#include "driver/p2p_envelope.hpp"
#include "firmware/task_context.hpp"
#include "driver/tree_stream.hpp"

namespace collnet::driver {

class Communicator {
 public:
  static constexpr unsigned kWorldClass = 0;
  static constexpr unsigned kWorldChannel = 0;      // barrier-network channels kWorldChannel,
  static constexpr unsigned kWorldChannels = 2;     // kWorldChannel + 1 (alternately)
  static constexpr int kUndefined = -1;  // split's colour for a rank that joins none (MPI_UNDEFINED)

  // The world communicator of `task`'s machine; its class route must already be programmed.
  Communicator(fw::TaskContext& task, NodeTasks& node);

  unsigned rank() const { return rank_; }
  unsigned size() const { return size_; }
  // The class route its tree collectives use, or kNoClass (its collectives run on the torus).
  unsigned class_route() const { return cls_; }
  bool has_class_route() const { return cls_ != kNoClass; }
  unsigned context() const { return context_; }
  // The world rank of this communicator's rank `r` (std::out_of_range if there is none).
  unsigned world_rank(unsigned r) const {
    if (members_.empty() && r < size_) return r;  // the world: no table (see members_)
    return members_.at(r);
  }
  // The node a rank runs on.
  unsigned node_of(unsigned r) const { return world_rank(r) / tasks_per_node_; }
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
  Algorithm algorithm(Collective c) const { return algorithms_[static_cast<unsigned>(c)]; }
  // The algorithm a call of `c` moving `bytes` bytes per rank runs (Auto resolved).
  Algorithm choose(Collective c, size_t bytes) const;
  // How alltoallv-segment (seed 001) sends: piece size and destination order.
  void set_segment_options(const SegmentOptions& o);
  const SegmentOptions& segment_options() const { return segment_; }

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
  static inline void* const kInPlace = reinterpret_cast<void*>(uintptr_t{1});
  // recv[j*count ..] = rank j's send[rank()*count ..]. In place: the data comes from recv.
  void alltoall(const void* send, void* recv, size_t count, Datatype type);
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

 private:
  // The messages of the collectives that go over the torus: `bytes` bytes to or from a
  // rank of this communicator, on a tag of their own (kCollectiveTag); sendrecv sends to
  // `dest` and receives from `source` and must not deadlock when every rank calls it at
  // once. The only place the collectives touch point-to-point.
  static constexpr unsigned kCollectiveTag = p2p::kMaxTag;
  static constexpr size_t kCollectiveEagerBytes = 1024;  // alltoall(v): longer blocks go by rendezvous
  void coll_send(const void* buf, size_t bytes, unsigned dest);
  void coll_recv(void* buf, size_t bytes, unsigned source);
  void coll_sendrecv(const void* send, size_t send_bytes, unsigned dest, void* recv, size_t recv_bytes,
                     unsigned source);
  // Op::Prod on raw elements, over the torus (torus_reductions.cpp): the product of ranks
  // 0..size()-1 on `root` (every rank with everyone), or the prefixes.
  void prod_reduce(const char* call, const uint64_t* send, uint64_t* recv, size_t count, Datatype type,
                   unsigned root, bool everyone);
  void prod_prefix(const char* call, const uint64_t* send, uint64_t* recv, size_t count, Datatype type,
                   bool inclusive);
  // The reduction of raw elements of reduce_scatter (all ops; every rank gets all of it).
  std::vector<uint64_t> reduce_all_words(const char* call, const uint64_t* send, size_t count, Datatype type, Op op);
  // The bodies of the collectives whose plain forms are a case of the vector form, with
  // the name errors give.
  void alltoallv_as(const char* call, const void* send, const std::vector<size_t>& sendcounts,
                    const std::vector<size_t>& sdispls, void* recv, const std::vector<size_t>& recvcounts,
                    const std::vector<size_t>& rdispls, Datatype type);
  void scatterv_as(const char* call, const void* send, const std::vector<size_t>& sendcounts,
                   const std::vector<size_t>& displs, void* recv, size_t recvcount, Datatype type, unsigned root);
  void reduce_scatter_as(const char* call, const void* send, void* recv, const std::vector<size_t>& recvcounts,
                         Datatype type, Op op);
  // With argument checking on: every rank passed the same `name` vector.
  void agree_counts(const char* call, const char* name, const std::vector<size_t>& v);
  // One tree pass gathering rank j's counts[j] elements (this rank's from `src`) at offset
  // counts[0] + ... + counts[j-1]; with `recv`, block j goes to recv at displs[j] (this
  // rank's own skipped when in place). `call_id` and `root` go into the packets' tag.
  void gather_ranges(const void* src, const std::vector<size_t>& counts, void* recv, const std::vector<size_t>& displs,
                     Datatype type, bool in_place, uint64_t call_id, unsigned root);

 public:

  // Typed forms, the type taken from the element type (uint8_t .. double, ValueIndex<T>
  // for maxloc/minloc); the vector forms check the buffers' sizes.
  template <class T>
  void allreduce(const T* send, T* recv, size_t count, Op op) {
    check_elements<T>("allreduce", op);
    allreduce(send, recv, count, ElementOf<T>::type, op);
  }
  template <class T>
  void allreduce(const std::vector<T>& send, std::vector<T>& recv, Op op) {
    if (recv.size() < send.size())
      throw Error("allreduce: receive buffer holds " + std::to_string(recv.size()) + " elements, send buffer " +
                  std::to_string(send.size()));
    allreduce(send.data(), recv.data(), send.size(), op);
  }
  template <class T>
  void bcast(T* buf, size_t count, unsigned root) { bcast(buf, count, ElementOf<T>::type, root); }
  template <class T>
  void bcast(std::vector<T>& buf, unsigned root) { bcast(buf.data(), buf.size(), root); }
  template <class T>
  void allgather(const std::vector<T>& send, std::vector<T>& recv) {
    if (recv.size() < send.size() * size_)
      throw Error("allgather: receive buffer holds " + std::to_string(recv.size()) + " elements, needs " +
                  std::to_string(send.size() * size_) + " (" + std::to_string(send.size()) + " from each of " +
                  std::to_string(size_) + " ranks)");
    allgather(send.data(), recv.data(), send.size(), ElementOf<T>::type);
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
  // Tags 0..kMaxTag; count 0 is a valid message. Misuse throws collnet::Error naming the
  // call and the argument: a rank outside the communicator, a tag out of range, a null
  // buffer, a message over kMaxBytes; a truncated receive throws from its wait.
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
  void set_argument_check(bool on) { check_arguments_ = on; }

  // Statistics of the last data collective on this rank, over all its passes (the
  // leader's, with several tasks; zero on the others).
  const StreamStats& last() const { return last_; }

 private:
  // The Datatype of an element type, and whether it is a (value, index) pair.
  template <class T>
  struct ElementOf {
    static constexpr Datatype type = datatype_of<T>();
    static constexpr bool pairs = false;
  };
  template <class T>
  struct ElementOf<ValueIndex<T>> {
    static constexpr Datatype type = datatype_of<T>();
    static constexpr bool pairs = true;
  };
  template <class T>
  static void check_elements(const char* call, Op op) {
    if (is_loc(op) != ElementOf<T>::pairs)
      throw Error(std::string(call) + ": " + to_string(op) +
                  (is_loc(op) ? " reduces (value, index) pairs: pass ValueIndex<T> elements"
                              : " reduces plain elements, not (value, index) pairs"));
  }

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
  // Inside a collective's waits: one step of the engine if it has work or the torus has
  // brought packets (free to check otherwise: P2pEngine::wants_progress).
  void serve_p2p() {
    if (node_.p2p.wants_progress(task_)) engine().progress(task_);
  }
  // A completed request's status, with the source as a rank of this communicator; throws
  // what failed it.
  Status finish(Request& r);
  // The communicator rank of world rank `w` (a member).
  unsigned rank_of_world(unsigned w) const;
  // Throws naming `call` when the request is another communicator's.
  void check_request(const char* call, const Request& r) const;

  // The collectives on elements in raw form, one per uint64_t (pairs: value word, index
  // word): what the native forms convert to and from.
  void allreduce_words(const uint64_t* send, uint64_t* recv, size_t count, Datatype type, Op op);
  void reduce_words(const uint64_t* send, uint64_t* recv, size_t count, Datatype type, Op op, unsigned root);
  void bcast_words(uint64_t* buf, size_t count, Datatype type, unsigned root);

  Communicator(fw::TaskContext& task, NodeTasks& node, unsigned context, unsigned cls, std::vector<unsigned> members,
               std::shared_ptr<RouteLease> lease);
  // The world itself (not a duplicate): the barrier network is its barrier.
  bool is_world() const { return context_ == 0; }
  // Every rank of the world, in world order (the world and its duplicates).
  bool spans_world() const { return members_.empty(); }
  // This communicator's slot in the node's memory.
  uint64_t slot_key() const { return (uint64_t{context_} << 32) | world_rank(0); }
  // Throws naming `call` when the communicator has been freed.
  void check_live(const char* call) const;
  // The lowest context id free on every rank (an AND over this communicator), not taken
  // yet; throws naming `call` when there is none.
  unsigned common_context(const char* call);
  bool is_leader() const { return local_index_ == 0; }
  fw::Header header(const Encoding& e, uint64_t descriptor);
  // The arguments of a collective, folded into one word.
  void agree(const char* call, size_t count, Datatype type, Op op, unsigned root);
  // Streams one message over the class route from this task, no node-local combining.
  std::vector<uint64_t> stream(const Encoding& e, const std::vector<uint64_t>& message,
                               std::pair<size_t, size_t> owned, uint64_t descriptor);
  // One pass over the tree: this rank's message (owning words [owned.first, owned.second),
  // identity elsewhere) combined with every other rank's; returns the combined message.
  std::vector<uint64_t> pass(const Encoding& e, std::vector<uint64_t> message, std::pair<size_t, size_t> owned,
                             uint64_t descriptor);
  // How a reduction combines encoded messages (owning a word range, identity elsewhere)
  // across the ranks: the floating-point sum's exponents (which every rank must learn) and
  // the values. Over the tree both are a pass; on the torus (torus_collectives.cpp) an
  // algorithm of point-to-point messages.
  using Combine =
      std::function<std::vector<uint64_t>(const Encoding&, std::vector<uint64_t>, std::pair<size_t, size_t>)>;
  struct Combiner {
    Combine exponents, values;
  };
  Combiner over_tree(uint64_t descriptor);
  // allreduce (no root) or reduce to `root`; prefixes for scan and exscan.
  Combiner on_torus(Algorithm a, std::optional<unsigned> root);
  Combiner prefix_on_torus(bool inclusive);
  // How a reduction of encoded messages combines over this communicator when the caller
  // does not choose: a pass over its class route, or recursive doubling on the torus
  // (binomial to `root`).
  Combiner reduction(uint64_t descriptor, std::optional<unsigned> root = std::nullopt);
  // The reductions (allreduce, reduce, scan, exscan), laid out at position p*count:
  // a reduction of `positions` x count elements in which this rank contributes
  // send[i] at the positions in [from, positions).
  std::vector<uint64_t> reduce_positions(const uint64_t* send, size_t count, Datatype type, Op op, size_t positions,
                                         size_t from, const Combiner& combine);

  // ---------------------------------------------- torus algorithms (torus_collectives.cpp)
  // Encoded words between ranks, each message led by the call's arguments (call_args_),
  // and combining them as the ALU does.
  void send_words(const uint64_t* w, size_t n, unsigned dest);
  void recv_words(uint64_t* w, size_t n, unsigned source);
  void exchange_words(const uint64_t* out, size_t out_n, unsigned dest, uint64_t* in, size_t in_n, unsigned source);
  void combine_words(const Encoding& e, uint64_t* acc, const uint64_t* in, size_t n);
  // Checks a received message's lead word against this rank's arguments and copies its
  // words to `w`.
  void check_led(const std::vector<uint64_t>& m, uint64_t* w, unsigned source) const;
  // An encoded message combined over all ranks by algorithm `a`: on every rank, or on
  // `root` only (binomial; other ranks' result is undefined).
  std::vector<uint64_t> torus_reduce_message(const Encoding& e, std::vector<uint64_t> msg, Algorithm a,
                                             std::optional<unsigned> root);
  // The prefix over ranks 0..rank (inclusive) or 0..rank-1 (identity on rank 0).
  std::vector<uint64_t> torus_prefix_message(const Encoding& e, std::vector<uint64_t> msg, bool inclusive);
  // Binomial trees over a group of ranks rooted at its first (torus-binomial's collectives
  // run on rotated(root), seed 002's on its neighbourhoods): bcast, reduce of encoded words
  // (the result at the first), gather and scatter of blocks of sizes[i] bytes for member i,
  // concatenated in group order at the first (`out` and `in` are read there only; `mine`
  // may be null in scatter: the block stays where it is).
  void group_bcast(const std::vector<unsigned>& g, void* buf, size_t bytes);
  void group_reduce(const std::vector<unsigned>& g, const Encoding& e, std::vector<uint64_t>& msg);
  void group_gather(const std::vector<unsigned>& g, const std::vector<size_t>& sizes, const void* mine,
                    unsigned char* out);
  void group_scatter(const std::vector<unsigned>& g, const std::vector<size_t>& sizes, const unsigned char* in,
                     void* mine);
  // Every rank, starting at `root`: root, root+1, ..., root-1.
  std::vector<unsigned> rotated(unsigned root) const;
  void torus_dissemination_barrier();
  // Native bytes, `bytes` per rank.
  void torus_bcast(void* buf, size_t bytes, unsigned root);
  // BG/L's torus broadcast: line broadcasts along x from the root, along y from its x line,
  // along z from its xy plane, one packet-sized chunk at a time (the world only).
  void torus_deposit_bcast(void* buf, size_t bytes, unsigned root);
  // A line broadcast (the deposit bit) of `bytes` held by rank `source`, a packet-sized chunk
  // at a time: every rank gets each chunk from its node's memory; the node's sending task
  // (the source on its node, the leader elsewhere) sends each chunk along this node's
  // `lines` once it has it.
  struct Line {
    unsigned dim;
    int hops;  // > 0 the + way, < 0 the - way
  };
  void line_bcast(void* buf, size_t bytes, unsigned source, const std::vector<Line>& lines);

  // ---------------------------------------------- seed 002 (neighbourhood_collectives.cpp)
  // The regular neighbourhoods of this communicator's nodes (found once).
  const Neighbourhoods& neighbourhoods();
  // A rooted collective's two phases: this rank's neighbourhood's ranks (its local root's
  // rank first), every local root's rank (the root first), and every neighbourhood's ranks
  // in that order.
  struct Phases {
    std::vector<unsigned> local, roots;
    std::vector<std::vector<unsigned>> groups;
    const Neighbourhood* mine = nullptr;
    unsigned local_root_node = 0;
  };
  Phases phases(unsigned root);
  void neighbourhood_bcast(void* buf, size_t bytes, unsigned root);
  std::vector<uint64_t> neighbourhood_reduce(const Encoding& e, std::vector<uint64_t> msg, unsigned root);
  void neighbourhood_gather(const void* send, void* recv, size_t bytes, unsigned root);
  void neighbourhood_scatter(const void* send, void* recv, size_t bytes, unsigned root);
  void torus_gather(const void* send, void* recv, size_t bytes, unsigned root);
  void torus_scatter(const void* send, void* recv, size_t bytes, unsigned root);
  void torus_alltoall(const unsigned char* out, unsigned char* in, size_t bytes, Algorithm a);
  // allgather(v): block j (len[j] bytes at at[j]) from rank j to every rank; this rank's
  // is in place already. Recursive doubling and Bruck need equal blocks in rank order.
  void torus_allgather_blocks(const std::vector<unsigned char*>& at, const std::vector<size_t>& len, Algorithm a);
  // Seed 001's alltoallv: out[j] to rank j, a piece at a time (segment_); rank j's message
  // into in_at[j], in_len[j] bytes.
  void segment_alltoallv(const std::vector<std::pair<const unsigned char*, size_t>>& out,
                         const std::vector<unsigned char*>& in_at, const std::vector<size_t>& in_len);
  // A copy in the node's memory, four words per cycle as combining is.
  void copy_local(void* to, const void* from, size_t bytes);
  // gather (the root receives) and allgather (everyone does).
  void gather_to(const uint64_t* send, uint64_t* recv, size_t count, Datatype type, unsigned root, bool everyone);
  void prefix(const char* call, const uint64_t* send, uint64_t* recv, size_t count, Datatype type, Op op,
              bool inclusive);
  void check_root(const char* call, unsigned root) const;
  // Point-to-point arguments: the peer (`which`: "destination" or "source"), tag, `count`
  // elements of `size` bytes, buffer. Returns the message's length in bytes.
  size_t check_p2p(const char* call, const char* which, unsigned peer, unsigned tag, size_t count, size_t size,
                   const void* buf) const;
  // The local barrier of the node's tasks: returns on the leader once all arrived; the
  // others wait for the leader's release.
  void local_arrive(NodeTasks::Slot& s);
  void local_release(NodeTasks::Slot& s);
  void local_wait_release(NodeTasks::Slot& s, uint64_t generation);

  fw::TaskContext& task_;
  NodeTasks& node_;
  unsigned rank_, size_, cls_;
  unsigned context_ = 0;
  unsigned tasks_per_node_;
  // World ranks in rank order; members_[rank_] is this rank. Empty for the world and its
  // duplicates, whose ranks are the world's: a table of every rank in every task would
  // take ranks² memory, 17 GB on a 64x32x32 machine.
  std::vector<unsigned> members_;
  std::shared_ptr<RouteLease> lease_;  // the class route it holds (not the world's)
  std::shared_ptr<const Neighbourhoods> neighbourhoods_;  // found on first use
  bool freed_ = false;
  unsigned local_index_ = 0;       // among this communicator's ranks on this node
  unsigned local_count_ = 1;
  unsigned seq_ = 0;
  bool sense_[2] = {false, false};  // the value each world channel's bit holds after its last barrier
  uint64_t barriers_ = 0;           // world barriers so far: they alternate channels
  bool check_arguments_ = false;
  StreamStats last_;
  std::array<Algorithm, kNumCollectives> algorithms_{};  // Auto
  SegmentOptions segment_;
  uint32_t line_broadcasts_ = 0;  // torus-deposit bcasts so far: each one's id
  // The current collective's name and arguments (agree sets them): the torus reductions
  // send the arguments ahead of every message, so that ranks whose count, type, op or root
  // differ get an error instead of a wrong result.
  const char* call_ = "";
  uint64_t call_args_ = 0;
};

}  // namespace collnet::driver
