// A group of ranks that run collectives together, bound to a class route of the combining
// network: the world communicator (every task of every node, class 0) or any subset
// created from it. A rank is a task: with T tasks per node, node n runs ranks n*T .. n*T+T-1.
//
// Buffers hold raw elements: each uint64_t carries one element's bit pattern in its low
// bits (datatype.hpp converts). For maxloc/minloc an element is a (value, index) pair held
// in two uint64_t: [2i] the value, [2i+1] the index; ties go to the smaller index.
// Every rank of the communicator calls each collective with the same count, type, op and
// root. Misuse raises collnet::Error naming the call and the argument.
//
// Point-to-point send and recv go over the torus instead (point_to_point.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "datatype.hpp"
#include "error.hpp"
#include "encoding.hpp"
#include "node_tasks.hpp"
#include "op.hpp"
#include "p2p_envelope.hpp"
#include "firmware/task_context.hpp"
#include "tree_stream.hpp"

namespace collnet::driver {

class Communicator {
 public:
  static constexpr unsigned kWorldClass = 0;
  static constexpr unsigned kWorldChannel = 0;      // barrier-network channel
  static constexpr unsigned kFirstSubsetClass = 1;  // user classes 1..11 serve subsets

  // The world communicator of `task`'s machine; its class route must already be programmed.
  Communicator(fw::TaskContext& task, NodeTasks& node);

  unsigned rank() const { return rank_; }
  unsigned size() const { return size_; }
  unsigned class_route() const { return cls_; }
  // The world rank of this communicator's rank `r` (std::out_of_range if there is none).
  unsigned world_rank(unsigned r) const {
    if (members_.empty() && r < size_) return r;  // the world: no table (see members_)
    return members_.at(r);
  }
  // The node a rank runs on.
  unsigned node_of(unsigned r) const { return world_rank(r) / tasks_per_node_; }

  // A communicator of the given ranks (any order, no repeats). Collective over this
  // communicator: every rank calls it with the same list, in the same order as its other
  // creates. Each node programs its part of a class route spanning the members' nodes;
  // nodes on that route without members are covered by the identity-injection unit.
  // Returns nothing on ranks that are not members. Throws collnet::Error naming a bad
  // rank, or when the user class routes are used up.
  std::optional<Communicator> create(std::vector<unsigned> ranks);

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

  // Point-to-point (point_to_point.cpp), MPI standard mode: a message of `count` elements
  // of `type` (native layout, as for the collectives) to or from a rank of this
  // communicator, matched on (source, tag). Messages from one rank to
  // another with the same tag are received in the order they were sent; other tags (or
  // other communicators) are matched independently. send returns once the message is on
  // its way (its buffer may be reused): a message nobody receives yet waits in the
  // destination node's mailbox. It may still wait until some task of the destination node
  // polls the torus (any send or recv there does). recv returns once the whole message is
  // in buf. Sends to a rank of the same node, this one included, go through the node's
  // mailbox without the torus. Tags 0..kMaxTag; count 0 is a valid message.
  // A message is its bytes: a recv matches a message of the same length in bytes.
  // Throws collnet::Error naming the call and the argument: a rank outside the
  // communicator, a tag out of range, a null buffer, a message over kMaxBytes, or a recv
  // whose length differs from the message's (which then stays queued for a recv of the
  // right length).
  static constexpr unsigned kMaxTag = p2p::kMaxTag;
  static constexpr uint64_t kMaxBytes = p2p::kMaxBytes;
  void send(const void* buf, size_t count, Datatype type, unsigned dest, unsigned tag = 0);
  void recv(void* buf, size_t count, Datatype type, unsigned source, unsigned tag = 0);
  // u64 elements.
  void send(const uint64_t* buf, size_t count, unsigned dest, unsigned tag = 0) {
    send(buf, count, Datatype::U64, dest, tag);
  }
  void recv(uint64_t* buf, size_t count, unsigned source, unsigned tag = 0) {
    recv(buf, count, Datatype::U64, source, tag);
  }
  // The whole vector, or exactly buf.size() elements; any element type (its bytes travel).
  template <class T>
  void send(const std::vector<T>& buf, unsigned dest, unsigned tag = 0) {
    static_assert(std::is_trivially_copyable_v<T>, "a message is the bytes of its elements");
    send_bytes(buf.data(), buf.size(), sizeof(T), dest, tag);
  }
  template <class T>
  void recv(std::vector<T>& buf, unsigned source, unsigned tag = 0) {
    static_assert(std::is_trivially_copyable_v<T>, "a message is the bytes of its elements");
    recv_bytes(buf.data(), buf.size(), sizeof(T), source, tag);
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
  void recv_bytes(void* buf, size_t count, size_t size, unsigned source, unsigned tag);

  // The collectives on elements in raw form, one per uint64_t (pairs: value word, index
  // word): what the native forms convert to and from.
  void allreduce_words(const uint64_t* send, uint64_t* recv, size_t count, Datatype type, Op op);
  void reduce_words(const uint64_t* send, uint64_t* recv, size_t count, Datatype type, Op op, unsigned root);
  void bcast_words(uint64_t* buf, size_t count, Datatype type, unsigned root);

  Communicator(fw::TaskContext& task, NodeTasks& node, unsigned cls, std::vector<unsigned> members);
  bool is_world() const { return cls_ == kWorldClass; }
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
  // The reductions (allreduce, reduce, scan, exscan), laid out at position p*count:
  // a reduction of `positions` x count elements in which this rank contributes
  // send[i] at the positions in [from, positions).
  std::vector<uint64_t> reduce_positions(const uint64_t* send, size_t count, Datatype type, Op op, size_t positions,
                                         size_t from, uint64_t descriptor);
  // gather (the root receives) and allgather (everyone does).
  void gather_to(const uint64_t* send, uint64_t* recv, size_t count, Datatype type, unsigned root, bool everyone);
  void prefix(const char* call, const uint64_t* send, uint64_t* recv, size_t count, Datatype type, Op op,
              bool inclusive);
  void check_root(const char* call, unsigned root) const;
  // Point-to-point arguments: the peer (`which`: "destination" or "source"), tag, `count`
  // elements of `size` bytes, buffer. Returns the message's length in bytes.
  size_t check_p2p(const char* call, const char* which, unsigned peer, unsigned tag, size_t count, size_t size,
                   const void* buf) const;
  Mailbox::Key mailbox_key(unsigned source_world, unsigned dest_task, unsigned tag) const;
  // The local barrier of the node's tasks: returns on the leader once all arrived; the
  // others wait for the leader's release.
  void local_arrive(NodeTasks::Slot& s);
  void local_release(NodeTasks::Slot& s);
  void local_wait_release(NodeTasks::Slot& s, uint64_t generation);

  fw::TaskContext& task_;
  NodeTasks& node_;
  unsigned rank_, size_, cls_;
  unsigned tasks_per_node_;
  // World ranks, sorted; members_[rank_] is this rank. Empty for the world communicator,
  // whose ranks are the world's: a table of every rank in every task would take ranks²
  // memory, 17 GB on a 64x32x32 machine.
  std::vector<unsigned> members_;
  unsigned local_index_ = 0;       // among this communicator's ranks on this node
  unsigned local_count_ = 1;
  unsigned next_class_ = kFirstSubsetClass;
  unsigned seq_ = 0;
  bool sense_ = false;  // the value this node's barrier bit holds after its last barrier
  bool check_arguments_ = false;
  StreamStats last_;
};

}  // namespace collnet::driver
