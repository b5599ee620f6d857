// SPDX-License-Identifier: Apache-2.0
// The building blocks of the torus algorithms, on the collectives' point-to-point
// messages: reductions of encoded messages (combined as the ALU does, so that a torus
// reduction gives the tree's result bit for bit), binomial trees over a group of ranks,
// and line broadcasts with the deposit bit. docs/torus-algorithms.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "driver/algorithm.hpp"
#include "driver/collective_context.hpp"
#include "driver/reduction.hpp"

namespace collnet::driver::torus {

// An encoded message combined over all ranks (this rank's result returned), by one
// algorithm each: binomial (to rank 0, then a binomial broadcast), recursive doubling,
// ring and Rabenseifner; to_root: binomial to the call's root only (the other ranks'
// result is undefined); the prefixes of scan (over ranks 0..rank) and exscan (0..rank-1,
// the identity on rank 0) by recursive doubling.
using MessageReduction = std::vector<uint64_t> (*)(CollectiveContext& c, const Encoding& e, std::vector<uint64_t> msg);
std::vector<uint64_t> binomial(CollectiveContext& c, const Encoding& e, std::vector<uint64_t> msg);
std::vector<uint64_t> recursive_doubling(CollectiveContext& c, const Encoding& e, std::vector<uint64_t> msg);
std::vector<uint64_t> ring(CollectiveContext& c, const Encoding& e, std::vector<uint64_t> msg);
std::vector<uint64_t> rabenseifner(CollectiveContext& c, const Encoding& e, std::vector<uint64_t> msg);
std::vector<uint64_t> to_root(CollectiveContext& c, const Encoding& e, std::vector<uint64_t> msg);
std::vector<uint64_t> inclusive_prefix(CollectiveContext& c, const Encoding& e, std::vector<uint64_t> msg);
std::vector<uint64_t> exclusive_prefix(CollectiveContext& c, const Encoding& e, std::vector<uint64_t> msg);

// A reduction on the torus: the float sum's exponents (which every rank needs before it
// encodes: binomial, or else recursive doubling, the exponents being a quarter of the
// data's words) and the values, each by its MessageReduction.
class OnTorus final : public Combining {
 public:
  OnTorus(MessageReduction exponents, MessageReduction values) : exponents_(exponents), values_(values) {}
  std::vector<uint64_t> exponents(CollectiveContext& c, const Encoding& e, std::vector<uint64_t> msg,
                                  WordRange) const override {
    return exponents_(c, e, std::move(msg));
  }
  std::vector<uint64_t> values(CollectiveContext& c, const Encoding& e, std::vector<uint64_t> msg,
                               WordRange) const override {
    return values_(c, e, std::move(msg));
  }

 private:
  MessageReduction exponents_, values_;
};
// Values by `values`, exponents by recursive doubling.
inline OnTorus on_torus(MessageReduction values) { return OnTorus(recursive_doubling, values); }

// Binomial trees over a group of ranks rooted at its first (torus-binomial's collectives
// run on Membership::rotated(root), the neighbourhood algorithm's on its neighbourhoods): bcast, reduce of
// encoded words (the result at the first), gather and scatter of blocks of sizes[i] bytes
// for member i, concatenated in group order at the first (`out` and `in` are read there
// only; `mine` may be null in scatter: the block stays where it is).
void group_bcast(CollectiveContext& c, const std::vector<unsigned>& g, void* buf, size_t bytes);
void group_reduce(CollectiveContext& c, const std::vector<unsigned>& g, const Encoding& e, std::vector<uint64_t>& msg);
void group_gather(CollectiveContext& c, const std::vector<unsigned>& g, const std::vector<size_t>& sizes,
                  const void* mine, unsigned char* out);
void group_scatter(CollectiveContext& c, const std::vector<unsigned>& g, const std::vector<size_t>& sizes,
                   const unsigned char* in, void* mine);

// A line broadcast (the deposit bit) of `bytes` held by rank `source`, a packet-sized
// chunk at a time: every rank gets each chunk from its node's memory; the node's sending
// task (the source on its node, the leader elsewhere) sends each chunk along this node's
// `lines` once it has it.
struct Line {
  unsigned dim;
  int hops;  // > 0 the + way, < 0 the - way
};
void line_bcast(CollectiveContext& c, void* buf, size_t bytes, unsigned source, const std::vector<Line>& lines);

}  // namespace collnet::driver::torus
