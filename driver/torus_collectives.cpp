// SPDX-License-Identifier: Apache-2.0
#include "driver/torus_collectives.hpp"

#include <algorithm>
#include <random>
#include <string>

#include "driver/error.hpp"
#include "driver/reduction.hpp"
#include "driver/torus_fold.hpp"
#include "driver/torus_messages.hpp"
#include "firmware/torus_layout.hpp"

namespace collnet::driver::torus {

namespace {

// Bytes per rank of a call on plain elements.
size_t block_bytes(const CollectiveContext& c) { return c.call.count * native_bytes(c.call.type, false); }

}  // namespace

// ------------------------------------------------------------------ barrier, bcast

void barrier_dissemination(CollectiveContext& c) {
  const unsigned n = c.size(), r = c.rank();
  for (unsigned d = 1; d < n; d <<= 1) c.sendrecv(nullptr, 0, (r + d) % n, nullptr, 0, (r + n - d) % n);
}

void bcast_binomial(CollectiveContext& c) { group_bcast(c, c.group.rotated(c.call.root), c.call.recv, block_bytes(c)); }

void bcast_deposit(CollectiveContext& c) {
  if (!c.group.spans_machine())
    throw Error(
        "bcast: torus-deposit runs on the world communicator and its duplicates only, with no node down (a line "
        "broadcast reaches every node of its line, members or not)");
  const fw::TorusLayout layout(c.task.personality.shape);
  const unsigned root_node = c.group.node_of(c.call.root);
  const fw::Coord me = layout.coord(c.task.node), rc = layout.coord(root_node);
  const fw::Coord& dims = layout.dims();
  // The root's node along x, every node of its x line along y, every node of its xy plane
  // along z, each to the last node before it on the ring.
  std::vector<Line> lines;
  auto whole = [&](unsigned d) { lines.push_back(Line{d, static_cast<int>(dims[d]) - 1}); };
  if (c.task.node == root_node && dims[0] > 1) whole(0);
  if (me[1] == rc[1] && me[2] == rc[2] && dims[1] > 1) whole(1);
  if (me[2] == rc[2] && dims[2] > 1) whole(2);
  line_bcast(c, c.call.recv, block_bytes(c), c.call.root, lines);
}

// ------------------------------------------------------------------ reductions

void reduce_binomial(CollectiveContext& c) { reduce_native(c, at_root(c), OnTorus(binomial, to_root)); }
void allreduce_binomial(CollectiveContext& c) { reduce_native(c, everyone(c), OnTorus(binomial, binomial)); }
void allreduce_recursive_doubling(CollectiveContext& c) { reduce_native(c, everyone(c), on_torus(recursive_doubling)); }
void allreduce_ring(CollectiveContext& c) { reduce_native(c, everyone(c), on_torus(ring)); }
void allreduce_rabenseifner(CollectiveContext& c) { reduce_native(c, everyone(c), on_torus(rabenseifner)); }
void scan_recursive_doubling(CollectiveContext& c) { reduce_native(c, prefix(c, true), on_torus(inclusive_prefix)); }
void exscan_recursive_doubling(CollectiveContext& c) { reduce_native(c, prefix(c, false), on_torus(exclusive_prefix)); }

// ------------------------------------------------------------------ gather, scatter

void gather_binomial(CollectiveContext& c) {
  // The blocks arrive in relative order (root, root+1, ...): straight into recv when the
  // root is rank 0, else rotated back to rank order at the end.
  const unsigned n = c.size(), root = c.call.root;
  const size_t bytes = block_bytes(c);
  const std::vector<size_t> sizes(n, bytes);
  if (root == 0 || c.rank() != root) {
    group_gather(c, c.group.rotated(root), sizes, c.call.send,
                 static_cast<unsigned char*>(c.rank() == root ? c.call.recv : nullptr));
    return;
  }
  std::vector<unsigned char> acc(size_t{n} * bytes);
  group_gather(c, c.group.rotated(root), sizes, c.call.send, acc.data());
  unsigned char* out = static_cast<unsigned char*>(c.call.recv);
  c.copy_local(out + size_t{root} * bytes, acc.data(), (n - root) * bytes);
  c.copy_local(out, acc.data() + size_t{n - root} * bytes, root * bytes);
}

void scatter_binomial(CollectiveContext& c) {
  // The root puts the blocks in relative order (root, root+1, ...) first.
  const unsigned n = c.size(), root = c.call.root;
  const size_t bytes = block_bytes(c);
  std::vector<unsigned char> acc;
  if (c.rank() == root) {
    acc.resize(size_t{n} * bytes);
    const unsigned char* in = static_cast<const unsigned char*>(c.call.send);
    c.copy_local(acc.data(), in + size_t{root} * bytes, (n - root) * bytes);
    c.copy_local(acc.data() + size_t{n - root} * bytes, in, root * bytes);
  }
  group_scatter(c, c.group.rotated(root), std::vector<size_t>(n, bytes), acc.data(),
                c.call.recv == kInPlace ? nullptr : c.call.recv);
}

// ------------------------------------------------------------------ alltoall

namespace {

// An alltoall's start: what it sends (the send buffer, or in place a copy of the receive
// buffer), and this rank's own block copied into place.
const unsigned char* start_alltoall(CollectiveContext& c, std::vector<unsigned char>& copy) {
  const size_t bytes = block_bytes(c);
  const unsigned char* out = static_cast<const unsigned char*>(c.call.send);
  if (c.call.send == kInPlace) {
    copy.resize(bytes * c.size());
    c.copy_local(copy.data(), c.call.recv, copy.size());
    out = copy.data();
  }
  c.state.last = {};
  c.copy_local(static_cast<unsigned char*>(c.call.recv) + size_t{c.rank()} * bytes, out + size_t{c.rank()} * bytes,
               bytes);
  return out;
}

}  // namespace

void alltoall_pairwise(CollectiveContext& c) {
  std::vector<unsigned char> copy;
  const unsigned char* out = start_alltoall(c, copy);
  unsigned char* in = static_cast<unsigned char*>(c.call.recv);
  const unsigned n = c.size(), r = c.rank();
  const size_t bytes = block_bytes(c);
  for (unsigned s = 1; s < n; ++s) {
    const unsigned to = (r + s) % n, from = (r + n - s) % n;
    c.sendrecv(out + size_t{to} * bytes, bytes, to, in + size_t{from} * bytes, bytes, from);
  }
}

void alltoall_bruck(CollectiveContext& c) {
  std::vector<unsigned char> copy;
  const unsigned char* out = start_alltoall(c, copy);
  unsigned char* in = static_cast<unsigned char*>(c.call.recv);
  const unsigned n = c.size(), r = c.rank();
  const size_t bytes = block_bytes(c);
  // Position i holds the block for rank r+i; in step k the blocks whose position has bit k
  // go to rank r+k (packed), and those from rank r-k take their places; at the end
  // position i holds rank r-i's block for this rank.
  std::vector<unsigned char> rot(bytes * n), pack, unpack;
  c.copy_local(rot.data(), out + size_t{r} * bytes, (n - r) * bytes);
  c.copy_local(rot.data() + size_t{n - r} * bytes, out, r * bytes);
  for (unsigned k = 1; k < n; k <<= 1) {
    std::vector<unsigned> idx;
    for (unsigned i = 0; i < n; ++i)
      if (i & k) idx.push_back(i);
    pack.resize(idx.size() * bytes);
    unpack.resize(idx.size() * bytes);
    for (size_t m = 0; m < idx.size(); ++m)
      c.copy_local(pack.data() + m * bytes, rot.data() + size_t{idx[m]} * bytes, bytes);
    c.sendrecv(pack.data(), pack.size(), (r + k) % n, unpack.data(), unpack.size(), (r + n - k) % n);
    for (size_t m = 0; m < idx.size(); ++m)
      c.copy_local(rot.data() + size_t{idx[m]} * bytes, unpack.data() + m * bytes, bytes);
  }
  for (unsigned i = 1; i < n; ++i)
    c.copy_local(in + size_t{(r + n - i) % n} * bytes, rot.data() + size_t{i} * bytes, bytes);
}

// ------------------------------------------------------------------ allgather(v)

namespace {

// The blocks of an allgather(v) in the receive buffer: block j at at[j], len[j] bytes; this
// rank's is in place already.
struct Blocks {
  std::vector<unsigned char*> at;
  std::vector<size_t> len;
};

// allgather's blocks, contiguous in rank order, this rank's copied in.
Blocks allgather_blocks(CollectiveContext& c) {
  const size_t bytes = block_bytes(c);
  unsigned char* base = static_cast<unsigned char*>(c.call.recv);
  c.copy_local(base + c.rank() * bytes, c.call.send, bytes);
  Blocks b{std::vector<unsigned char*>(c.size()), std::vector<size_t>(c.size(), bytes)};
  for (unsigned j = 0; j < c.size(); ++j) b.at[j] = base + j * bytes;
  return b;
}

// allgatherv's, at the displacements, this rank's copied in unless it is in place.
Blocks allgatherv_blocks(CollectiveContext& c) {
  const size_t e = native_bytes(c.call.type, false);
  const std::vector<size_t>& counts = *c.call.counts;
  const std::vector<size_t>& displs = *c.call.displs;
  Blocks b{std::vector<unsigned char*>(c.size()), std::vector<size_t>(c.size())};
  for (unsigned j = 0; j < c.size(); ++j) {
    b.at[j] = static_cast<unsigned char*>(c.call.recv) + displs[j] * e;
    b.len[j] = counts[j] * e;
  }
  if (!c.call.in_place) c.copy_local(b.at[c.rank()], c.call.send, b.len[c.rank()]);
  return b;
}

void ring_blocks(CollectiveContext& c, const Blocks& b) {
  const unsigned n = c.size(), r = c.rank();
  const unsigned right = (r + 1) % n, left = (r + n - 1) % n;
  for (unsigned s = 0; s + 1 < n; ++s) {
    const unsigned sb = (r + n - s) % n, rb = (r + 2 * n - s - 1) % n;
    c.sendrecv(b.at[sb], b.len[sb], right, b.at[rb], b.len[rb], left);
  }
}

void segment_blocks(CollectiveContext& c, const Blocks& b) {
  std::vector<std::pair<const unsigned char*, size_t>> out(c.size(), {b.at[c.rank()], b.len[c.rank()]});
  segment_alltoallv(c, out, b.at, b.len);
}

// The blocks moved by `move`, once this rank's is in place (nothing to move for one rank).
void move_blocks(CollectiveContext& c, const Blocks& b, void (*move)(CollectiveContext&, const Blocks&)) {
  if (c.size() > 1) move(c, b);
}

}  // namespace

void allgather_ring(CollectiveContext& c) { move_blocks(c, allgather_blocks(c), ring_blocks); }
void allgather_segment(CollectiveContext& c) { move_blocks(c, allgather_blocks(c), segment_blocks); }
void allgatherv_ring(CollectiveContext& c) { move_blocks(c, allgatherv_blocks(c), ring_blocks); }
void allgatherv_segment(CollectiveContext& c) { move_blocks(c, allgatherv_blocks(c), segment_blocks); }

void allgather_bruck(CollectiveContext& c) {
  const Blocks b = allgather_blocks(c);
  const unsigned n = c.size(), r = c.rank();
  if (n == 1) return;
  const size_t bytes = b.len[0];
  // Rotated: position i holds the block of rank r+i; step k gets the next k blocks from
  // rank r+k and gives its first ones to rank r-k.
  std::vector<unsigned char> rot(bytes * n);
  c.copy_local(rot.data(), b.at[r], bytes);
  for (unsigned k = 1; k < n; k <<= 1) {
    const unsigned blocks = std::min(k, n - k);
    c.sendrecv(rot.data(), blocks * bytes, (r + n - k) % n, rot.data() + size_t{k} * bytes, blocks * bytes,
               (r + k) % n);
  }
  c.copy_local(b.at[0] + size_t{r} * bytes, rot.data(), (n - r) * bytes);
  c.copy_local(b.at[0], rot.data() + size_t{n - r} * bytes, r * bytes);
}

void allgather_recursive_doubling(CollectiveContext& c) {
  const Blocks b = allgather_blocks(c);
  const unsigned n = c.size(), r = c.rank();
  if (n == 1) return;
  const size_t bytes = b.len[0];
  unsigned char* base = b.at[0];
  // Over the fold: new ranks [lo, lo+mask) hold the blocks of real ranks real_begin(lo) ..
  // real_begin(lo+mask)-1, contiguous in the buffer.
  const Fold f(n);
  auto real_end = [&](unsigned q_end) { return q_end >= f.p ? n : f.real_begin(q_end); };
  if (r < 2 * f.rem) {
    if (f.folded_out(r)) {
      c.send(b.at[r], bytes, r + 1);
      c.recv(base, n * bytes, r + 1);
      return;
    }
    c.recv(b.at[r - 1], bytes, r - 1);
  }
  const unsigned q = f.new_rank(r);
  for (unsigned mask = 1; mask < f.p; mask <<= 1) {
    const unsigned mine = q & ~(mask - 1), theirs = (q ^ mask) & ~(mask - 1);
    const unsigned m0 = f.real_begin(mine), m1 = real_end(mine + mask);
    const unsigned t0 = f.real_begin(theirs), t1 = real_end(theirs + mask);
    const unsigned partner = f.real_rank(q ^ mask);
    c.sendrecv(base + size_t{m0} * bytes, (m1 - m0) * bytes, partner, base + size_t{t0} * bytes, (t1 - t0) * bytes,
               partner);
  }
  if (r < 2 * f.rem) c.send(base, n * bytes, r - 1);
}

void segment_alltoallv(CollectiveContext& c, const std::vector<std::pair<const unsigned char*, size_t>>& out,
                       const std::vector<unsigned char*>& in_at, const std::vector<size_t>& in_len) {
  // The segmented allgather: the destinations in a random order (seeded per rank) or rank order; one
  // piece to each in turn, a current offset per destination, a destination leaving the
  // list when its segment is done, until the list is empty. The receives are posted first,
  // one per piece, in the order each sender sends them.
  const unsigned n = c.size(), r = c.rank();
  const SegmentOptions& segment = c.state.segment;
  const size_t piece = segment.piece_bytes;
  auto pieces = [piece](size_t len) { return len == 0 ? size_t{1} : (len + piece - 1) / piece; };
  std::vector<Request> receives;
  for (unsigned j = 0; j < n; ++j) {
    if (j == r) continue;
    for (size_t k = 0, np = pieces(in_len[j]); k < np; ++k) {
      const size_t off = k * piece, len = std::min(piece, in_len[j] - std::min(off, in_len[j]));
      receives.push_back(c.irecv(in_at[j] + off, len, j));
    }
  }
  std::vector<unsigned> order;
  if (segment.order == SegmentOrder::Rank) {
    for (unsigned j = 0; j < n; ++j)
      if (j != r) order.push_back(j);
  } else {
    for (unsigned k = 1; k < n; ++k) order.push_back((r + k) % n);
  }
  if (segment.order == SegmentOrder::Random) {
    std::mt19937_64 rng(segment.seed * 0x9e3779b97f4a7c15ull + r);
    std::shuffle(order.begin(), order.end(), rng);
  }
  std::vector<size_t> next(n, 0);
  std::vector<Request> sends;
  while (!order.empty()) {
    std::vector<unsigned> left;
    for (unsigned j : order) {
      const size_t off = next[j], len = std::min(piece, out[j].second - std::min(off, out[j].second));
      sends.push_back(c.isend(out[j].first + off, len, j));
      next[j] += piece;
      if (next[j] < out[j].second) left.push_back(j);
    }
    order.swap(left);
  }
  c.waitall(sends);
  c.waitall(receives);
}

}  // namespace collnet::driver::torus
