#include "communicator.hpp"

#include <algorithm>

#include "error.hpp"

namespace collnet::driver {

Communicator::Communicator(sim::Machine::Task& task)
    : task_(task), rank_(task.rank), size_(task.personality.nodes), cls_(kWorldClass), members_(size_) {
  for (unsigned r = 0; r < size_; ++r) members_[r] = r;
}

Communicator::Communicator(sim::Machine::Task& task, unsigned cls, std::vector<unsigned> members)
    : task_(task), rank_(0), size_(static_cast<unsigned>(members.size())), cls_(cls), members_(std::move(members)) {
  rank_ = static_cast<unsigned>(std::lower_bound(members_.begin(), members_.end(), task.rank) - members_.begin());
}

std::optional<Communicator> Communicator::create(std::vector<unsigned> ranks) {
  if (ranks.empty()) throw Error("create: the rank list is empty");
  std::sort(ranks.begin(), ranks.end());
  for (size_t i = 0; i < ranks.size(); ++i) {
    if (ranks[i] >= size_)
      throw Error("create: rank " + std::to_string(ranks[i]) + " is not in a communicator of size " +
                  std::to_string(size_));
    if (i > 0 && ranks[i] == ranks[i - 1]) throw Error("create: rank " + std::to_string(ranks[i]) + " is listed twice");
  }
  if (next_class_ >= fw::regmap::kFirstPrivClass)
    throw Error("create: all " + std::to_string(fw::regmap::kFirstPrivClass - kFirstSubsetClass) +
                " user class routes are in use");
  const unsigned cls = next_class_++;
  std::vector<unsigned> world(ranks.size());
  for (size_t i = 0; i < ranks.size(); ++i) world[i] = members_[ranks[i]];
  task_.tree.configure_class_route(cls, task_.tree.subset_route(world));
  if (!std::binary_search(world.begin(), world.end(), task_.rank)) return std::nullopt;
  return Communicator(task_, cls, std::move(world));
}

fw::Header Communicator::next_header(fw::AluOp op) {
  fw::Header h;
  h.cls = cls_;
  h.op = op;
  h.size_words = 4;  // 64-bit operands
  h.tag = seq_++ & ((1u << fw::regmap::kHdrTagW) - 1);
  return h;
}

void Communicator::barrier() {
  if (!is_world()) {
    uint64_t token = 0;
    allreduce(&token, &token, 1, Op::Bor);
    return;
  }
  sense_ = !sense_;
  fw::BarrierFirmware& b = task_.barrier;
  const unsigned bit = 1u << kWorldChannel;
  const uint64_t mine = b.local();
  b.set_local(sense_ ? (mine | bit) : (mine & ~uint64_t{bit}));
  // Set: wait until every bit is set. Cleared: wait until none is.
  if (sense_) {
    while (!b.all_set(kWorldChannel)) {
    }
  } else {
    while (b.any_set(kWorldChannel)) {
    }
  }
}

void Communicator::allreduce(const uint64_t* send, uint64_t* recv, size_t count, Op op) {
  if (count == 0) return;
  if (send == nullptr) throw Error("allreduce: send buffer is null for " + std::to_string(count) + " elements");
  if (recv == nullptr) throw Error("allreduce: receive buffer is null for " + std::to_string(count) + " elements");
  const fw::Header h = next_header(alu_op(op));
  // Aliased buffers: results for packet p are written only after packet p was injected.
  last_ = tree_stream(task_.tree, h, count, {[send](size_t i) { return send[i]; }, identity(op)}, recv);
}

void Communicator::allreduce(const std::vector<uint64_t>& send, std::vector<uint64_t>& recv, Op op) {
  if (recv.size() < send.size())
    throw Error("allreduce: receive buffer holds " + std::to_string(recv.size()) + " elements, send buffer " +
                std::to_string(send.size()));
  allreduce(send.data(), recv.data(), send.size(), op);
}

void Communicator::bcast(uint64_t* buf, size_t count, unsigned root) {
  if (root >= size_)
    throw Error("bcast: root " + std::to_string(root) + " is not a rank of a communicator of size " +
                std::to_string(size_));
  if (count == 0) return;
  if (buf == nullptr) throw Error("bcast: buffer is null for " + std::to_string(count) + " elements");
  // OR of the root's data with zeros, which the identity-injection unit supplies for every
  // other rank: non-roots write one register instead of the whole message.
  const fw::Header h = next_header(fw::AluOp::Or);
  Contribution mine;
  if (rank_ == root) mine.word = [buf](size_t i) { return buf[i]; };
  last_ = tree_stream(task_.tree, h, count, mine, buf);
}

void Communicator::bcast(std::vector<uint64_t>& buf, unsigned root) { bcast(buf.data(), buf.size(), root); }

}  // namespace collnet::driver
