// A group of ranks that run collectives together, bound to a class route of the combining
// network. Today: the world communicator (every node, class 0).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "op.hpp"
#include "systemc/machine.hpp"
#include "tree_stream.hpp"

namespace collnet::driver {

class Communicator {
 public:
  static constexpr unsigned kWorldClass = 0;
  static constexpr unsigned kWorldChannel = 0;  // barrier-network channel

  // The world communicator of `task`'s machine; its class route must already be programmed.
  explicit Communicator(sim::Machine::Task& task);

  unsigned rank() const { return rank_; }
  unsigned size() const { return size_; }
  unsigned class_route() const { return cls_; }

  // Returns once every rank has called it: the barrier network's AND over the
  // communicator's channel, with sense reversal so consecutive barriers need no reset.
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
  fw::Header next_header(fw::AluOp op);

  sim::Machine::Task& task_;
  unsigned rank_, size_, cls_;
  unsigned seq_ = 0;
  bool sense_ = false;  // the value this rank's barrier bit holds after its last barrier
  StreamStats last_;
};

}  // namespace collnet::driver
