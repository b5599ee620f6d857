// SPDX-License-Identifier: Apache-2.0
#include "driver/communicator.hpp"

#include <algorithm>

#include "driver/error.hpp"
#include "firmware/alu_model.hpp"
#include "driver/float_sum.hpp"

namespace collnet::driver {

namespace {

// Collective identifiers folded into the tag, so that ranks in different collectives
// never combine.
enum CallId : uint64_t { kAllreduce = 1, kReduce, kBcast, kGather, kAllgather, kScan, kExscan, kBarrier, kAgree };

uint64_t describe(CallId call, size_t count, Datatype type, Op op, unsigned root) {
  return (static_cast<uint64_t>(call) << 56) ^ (static_cast<uint64_t>(count) << 16) ^
         (static_cast<uint64_t>(type) << 8) ^ (static_cast<uint64_t>(op) << 4) ^ (static_cast<uint64_t>(root) << 32);
}

uint8_t fold8(uint64_t d) {
  d ^= d >> 32;
  d ^= d >> 16;
  d ^= d >> 8;
  return static_cast<uint8_t>(d);
}

void check_buffer(const char* call, const char* which, const void* p, size_t count) {
  if (p == nullptr && count > 0)
    throw Error(std::string(call) + ": " + which + " buffer is null for " + std::to_string(count) + " elements");
}

}  // namespace

Communicator::Communicator(fw::TaskContext& task, NodeTasks& node)
    : task_(task),
      node_(node),
      rank_(task.node * task.tasks + task.task),
      size_(task.personality.nodes * task.tasks),
      cls_(kWorldClass),
      tasks_per_node_(task.tasks),
      local_index_(task.task),
      local_count_(task.tasks) {}

Communicator::Communicator(fw::TaskContext& task, NodeTasks& node, unsigned context, unsigned cls,
                           std::vector<unsigned> members, std::shared_ptr<RouteLease> lease)
    : task_(task),
      node_(node),
      rank_(0),
      size_(static_cast<unsigned>(members.size())),
      cls_(cls),
      context_(context),
      tasks_per_node_(task.tasks),
      members_(std::move(members)),
      lease_(std::move(lease)) {
  const unsigned me = task.node * task.tasks + task.task;
  rank_ = static_cast<unsigned>(std::find(members_.begin(), members_.end(), me) - members_.begin());
  local_count_ = 0;
  for (unsigned r = 0; r < size_; ++r) {
    if (node_of(r) != task.node) continue;
    if (r < rank_) ++local_index_;
    ++local_count_;
  }
}

fw::Header Communicator::header(const Encoding& e, uint64_t descriptor) {
  fw::Header h;
  h.cls = cls_;
  h.op = e.alu;
  h.size_words = e.header_size();
  // [13:8] sequence, [7:0] the arguments: ranks that disagree send different headers.
  // The context too: ranks that mix up two communicators sharing a class route (a
  // duplicate and its parent) send different headers.
  h.tag = ((seq_++ & 0x3fu) << 8) | fold8(descriptor ^ (uint64_t{context_} << 40));
  return h;
}

// ------------------------------------------------------------------ the node's tasks

void Communicator::local_arrive(NodeTasks::Slot& s) {
  // A padded arrival counter: the target is the task count rounded up to a power of two;
  // the leader adds its own arrival plus the padding, the others one each, and all have
  // arrived when the counter reaches the target.
  const uint64_t target = local_barrier_target(local_count_);
  task_.cpu.memory_access();  // atomic increment
  s.counter += is_leader() ? 1 + (target - local_count_) : 1;
  if (!is_leader()) return;
  while (s.counter != target) {
    serve_p2p();
    task_.cpu.memory_access();
  }
  s.counter = 0;
  s.failure = nullptr;
}

void Communicator::local_release(NodeTasks::Slot& s) {
  task_.cpu.memory_access();
  ++s.generation;
}

void Communicator::local_wait_release(NodeTasks::Slot& s, uint64_t generation) {
  while (s.generation == generation) {
    serve_p2p();
    task_.cpu.memory_access();
  }
  if (s.failure) {
    try {
      std::rethrow_exception(s.failure);
    } catch (const std::exception& e) {
      throw Error("the task leading node " + std::to_string(task_.node) + " failed: " + e.what());
    }
  }
}

// ------------------------------------------------------------------ passes

std::vector<uint64_t> Communicator::stream(const Encoding& e, const std::vector<uint64_t>& message,
                                           std::pair<size_t, size_t> owned, uint64_t descriptor) {
  const fw::Header h = header(e, descriptor);
  std::vector<uint64_t> out(message.size());
  Contribution c;
  c.word = [&message](size_t i) { return message[i]; };
  c.pad = fw::ref_identity(static_cast<unsigned>(e.alu));
  c.own_begin = owned.first;
  c.own_end = owned.second;
  const StreamStats st = tree_stream(task_.tree, h, message.size(), c, out.data(), [this] { serve_p2p(); });
  last_.packets += st.packets;
  last_.status_polls += st.status_polls;
  return out;
}

std::vector<uint64_t> Communicator::pass(const Encoding& e, std::vector<uint64_t> message,
                                         std::pair<size_t, size_t> owned, uint64_t descriptor) {
  if (local_count_ == 1) return stream(e, message, owned, descriptor);

  NodeTasks::Slot& s = node_.slot(slot_key());
  s.messages.resize(local_count_, nullptr);
  s.owned.resize(local_count_);
  s.messages[local_index_] = &message;
  s.owned[local_index_] = owned;
  const uint64_t generation = s.generation;
  local_arrive(s);
  if (!is_leader()) {
    local_wait_release(s, generation);
    return s.result;
  }
  try {
    // Combine the node's contributions as the ALU would (4 words per processor cycle).
    std::pair<size_t, size_t> own = owned;
    for (unsigned k = 1; k < local_count_; ++k) {
      fw::alu_combine(static_cast<unsigned>(e.alu), e.header_size(), message, *s.messages[k]);
      if (s.owned[k].first < s.owned[k].second) {
        own.first = own.first < own.second ? std::min(own.first, s.owned[k].first) : s.owned[k].first;
        own.second = std::max(own.second, s.owned[k].second);
      }
    }
    task_.cpu.idle((message.size() * (local_count_ - 1) + 3) / 4);
    s.result = stream(e, message, own, descriptor);
  } catch (...) {
    s.failure = std::current_exception();
    local_release(s);
    throw;
  }
  local_release(s);
  return s.result;
}

void Communicator::agree(const char* call, size_t count, Datatype type, Op op, unsigned root) {
  check_live(call);
  last_ = {};  // every data collective starts here
  call_ = call;
  call_args_ = (uint64_t{count} << 24) ^ (static_cast<uint64_t>(type) << 16) ^ (static_cast<uint64_t>(op) << 8) ^
               (uint64_t{root} * 0x9e3779b97f4a7c15ull);
  if (!check_arguments_) return;
  // MAX of each argument and of its complement: the largest and the smallest value.
  const uint64_t args[4] = {count, static_cast<uint64_t>(type), static_cast<uint64_t>(op), root};
  const char* names[4] = {"count", "type", "op", "root"};
  std::vector<uint64_t> msg(8);
  for (unsigned k = 0; k < 4; ++k) {
    msg[2 * k] = args[k];
    msg[2 * k + 1] = ~args[k];
  }
  const std::vector<uint64_t> r = reduction(kAgree).values(Encoding{fw::AluOp::Max, 64}, msg, {0, msg.size()});
  for (unsigned k = 0; k < 4; ++k) {
    const uint64_t hi = r[2 * k], lo = ~r[2 * k + 1];
    if (hi == lo) continue;
    std::string range = std::to_string(lo) + " to " + std::to_string(hi);
    if (k == 1) range = std::string(to_string(static_cast<Datatype>(lo))) + " to " + to_string(static_cast<Datatype>(hi));
    if (k == 2) range = std::string(to_string(static_cast<Op>(lo))) + " to " + to_string(static_cast<Op>(hi));
    throw Error(std::string(call) + ": the ranks passed different " + names[k] + " (from " + range + ")");
  }
}

Communicator::Combiner Communicator::reduction(uint64_t descriptor, std::optional<unsigned> root) {
  if (has_class_route()) return over_tree(descriptor);
  return on_torus(root ? Algorithm::TorusBinomial : Algorithm::TorusRecursiveDoubling, root);
}

Communicator::Combiner Communicator::over_tree(uint64_t descriptor) {
  Combine pass_it = [this, descriptor](const Encoding& e, std::vector<uint64_t> m, std::pair<size_t, size_t> own) {
    return pass(e, std::move(m), own, descriptor);
  };
  return Combiner{pass_it, pass_it};
}

std::vector<uint64_t> Communicator::reduce_positions(const uint64_t* send, size_t count, Datatype type, Op op,
                                                     size_t positions, size_t from, const Combiner& combine) {
  const size_t total = positions * count;
  const unsigned stride = is_loc(op) ? 2 : 1;
  const size_t want = std::min<size_t>(rank_, positions - 1) * count;  // the position this rank reads
  std::vector<uint64_t> out(count * stride);

  if (is_float(type) && op == Op::Sum) {
    const Encoding ee = float_sum::exponent_encoding(), fe = float_sum::fixed_encoding();
    std::vector<uint64_t> exps = ee.identity_message(total);
    for (size_t p = from; p < positions; ++p)
      for (size_t i = 0; i < count; ++i) put(exps, ee, p * count + i, {float_sum::exponent_key(type, send[i])});
    const std::vector<uint64_t> emax = combine.exponents(ee, std::move(exps), ee.word_range(from * count, total));
    std::vector<uint64_t> fixed = fe.identity_message(total);
    for (size_t p = from; p < positions; ++p)
      for (size_t i = 0; i < count; ++i) {
        const size_t k = p * count + i;
        put(fixed, fe, k, float_sum::to_fixed(type, send[i], get(emax, ee, k)[0]));
      }
    const std::vector<uint64_t> sum = combine.values(fe, std::move(fixed), fe.word_range(from * count, total));
    for (size_t i = 0; i < count; ++i)
      out[i] = float_sum::from_fixed(type, get(sum, fe, want + i), get(emax, ee, want + i)[0]);
    return out;
  }

  const Encoding e = reduce_encoding(type, op);
  std::vector<uint64_t> msg = e.identity_message(total);
  for (size_t p = from; p < positions; ++p)
    for (size_t i = 0; i < count; ++i)
      put(msg, e, p * count + i, encode(type, op, send[i * stride], is_loc(op) ? send[i * stride + 1] : 0));
  const std::vector<uint64_t> res = combine.values(e, std::move(msg), e.word_range(from * count, total));
  for (size_t i = 0; i < count; ++i) {
    uint64_t index = 0;
    out[i * stride] = decode(type, op, get(res, e, want + i), &index);
    if (is_loc(op)) out[i * stride + 1] = index;
  }
  return out;
}

// ------------------------------------------------------------------ collectives

void Communicator::check_root(const char* call, unsigned root) const {
  if (root >= size_)
    throw Error(std::string(call) + ": root " + std::to_string(root) + " is not a rank of a communicator of size " +
                std::to_string(size_));
}

size_t Communicator::check_p2p(const char* call, const char* which, unsigned peer, unsigned tag, size_t count,
                               size_t size, const void* buf) const {
  check_live(call);
  if (peer >= size_)
    throw Error(std::string(call) + ": " + which + " rank " + std::to_string(peer) +
                " is not a rank of a communicator of size " + std::to_string(size_));
  if (tag > kMaxTag)
    throw Error(std::string(call) + ": tag " + std::to_string(tag) + " is outside 0.." + std::to_string(kMaxTag));
  if (count > p2p::kMaxBytes / size)
    throw Error(std::string(call) + ": " + std::to_string(count) + " elements of " + std::to_string(size) +
                " bytes are more than a message holds (" + std::to_string(p2p::kMaxBytes) + " bytes)");
  check_buffer(call, "the", buf, count);
  return count * size;
}

void Communicator::barrier() {
  check_live("barrier");
  if (choose(Collective::Barrier, 0) == Algorithm::TorusDissemination) return torus_dissemination_barrier();
  NodeTasks::Slot& s = node_.slot(slot_key());
  const uint64_t generation = s.generation;
  if (local_count_ > 1) {
    local_arrive(s);
    if (!is_leader()) {
      local_wait_release(s, generation);
      return;
    }
  }
  try {
    if (is_world()) {
      // World barriers alternate between two channels: a rank that polls slowly (serving
      // point-to-point traffic meanwhile) still sees its barrier complete, because no rank
      // can come back to a channel before every rank has left the barrier on it.
      const unsigned ch = kWorldChannel + (barriers_++ % kWorldChannels);
      bool& sense = sense_[ch - kWorldChannel];
      sense = !sense;
      fw::BarrierFirmware& b = task_.barrier;
      const unsigned bit = 1u << ch;
      const uint64_t mine = b.local();
      b.set_local(sense ? (mine | bit) : (mine & ~uint64_t{bit}));
      // Set: wait until every bit is set. Cleared: wait until none is.
      if (sense) {
        while (!b.all_set(ch)) serve_p2p();
      } else {
        while (b.any_set(ch)) serve_p2p();
      }
    } else {
      // A subset: a one-word OR over its class route, straight from the leader.
      stream(Encoding{fw::AluOp::Or, 64}, std::vector<uint64_t>(1, 0), {0, 1}, kBarrier);
    }
  } catch (...) {
    if (local_count_ > 1) {
      s.failure = std::current_exception();
      local_release(s);
    }
    throw;
  }
  if (local_count_ > 1) local_release(s);
}

void Communicator::allreduce_words(const uint64_t* send, uint64_t* recv, size_t count, Datatype type, Op op) {
  check_accepts("allreduce", op, type);
  if (count == 0) return;
  check_buffer("allreduce", "send", send, count);
  check_buffer("allreduce", "receive", recv, count);
  if (!on_tree(op)) return prod_reduce("allreduce", send, recv, count, type, 0, true);
  agree("allreduce", count, type, op, 0);
  const Algorithm a = choose(Collective::Allreduce, count * native_bytes(type, is_loc(op)));
  const std::vector<uint64_t> r = reduce_positions(
      send, count, type, op, 1, 0,
      a == Algorithm::Tree ? over_tree(describe(kAllreduce, count, type, op, 0)) : on_torus(a, std::nullopt));
  std::copy(r.begin(), r.end(), recv);
}

void Communicator::reduce_words(const uint64_t* send, uint64_t* recv, size_t count, Datatype type, Op op, unsigned root) {
  check_accepts("reduce", op, type);
  check_root("reduce", root);
  if (count == 0) return;
  check_buffer("reduce", "send", send, count);
  if (rank_ == root) check_buffer("reduce", "receive", recv, count);
  if (!on_tree(op)) return prod_reduce("reduce", send, recv, count, type, root, false);
  agree("reduce", count, type, op, root);
  const Algorithm a = choose(Collective::Reduce, count * native_bytes(type, is_loc(op)));
  const std::vector<uint64_t> r = reduce_positions(
      send, count, type, op, 1, 0,
      a == Algorithm::Tree ? over_tree(describe(kReduce, count, type, op, root)) : on_torus(a, root));
  if (rank_ == root) std::copy(r.begin(), r.end(), recv);
}

void Communicator::bcast_words(uint64_t* buf, size_t count, Datatype type, unsigned root) {
  check_root("bcast", root);
  if (count == 0) return;
  check_buffer("bcast", "the", buf, count);
  agree("bcast", count, type, Op::Bor, root);
  // OR of the root's data with zeros, which the identity-injection unit supplies for every
  // other rank: non-roots write one register instead of the whole message.
  std::vector<uint64_t> msg(raw_words(type, count), 0);
  if (rank_ == root)
    for (size_t i = 0; i < count; ++i) put_raw(msg, type, i, buf[i]);
  const std::pair<size_t, size_t> own = rank_ == root ? std::make_pair(size_t{0}, msg.size()) : std::make_pair(size_t{0}, size_t{0});
  const std::vector<uint64_t> r = pass(raw_encoding(), std::move(msg), own, describe(kBcast, count, type, Op::Bor, root));
  for (size_t i = 0; i < count; ++i) buf[i] = get_raw(r, type, i);
}

void Communicator::gather_to(const uint64_t* send, uint64_t* recv, size_t count, Datatype type, unsigned root,
                             bool everyone) {
  const char* call = everyone ? "allgather" : "gather";
  if (count == 0) return;
  check_buffer(call, "send", send, count);
  const bool receives = everyone || rank_ == root;
  if (receives) check_buffer(call, "receive", recv, count * size_);
  agree(call, count, type, Op::Bor, root);
  std::vector<uint64_t> msg(raw_words(type, size_ * count), 0);
  for (size_t i = 0; i < count; ++i) put_raw(msg, type, rank_ * count + i, send[i]);
  const auto own = raw_word_range(type, rank_ * count, (rank_ + 1) * count);
  const std::vector<uint64_t> r =
      pass(raw_encoding(), std::move(msg), own, describe(everyone ? kAllgather : kGather, count, type, Op::Bor, root));
  if (receives)
    for (size_t i = 0; i < size_ * count; ++i) recv[i] = get_raw(r, type, i);
}

void Communicator::prefix(const char* call, const uint64_t* send, uint64_t* recv, size_t count, Datatype type, Op op,
                          bool inclusive) {
  check_accepts(call, op, type);
  if (count == 0) return;
  check_buffer(call, "send", send, count);
  if (inclusive || rank_ > 0) check_buffer(call, "receive", recv, count);
  if (!on_tree(op)) return prod_prefix(call, send, recv, count, type, inclusive);
  agree(call, count, type, op, 0);
  const Algorithm a = choose(inclusive ? Collective::Scan : Collective::Exscan, count * native_bytes(type, is_loc(op)));
  const size_t from = inclusive ? rank_ : rank_ + 1;
  const std::vector<uint64_t> r =
      a == Algorithm::Tree
          ? reduce_positions(send, count, type, op, size_, from,
                             over_tree(describe(inclusive ? kScan : kExscan, count, type, op, 0)))
          : reduce_positions(send, count, type, op, 1, 0, prefix_on_torus(inclusive));
  if (inclusive || rank_ > 0) std::copy(r.begin(), r.end(), recv);
}

// ------------------------------------------------------------------ native buffers
// The native forms convert the program's buffers to raw form and back (host work, free in
// simulated time: the processor reads its elements from memory in either form), and write
// a receive buffer only where the collective defines it.
namespace {

// A native buffer's elements in raw form; nothing for a null buffer, which the raw form's
// checks then refuse by name.
std::vector<uint64_t> raw_of(const void* p, size_t count, Datatype t, bool pairs) {
  return p ? native_to_raw(t, pairs, p, count) : std::vector<uint64_t>();
}
const uint64_t* data_or_null(const std::vector<uint64_t>& v, const void* p) { return p ? v.data() : nullptr; }
uint64_t* data_or_null(std::vector<uint64_t>& v, const void* p) { return p ? v.data() : nullptr; }
size_t raw_elements(size_t count, bool pairs) { return count * (pairs ? 2 : 1); }

// Runs `words(send, recv)` of a raw-form collective on raw copies of the native buffers of
// `count` elements, and writes its `out_count` result elements back to recv if the
// collective defines them on this rank.
template <class Words>
void through_raw(const void* send, void* recv, size_t count, size_t out_count, Datatype type, bool pairs,
                 bool defined, Words&& words) {
  const std::vector<uint64_t> in = raw_of(send, count, type, pairs);
  std::vector<uint64_t> out(recv ? raw_elements(out_count, pairs) : 0);
  words(data_or_null(in, send), data_or_null(out, recv));
  if (recv && out_count && defined) raw_to_native(type, pairs, out.data(), out_count, recv);
}

}  // namespace

void Communicator::allreduce(const void* send, void* recv, size_t count, Datatype type, Op op) {
  through_raw(send, recv, count, count, type, is_loc(op), true,
              [&](const uint64_t* s, uint64_t* r) { allreduce_words(s, r, count, type, op); });
}

void Communicator::reduce(const void* send, void* recv, size_t count, Datatype type, Op op, unsigned root) {
  through_raw(send, recv, count, count, type, is_loc(op), rank_ == root,
              [&](const uint64_t* s, uint64_t* r) { reduce_words(s, r, count, type, op, root); });
}

void Communicator::bcast(void* buf, size_t count, Datatype type, unsigned root) {
  if (choose(Collective::Bcast, count * native_bytes(type, false)) != Algorithm::Tree) {
    check_root("bcast", root);
    if (count == 0) return;
    check_buffer("bcast", "the", buf, count);
    agree("bcast", count, type, Op::Bor, root);
    const Algorithm a = choose(Collective::Bcast, count * native_bytes(type, false));
    if (a == Algorithm::TorusDeposit) return torus_deposit_bcast(buf, count * native_bytes(type, false), root);
    if (a == Algorithm::TorusNeighbourhood) return neighbourhood_bcast(buf, count * native_bytes(type, false), root);
    return torus_bcast(buf, count * native_bytes(type, false), root);
  }
  std::vector<uint64_t> b = raw_of(buf, count, type, false);  // in place
  bcast_words(data_or_null(b, buf), count, type, root);
  if (buf && count) raw_to_native(type, false, b.data(), count, buf);
}

void Communicator::gather(const void* send, void* recv, size_t count, Datatype type, unsigned root) {
  check_root("gather", root);
  const bool receives = rank_ == root;
  const Algorithm a = choose(Collective::Gather, count * native_bytes(type, false));
  if (a != Algorithm::Tree) {
    if (count == 0) return;
    check_buffer("gather", "send", send, count);
    if (receives) check_buffer("gather", "receive", recv, count * size_);
    agree("gather", count, type, Op::Bor, root);
    if (a == Algorithm::TorusNeighbourhood) return neighbourhood_gather(send, recv, count * native_bytes(type, false), root);
    return torus_gather(send, recv, count * native_bytes(type, false), root);
  }
  through_raw(send, receives ? recv : nullptr, count, count * size_, type, false, receives,
              [&](const uint64_t* s, uint64_t* r) { gather_to(s, r, count, type, root, false); });
}

void Communicator::allgather(const void* send, void* recv, size_t count, Datatype type) {
  const size_t b = native_bytes(type, false);
  const Algorithm a = choose(Collective::Allgather, count * b);
  if (a != Algorithm::Tree) {
    if (count == 0) return;
    check_buffer("allgather", "send", send, count);
    check_buffer("allgather", "receive", recv, count * size_);
    agree("allgather", count, type, Op::Bor, 0);
    unsigned char* base = static_cast<unsigned char*>(recv);
    copy_local(base + rank_ * count * b, send, count * b);
    std::vector<unsigned char*> at(size_);
    for (unsigned j = 0; j < size_; ++j) at[j] = base + j * count * b;
    return torus_allgather_blocks(at, std::vector<size_t>(size_, count * b), a);
  }
  through_raw(send, recv, count, count * size_, type, false, true,
              [&](const uint64_t* s, uint64_t* r) { gather_to(s, r, count, type, 0, true); });
}

void Communicator::scan(const void* send, void* recv, size_t count, Datatype type, Op op) {
  through_raw(send, recv, count, count, type, is_loc(op), true,
              [&](const uint64_t* s, uint64_t* r) { prefix("scan", s, r, count, type, op, true); });
}

void Communicator::exscan(const void* send, void* recv, size_t count, Datatype type, Op op) {
  through_raw(send, recv, count, count, type, is_loc(op), rank_ > 0,
              [&](const uint64_t* s, uint64_t* r) { prefix("exscan", s, r, count, type, op, false); });
}

}  // namespace collnet::driver
