// SPDX-License-Identifier: Apache-2.0
// The vector collectives on the tree: gatherv and allgatherv (the tree's gather with
// ranges of different lengths), reduce_scatter and reduce_scatter_block (a reduction of
// the whole vector of which each rank keeps its part).
//
// gatherv/allgatherv: one message holds every rank's elements packed in rank order; rank
// r owns the range that starts after the elements of ranks 0..r-1 and contributes zeros
// elsewhere (most of them through the identity-injection unit), and the OR of all ranks'
// messages is every rank's data. The receive side then places rank j's range at
// displs[j]. gatherv first learns the ranges: a one-word-per-rank MAX pass, which also
// carries the root's recvcounts so that every rank checks them against what is sent.
#include <algorithm>
#include <string>
#include <vector>

#include "driver/collective_args.hpp"
#include "driver/communicator.hpp"
#include "driver/error.hpp"

namespace collnet::driver {

namespace {

// Collective identifiers folded into the headers' tags (communicator.cpp uses 1..9).
enum VectorCallId : uint64_t { kGathervCounts = 0x21, kGatherv, kAllgatherv, kReduceScatter, kAgreeCounts };

uint64_t describe(VectorCallId call, size_t count, Datatype type, Op op, unsigned root) {
  return (static_cast<uint64_t>(call) << 56) ^ (static_cast<uint64_t>(count) << 16) ^
         (static_cast<uint64_t>(type) << 8) ^ (static_cast<uint64_t>(op) << 4) ^ (static_cast<uint64_t>(root) << 32);
}

const unsigned char* bytes_at(const void* p, size_t elements, Datatype t, bool pairs = false) {
  return static_cast<const unsigned char*>(p) + elements * native_bytes(t, pairs);
}
unsigned char* bytes_at(void* p, size_t elements, Datatype t, bool pairs = false) {
  return static_cast<unsigned char*>(p) + elements * native_bytes(t, pairs);
}

// This rank's contribution to a gather: its send buffer, or in place its own block of the
// receive buffer; `count` elements, not null unless none.
const void* own_block(const char* call, const void* send, size_t count, void* recv, const std::vector<size_t>& displs,
                      Datatype type, unsigned rank) {
  const void* src = send == Communicator::kInPlace ? bytes_at(recv, displs[rank], type) : send;
  need_buffer(call, "send", src, count);
  return src;
}

}  // namespace

void Communicator::agree_counts(const char* call, const char* name, const std::vector<size_t>& v) {
  if (!check_arguments_) return;
  // MAX of each entry and of its complement: the largest and the smallest value passed.
  std::vector<uint64_t> msg(2 * size_);
  for (unsigned j = 0; j < size_; ++j) {
    msg[2 * j] = v[j];
    msg[2 * j + 1] = ~uint64_t{v[j]};
  }
  const std::vector<uint64_t> r =
      reduction(describe(kAgreeCounts, size_, Datatype::U64, Op::Max, 0))
          .values(Encoding{fw::AluOp::Max, 64}, msg, {0, msg.size()});
  for (unsigned j = 0; j < size_; ++j)
    if (r[2 * j] != ~r[2 * j + 1])
      throw Error(std::string(call) + ": the ranks passed different " + name + "[" + std::to_string(j) + "] (from " +
                  std::to_string(~r[2 * j + 1]) + " to " + std::to_string(r[2 * j]) + ")");
}

// ------------------------------------------------------------------ gatherv, allgatherv

void Communicator::gatherv(const void* send, size_t sendcount, void* recv, const std::vector<size_t>& recvcounts,
                           const std::vector<size_t>& displs, Datatype type, unsigned root) {
  const char* call = "gatherv";
  check_root(call, root);
  const bool at_root = rank_ == root;
  if (send == kInPlace && !at_root) throw Error(std::string(call) + ": only the root may pass kInPlace");
  if (at_root) {
    check_layout(call, "receive", "recvcounts", "displs", recvcounts, displs, recv, size_);
  }
  const bool in_place = send == kInPlace;
  const size_t mine = in_place ? recvcounts[rank_] : sendcount;
  const void* src = own_block(call, send, mine, recv, displs, type, rank_);
  agree(call, 0, type, Op::Bor, root);

  // The ranges: word j holds rank j's count, words size()+j the root's recvcounts[j].
  std::vector<uint64_t> msg(2 * size_, 0);
  msg[rank_] = mine;
  if (at_root)
    for (unsigned j = 0; j < size_; ++j) msg[size_ + j] = recvcounts[j];
  const std::pair<size_t, size_t> own{rank_, at_root ? 2 * size_ : rank_ + 1};
  const std::vector<uint64_t> c =
      reduction(describe(kGathervCounts, 0, type, Op::Max, root)).values(Encoding{fw::AluOp::Max, 64}, msg, own);
  for (unsigned j = 0; j < size_; ++j)
    if (c[j] != c[size_ + j])
      throw Error(std::string(call) + ": rank " + std::to_string(j) + " sends " + std::to_string(c[j]) +
                  " elements but recvcounts[" + std::to_string(j) + "] on the root is " + std::to_string(c[size_ + j]));
  std::vector<size_t> counts(size_);
  for (unsigned j = 0; j < size_; ++j) counts[j] = c[j];
  gather_ranges(src, counts, at_root ? recv : nullptr, displs, type, in_place, kGatherv, root);
}

void Communicator::gather_ranges(const void* src, const std::vector<size_t>& counts, void* recv,
                                 const std::vector<size_t>& displs, Datatype type, bool in_place, uint64_t call_id,
                                 unsigned root) {
  std::vector<size_t> offset(size_ + 1, 0);
  for (unsigned j = 0; j < size_; ++j) offset[j + 1] = offset[j] + counts[j];
  const size_t total = offset[size_];
  if (total == 0) return;

  const size_t mine = counts[rank_];
  const std::vector<uint64_t> raw = native_to_raw(type, false, src, mine);
  std::vector<uint64_t> data(raw_words(type, total), 0);
  for (size_t i = 0; i < mine; ++i) put_raw(data, type, offset[rank_] + i, raw[i]);
  // Off the tree, gatherv's data goes to the root only (a binomial reduction by OR).
  const std::optional<unsigned> to = call_id == kGatherv ? std::optional<unsigned>(root) : std::nullopt;
  const std::vector<uint64_t> r =
      reduction(describe(static_cast<VectorCallId>(call_id), total, type, Op::Bor, root), to)
          .values(raw_encoding(), std::move(data), raw_word_range(type, offset[rank_], offset[rank_ + 1]));
  if (recv == nullptr) return;
  std::vector<uint64_t> block;
  for (unsigned j = 0; j < size_; ++j) {
    if (in_place && j == rank_) continue;  // already in place
    block.resize(counts[j]);
    for (size_t i = 0; i < counts[j]; ++i) block[i] = get_raw(r, type, offset[j] + i);
    if (counts[j]) raw_to_native(type, false, block.data(), counts[j], bytes_at(recv, displs[j], type));
  }
}

void Communicator::allgatherv(const void* send, size_t sendcount, void* recv, const std::vector<size_t>& recvcounts,
                              const std::vector<size_t>& displs, Datatype type) {
  const char* call = "allgatherv";
  check_layout(call, "receive", "recvcounts", "displs", recvcounts, displs, recv, size_);
  const bool in_place = send == kInPlace;
  const size_t mine = in_place ? recvcounts[rank_] : sendcount;
  const void* src = own_block(call, send, mine, recv, displs, type, rank_);
  if (mine != recvcounts[rank_])
    throw Error(std::string(call) + ": sendcount " + std::to_string(mine) + " on rank " + std::to_string(rank_) +
                " differs from recvcounts[" + std::to_string(rank_) + "] = " + std::to_string(recvcounts[rank_]));
  agree(call, 0, type, Op::Bor, 0);
  agree_counts(call, "recvcounts", recvcounts);
  const size_t b = native_bytes(type, false);
  // Every rank must choose alike: by the mean block, which all of them know.
  size_t total = 0;
  for (size_t c : recvcounts) total += c;
  const Algorithm a = choose(Collective::Allgatherv, total * b / size_);
  if (a == Algorithm::Tree) return gather_ranges(src, recvcounts, recv, displs, type, in_place, kAllgatherv, 0);
  std::vector<unsigned char*> at(size_);
  std::vector<size_t> len(size_);
  for (unsigned j = 0; j < size_; ++j) {
    at[j] = static_cast<unsigned char*>(recv) + displs[j] * b;
    len[j] = recvcounts[j] * b;
  }
  if (!in_place) copy_local(at[rank_], src, len[rank_]);
  torus_allgather_blocks(at, len, a);
}

// ------------------------------------------------------------------ reduce_scatter

std::vector<uint64_t> Communicator::reduce_all_words(const char* call, const uint64_t* send, size_t count,
                                                     Datatype type, Op op) {
  std::vector<uint64_t> out(count * (is_loc(op) ? 2 : 1));
  if (!on_tree(op)) {
    prod_reduce(call, send, out.data(), count, type, 0, true);
    return out;
  }
  agree(call, count, type, op, 0);
  return reduce_positions(send, count, type, op, 1, 0, reduction(describe(kReduceScatter, count, type, op, 0)));
}

void Communicator::reduce_scatter(const void* send, void* recv, const std::vector<size_t>& recvcounts, Datatype type,
                                  Op op) {
  reduce_scatter_as("reduce_scatter", send, recv, recvcounts, type, op);
}

void Communicator::reduce_scatter_block(const void* send, void* recv, size_t recvcount, Datatype type, Op op) {
  reduce_scatter_as("reduce_scatter_block", send, recv, std::vector<size_t>(size_, recvcount), type, op);
}

void Communicator::reduce_scatter_as(const char* call, const void* send, void* recv,
                                     const std::vector<size_t>& recvcounts, Datatype type, Op op) {
  check_accepts(call, op, type);
  need_size(call, "recvcounts", recvcounts, size_);
  const bool pairs = is_loc(op);
  size_t total = 0, before = 0;
  for (unsigned j = 0; j < size_; ++j) {
    if (recvcounts[j] > SIZE_MAX / 16 - total)
      throw Error(std::string(call) + ": the recvcounts add up to more than a buffer holds");
    if (j == rank_) before = total;
    total += recvcounts[j];
  }
  const bool in_place = send == kInPlace;
  need_buffer(call, "receive", recv, in_place ? total : recvcounts[rank_]);
  const void* src = in_place ? recv : send;
  need_buffer(call, "send", src, total);
  agree_counts(call, "recvcounts", recvcounts);
  if (total == 0) {
    last_ = {};
    return;
  }
  const std::vector<uint64_t> in = native_to_raw(type, pairs, src, total);
  const std::vector<uint64_t> r = reduce_all_words(call, in.data(), total, type, op);
  if (recvcounts[rank_])
    raw_to_native(type, pairs, r.data() + before * (pairs ? 2 : 1), recvcounts[rank_], recv);
}

}  // namespace collnet::driver
