// A group of ranks that run collectives together, bound to a class route of the combining
// network: the world communicator (every node, class 0) or any subset created from it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "op.hpp"
#include "systemc/machine.hpp"
#include "tree_stream.hpp"

namespace collnet::driver {

class Communicator {
 public:
  static constexpr unsigned kWorldClass = 0;
  static constexpr unsigned kWorldChannel = 0;  // barrier-network channel

  static constexpr unsigned kFirstSubsetClass = 1;  // user classes 1..11 serve subsets

  // The world communicator of `task`'s machine; its class route must already be programmed.
  explicit Communicator(sim::Machine::Task& task);

  unsigned rank() const { return rank_; }
  unsigned size() const { return size_; }
  unsigned class_route() const { return cls_; }
  // The world rank of this communicator's rank `r`.
  unsigned world_rank(unsigned r) const { return members_.at(r); }

  // A communicator of the given world ranks (any order, no repeats). Collective over this
  // communicator: every rank calls it with the same list, in the same order as its other
  // creates. Each node programs its part of a class route spanning the members; nodes on
  // that route that are not members are covered by the identity-injection unit. Returns
  // nothing on ranks that are not members. Throws collnet::Error naming a bad rank, or when
  // the user class routes are used up.
  std::optional<Communicator> create(std::vector<unsigned> ranks);

  // Returns once every rank has called it. World: the barrier network's AND over its
  // channel, with sense reversal so consecutive barriers need no reset. A subset: a
  // one-word allreduce on its class route.
  void barrier();

  // recv[i] = op over all ranks of send[i], on every rank. send and recv may alias.
  void allreduce(const uint64_t* send, uint64_t* recv, size_t count, Op op);
  void allreduce(const std::vector<uint64_t>& send, std::vector<uint64_t>& recv, Op op);

  // buf on every rank becomes root's buf.
  void bcast(uint64_t* buf, size_t count, unsigned root);
  void bcast(std::vector<uint64_t>& buf, unsigned root);

  // Statistics of the last collective on this rank.
  const StreamStats& last() const { return last_; }

 private:
  Communicator(sim::Machine::Task& task, unsigned cls, std::vector<unsigned> members);
  fw::Header next_header(fw::AluOp op);
  bool is_world() const { return cls_ == kWorldClass; }

  sim::Machine::Task& task_;
  unsigned rank_, size_, cls_;
  std::vector<unsigned> members_;  // world ranks, sorted; members_[rank_] is this rank
  unsigned next_class_ = kFirstSubsetClass;
  unsigned seq_ = 0;
  bool sense_ = false;  // the value this rank's barrier bit holds after its last barrier
  StreamStats last_;
};

}  // namespace collnet::driver
