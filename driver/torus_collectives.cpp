// SPDX-License-Identifier: Apache-2.0
// The collectives' torus algorithms: what MPI libraries run on a torus without a combining
// network, built on point-to-point messages (coll_send, coll_recv, coll_sendrecv on the
// collectives' own tag). docs/torus-algorithms.md describes each with its cost.
//
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
#include <algorithm>
#include <cstring>
#include <map>
#include <numeric>
#include <random>
#include <vector>

#include "driver/collective_args.hpp"
#include "driver/communicator.hpp"
#include "driver/error.hpp"
#include "firmware/alu_model.hpp"
#include "firmware/torus_layout.hpp"

namespace collnet::driver {

namespace {

size_t elem(Datatype type) { return native_bytes(type, false); }

// The largest power of two <= n (n >= 1).
unsigned floor_pow2(unsigned n) {
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

unsigned index_in(const std::vector<unsigned>& g, unsigned rank) {
  return static_cast<unsigned>(std::find(g.begin(), g.end(), rank) - g.begin());
}

// Member vr's subtree in a binomial tree of n rooted at 0: vr .. vr + extent - 1.
unsigned subtree(unsigned vr, unsigned n) { return vr == 0 ? n : std::min(vr & (~vr + 1), n - vr); }

}  // namespace

void Communicator::copy_local(void* to, const void* from, size_t bytes) {
  if (bytes) std::memmove(to, from, bytes);
  task_.cpu.idle((bytes / 8 + 3) / 4);
}

// ------------------------------------------------------------------ choosing

void Communicator::set_algorithm(Collective c, Algorithm a) {
  if (a == Algorithm::Tree && !has_class_route())
    throw Error(std::string("set_algorithm: ") + to_string(c) +
                " cannot run on the tree: this communicator has no class route (its collectives run on the torus)");
  if (!applies(c, a)) {
    std::string names;
    for (Algorithm x : algorithms_for(c)) names += std::string(names.empty() ? "" : ", ") + to_string(x);
    throw Error(std::string("set_algorithm: ") + to_string(a) + " does not apply to " + to_string(c) + " (it takes " +
                names + ")");
  }
  algorithms_[static_cast<unsigned>(c)] = a;
}

void Communicator::set_segment_options(const SegmentOptions& o) {
  if (o.piece_bytes == 0) throw Error("set_segment_options: piece_bytes must be at least 1");
  segment_ = o;
}

Algorithm Communicator::choose(Collective c, size_t bytes) const {
  const Algorithm a = algorithms_[static_cast<unsigned>(c)];
  if (a != Algorithm::Auto) return a;
  // The job's table (tuning.hpp); where it says nothing, the combining network wherever it
  // applies, and the personalised collectives linear. Without a class route, the torus.
  Algorithm pick = applies(c, Algorithm::Tree) ? Algorithm::Tree : Algorithm::TorusLinear;
  if (node_.tuning)
    if (const std::optional<Algorithm> t = node_.tuning->pick(c, size_, bytes)) pick = *t;
  // Line broadcasts reach every node of a line: a table measured on a whole machine may
  // name them for a communicator of the same size that is not one.
  if (pick == Algorithm::TorusDeposit && !spans_world()) pick = Algorithm::Tree;
  if (pick == Algorithm::Tree && !has_class_route()) return torus_default(c);
  return pick;
}

// ------------------------------------------------------------------ words on the torus

namespace {

// A message of encoded words, led by the call's arguments.
std::vector<uint64_t> led(uint64_t args, const uint64_t* w, size_t n) {
  std::vector<uint64_t> m(n + 1);
  m[0] = args;
  std::copy(w, w + n, m.begin() + 1);
  return m;
}

}  // namespace

void Communicator::check_led(const std::vector<uint64_t>& m, uint64_t* w, unsigned source) const {
  if (m[0] != call_args_)
    throw Error(std::string(call_) + ": rank " + std::to_string(source) + " passed a different count, type, op or root than rank " +
                std::to_string(rank_));
  std::copy(m.begin() + 1, m.end(), w);
}

void Communicator::send_words(const uint64_t* w, size_t n, unsigned dest) {
  const std::vector<uint64_t> m = led(call_args_, w, n);
  coll_send(m.data(), m.size() * 8, dest);
}

void Communicator::recv_words(uint64_t* w, size_t n, unsigned source) {
  std::vector<uint64_t> m(n + 1);
  coll_recv(m.data(), m.size() * 8, source);
  check_led(m, w, source);
}

void Communicator::exchange_words(const uint64_t* out, size_t out_n, unsigned dest, uint64_t* in, size_t in_n,
                                  unsigned source) {
  const std::vector<uint64_t> m = led(call_args_, out, out_n);
  std::vector<uint64_t> r(in_n + 1);
  coll_sendrecv(m.data(), m.size() * 8, dest, r.data(), r.size() * 8, source);
  check_led(r, in, source);
}

void Communicator::combine_words(const Encoding& e, uint64_t* acc, const uint64_t* in, size_t n) {
  std::vector<uint64_t> a(acc, acc + n);
  const std::vector<uint64_t> b(in, in + n);
  fw::alu_combine(static_cast<unsigned>(e.alu), e.header_size(), a, b);
  std::copy(a.begin(), a.end(), acc);
  task_.cpu.idle((n + 3) / 4);
}

// ------------------------------------------------------------------ reductions

std::vector<uint64_t> Communicator::torus_reduce_message(const Encoding& e, std::vector<uint64_t> msg, Algorithm a,
                                                         std::optional<unsigned> root) {
  const size_t W = msg.size();
  const unsigned n = size_, r = rank_;
  if (n == 1 || W == 0) return msg;
  if (a == Algorithm::TorusNeighbourhood) return neighbourhood_reduce(e, std::move(msg), root.value_or(0));
  std::vector<uint64_t> tmp(W);

  // Binomial reduce toward the root (group_reduce), then (everyone) a binomial broadcast
  // from rank 0.
  auto binomial_bcast = [&](unsigned from) {
    const unsigned vr = (r + n - from) % n;
    unsigned mask = 1;
    while (mask < n) {
      if (vr & mask) {
        recv_words(msg.data(), W, (vr - mask + from) % n);
        break;
      }
      mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
      if (vr + mask < n) send_words(msg.data(), W, (vr + mask + from) % n);
  };

  if (root || a == Algorithm::TorusBinomial) {
    group_reduce(rotated(root.value_or(0)), e, msg);
    if (!root) binomial_bcast(0);
    return msg;
  }

  // Blocks of whole operands: block b of `parts` holds operand units [b*U/parts, (b+1)*U/parts).
  const size_t unit = e.words_per_operand(), U = W / unit;
  auto block_begin = [&](size_t b, size_t parts) { return unit * (b * U / parts); };

  if (a == Algorithm::TorusRing) {
    // Reduce-scatter around the ring: after n-1 steps rank r holds block r+1 reduced.
    // Then the blocks go around once more (allgather).
    const unsigned right = (r + 1) % n, left = (r + n - 1) % n;
    for (unsigned s = 0; s + 1 < n; ++s) {
      const size_t sb = (r + n - s) % n, rb = (r + 2 * n - s - 1) % n;
      const size_t s0 = block_begin(sb, n), s1 = block_begin(sb + 1, n);
      const size_t r0 = block_begin(rb, n), r1 = block_begin(rb + 1, n);
      exchange_words(msg.data() + s0, s1 - s0, right, tmp.data(), r1 - r0, left);
      combine_words(e, msg.data() + r0, tmp.data(), r1 - r0);
    }
    for (unsigned s = 0; s + 1 < n; ++s) {
      const size_t sb = (r + 1 + n - s) % n, rb = (r + n - s) % n;
      const size_t s0 = block_begin(sb, n), s1 = block_begin(sb + 1, n);
      const size_t r0 = block_begin(rb, n), r1 = block_begin(rb + 1, n);
      exchange_words(msg.data() + s0, s1 - s0, right, msg.data() + r0, r1 - r0, left);
    }
    return msg;
  }

  // Recursive doubling and Rabenseifner: fold to a power of two.
  const Fold f(n);
  if (r < 2 * f.rem) {
    if (f.folded_out(r)) {
      send_words(msg.data(), W, r + 1);
      recv_words(msg.data(), W, r + 1);
      return msg;
    }
    recv_words(tmp.data(), W, r - 1);
    combine_words(e, msg.data(), tmp.data(), W);
  }
  const unsigned q = f.new_rank(r), p = f.p;
  if (a == Algorithm::TorusRecursiveDoubling) {
    for (unsigned mask = 1; mask < p; mask <<= 1) {
      const unsigned partner = f.real_rank(q ^ mask);
      exchange_words(msg.data(), W, partner, tmp.data(), W, partner);
      combine_words(e, msg.data(), tmp.data(), W);
    }
  } else {  // Rabenseifner
    // Recursive halving: keep the half of the current blocks on this rank's side of the
    // mask, send the other half, combine what comes back; rank q ends with block q.
    size_t lo = 0, hi = p;  // blocks held
    for (unsigned mask = p / 2; mask >= 1; mask /= 2) {
      const unsigned partner = f.real_rank(q ^ mask);
      const size_t mid = (lo + hi) / 2;
      const bool low = (q & mask) == 0;
      const size_t k0 = low ? lo : mid, k1 = low ? mid : hi;  // kept
      const size_t g0 = low ? mid : lo, g1 = low ? hi : mid;  // given
      const size_t kw0 = block_begin(k0, p), kw1 = block_begin(k1, p);
      const size_t gw0 = block_begin(g0, p), gw1 = block_begin(g1, p);
      exchange_words(msg.data() + gw0, gw1 - gw0, partner, tmp.data(), kw1 - kw0, partner);
      combine_words(e, msg.data() + kw0, tmp.data(), kw1 - kw0);
      lo = k0;
      hi = k1;
    }
    // Recursive doubling back: exchange the blocks held, doubling them each step.
    for (unsigned mask = 1; mask < p; mask <<= 1) {
      const unsigned partner = f.real_rank(q ^ mask);
      const bool low = (q & mask) == 0;
      const size_t o0 = low ? hi : lo - (hi - lo), o1 = low ? hi + (hi - lo) : lo;  // the partner's blocks
      const size_t w0 = block_begin(lo, p), w1 = block_begin(hi, p);
      const size_t ow0 = block_begin(o0, p), ow1 = block_begin(o1, p);
      exchange_words(msg.data() + w0, w1 - w0, partner, msg.data() + ow0, ow1 - ow0, partner);
      lo = std::min(lo, o0);
      hi = std::max(hi, o1);
    }
  }
  if (r < 2 * f.rem) send_words(msg.data(), W, r - 1);
  return msg;
}

std::vector<uint64_t> Communicator::torus_prefix_message(const Encoding& e, std::vector<uint64_t> msg,
                                                         bool inclusive) {
  // Recursive doubling (the ALU's ops commute): `partial` is the op over the ranks of this
  // rank's group so far; the result takes in what comes from below.
  const size_t W = msg.size();
  std::vector<uint64_t> partial = msg, tmp(W);
  // Exclusive: the identity until something comes from below (W words of operands).
  std::vector<uint64_t> result = inclusive ? msg : e.identity_message(W / e.words_per_operand() * e.per_word());
  if (W == 0) return result;
  for (unsigned mask = 1; mask < size_; mask <<= 1) {
    const unsigned partner = rank_ ^ mask;
    if (partner >= size_) continue;
    exchange_words(partial.data(), W, partner, tmp.data(), W, partner);
    combine_words(e, partial.data(), tmp.data(), W);
    if (partner < rank_) combine_words(e, result.data(), tmp.data(), W);
  }
  return result;
}

Communicator::Combiner Communicator::on_torus(Algorithm a, std::optional<unsigned> root) {
  Combiner c;
  // Every rank needs the largest exponent before it encodes: recursive doubling (the
  // exponents are a quarter of the data's words).
  const Algorithm exp_alg = a == Algorithm::TorusBinomial ? a : Algorithm::TorusRecursiveDoubling;
  c.exponents = [this, exp_alg](const Encoding& e, std::vector<uint64_t> m, std::pair<size_t, size_t>) {
    return torus_reduce_message(e, std::move(m), exp_alg, std::nullopt);
  };
  c.values = [this, a, root](const Encoding& e, std::vector<uint64_t> m, std::pair<size_t, size_t>) {
    return torus_reduce_message(e, std::move(m), a, root);
  };
  return c;
}

Communicator::Combiner Communicator::prefix_on_torus(bool inclusive) {
  Combiner c;
  c.exponents = [this](const Encoding& e, std::vector<uint64_t> m, std::pair<size_t, size_t>) {
    return torus_reduce_message(e, std::move(m), Algorithm::TorusRecursiveDoubling, std::nullopt);
  };
  c.values = [this, inclusive](const Encoding& e, std::vector<uint64_t> m, std::pair<size_t, size_t>) {
    return torus_prefix_message(e, std::move(m), inclusive);
  };
  return c;
}

// ------------------------------------------------------------------ moving data

// ------------------------------------------------------------------ binomial trees over a group

std::vector<unsigned> Communicator::rotated(unsigned root) const {
  std::vector<unsigned> g(size_);
  for (unsigned i = 0; i < size_; ++i) g[i] = (root + i) % size_;
  return g;
}


void Communicator::group_bcast(const std::vector<unsigned>& g, void* buf, size_t bytes) {
  const unsigned n = static_cast<unsigned>(g.size()), vr = index_in(g, rank_);
  unsigned mask = 1;
  while (mask < n) {
    if (vr & mask) {
      coll_recv(buf, bytes, g[vr - mask]);
      break;
    }
    mask <<= 1;
  }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (vr + mask < n) coll_send(buf, bytes, g[vr + mask]);
}

void Communicator::group_reduce(const std::vector<unsigned>& g, const Encoding& e, std::vector<uint64_t>& msg) {
  const unsigned n = static_cast<unsigned>(g.size()), vr = index_in(g, rank_);
  std::vector<uint64_t> tmp(msg.size());
  for (unsigned mask = 1; mask < n; mask <<= 1) {
    if (vr & mask) {
      send_words(msg.data(), msg.size(), g[vr - mask]);
      return;
    }
    if (vr + mask < n) {
      recv_words(tmp.data(), tmp.size(), g[vr + mask]);
      combine_words(e, msg.data(), tmp.data(), msg.size());
    }
  }
}

void Communicator::group_gather(const std::vector<unsigned>& g, const std::vector<size_t>& sizes, const void* mine,
                                unsigned char* out) {
  const unsigned n = static_cast<unsigned>(g.size()), vr = index_in(g, rank_);
  std::vector<size_t> off(n + 1, 0);
  for (unsigned i = 0; i < n; ++i) off[i + 1] = off[i] + sizes[i];
  const unsigned ext = subtree(vr, n);
  std::vector<unsigned char> own;
  unsigned char* acc = out;
  if (vr != 0) {
    own.resize(off[vr + ext] - off[vr]);
    acc = own.data();
  }
  copy_local(acc, mine, sizes[vr]);
  for (unsigned mask = 1; mask < n; mask <<= 1) {
    if (vr & mask) {
      coll_send(acc, off[vr + ext] - off[vr], g[vr - mask]);
      return;
    }
    if (vr + mask < n) {
      const unsigned child = vr + mask, blocks = std::min(mask, n - child);
      coll_recv(acc + (off[child] - off[vr]), off[child + blocks] - off[child], g[child]);
    }
  }
}

void Communicator::group_scatter(const std::vector<unsigned>& g, const std::vector<size_t>& sizes,
                                 const unsigned char* in, void* mine) {
  const unsigned n = static_cast<unsigned>(g.size()), vr = index_in(g, rank_);
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
    coll_recv(own.data(), own.size(), g[vr - mask]);
    acc = own.data();
  }
  for (mask >>= 1; mask > 0; mask >>= 1) {
    if (vr + mask >= n) continue;
    const unsigned child = vr + mask, blocks = std::min(mask, n - child);
    coll_send(acc + (off[child] - off[vr]), off[child + blocks] - off[child], g[child]);
  }
  if (mine) copy_local(mine, acc, sizes[vr]);
}

void Communicator::torus_bcast(void* buf, size_t bytes, unsigned root) { group_bcast(rotated(root), buf, bytes); }

void Communicator::torus_deposit_bcast(void* buf, size_t bytes, unsigned root) {
  if (!spans_world())
    throw Error("bcast: torus-deposit runs on the world communicator and its duplicates only (a line broadcast reaches "
                "every node of its line, members or not)");
  const fw::TorusLayout layout(task_.personality.shape);
  const fw::Coord me = layout.coord(task_.node), rc = layout.coord(node_of(root));
  const fw::Coord& dims = layout.dims();
  // The root's node along x, every node of its x line along y, every node of its xy plane
  // along z, each to the last node before it on the ring.
  std::vector<Line> lines;
  auto whole = [&](unsigned d) { lines.push_back(Line{d, static_cast<int>(dims[d]) - 1}); };
  if (task_.node == node_of(root) && dims[0] > 1) whole(0);
  if (me[1] == rc[1] && me[2] == rc[2] && dims[1] > 1) whole(1);
  if (me[2] == rc[2] && dims[2] > 1) whole(2);
  line_bcast(buf, bytes, root, lines);
}

void Communicator::line_bcast(void* buf, size_t bytes, unsigned source, const std::vector<Line>& lines) {
  P2pEngine& eng = engine();
  const uint32_t id = (context_ << 16) | (line_broadcasts_++ & 0xffff);
  const size_t chunk = p2p::kDataWords * 8;
  const uint32_t chunks = static_cast<uint32_t>(bytes == 0 ? 1 : (bytes + chunk - 1) / chunk);
  const bool sends = (node_of(source) == task_.node ? rank_ == source : is_leader()) && !lines.empty();
  std::map<uint32_t, std::vector<uint64_t>>& here = eng.line_chunks(id);
  unsigned char* out = static_cast<unsigned char*>(buf);
  if (rank_ == source) {  // the node's other tasks take the chunks from its memory
    for (uint32_t k = 0; k < chunks; ++k) {
      const size_t from = k * chunk, n = std::min(chunk, bytes - std::min(from, bytes));
      std::vector<uint64_t> w((n + 7) / 8, 0);
      copy_local(w.data(), out + from, n);
      here[k] = std::move(w);
    }
  }
  for (uint32_t k = 0; k < chunks; ++k) {
    while (!here.count(k)) {
      if (!progress()) task_.cpu.memory_access();
    }
    const std::vector<uint64_t>& w = here.at(k);
    const size_t from = k * chunk, n = std::min(chunk, bytes - std::min(from, bytes));
    if (rank_ != source) copy_local(out + from, w.data(), n);
    if (sends)
      for (const Line& l : lines) eng.deposit(task_, id, k, l.dim, l.hops, w.data(), (n + 7) / 8);
  }
  eng.line_done(id, local_count_);
  // Done when every chunk it sends is on the torus.
  while (sends && eng.line_sends_pending())
    if (!progress()) task_.cpu.memory_access();
}

void Communicator::torus_dissemination_barrier() {
  for (unsigned d = 1; d < size_; d <<= 1)
    coll_sendrecv(nullptr, 0, (rank_ + d) % size_, nullptr, 0, (rank_ + size_ - d) % size_);
}

void Communicator::torus_gather(const void* send, void* recv, size_t bytes, unsigned root) {
  // The blocks arrive in relative order (root, root+1, ...): straight into recv when the
  // root is rank 0, else rotated back to rank order at the end.
  const std::vector<size_t> sizes(size_, bytes);
  if (root == 0 || rank_ != root) {
    group_gather(rotated(root), sizes, send, static_cast<unsigned char*>(rank_ == root ? recv : nullptr));
    return;
  }
  std::vector<unsigned char> acc(size_t{size_} * bytes);
  group_gather(rotated(root), sizes, send, acc.data());
  unsigned char* out = static_cast<unsigned char*>(recv);
  copy_local(out + size_t{root} * bytes, acc.data(), (size_ - root) * bytes);
  copy_local(out, acc.data() + size_t{size_ - root} * bytes, root * bytes);
}

void Communicator::torus_scatter(const void* send, void* recv, size_t bytes, unsigned root) {
  // The root puts the blocks in relative order (root, root+1, ...) first.
  std::vector<unsigned char> acc;
  if (rank_ == root) {
    acc.resize(size_t{size_} * bytes);
    const unsigned char* in = static_cast<const unsigned char*>(send);
    copy_local(acc.data(), in + size_t{root} * bytes, (size_ - root) * bytes);
    copy_local(acc.data() + size_t{size_ - root} * bytes, in, root * bytes);
  }
  group_scatter(rotated(root), std::vector<size_t>(size_, bytes), acc.data(), recv == kInPlace ? nullptr : recv);
}

// Blocks of an allgather(v) in the receive buffer: block j at at[j], len[j] bytes.
void Communicator::torus_allgather_blocks(const std::vector<unsigned char*>& at, const std::vector<size_t>& len,
                                          Algorithm a) {
  const unsigned n = size_, r = rank_;
  if (n == 1) return;
  if (a == Algorithm::TorusRing) {
    const unsigned right = (r + 1) % n, left = (r + n - 1) % n;
    for (unsigned s = 0; s + 1 < n; ++s) {
      const unsigned sb = (r + n - s) % n, rb = (r + 2 * n - s - 1) % n;
      coll_sendrecv(at[sb], len[sb], right, at[rb], len[rb], left);
    }
    return;
  }
  if (a == Algorithm::AlltoallvSegment) {
    std::vector<std::pair<const unsigned char*, size_t>> out(n, {at[r], len[r]});
    segment_alltoallv(out, at, len);
    return;
  }
  const size_t bytes = len[0];  // allgather: equal blocks, contiguous in rank order
  unsigned char* base = at[0];
  if (a == Algorithm::TorusBruck) {
    // Rotated: position i holds the block of rank r+i; step k gets the next k blocks from
    // rank r+k and gives its first ones to rank r-k.
    std::vector<unsigned char> rot(bytes * n);
    copy_local(rot.data(), at[r], bytes);
    for (unsigned k = 1; k < n; k <<= 1) {
      const unsigned blocks = std::min(k, n - k);
      coll_sendrecv(rot.data(), blocks * bytes, (r + n - k) % n, rot.data() + size_t{k} * bytes, blocks * bytes,
                    (r + k) % n);
    }
    copy_local(base + size_t{r} * bytes, rot.data(), (n - r) * bytes);
    copy_local(base, rot.data() + size_t{n - r} * bytes, r * bytes);
    return;
  }
  // Recursive doubling over the fold: new ranks [lo, lo+mask) hold the blocks of real
  // ranks real_begin(lo) .. real_begin(lo+mask)-1, contiguous in the buffer.
  const Fold f(n);
  auto real_end = [&](unsigned q_end) { return q_end >= f.p ? n : f.real_begin(q_end); };
  if (r < 2 * f.rem) {
    if (f.folded_out(r)) {
      coll_send(at[r], bytes, r + 1);
      coll_recv(base, n * bytes, r + 1);
      return;
    }
    coll_recv(at[r - 1], bytes, r - 1);
  }
  const unsigned q = f.new_rank(r);
  for (unsigned mask = 1; mask < f.p; mask <<= 1) {
    const unsigned mine = q & ~(mask - 1), theirs = (q ^ mask) & ~(mask - 1);
    const unsigned m0 = f.real_begin(mine), m1 = real_end(mine + mask);
    const unsigned t0 = f.real_begin(theirs), t1 = real_end(theirs + mask);
    const unsigned partner = f.real_rank(q ^ mask);
    coll_sendrecv(base + size_t{m0} * bytes, (m1 - m0) * bytes, partner, base + size_t{t0} * bytes, (t1 - t0) * bytes,
                  partner);
  }
  if (r < 2 * f.rem) coll_send(base, n * bytes, r - 1);
}

void Communicator::segment_alltoallv(const std::vector<std::pair<const unsigned char*, size_t>>& out,
                                     const std::vector<unsigned char*>& in_at, const std::vector<size_t>& in_len) {
  // Seed 001: the destinations in a random order (seeded per rank) or rank order; one
  // piece to each in turn, a current offset per destination, a destination leaving the
  // list when its segment is done, until the list is empty. The receives are posted first,
  // one per piece, in the order each sender sends them.
  const unsigned n = size_, r = rank_;
  const size_t piece = segment_.piece_bytes;
  auto pieces = [piece](size_t len) { return len == 0 ? size_t{1} : (len + piece - 1) / piece; };
  std::vector<Request> receives;
  for (unsigned j = 0; j < n; ++j) {
    if (j == r) continue;
    for (size_t k = 0, np = pieces(in_len[j]); k < np; ++k) {
      const size_t off = k * piece, len = std::min(piece, in_len[j] - std::min(off, in_len[j]));
      receives.push_back(irecv(in_at[j] + off, len, Datatype::U8, j, kCollectiveTag));
    }
  }
  std::vector<unsigned> order;
  if (segment_.order == SegmentOrder::Rank) {
    for (unsigned j = 0; j < n; ++j)
      if (j != r) order.push_back(j);
  } else {
    for (unsigned k = 1; k < n; ++k) order.push_back((r + k) % n);
  }
  if (segment_.order == SegmentOrder::Random) {
    std::mt19937_64 rng(segment_.seed * 0x9e3779b97f4a7c15ull + r);
    std::shuffle(order.begin(), order.end(), rng);
  }
  std::vector<size_t> next(n, 0);
  std::vector<Request> sends;
  while (!order.empty()) {
    std::vector<unsigned> left;
    for (unsigned j : order) {
      const size_t off = next[j], len = std::min(piece, out[j].second - std::min(off, out[j].second));
      sends.push_back(isend_bytes(out[j].first + off, len, 1, j, kCollectiveTag));
      next[j] += piece;
      if (next[j] < out[j].second) left.push_back(j);
    }
    order.swap(left);
  }
  waitall(sends);
  waitall(receives);
}

// ------------------------------------------------------------------ alltoall

void Communicator::torus_alltoall(const unsigned char* out, unsigned char* in, size_t bytes, Algorithm a) {
  const unsigned n = size_, r = rank_;
  copy_local(in + size_t{r} * bytes, out + size_t{r} * bytes, bytes);
  if (a == Algorithm::TorusPairwise) {
    for (unsigned s = 1; s < n; ++s) {
      const unsigned to = (r + s) % n, from = (r + n - s) % n;
      coll_sendrecv(out + size_t{to} * bytes, bytes, to, in + size_t{from} * bytes, bytes, from);
    }
    return;
  }
  // Bruck: position i holds the block for rank r+i; in step k the blocks whose position
  // has bit k go to rank r+k (packed), and those from rank r-k take their places; at the
  // end position i holds rank r-i's block for this rank.
  std::vector<unsigned char> rot(bytes * n), pack, unpack;
  copy_local(rot.data(), out + size_t{r} * bytes, (n - r) * bytes);
  copy_local(rot.data() + size_t{n - r} * bytes, out, r * bytes);
  for (unsigned k = 1; k < n; k <<= 1) {
    std::vector<unsigned> idx;
    for (unsigned i = 0; i < n; ++i)
      if (i & k) idx.push_back(i);
    pack.resize(idx.size() * bytes);
    unpack.resize(idx.size() * bytes);
    for (size_t m = 0; m < idx.size(); ++m) copy_local(pack.data() + m * bytes, rot.data() + size_t{idx[m]} * bytes, bytes);
    coll_sendrecv(pack.data(), pack.size(), (r + k) % n, unpack.data(), unpack.size(), (r + n - k) % n);
    for (size_t m = 0; m < idx.size(); ++m)
      copy_local(rot.data() + size_t{idx[m]} * bytes, unpack.data() + m * bytes, bytes);
  }
  for (unsigned i = 1; i < n; ++i) copy_local(in + size_t{(r + n - i) % n} * bytes, rot.data() + size_t{i} * bytes, bytes);
}

}  // namespace collnet::driver
