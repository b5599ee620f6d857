// SPDX-License-Identifier: Apache-2.0
// A reduction of the program's buffers (allreduce, reduce, scan, exscan, reduce_scatter):
// the elements are encoded for the ALU (encoding.hpp; float sums in two passes,
// float_sum.hpp) straight from their native layout, the encoded messages are combined
// across the ranks by a Combining (a pass over the tree, a torus algorithm), and the
// result is decoded straight into the receive buffer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "driver/collective_context.hpp"
#include "driver/encoding.hpp"

namespace collnet::driver {

using WordRange = std::pair<size_t, size_t>;  // words [first, second) of a message

// How encoded messages (this rank's owning a word range, holding the identity elsewhere)
// combine across the ranks: the floating-point sum's exponents, which every rank must
// learn, and the values. One call per message, never per element.
class Combining {
 public:
  virtual ~Combining() = default;
  virtual std::vector<uint64_t> exponents(CollectiveContext& c, const Encoding& e, std::vector<uint64_t> msg,
                                          WordRange owned) const = 0;
  virtual std::vector<uint64_t> values(CollectiveContext& c, const Encoding& e, std::vector<uint64_t> msg,
                                       WordRange owned) const = 0;
};

// Where a reduction's elements lie: a message of `positions` x call.count elements (position
// p at p*count), in which this rank contributes its send buffer at every position in
// [from, positions) and the identity below. Position min(rank, positions - 1) of the
// result is this rank's; of it, elements [out_first, out_first + out_count) go to
// call.recv (none on the ranks where the call defines no result).
struct ReduceLayout {
  size_t positions = 1, from = 0;
  size_t out_first = 0, out_count = 0;
};

// allreduce's (every rank's result), reduce's (the root's), and scan's (inclusive) or
// exscan's (rank 0 has none) computed as one position.
inline ReduceLayout everyone(const CollectiveContext& c) { return {1, 0, 0, c.call.count}; }
inline ReduceLayout at_root(const CollectiveContext& c) {
  return {1, 0, 0, c.rank() == c.call.root ? c.call.count : 0};
}
inline ReduceLayout prefix(const CollectiveContext& c, bool inclusive) {
  return {1, 0, 0, inclusive || c.rank() > 0 ? c.call.count : 0};
}

// Encodes call.send, combines it by `combining` and decodes into call.recv. Every rank
// encodes and combines alike; send is read before recv is written (they may alias).
void reduce_native(CollectiveContext& c, const ReduceLayout& layout, const Combining& combining);

// How a reduction combines when the caller does not choose: a pass over the class route,
// or on the torus recursive doubling (`at_root`: binomial to the call's root, where the
// others' result is undefined). `descriptor` goes into the tree packets' tags.
class DefaultCombining final : public Combining {
 public:
  explicit DefaultCombining(uint64_t descriptor, bool at_root = false) : descriptor_(descriptor), at_root_(at_root) {}
  std::vector<uint64_t> exponents(CollectiveContext& c, const Encoding& e, std::vector<uint64_t> msg,
                                  WordRange owned) const override;
  std::vector<uint64_t> values(CollectiveContext& c, const Encoding& e, std::vector<uint64_t> msg,
                               WordRange owned) const override;

 private:
  uint64_t descriptor_;
  bool at_root_;
};

}  // namespace collnet::driver
