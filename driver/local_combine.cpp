// SPDX-License-Identifier: Apache-2.0
#include "driver/local_combine.hpp"

#include <algorithm>
#include <vector>

#include "driver/float_sum.hpp"
#include "firmware/alu_model.hpp"

namespace collnet::driver {

void combine_encoded(const Encoding& e, uint64_t* acc, const uint64_t* in, size_t n) {
  std::vector<uint64_t> a(acc, acc + n);
  const std::vector<uint64_t> b(in, in + n);
  fw::alu_combine(static_cast<unsigned>(e.alu), e.header_size(), a, b);
  std::copy(a.begin(), a.end(), acc);
}

namespace {

// The float sum of x[i] and y[i] (raw) into y: the largest exponent, then the fixed-point sum.
void float_sums(Datatype t, const std::vector<uint64_t>& x, std::vector<uint64_t>& y) {
  const Encoding ee = float_sum::exponent_encoding(), fe = float_sum::fixed_encoding();
  const size_t n = y.size();
  std::vector<uint64_t> ex = ee.identity_message(n), ey = ee.identity_message(n);
  for (size_t i = 0; i < n; ++i) {
    put(ex, ee, i, {float_sum::exponent_key(t, x[i])});
    put(ey, ee, i, {float_sum::exponent_key(t, y[i])});
  }
  combine_encoded(ee, ey.data(), ex.data(), ey.size());
  std::vector<uint64_t> fx = fe.identity_message(n), fy = fe.identity_message(n);
  for (size_t i = 0; i < n; ++i) {
    const uint64_t emax = get(ey, ee, i)[0];
    put(fx, fe, i, float_sum::to_fixed(t, x[i], emax));
    put(fy, fe, i, float_sum::to_fixed(t, y[i], emax));
  }
  combine_encoded(fe, fy.data(), fx.data(), fy.size());
  for (size_t i = 0; i < n; ++i) y[i] = float_sum::from_fixed(t, get(fy, fe, i), get(ey, ee, i)[0]);
}

// Every other op the ALU carries: encode, combine, decode (pairs: value, index words).
void alu_ops(Datatype t, Op op, const std::vector<uint64_t>& x, std::vector<uint64_t>& y, size_t count) {
  const Encoding e = reduce_encoding(t, op);
  const bool pairs = is_loc(op);
  const size_t stride = pairs ? 2 : 1;
  std::vector<uint64_t> mx = e.identity_message(count), my = e.identity_message(count);
  for (size_t i = 0; i < count; ++i) {
    put(mx, e, i, encode(t, op, x[i * stride], pairs ? x[i * stride + 1] : 0));
    put(my, e, i, encode(t, op, y[i * stride], pairs ? y[i * stride + 1] : 0));
  }
  combine_encoded(e, my.data(), mx.data(), my.size());
  for (size_t i = 0; i < count; ++i) {
    uint64_t index = 0;
    y[i * stride] = decode(t, op, get(my, e, i), &index);
    if (pairs) y[i * stride + 1] = index;
  }
}

}  // namespace

void reduce_local(const char* call, const void* in, void* inout, size_t count, Datatype type, Op op) {
  check_accepts(call, op, type);
  if (count == 0) return;
  const bool pairs = is_loc(op);
  const std::vector<uint64_t> x = native_to_raw(type, pairs, in, count);
  std::vector<uint64_t> y = native_to_raw(type, pairs, inout, count);
  if (!on_tree(op)) {
    for (size_t i = 0; i < count; ++i) y[i] = multiply(type, x[i], y[i]);
  } else if (is_float(type) && op == Op::Sum) {
    float_sums(type, x, y);
  } else {
    alu_ops(type, op, x, y, count);
  }
  raw_to_native(type, pairs, y.data(), count, inout);
}

}  // namespace collnet::driver
