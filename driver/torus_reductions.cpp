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
#include <vector>

#include "driver/communicator.hpp"
#include "driver/error.hpp"

namespace collnet::driver {

namespace {

// The torus carries elements in their native width, not one per 64-bit word.
struct Wire {
  Datatype type;
  size_t count;
  std::vector<unsigned char> bytes;
  Wire(Datatype t, size_t n) : type(t), count(n), bytes(n * native_bytes(t, false)) {}
  void pack(const std::vector<uint64_t>& raw) { raw_to_native(type, false, raw.data(), count, bytes.data()); }
  std::vector<uint64_t> unpack() const { return native_to_raw(type, false, bytes.data(), count); }
};

// acc[i] = left[i] * acc[i]: the lower ranks' product on the left.
void multiply_into(fw::Processor& cpu, Datatype t, const std::vector<uint64_t>& left, std::vector<uint64_t>& acc) {
  for (size_t i = 0; i < acc.size(); ++i) acc[i] = multiply(t, left[i], acc[i]);
  cpu.idle((acc.size() + 3) / 4);
}

}  // namespace

void Communicator::prod_reduce(const char* call, const uint64_t* send, uint64_t* recv, size_t count, Datatype type,
                               unsigned root, bool everyone) {
  agree(call, count, type, Op::Prod, everyone ? 0 : root);
  std::vector<uint64_t> acc(send, send + count);
  Wire wire(type, count);
  const unsigned last = size_ - 1, q = last - rank_;
  for (unsigned m = 1; m < size_; m <<= 1) {
    if (q & m) {
      wire.pack(acc);
      coll_send(wire.bytes.data(), wire.bytes.size(), rank_ + m);
      break;
    }
    if (rank_ >= m) {
      coll_recv(wire.bytes.data(), wire.bytes.size(), rank_ - m);
      multiply_into(task_.cpu, type, wire.unpack(), acc);
    }
  }
  if (everyone) {
    // From the last rank to all over the tree (an OR with the others' zeros).
    bcast_words(acc.data(), count, type, last);
    std::copy(acc.begin(), acc.end(), recv);
    return;
  }
  if (root == last) {
    if (rank_ == root) std::copy(acc.begin(), acc.end(), recv);
    return;
  }
  if (rank_ == last) {
    wire.pack(acc);
    coll_send(wire.bytes.data(), wire.bytes.size(), root);
  } else if (rank_ == root) {
    coll_recv(wire.bytes.data(), wire.bytes.size(), last);
    const std::vector<uint64_t> r = wire.unpack();
    std::copy(r.begin(), r.end(), recv);
  }
}

void Communicator::prod_prefix(const char* call, const uint64_t* send, uint64_t* recv, size_t count, Datatype type,
                               bool inclusive) {
  agree(call, count, type, Op::Prod, 0);
  std::vector<uint64_t> acc(send, send + count);
  Wire out(type, count), in(type, count);
  for (unsigned d = 1; d < size_; d <<= 1) {
    const bool sends = rank_ + d < size_, receives = rank_ >= d;
    if (sends) out.pack(acc);
    if (sends && receives)
      coll_sendrecv(out.bytes.data(), out.bytes.size(), rank_ + d, in.bytes.data(), in.bytes.size(), rank_ - d);
    else if (sends)
      coll_send(out.bytes.data(), out.bytes.size(), rank_ + d);
    else if (receives)
      coll_recv(in.bytes.data(), in.bytes.size(), rank_ - d);
    if (receives) multiply_into(task_.cpu, type, in.unpack(), acc);
  }
  if (inclusive) {
    std::copy(acc.begin(), acc.end(), recv);
    return;
  }
  // Exclusive: rank r's result is rank r-1's prefix.
  if (rank_ + 1 < size_) {
    out.pack(acc);
    coll_send(out.bytes.data(), out.bytes.size(), rank_ + 1);
  }
  if (rank_ > 0) {
    coll_recv(in.bytes.data(), in.bytes.size(), rank_ - 1);
    const std::vector<uint64_t> r = in.unpack();
    std::copy(r.begin(), r.end(), recv);
  }
}

}  // namespace collnet::driver
