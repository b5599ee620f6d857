// SPDX-License-Identifier: Apache-2.0
// Reductions travel in the combining network's encoding (encoding.hpp): every element an
// operand of the ALU, combined here by the same model the node's tasks combine with
// (firmware/alu_model.hpp), four words per processor cycle. Integer ADD is associative
// and MAX, MIN and the bitwise ops are too, so a torus reduction gives the tree's result
// bit for bit whatever order it combines in; floating-point sums are the tree's two
// passes (float_sum.hpp): the largest exponent, then a fixed-point sum.
//
// Non-powers of two: recursive doubling and Rabenseifner fold the first 2*rem ranks in
// pairs (rem = size() - p, p the largest power of two <= size()): the even rank of a pair
// hands its data to the odd one and waits for the result, as MPICH does.
#include "driver/torus_messages.hpp"

#include <algorithm>
#include <map>

#include "driver/torus_fold.hpp"

namespace collnet::driver::torus {

namespace {

unsigned index_in(const std::vector<unsigned>& g, unsigned rank) {
  return static_cast<unsigned>(std::find(g.begin(), g.end(), rank) - g.begin());
}

// Member vr's subtree in a binomial tree of n rooted at 0: vr .. vr + extent - 1.
unsigned subtree(unsigned vr, unsigned n) { return vr == 0 ? n : std::min(vr & (~vr + 1), n - vr); }

}  // namespace

// ------------------------------------------------------------------ reductions

namespace {

// Blocks of whole operands of a message of W words: block b of `parts` holds operand units
// [b*U/parts, (b+1)*U/parts).
struct Blocks {
  size_t unit, units;
  Blocks(const Encoding& e, size_t words) : unit(e.words_per_operand()), units(words / e.words_per_operand()) {}
  size_t begin(size_t b, size_t parts) const { return unit * (b * units / parts); }
};

// Recursive doubling and Rabenseifner run on a power of two p: the fold's even ranks hand
// their data to the odd ones first and get the result back at the end, and `core(f, q,
// msg, tmp)` runs on the p new ranks (q this rank's).
template <class Core>
std::vector<uint64_t> folded(CollectiveContext& c, const Encoding& e, std::vector<uint64_t> msg, Core&& core) {
  const size_t W = msg.size();
  const unsigned n = c.size(), r = c.rank();
  if (n == 1 || W == 0) return msg;
  std::vector<uint64_t> tmp(W);
  const Fold f(n);
  if (r < 2 * f.rem) {
    if (f.folded_out(r)) {
      c.send_words(msg.data(), W, r + 1);
      c.recv_words(msg.data(), W, r + 1);
      return msg;
    }
    c.recv_words(tmp.data(), W, r - 1);
    c.combine(e, msg.data(), tmp.data(), W);
  }
  core(f, f.new_rank(r), msg, tmp);
  if (r < 2 * f.rem) c.send_words(msg.data(), W, r - 1);
  return msg;
}

}  // namespace

std::vector<uint64_t> to_root(CollectiveContext& c, const Encoding& e, std::vector<uint64_t> msg) {
  if (c.size() == 1 || msg.empty()) return msg;
  group_reduce(c, c.group.rotated(c.call.root), e, msg);
  return msg;
}

std::vector<uint64_t> binomial(CollectiveContext& c, const Encoding& e, std::vector<uint64_t> msg) {
  // Binomial reduce toward rank 0 (group_reduce), then a binomial broadcast from it.
  const size_t W = msg.size();
  const unsigned n = c.size(), r = c.rank();
  if (n == 1 || W == 0) return msg;
  group_reduce(c, c.group.rotated(0), e, msg);
  unsigned mask = 1;
  while (mask < n) {
    if (r & mask) {
      c.recv_words(msg.data(), W, r - mask);
      break;
    }
    mask <<= 1;
  }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (r + mask < n) c.send_words(msg.data(), W, r + mask);
  return msg;
}

std::vector<uint64_t> ring(CollectiveContext& c, const Encoding& e, std::vector<uint64_t> msg) {
  // Reduce-scatter around the ring: after n-1 steps rank r holds block r+1 reduced.
  // Then the blocks go around once more (allgather).
  const size_t W = msg.size();
  const unsigned n = c.size(), r = c.rank();
  if (n == 1 || W == 0) return msg;
  std::vector<uint64_t> tmp(W);
  const Blocks blocks(e, W);
  const unsigned right = (r + 1) % n, left = (r + n - 1) % n;
  for (unsigned s = 0; s + 1 < n; ++s) {
    const size_t sb = (r + n - s) % n, rb = (r + 2 * n - s - 1) % n;
    const size_t s0 = blocks.begin(sb, n), s1 = blocks.begin(sb + 1, n);
    const size_t r0 = blocks.begin(rb, n), r1 = blocks.begin(rb + 1, n);
    c.exchange_words(msg.data() + s0, s1 - s0, right, tmp.data(), r1 - r0, left);
    c.combine(e, msg.data() + r0, tmp.data(), r1 - r0);
  }
  for (unsigned s = 0; s + 1 < n; ++s) {
    const size_t sb = (r + 1 + n - s) % n, rb = (r + n - s) % n;
    const size_t s0 = blocks.begin(sb, n), s1 = blocks.begin(sb + 1, n);
    const size_t r0 = blocks.begin(rb, n), r1 = blocks.begin(rb + 1, n);
    c.exchange_words(msg.data() + s0, s1 - s0, right, msg.data() + r0, r1 - r0, left);
  }
  return msg;
}

std::vector<uint64_t> recursive_doubling(CollectiveContext& c, const Encoding& e, std::vector<uint64_t> msg) {
  return folded(c, e, std::move(msg),
                [&](const Fold& f, unsigned q, std::vector<uint64_t>& m, std::vector<uint64_t>& tmp) {
                  for (unsigned mask = 1; mask < f.p; mask <<= 1) {
                    const unsigned partner = f.real_rank(q ^ mask);
                    c.exchange_words(m.data(), m.size(), partner, tmp.data(), m.size(), partner);
                    c.combine(e, m.data(), tmp.data(), m.size());
                  }
                });
}

std::vector<uint64_t> rabenseifner(CollectiveContext& c, const Encoding& e, std::vector<uint64_t> msg) {
  const Blocks blocks(e, msg.size());
  return folded(
      c, e, std::move(msg), [&](const Fold& f, unsigned q, std::vector<uint64_t>& m, std::vector<uint64_t>& tmp) {
        const unsigned p = f.p;
        // Recursive halving: keep the half of the current blocks on this rank's side of the
        // mask, send the other half, combine what comes back; rank q ends with block q.
        size_t lo = 0, hi = p;  // blocks held
        for (unsigned mask = p / 2; mask >= 1; mask /= 2) {
          const unsigned partner = f.real_rank(q ^ mask);
          const size_t mid = (lo + hi) / 2;
          const bool low = (q & mask) == 0;
          const size_t k0 = low ? lo : mid, k1 = low ? mid : hi;  // kept
          const size_t g0 = low ? mid : lo, g1 = low ? hi : mid;  // given
          const size_t kw0 = blocks.begin(k0, p), kw1 = blocks.begin(k1, p);
          const size_t gw0 = blocks.begin(g0, p), gw1 = blocks.begin(g1, p);
          c.exchange_words(m.data() + gw0, gw1 - gw0, partner, tmp.data(), kw1 - kw0, partner);
          c.combine(e, m.data() + kw0, tmp.data(), kw1 - kw0);
          lo = k0;
          hi = k1;
        }
        // Recursive doubling back: exchange the blocks held, doubling them each step.
        for (unsigned mask = 1; mask < p; mask <<= 1) {
          const unsigned partner = f.real_rank(q ^ mask);
          const bool low = (q & mask) == 0;
          const size_t o0 = low ? hi : lo - (hi - lo), o1 = low ? hi + (hi - lo) : lo;  // the partner's blocks
          const size_t w0 = blocks.begin(lo, p), w1 = blocks.begin(hi, p);
          const size_t ow0 = blocks.begin(o0, p), ow1 = blocks.begin(o1, p);
          c.exchange_words(m.data() + w0, w1 - w0, partner, m.data() + ow0, ow1 - ow0, partner);
          lo = std::min(lo, o0);
          hi = std::max(hi, o1);
        }
      });
}

namespace {

std::vector<uint64_t> prefix(CollectiveContext& c, const Encoding& e, std::vector<uint64_t> msg, bool inclusive) {
  // Recursive doubling (the ALU's ops commute): `partial` is the op over the ranks of this
  // rank's group so far; the result takes in what comes from below.
  const size_t W = msg.size();
  std::vector<uint64_t> partial = msg, tmp(W);
  // Exclusive: the identity until something comes from below (W words of operands).
  std::vector<uint64_t> result = inclusive ? msg : e.identity_message(W / e.words_per_operand() * e.per_word());
  if (W == 0) return result;
  for (unsigned mask = 1; mask < c.size(); mask <<= 1) {
    const unsigned partner = c.rank() ^ mask;
    if (partner >= c.size()) continue;
    c.exchange_words(partial.data(), W, partner, tmp.data(), W, partner);
    c.combine(e, partial.data(), tmp.data(), W);
    if (partner < c.rank()) c.combine(e, result.data(), tmp.data(), W);
  }
  return result;
}

}  // namespace

std::vector<uint64_t> inclusive_prefix(CollectiveContext& c, const Encoding& e, std::vector<uint64_t> msg) {
  return prefix(c, e, std::move(msg), true);
}
std::vector<uint64_t> exclusive_prefix(CollectiveContext& c, const Encoding& e, std::vector<uint64_t> msg) {
  return prefix(c, e, std::move(msg), false);
}

// ------------------------------------------------------------------ binomial trees over a group

void group_bcast(CollectiveContext& c, const std::vector<unsigned>& g, void* buf, size_t bytes) {
  const unsigned n = static_cast<unsigned>(g.size()), vr = index_in(g, c.rank());
  unsigned mask = 1;
  while (mask < n) {
    if (vr & mask) {
      c.recv(buf, bytes, g[vr - mask]);
      break;
    }
    mask <<= 1;
  }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (vr + mask < n) c.send(buf, bytes, g[vr + mask]);
}

void group_reduce(CollectiveContext& c, const std::vector<unsigned>& g, const Encoding& e, std::vector<uint64_t>& msg) {
  const unsigned n = static_cast<unsigned>(g.size()), vr = index_in(g, c.rank());
  std::vector<uint64_t> tmp(msg.size());
  for (unsigned mask = 1; mask < n; mask <<= 1) {
    if (vr & mask) {
      c.send_words(msg.data(), msg.size(), g[vr - mask]);
      return;
    }
    if (vr + mask < n) {
      c.recv_words(tmp.data(), tmp.size(), g[vr + mask]);
      c.combine(e, msg.data(), tmp.data(), msg.size());
    }
  }
}

void group_gather(CollectiveContext& c, const std::vector<unsigned>& g, const std::vector<size_t>& sizes,
                  const void* mine, unsigned char* out) {
  const unsigned n = static_cast<unsigned>(g.size()), vr = index_in(g, c.rank());
  std::vector<size_t> off(n + 1, 0);
  for (unsigned i = 0; i < n; ++i) off[i + 1] = off[i] + sizes[i];
  const unsigned ext = subtree(vr, n);
  std::vector<unsigned char> own;
  unsigned char* acc = out;
  if (vr != 0) {
    own.resize(off[vr + ext] - off[vr]);
    acc = own.data();
  }
  c.copy_local(acc, mine, sizes[vr]);
  for (unsigned mask = 1; mask < n; mask <<= 1) {
    if (vr & mask) {
      c.send(acc, off[vr + ext] - off[vr], g[vr - mask]);
      return;
    }
    if (vr + mask < n) {
      const unsigned child = vr + mask, blocks = std::min(mask, n - child);
      c.recv(acc + (off[child] - off[vr]), off[child + blocks] - off[child], g[child]);
    }
  }
}

void group_scatter(CollectiveContext& c, const std::vector<unsigned>& g, const std::vector<size_t>& sizes,
                   const unsigned char* in, void* mine) {
  const unsigned n = static_cast<unsigned>(g.size()), vr = index_in(g, c.rank());
  std::vector<size_t> off(n + 1, 0);
  for (unsigned i = 0; i < n; ++i) off[i + 1] = off[i] + sizes[i];
  const unsigned ext = subtree(vr, n);
  std::vector<unsigned char> own;
  const unsigned char* acc = in;
  unsigned mask = 1;
  if (vr == 0) {
    while (mask < n) mask <<= 1;
  } else {
    mask = vr & (~vr + 1);
    own.resize(off[vr + ext] - off[vr]);
    c.recv(own.data(), own.size(), g[vr - mask]);
    acc = own.data();
  }
  for (mask >>= 1; mask > 0; mask >>= 1) {
    if (vr + mask >= n) continue;
    const unsigned child = vr + mask, blocks = std::min(mask, n - child);
    c.send(acc + (off[child] - off[vr]), off[child + blocks] - off[child], g[child]);
  }
  if (mine) c.copy_local(mine, acc, sizes[vr]);
}

// ------------------------------------------------------------------ line broadcasts

void line_bcast(CollectiveContext& c, void* buf, size_t bytes, unsigned source, const std::vector<Line>& lines) {
  P2pEngine& eng = c.engine();
  const uint32_t id = (c.group.context << 16) | (c.state.line_broadcasts++ & 0xffff);
  const size_t chunk = p2p::kDataWords * 8;
  const uint32_t chunks = static_cast<uint32_t>(bytes == 0 ? 1 : (bytes + chunk - 1) / chunk);
  const bool sends =
      (c.group.node_of(source) == c.task.node ? c.rank() == source : c.group.is_leader()) && !lines.empty();
  std::map<uint32_t, std::vector<uint64_t>>& here = eng.line_chunks(id);
  unsigned char* out = static_cast<unsigned char*>(buf);
  if (c.rank() == source) {  // the node's other tasks take the chunks from its memory
    for (uint32_t k = 0; k < chunks; ++k) {
      const size_t from = k * chunk, n = std::min(chunk, bytes - std::min(from, bytes));
      std::vector<uint64_t> w((n + 7) / 8, 0);
      c.copy_local(w.data(), out + from, n);
      here[k] = std::move(w);
    }
  }
  for (uint32_t k = 0; k < chunks; ++k) {
    while (!here.count(k)) {
      if (!c.progress()) c.task.cpu.memory_access();
    }
    const std::vector<uint64_t>& w = here.at(k);
    const size_t from = k * chunk, n = std::min(chunk, bytes - std::min(from, bytes));
    if (c.rank() != source) c.copy_local(out + from, w.data(), n);
    if (sends)
      for (const Line& l : lines) eng.deposit(c.task, id, k, l.dim, l.hops, w.data(), (n + 7) / 8);
  }
  eng.line_done(id, c.group.local_count);
  // Done when every chunk it sends is on the torus.
  while (sends && eng.line_sends_pending())
    if (!c.progress()) c.task.cpu.memory_access();
}

}  // namespace collnet::driver::torus
