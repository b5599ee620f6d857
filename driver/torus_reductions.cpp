// SPDX-License-Identifier: Apache-2.0
// Op::Prod: the combining network's ALU adds, compares and does bitwise logic but cannot
// multiply, so the reductions with prod run over the torus, each rank multiplying what it
// receives into what it holds (four elements per processor cycle, as combining is).
//
// The order of the multiplications is fixed and depends only on the communicator's size,
// so a floating-point product (rounded after every multiplication) is reproducible and
// the same whichever collective computes it: the prefix of ranks 0..r is
//   P(r) = part(r, M),   part(r, 1) = x_r,
//   part(r, 2m) = part(r - m, m) * part(r, m)  if r >= m, else part(r, m),
// (M the smallest power of two >= size()): the recursive-doubling scan's order.
//  - scan: recursive doubling. In step d = 1, 2, 4, ... rank r sends what it holds to
//    r + d and multiplies what r - d sends into it, on the left.
//  - exscan: scan, then each rank sends its prefix to the next rank.
//  - reduce and allreduce: a binomial tree toward rank size()-1, which evaluates P(size()-1)
//    in the same order with size()-1 messages: in step m = 1, 2, 4, ... the ranks whose
//    distance q = size()-1-r to the last rank has bit m set send what they hold to r + m
//    and stop; the others receive from r - m (if there is one) and multiply it in, on the
//    left. Then reduce sends the product to the root (unless it is the last rank), and
//    allreduce broadcasts it from the last rank over the tree.

#include "driver/torus_reductions.hpp"

#include <cstring>
#include <vector>

#include "driver/argument_agreement.hpp"
#include "driver/torus_collectives.hpp"
#include "driver/tree_collectives.hpp"

namespace collnet::driver::prod {

namespace {

// Elements in the program's layout: the torus carries them as they are.
struct Elements {
  Datatype type;
  size_t count;
  std::vector<unsigned char> bytes;
  Elements(Datatype t, size_t n) : type(t), count(n), bytes(n * native_bytes(t, false)) {}
  Elements(Datatype t, size_t n, const void* from) : Elements(t, n) {
    if (!bytes.empty()) std::memcpy(bytes.data(), from, bytes.size());
  }
  void copy_to(void* to) const {
    if (!bytes.empty()) std::memcpy(to, bytes.data(), bytes.size());
  }
};

// acc[i] = left[i] * acc[i]: the lower ranks' product on the left, four elements per
// processor cycle.
void multiply_into(CollectiveContext& c, const Elements& left, Elements& acc) {
  for (size_t i = 0; i < acc.count; ++i) {
    const uint64_t l = load_raw(acc.type, false, left.bytes.data(), i),
                   a = load_raw(acc.type, false, acc.bytes.data(), i);
    store_raw(acc.type, false, acc.bytes.data(), i, multiply(acc.type, l, a));
  }
  c.task.cpu.work((acc.count + 3) / 4);
}

// The binomial tree toward the last rank: its product ends there.
Elements toward_last(CollectiveContext& c) {
  const unsigned n = c.size(), r = c.rank(), last = n - 1, q = last - r;
  Elements acc(c.call.type, c.call.count, c.call.send), in(c.call.type, c.call.count);
  for (unsigned m = 1; m < n; m <<= 1) {
    if (q & m) {
      c.send(acc.bytes.data(), acc.bytes.size(), r + m);
      break;
    }
    if (r >= m) {
      c.recv(in.bytes.data(), in.bytes.size(), r - m);
      multiply_into(c, in, acc);
    }
  }
  return acc;
}

}  // namespace

void allreduce(CollectiveContext& c, void* out) {
  Elements acc = toward_last(c);
  // From the last rank to all over the tree, as a bcast call (an OR with the others' zeros).
  CollectiveContext b = c;
  b.call = CollectiveCall{"bcast", nullptr, acc.bytes.data(), c.call.count, c.call.type, Op::Bor, c.size() - 1};
  agree(b, b.call.count, b.call.type, Op::Bor, b.call.root);
  if (b.on_tree())
    tree::bcast(b);
  else
    torus::bcast_binomial(b);  // no class route, or a started collective's fiber
  acc.copy_to(out);
}

void reduce(CollectiveContext& c) {
  const Elements acc = toward_last(c);
  const unsigned last = c.size() - 1, root = c.call.root, r = c.rank();
  if (root == last) {
    if (r == root) acc.copy_to(c.call.recv);
    return;
  }
  if (r == last) {
    c.send(acc.bytes.data(), acc.bytes.size(), root);
  } else if (r == root) {
    c.recv(c.call.recv, acc.bytes.size(), last);
  }
}

void scan(CollectiveContext& c, bool inclusive) {
  const unsigned n = c.size(), r = c.rank();
  Elements acc(c.call.type, c.call.count, c.call.send), in(c.call.type, c.call.count);
  for (unsigned d = 1; d < n; d <<= 1) {
    const bool sends = r + d < n, receives = r >= d;
    if (sends && receives)
      c.sendrecv(acc.bytes.data(), acc.bytes.size(), r + d, in.bytes.data(), in.bytes.size(), r - d);
    else if (sends)
      c.send(acc.bytes.data(), acc.bytes.size(), r + d);
    else if (receives)
      c.recv(in.bytes.data(), in.bytes.size(), r - d);
    if (receives) multiply_into(c, in, acc);
  }
  if (inclusive) return acc.copy_to(c.call.recv);
  // Exclusive: rank r's result is rank r-1's prefix.
  if (r + 1 < n) c.send(acc.bytes.data(), acc.bytes.size(), r + 1);
  if (r > 0) c.recv(c.call.recv, acc.bytes.size(), r - 1);
}

}  // namespace collnet::driver::prod
