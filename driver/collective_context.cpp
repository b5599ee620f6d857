// SPDX-License-Identifier: Apache-2.0
// The collectives' point-to-point messages go through the Communicator's own calls (with
// their argument checks), on the reserved tag kCollectiveTag.
#include "driver/collective_context.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "driver/communicator.hpp"
#include "driver/error.hpp"
#include "driver/local_combine.hpp"

namespace collnet::driver {

namespace {

// A collective's message is exactly as long as the receiver's count says: a shorter one is
// the two ranks' counts disagreeing (a longer one fails the receive as truncated).
void expect_length(const Status& st, size_t bytes, unsigned source) {
  if (st.bytes != bytes)
    throw Error("the message from rank " + std::to_string(source) + " holds " + std::to_string(st.bytes) +
                " bytes; the receive expects " + std::to_string(bytes));
}

// A message of encoded words, led by the call's arguments.
std::vector<uint64_t> led(uint64_t args, const uint64_t* w, size_t n) {
  std::vector<uint64_t> m(n + 1);
  m[0] = args;
  std::copy(w, w + n, m.begin() + 1);
  return m;
}

}  // namespace

void CollectiveContext::send(const void* buf, size_t bytes, unsigned dest) {
  comm_.send(buf, bytes, Datatype::U8, dest, kCollectiveTag);
}

void CollectiveContext::recv(void* buf, size_t bytes, unsigned source) {
  expect_length(comm_.recv(buf, bytes, Datatype::U8, source, kCollectiveTag), bytes, source);
}

void CollectiveContext::sendrecv(const void* out, size_t out_bytes, unsigned dest, void* in, size_t in_bytes,
                                 unsigned source) {
  // Both at once: a long message waits for its receive (rendezvous), so a rank must not
  // wait for its send before posting its receive.
  const Status st = comm_.sendrecv(out, out_bytes, Datatype::U8, dest, kCollectiveTag, in, in_bytes, Datatype::U8,
                                   source, kCollectiveTag);
  expect_length(st, in_bytes, source);
}

Request CollectiveContext::isend(const void* buf, size_t bytes, unsigned dest, std::optional<size_t> eager_limit) {
  return comm_.isend_bytes(buf, bytes, 1, dest, kCollectiveTag, eager_limit);
}

Request CollectiveContext::irecv(void* buf, size_t bytes, unsigned source) {
  return comm_.irecv(buf, bytes, Datatype::U8, source, kCollectiveTag);
}

void CollectiveContext::wait_exact(Request& r, size_t bytes, unsigned source) {
  expect_length(comm_.wait(r), bytes, source);
}
void CollectiveContext::waitall(std::vector<Request>& rs) { comm_.waitall(rs); }
bool CollectiveContext::progress() { return comm_.progress(); }
P2pEngine& CollectiveContext::engine() { return comm_.engine(); }

void CollectiveContext::send_words(const uint64_t* w, size_t n, unsigned dest) {
  const std::vector<uint64_t> m = led(agreed, w, n);
  send(m.data(), m.size() * 8, dest);
}

namespace {

// Checks a received message's lead word against this rank's arguments and copies its
// words to `w`.
void check_led(const CollectiveContext& c, const std::vector<uint64_t>& m, uint64_t* w, unsigned source) {
  if (m[0] != c.agreed)
    throw Error(std::string(c.call.name) + ": rank " + std::to_string(source) +
                " passed a different count, type, op or root than rank " + std::to_string(c.rank()));
  std::copy(m.begin() + 1, m.end(), w);
}

}  // namespace

void CollectiveContext::recv_words(uint64_t* w, size_t n, unsigned source) {
  std::vector<uint64_t> m(n + 1);
  recv(m.data(), m.size() * 8, source);
  check_led(*this, m, w, source);
}

void CollectiveContext::exchange_words(const uint64_t* out, size_t out_n, unsigned dest, uint64_t* in, size_t in_n,
                                       unsigned source) {
  const std::vector<uint64_t> m = led(agreed, out, out_n);
  std::vector<uint64_t> r(in_n + 1);
  sendrecv(m.data(), m.size() * 8, dest, r.data(), r.size() * 8, source);
  check_led(*this, r, in, source);
}

void CollectiveContext::combine(const Encoding& e, uint64_t* acc, const uint64_t* in, size_t n) {
  combine_encoded(e, acc, in, n);
  task.cpu.work((n + 3) / 4);
}

void CollectiveContext::barrier() { comm_.barrier(); }

void copy_in_memory(fw::Processor& cpu, void* to, const void* from, size_t bytes) {
  if (bytes) std::memmove(to, from, bytes);
  cpu.work((bytes / 8 + 3) / 4);
}

}  // namespace collnet::driver
