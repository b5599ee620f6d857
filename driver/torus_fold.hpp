// SPDX-License-Identifier: Apache-2.0
// The fold of recursive doubling onto a power of two: with n ranks and p the largest power
// of two <= n, the first 2*(n - p) ranks pair up and the even rank of each pair sits out.
#pragma once

namespace collnet::driver::torus {

// The largest power of two <= n (n >= 1).
inline unsigned floor_pow2(unsigned n) {
  unsigned p = 1;
  while (p * 2 <= n) p *= 2;
  return p;
}

// The fold of recursive doubling onto p = floor_pow2(n) ranks: rank r's new rank, or -1
// for the even rank of a folded pair; and back.
struct Fold {
  unsigned n, p, rem;
  explicit Fold(unsigned size) : n(size), p(floor_pow2(size)), rem(size - floor_pow2(size)) {}
  bool folded_out(unsigned r) const { return r < 2 * rem && r % 2 == 0; }
  unsigned new_rank(unsigned r) const { return r < 2 * rem ? r / 2 : r - rem; }
  unsigned real_rank(unsigned q) const { return q < rem ? 2 * q + 1 : q + rem; }
  // The first real rank whose data new rank q holds (new ranks [lo, hi) hold the contiguous
  // real ranks real_begin(lo) .. real_begin(hi) - 1).
  unsigned real_begin(unsigned q) const { return q < rem ? 2 * q : q + rem; }
};

}  // namespace collnet::driver::torus
