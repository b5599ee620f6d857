// SPDX-License-Identifier: Apache-2.0
// gatherv/allgatherv: one message holds every rank's elements packed in rank order; rank
// r owns the range that starts after the elements of ranks 0..r-1 and contributes zeros
// elsewhere (most of them through the identity-injection unit), and the OR of all ranks'
// messages is every rank's data. The receive side then places rank j's range at
// displs[j].
#include "driver/vector_collectives.hpp"

#include <cstdint>
#include <cstring>
#include <string>

#include "driver/argument_agreement.hpp"
#include "driver/collective_args.hpp"
#include "driver/error.hpp"
#include "driver/reduction.hpp"
#include "driver/torus_reductions.hpp"
#include "driver/tree_collectives.hpp"

namespace collnet::driver::vector {

namespace {

// This rank's contribution to a gather: its send buffer, or in place its own block of the
// receive buffer; `count` elements, not null unless none.
const void* own_block(const char* call, const void* send, size_t count, void* recv, const std::vector<size_t>& displs,
                      Datatype type, unsigned rank) {
  const void* src =
      send == kInPlace ? static_cast<const unsigned char*>(recv) + displs[rank] * native_bytes(type, false) : send;
  need_buffer(call, "send", src, count);
  return src;
}

}  // namespace

void gatherv(CollectiveContext& c, const void* send, size_t sendcount, void* recv,
             const std::vector<size_t>& recvcounts, const std::vector<size_t>& displs) {
  const char* call = c.call.name;
  const unsigned n = c.size(), me = c.rank(), root = c.call.root;
  const bool at_root = me == root;
  if (send == kInPlace && !at_root) throw Error(std::string(call) + ": only the root may pass kInPlace");
  if (at_root) check_layout(call, "receive", "recvcounts", "displs", recvcounts, displs, recv, n);
  const bool in_place = send == kInPlace;
  const size_t mine = in_place ? recvcounts[me] : sendcount;
  const void* src = own_block(call, send, mine, recv, displs, c.call.type, me);
  agree(c, 0, c.call.type, Op::Bor, root);

  // The ranges: word j holds rank j's count, words size()+j the root's recvcounts[j].
  std::vector<uint64_t> msg(2 * n, 0);
  msg[me] = mine;
  if (at_root)
    for (unsigned j = 0; j < n; ++j) msg[n + j] = recvcounts[j];
  const WordRange own{me, at_root ? 2 * n : me + 1};
  const std::vector<uint64_t> r = DefaultCombining(describe(kGathervCounts, 0, c.call.type, Op::Max, root))
                                      .values(c, Encoding{fw::AluOp::Max, 64}, msg, own);
  for (unsigned j = 0; j < n; ++j)
    if (r[j] != r[n + j])
      throw Error(std::string(call) + ": rank " + std::to_string(j) + " sends " + std::to_string(r[j]) +
                  " elements but recvcounts[" + std::to_string(j) + "] on the root is " + std::to_string(r[n + j]));
  std::vector<size_t> counts(n);
  for (unsigned j = 0; j < n; ++j) counts[j] = r[j];
  tree::gather_ranges(c, src, counts, at_root ? recv : nullptr, displs, in_place, kGatherv);
}

void prepare_allgatherv(CollectiveContext& c, const void* send, size_t sendcount, const std::vector<size_t>& recvcounts,
                        const std::vector<size_t>& displs) {
  const char* call = c.call.name;
  const unsigned me = c.rank();
  check_layout(call, "receive", "recvcounts", "displs", recvcounts, displs, c.call.recv, c.size());
  const bool in_place = send == kInPlace;
  const size_t mine = in_place ? recvcounts[me] : sendcount;
  const void* src = own_block(call, send, mine, c.call.recv, displs, c.call.type, me);
  if (mine != recvcounts[me])
    throw Error(std::string(call) + ": sendcount " + std::to_string(mine) + " on rank " + std::to_string(me) +
                " differs from recvcounts[" + std::to_string(me) + "] = " + std::to_string(recvcounts[me]));
  agree(c, 0, c.call.type, Op::Bor, 0);
  agree_counts(c, "recvcounts", recvcounts);
  c.call.send = src;
  c.call.counts = &recvcounts;
  c.call.displs = &displs;
  c.call.in_place = in_place;
}

void reduce_scatter(CollectiveContext& c, const std::vector<size_t>& recvcounts) {
  const char* call = c.call.name;
  const Datatype type = c.call.type;
  const Op op = c.call.op;
  const unsigned n = c.size(), me = c.rank();
  check_accepts(call, op, type);
  need_size(call, "recvcounts", recvcounts, n);
  size_t total = 0, before = 0;
  for (unsigned j = 0; j < n; ++j) {
    if (recvcounts[j] > SIZE_MAX / 16 - total)
      throw Error(std::string(call) + ": the recvcounts add up to more than a buffer holds");
    if (j == me) before = total;
    total += recvcounts[j];
  }
  const bool in_place = c.call.send == kInPlace;
  need_buffer(call, "receive", c.call.recv, in_place ? total : recvcounts[me]);
  if (in_place) c.call.send = c.call.recv;
  need_buffer(call, "send", c.call.send, total);
  agree_counts(c, "recvcounts", recvcounts);
  if (total == 0) {
    c.state.last = {};
    return;
  }
  // The reduction of all of it on every rank; this rank keeps its part.
  c.call.count = total;
  agree(c, total, type, op, 0);
  if (!on_tree(op)) {
    std::vector<unsigned char> all(total * native_bytes(type, false));
    prod::allreduce(c, all.data());
    const size_t b = native_bytes(type, false);
    if (recvcounts[me]) std::memcpy(c.call.recv, all.data() + before * b, recvcounts[me] * b);
    return;
  }
  reduce_native(c, {1, 0, before, recvcounts[me]}, DefaultCombining(describe(kReduceScatter, total, type, op, 0)));
}

}  // namespace collnet::driver::vector
