// SPDX-License-Identifier: Apache-2.0
#include "driver/tree_collectives.hpp"

#include <cstring>

#include "driver/reduction.hpp"
#include "driver/tree_passes.hpp"

namespace collnet::driver::tree {

void barrier(CollectiveContext& c) { barrier_pass(c); }

void bcast(CollectiveContext& c) {
  // OR of the root's data with zeros, which the identity-injection unit supplies for every
  // other rank: non-roots write one register instead of the whole message. The message's
  // words hold the elements packed as the program's buffer does.
  const CollectiveCall& k = c.call;
  const size_t bytes = k.count * native_bytes(k.type, false);
  std::vector<uint64_t> msg(raw_words(k.type, k.count), 0);
  const bool root = c.rank() == k.root;
  if (root) std::memcpy(msg.data(), k.recv, bytes);
  const WordRange own = root ? WordRange{0, msg.size()} : WordRange{0, 0};
  const std::vector<uint64_t> r = pass(c, raw_encoding(), std::move(msg), own, k.descriptor(kBcast));
  std::memcpy(k.recv, r.data(), bytes);
}

namespace {

// gather (the root receives) and allgather (everyone does): rank r owns elements r*count..
void gather_to(CollectiveContext& c, bool everyone) {
  const CollectiveCall& k = c.call;
  const size_t block = k.count * native_bytes(k.type, false);
  std::vector<uint64_t> msg(raw_words(k.type, c.size() * k.count), 0);
  std::memcpy(reinterpret_cast<unsigned char*>(msg.data()) + c.rank() * block, k.send, block);
  const WordRange own = raw_word_range(k.type, c.rank() * k.count, (c.rank() + 1) * k.count);
  const std::vector<uint64_t> r =
      pass(c, raw_encoding(), std::move(msg), own, k.descriptor(everyone ? kAllgather : kGather));
  if (everyone || c.rank() == k.root) std::memcpy(k.recv, r.data(), c.size() * block);
}

}  // namespace

void gather(CollectiveContext& c) { gather_to(c, false); }
void allgather(CollectiveContext& c) { gather_to(c, true); }

void reduce(CollectiveContext& c) { reduce_native(c, at_root(c), OverTree(c.call.descriptor(kReduce))); }
void allreduce(CollectiveContext& c) { reduce_native(c, everyone(c), OverTree(c.call.descriptor(kAllreduce))); }

// By parallel-prefix broadcast: a message of size() positions in which rank r contributes
// its data at positions r.. (r+1.. for exscan) and the identity below; position p of the
// result is rank p's prefix.
void scan(CollectiveContext& c) {
  const ReduceLayout l{c.size(), c.rank(), 0, c.call.count};
  reduce_native(c, l, OverTree(c.call.descriptor(kScan)));
}
void exscan(CollectiveContext& c) {
  const ReduceLayout l{c.size(), c.rank() + size_t{1}, 0, c.rank() > 0 ? c.call.count : 0};
  reduce_native(c, l, OverTree(c.call.descriptor(kExscan)));
}

void gather_ranges(CollectiveContext& c, const void* src, const std::vector<size_t>& counts, void* recv,
                   const std::vector<size_t>& displs, bool in_place, CallId call_id) {
  const unsigned n = c.size(), me = c.rank();
  const Datatype type = c.call.type;
  std::vector<size_t> offset(n + 1, 0);
  for (unsigned j = 0; j < n; ++j) offset[j + 1] = offset[j] + counts[j];
  const size_t total = offset[n];
  if (total == 0) return;

  const size_t b = native_bytes(type, false);
  std::vector<uint64_t> data(raw_words(type, total), 0);
  if (counts[me]) std::memcpy(reinterpret_cast<unsigned char*>(data.data()) + offset[me] * b, src, counts[me] * b);
  const std::vector<uint64_t> r =
      DefaultCombining(describe(call_id, total, type, Op::Bor, c.call.root), call_id == kGatherv)
          .values(c, raw_encoding(), std::move(data), raw_word_range(type, offset[me], offset[me + 1]));
  if (recv == nullptr) return;
  const auto* words = reinterpret_cast<const unsigned char*>(r.data());
  for (unsigned j = 0; j < n; ++j) {
    if (in_place && j == me) continue;  // already in place
    if (counts[j]) std::memcpy(static_cast<unsigned char*>(recv) + displs[j] * b, words + offset[j] * b, counts[j] * b);
  }
}

void allgatherv(CollectiveContext& c) {
  const CollectiveCall& k = c.call;
  const void* src =
      k.in_place ? static_cast<const unsigned char*>(k.recv) + (*k.displs)[c.rank()] * native_bytes(k.type, false)
                 : k.send;
  gather_ranges(c, src, *k.counts, k.recv, *k.displs, k.in_place, kAllgatherv);
}

}  // namespace collnet::driver::tree
