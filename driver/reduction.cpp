// SPDX-License-Identifier: Apache-2.0
#include "driver/reduction.hpp"

#include <algorithm>

#include "driver/float_sum.hpp"
#include "driver/torus_messages.hpp"
#include "driver/tree_passes.hpp"

namespace collnet::driver {

namespace {

// The float sum: the largest exponent of every position first, then the fixed-point sum.
void float_sum_positions(CollectiveContext& c, const ReduceLayout& l, const Combining& combining) {
  const CollectiveCall& k = c.call;
  const size_t count = k.count, total = l.positions * count;
  const size_t want = std::min<size_t>(c.rank(), l.positions - 1) * count;  // the position this rank reads
  const Encoding ee = float_sum::exponent_encoding(), fe = float_sum::fixed_encoding();
  std::vector<uint64_t> exps = ee.identity_message(total);
  for (size_t p = l.from; p < l.positions; ++p)
    for (size_t i = 0; i < count; ++i)
      put(exps, ee, p * count + i, {float_sum::exponent_key(k.type, load_raw(k.type, false, k.send, i))});
  const std::vector<uint64_t> emax = combining.exponents(c, ee, std::move(exps), ee.word_range(l.from * count, total));
  std::vector<uint64_t> fixed = fe.identity_message(total);
  for (size_t p = l.from; p < l.positions; ++p)
    for (size_t i = 0; i < count; ++i) {
      const size_t at = p * count + i;
      put(fixed, fe, at, float_sum::to_fixed(k.type, load_raw(k.type, false, k.send, i), get(emax, ee, at)[0]));
    }
  const std::vector<uint64_t> sum = combining.values(c, fe, std::move(fixed), fe.word_range(l.from * count, total));
  for (size_t i = l.out_first; i < l.out_first + l.out_count; ++i)
    store_raw(k.type, false, k.recv, i - l.out_first,
              float_sum::from_fixed(k.type, get(sum, fe, want + i), get(emax, ee, want + i)[0]));
}

// Off the tree: recursive doubling, or binomial to the root.
torus::OnTorus torus_default(bool at_root) {
  if (at_root) return torus::OnTorus(torus::binomial, torus::to_root);
  return torus::on_torus(torus::recursive_doubling);
}

}  // namespace

void reduce_native(CollectiveContext& c, const ReduceLayout& l, const Combining& combining) {
  const CollectiveCall& k = c.call;
  if (is_float(k.type) && k.op == Op::Sum) return float_sum_positions(c, l, combining);
  const size_t count = k.count, total = l.positions * count;
  const size_t want = std::min<size_t>(c.rank(), l.positions - 1) * count;
  const bool pairs = is_loc(k.op);
  const Encoding e = reduce_encoding(k.type, k.op);
  std::vector<uint64_t> msg = e.identity_message(total);
  for (size_t i = 0; i < count; ++i) {
    uint64_t index = 0;
    const uint64_t raw = load_raw(k.type, pairs, k.send, i, &index);
    const Operand v = encode(k.type, k.op, raw, index);
    for (size_t p = l.from; p < l.positions; ++p) put(msg, e, p * count + i, v);
  }
  const std::vector<uint64_t> res = combining.values(c, e, std::move(msg), e.word_range(l.from * count, total));
  for (size_t i = l.out_first; i < l.out_first + l.out_count; ++i) {
    uint64_t index = 0;
    const uint64_t v = decode(k.type, k.op, get(res, e, want + i), &index);
    store_raw(k.type, pairs, k.recv, i - l.out_first, v, index);
  }
}

std::vector<uint64_t> DefaultCombining::exponents(CollectiveContext& c, const Encoding& e, std::vector<uint64_t> msg,
                                                  WordRange owned) const {
  if (c.on_tree()) return tree::OverTree(descriptor_).exponents(c, e, std::move(msg), owned);
  return torus_default(at_root_).exponents(c, e, std::move(msg), owned);
}

std::vector<uint64_t> DefaultCombining::values(CollectiveContext& c, const Encoding& e, std::vector<uint64_t> msg,
                                               WordRange owned) const {
  if (c.on_tree()) return tree::OverTree(descriptor_).values(c, e, std::move(msg), owned);
  return torus_default(at_root_).values(c, e, std::move(msg), owned);
}

}  // namespace collnet::driver
