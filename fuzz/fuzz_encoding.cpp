// SPDX-License-Identifier: Apache-2.0
// Fuzz harness: how elements travel through the combining network's ALU
// (driver/encoding.hpp, driver/float_sum.hpp), checked against the reference model
// (reference/verify.hpp), which computes on the element types directly.
//   - decode(encode(x)) == x for every type, op and raw value (maxloc/minloc: the index too);
//   - put/get and put_raw/get_raw of messages give back what was put, and leave the rest;
//   - order keys order like the values (and from_order_key inverts order_key);
//   - the contributions of 1..4 ranks combined by the ALU model (fw::alu_combine) and
//     decoded are the reference model's result, floating-point sums by their two passes
//     (float_sum: exponents by MAX, then 256-bit fixed point by ADD) included.
// Decoding arbitrary operand words (not made by encode) must not crash either.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "driver/datatype.hpp"
#include "driver/encoding.hpp"
#include "driver/float_sum.hpp"
#include "driver/op.hpp"
#include "firmware/alu_model.hpp"
#include "fuzz/fuzz_util.hpp"
#include "reference/verify.hpp"

namespace driver = collnet::driver;
namespace reference = collnet::reference;
using driver::Datatype;
using driver::Op;
using collnet::fuzz::Bytes;

namespace {

const Datatype kTypes[] = {Datatype::U8, Datatype::U16, Datatype::U32, Datatype::U64, Datatype::I8,
                           Datatype::I16, Datatype::I32, Datatype::I64, Datatype::F32, Datatype::F64};

// Raw values that reach the corners: zeros, extremes, infinities, NaNs, subnormals.
uint64_t raw_value(Bytes& in, Datatype t) {
  const uint64_t mask = driver::raw_mask(t);
  const unsigned b = driver::bits(t);
  const uint64_t sign = uint64_t{1} << (b - 1);
  switch (in.u8() % 8) {
    case 0: return 0;
    case 1: return mask;
    case 2: return sign;
    case 3: return sign - 1;
    case 4: return in.u8() & mask;             // small (subnormal for floats)
    case 5: return (mask ^ (sign >> 1) ^ in.u8()) & mask;  // large exponents
    default: return in.u64() & mask;
  }
}

void round_trips(Bytes& in, Datatype t, Op op) {
  const uint64_t raw = raw_value(in, t);
  const uint64_t index = in.u64();
  const driver::Operand o = driver::encode(t, op, raw, index);
  uint64_t back_index = 0;
  const uint64_t back = driver::decode(t, op, o, &back_index);
  if (op == Op::Land || op == Op::Lor || op == Op::Lxor) FUZZ_CHECK(back == (raw != 0));
  else FUZZ_CHECK(back == raw);
  if (driver::is_loc(op)) FUZZ_CHECK(back_index == index);

  // Any operand words decode to something of the type.
  driver::Operand junk{in.u64(), in.u64(), in.u64(), in.u64()};
  FUZZ_CHECK((driver::decode(t, op, junk, &back_index) & ~driver::raw_mask(t)) == 0);

  // Order keys, at the widths the encodings use.
  const uint64_t other = raw_value(in, t);
  for (unsigned key_bits : {std::max(16u, driver::bits(t)), 64u}) {
    const uint64_t ka = driver::order_key(t, raw, key_bits), kb = driver::order_key(t, other, key_bits);
    FUZZ_CHECK(driver::from_order_key(t, ka, key_bits) == raw);
    const uint64_t mx = reference::reference_op(t, Op::Max, {raw, other});
    if (ka != kb) FUZZ_CHECK(mx == (ka > kb ? raw : other));
  }
}

void messages(Bytes& in, Datatype t, Op op) {
  if (!driver::on_tree(op) || (op == Op::Sum && driver::is_float(t))) return;
  const driver::Encoding e = driver::reduce_encoding(t, op);
  const size_t n = 1 + in.below(20);
  std::vector<uint64_t> msg = e.identity_message(n);
  FUZZ_CHECK(msg.size() == e.words(n));
  FUZZ_CHECK(e.word_range(0, n) == std::make_pair(size_t{0}, msg.size()));
  std::vector<driver::Operand> put(n);
  for (size_t i = 0; i < n; ++i) {
    put[i] = driver::encode(t, op, raw_value(in, t), in.u64());
    driver::put(msg, e, i, put[i]);
  }
  const uint64_t lane = e.operand_bits >= 64 ? ~0ull : (1ull << e.operand_bits) - 1;
  for (size_t i = 0; i < n; ++i) {
    const driver::Operand g = driver::get(msg, e, i);
    for (unsigned k = 0; k < e.words_per_operand(); ++k) FUZZ_CHECK(g[k] == (put[i][k] & lane));
    const auto [lo, hi] = e.word_range(i, i + 1);
    FUZZ_CHECK(lo < hi && hi <= msg.size());
  }
  // Raw (bit movement) messages.
  const size_t m = 1 + in.below(40);
  std::vector<uint64_t> raw(driver::raw_words(t, m), in.u64());
  std::vector<uint64_t> vals(m);
  for (size_t i = 0; i < m; ++i) {
    vals[i] = raw_value(in, t);
    driver::put_raw(raw, t, i, vals[i]);
  }
  for (size_t i = 0; i < m; ++i) {
    FUZZ_CHECK(driver::get_raw(raw, t, i) == vals[i]);
    const auto [lo, hi] = driver::raw_word_range(t, i, i + 1);
    FUZZ_CHECK(lo < hi && hi <= raw.size());
  }
}

// Contributions of `ranks` ranks, `count` elements each, through the ALU model.
void combine(Bytes& in, Datatype t, Op op) {
  if (!driver::on_tree(op)) return;
  const unsigned ranks = 1 + in.below(4);
  const size_t count = 1 + in.below(6);
  std::vector<std::vector<uint64_t>> v(ranks, std::vector<uint64_t>(count));
  std::vector<std::vector<uint64_t>> idx(ranks, std::vector<uint64_t>(count));
  for (auto& r : v)
    for (auto& x : r) x = raw_value(in, t);
  for (auto& r : idx)
    for (auto& x : r) x = in.below(8) == 0 ? ~uint64_t{0} : in.u8();  // small indices, -1 too
  std::vector<uint64_t> got(count), got_index(count);
  if (op == Op::Sum && driver::is_float(t)) {
    namespace fs = driver::float_sum;
    const driver::Encoding ee = fs::exponent_encoding(), fe = fs::fixed_encoding();
    std::vector<uint64_t> emax;
    for (unsigned r = 0; r < ranks; ++r) {
      std::vector<uint64_t> m = ee.identity_message(count);
      for (size_t i = 0; i < count; ++i) driver::put(m, ee, i, {fs::exponent_key(t, v[r][i])});
      if (r == 0) emax = m;
      else collnet::fw::alu_combine(static_cast<unsigned>(ee.alu), ee.header_size(), emax, m);
    }
    std::vector<uint64_t> sum;
    for (unsigned r = 0; r < ranks; ++r) {
      std::vector<uint64_t> m = fe.identity_message(count);
      for (size_t i = 0; i < count; ++i) driver::put(m, fe, i, fs::to_fixed(t, v[r][i], driver::get(emax, ee, i)[0]));
      if (r == 0) sum = m;
      else collnet::fw::alu_combine(static_cast<unsigned>(fe.alu), fe.header_size(), sum, m);
    }
    for (size_t i = 0; i < count; ++i) got[i] = fs::from_fixed(t, driver::get(sum, fe, i), driver::get(emax, ee, i)[0]);
  } else {
    const driver::Encoding e = driver::reduce_encoding(t, op);
    std::vector<uint64_t> acc;
    for (unsigned r = 0; r < ranks; ++r) {
      std::vector<uint64_t> m = e.identity_message(count);
      for (size_t i = 0; i < count; ++i) driver::put(m, e, i, driver::encode(t, op, v[r][i], idx[r][i]));
      if (r == 0) acc = m;
      else collnet::fw::alu_combine(static_cast<unsigned>(e.alu), e.header_size(), acc, m);
    }
    for (size_t i = 0; i < count; ++i) got[i] = driver::decode(t, op, driver::get(acc, e, i), &got_index[i]);
  }
  for (size_t i = 0; i < count; ++i) {
    if (driver::is_loc(op)) {
      std::vector<std::pair<uint64_t, uint64_t>> pairs;
      for (unsigned r = 0; r < ranks; ++r) pairs.push_back({v[r][i], idx[r][i]});
      const auto want = reference::reference_loc(t, op, pairs);
      FUZZ_CHECK(got[i] == want.first && got_index[i] == want.second);
    } else {
      std::vector<uint64_t> column;
      for (unsigned r = 0; r < ranks; ++r) column.push_back(v[r][i]);
      const uint64_t want = reference::reference_op(t, op, column);
      if (got[i] != want) {
        std::fprintf(stderr, "%s %s over %u ranks, element %zu: the ALU path gives 0x%llx, the reference 0x%llx\n",
                     driver::to_string(op), driver::to_string(t), ranks, i, static_cast<unsigned long long>(got[i]),
                     static_cast<unsigned long long>(want));
        FUZZ_CHECK(got[i] == want);
      }
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) { return 0; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Bytes in(data, size);
  const Datatype t = kTypes[in.below(10)];
  const std::vector<Op>& ops = driver::all_ops();
  const Op op = ops[in.below(static_cast<unsigned>(ops.size()))];
  if (!driver::accepts(op, t)) return 0;
  round_trips(in, t, op);
  messages(in, t, op);
  combine(in, t, op);
  return 0;
}
