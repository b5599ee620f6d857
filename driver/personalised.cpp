// SPDX-License-Identifier: Apache-2.0
// The personalised collectives, in which every rank sends each other rank data of its own:
// alltoall, alltoallv, scatter and scatterv, over the torus. Also the one place where the
// collectives use point-to-point messages (coll_send, coll_recv, coll_sendrecv).
//
// alltoall(v): every receive posted, then the sends to rank r+1, r+2, ... (mod size())
// started, all in flight at once; the own block is a local copy. In each position of that
// order every rank sends to a different rank, so the traffic spreads over the torus
// instead of converging on one node.
// scatter(v): the root sends each rank its block, in the order root+1, root+2, ...
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "driver/collective_args.hpp"
#include "driver/communicator.hpp"
#include "driver/error.hpp"

namespace collnet::driver {

namespace {

// The bytes of one element of `type` in a program's buffer.
size_t elem(Datatype type) { return native_bytes(type, false); }

}  // namespace

// ------------------------------------------------------------------ the torus messages
// Point-to-point on the reserved tag kCollectiveTag. An exchange sends and receives at once
// (sendrecv): a long message waits for its receive, so every rank posts its receive before
// it waits for its send, and all ranks exchanging at once cannot deadlock.

void Communicator::coll_send(const void* buf, size_t bytes, unsigned dest) {
  send(buf, bytes, Datatype::U8, dest, kCollectiveTag);
}

namespace {

// A collective's message is exactly as long as the receiver's count says: a shorter one is
// the two ranks' counts disagreeing (a longer one fails the receive as truncated).
void expect_length(const Status& st, size_t bytes, unsigned source) {
  if (st.bytes != bytes)
    throw Error("the message from rank " + std::to_string(source) + " holds " + std::to_string(st.bytes) +
                " bytes; the receive expects " + std::to_string(bytes));
}

}  // namespace

void Communicator::coll_recv(void* buf, size_t bytes, unsigned source) {
  expect_length(recv(buf, bytes, Datatype::U8, source, kCollectiveTag), bytes, source);
}

void Communicator::coll_sendrecv(const void* send, size_t send_bytes_, unsigned dest, void* recv, size_t recv_bytes_,
                                 unsigned source) {
  // Both at once: a long message waits for its receive (rendezvous), so a rank must not
  // wait for its send before posting its receive.
  const Status st = sendrecv(send, send_bytes_, Datatype::U8, dest, kCollectiveTag, recv, recv_bytes_, Datatype::U8,
                             source, kCollectiveTag);
  expect_length(st, recv_bytes_, source);
}

namespace {

// A receive whose length differs from the message's is the caller's count disagreeing
// with the sender's: said in the collective's terms.
template <class F>
void receiving(const char* call, const std::string& what, F&& f) {
  try {
    f();
  } catch (const Error& e) {
    throw Error(std::string(call) + ": " + what + " (" + e.what() + ")");
  }
}

}  // namespace

// ------------------------------------------------------------------ alltoall(v)

void Communicator::alltoall(const void* send, void* recv, size_t count, Datatype type) {
  const char* call = "alltoall";
  check_live(call);
  const std::vector<size_t> counts(size_, count);
  std::vector<size_t> displs(size_);
  for (unsigned j = 0; j < size_; ++j) displs[j] = j * count;
  if (send == kInPlace) {
    need_buffer(call, "receive", recv, count * size_);
    if (choose(Collective::Alltoall, count * elem(type)) == Algorithm::TorusLinear)
      return alltoallv_as(call, kInPlace, {}, {}, recv, counts, displs, type);
    // The other algorithms send from a copy.
    std::vector<unsigned char> copy(count * size_ * elem(type));
    copy_local(copy.data(), recv, copy.size());
    return alltoall(copy.data(), recv, count, type);
  }
  need_buffer(call, "send", send, count * size_);
  need_buffer(call, "receive", recv, count * size_);
  const Algorithm a = choose(Collective::Alltoall, count * elem(type));
  if (a == Algorithm::TorusLinear) return alltoallv_as(call, send, counts, displs, recv, counts, displs, type);
  last_ = {};
  torus_alltoall(static_cast<const unsigned char*>(send), static_cast<unsigned char*>(recv), count * elem(type), a);
}

void Communicator::alltoallv(const void* send, const std::vector<size_t>& sendcounts,
                             const std::vector<size_t>& sdispls, void* recv, const std::vector<size_t>& recvcounts,
                             const std::vector<size_t>& rdispls, Datatype type) {
  alltoallv_as("alltoallv", send, sendcounts, sdispls, recv, recvcounts, rdispls, type);
}

void Communicator::alltoallv_as(const char* call, const void* send, const std::vector<size_t>& sendcounts,
                                const std::vector<size_t>& sdispls, void* recv, const std::vector<size_t>& recvcounts,
                                const std::vector<size_t>& rdispls, Datatype type) {
  check_live(call);
  last_ = {};
  const bool in_place = send == kInPlace;
  check_layout(call, "receive", "recvcounts", "rdispls", recvcounts, rdispls, recv, size_);
  const size_t b = elem(type);
  // In place: the data to send is the receive buffer's, copied first.
  std::vector<unsigned char> copy;
  const std::vector<size_t>& scounts = in_place ? recvcounts : sendcounts;
  const std::vector<size_t>& sdisp = in_place ? rdispls : sdispls;
  const unsigned char* out;
  if (in_place) {
    copy.resize(extent(recvcounts, rdispls) * b);
    copy_local(copy.data(), recv, copy.size());
    out = copy.data();
  } else {
    check_layout(call, "send", "sendcounts", "sdispls", sendcounts, sdispls, send, size_);
    out = static_cast<const unsigned char*>(send);
  }
  if (scounts[rank_] != recvcounts[rank_])
    throw Error(std::string(call) + ": sendcounts[" + std::to_string(rank_) + "] = " + std::to_string(scounts[rank_]) +
                " but recvcounts[" + std::to_string(rank_) + "] = " + std::to_string(recvcounts[rank_]) +
                " on rank " + std::to_string(rank_));
  unsigned char* in = static_cast<unsigned char*>(recv);
  copy_local(in + rdispls[rank_] * b, out + sdisp[rank_] * b, recvcounts[rank_] * b);
  // Every receive is posted first, then every send starts, to rank+1, rank+2, ... (in each
  // step of that order the ranks send to different ranks), and all complete together: the
  // messages of every pair are in flight at once, and the receives are there when they
  // arrive. Every pair exchanges a message, empty ones too, so that counts that disagree
  // are caught at the receiver instead of leaving it waiting.
  std::vector<Request> receives, sends;
  for (unsigned k = 1; k < size_; ++k) {
    const unsigned from = (rank_ + size_ - k) % size_;
    receives.push_back(irecv(in + rdispls[from] * b, recvcounts[from] * b, Datatype::U8, from, kCollectiveTag));
  }
  for (unsigned k = 1; k < size_; ++k) {
    const unsigned to = (rank_ + k) % size_;
    // Blocks longer than kCollectiveEagerBytes go by rendezvous whatever the eager limit:
    // with every pair's message in flight at once, their data then spreads over the
    // adaptive paths and both reception FIFOs (4 KiB per pair on 4x4x4: 28 505 cycles,
    // against 87 375 eagerly through one FIFO each).
    sends.push_back(isend_bytes(out + sdisp[to] * b, scounts[to] * b, 1, to, kCollectiveTag, kCollectiveEagerBytes));
  }
  waitall(sends);
  // Every receive is finished before an error is thrown: none may write into the buffer
  // after the call returns.
  std::exception_ptr first;
  for (unsigned k = 1; k < size_; ++k) {
    const unsigned from = (rank_ + size_ - k) % size_;
    try {
      receiving(call,
                "recvcounts[" + std::to_string(from) + "] = " + std::to_string(recvcounts[from]) + " on rank " +
                    std::to_string(rank_) + " differs from what rank " + std::to_string(from) + " sends",
                [&] { expect_length(wait(receives[k - 1]), recvcounts[from] * b, from); });
    } catch (...) {
      if (!first) first = std::current_exception();
    }
  }
  if (first) std::rethrow_exception(first);
}

// ------------------------------------------------------------------ scatter(v)

void Communicator::scatter(const void* send, void* recv, size_t count, Datatype type, unsigned root) {
  check_live("scatter");
  check_root("scatter", root);
  const Algorithm a = choose(Collective::Scatter, count * elem(type));
  if (a == Algorithm::TorusBinomial || a == Algorithm::TorusNeighbourhood) {
    last_ = {};
    if (rank_ == root) need_buffer("scatter", "send", send, count * size_);
    if (recv == kInPlace && rank_ != root) throw Error("scatter: only the root may pass kInPlace");
    if (recv != kInPlace) need_buffer("scatter", "receive", recv, count);
    if (a == Algorithm::TorusNeighbourhood) return neighbourhood_scatter(send, recv, count * elem(type), root);
    return torus_scatter(send, recv, count * elem(type), root);
  }
  std::vector<size_t> counts, displs;
  if (rank_ == root) {
    need_buffer("scatter", "send", send, count * size_);
    counts.assign(size_, count);
    for (unsigned j = 0; j < size_; ++j) displs.push_back(j * count);
  }
  scatterv_as("scatter", send, counts, displs, recv, count, type, root);
}

void Communicator::scatterv(const void* send, const std::vector<size_t>& sendcounts, const std::vector<size_t>& displs,
                            void* recv, size_t recvcount, Datatype type, unsigned root) {
  scatterv_as("scatterv", send, sendcounts, displs, recv, recvcount, type, root);
}

void Communicator::scatterv_as(const char* call, const void* send, const std::vector<size_t>& sendcounts,
                               const std::vector<size_t>& displs, void* recv, size_t recvcount, Datatype type,
                               unsigned root) {
  check_live(call);
  last_ = {};
  check_root(call, root);
  const size_t b = elem(type);
  if (rank_ != root) {
    if (recv == kInPlace) throw Error(std::string(call) + ": only the root may pass kInPlace");
    need_buffer(call, "receive", recv, recvcount);
    receiving(call,
              "recvcount " + std::to_string(recvcount) + " on rank " + std::to_string(rank_) +
                  " differs from the root's sendcounts[" + std::to_string(rank_) + "]",
              [&] { coll_recv(recv, recvcount * b, root); });
    return;
  }
  check_layout(call, "send", "sendcounts", "displs", sendcounts, displs, send, size_);
  const unsigned char* out = static_cast<const unsigned char*>(send);
  if (recv != kInPlace) {
    if (recvcount != sendcounts[rank_])
      throw Error(std::string(call) + ": recvcount " + std::to_string(recvcount) + " on the root differs from sendcounts[" +
                  std::to_string(rank_) + "] = " + std::to_string(sendcounts[rank_]));
    need_buffer(call, "receive", recv, recvcount);
    copy_local(recv, out + displs[rank_] * b, recvcount * b);
  }
  for (unsigned k = 1; k < size_; ++k) {
    const unsigned to = (root + k) % size_;
    coll_send(out + displs[to] * b, sendcounts[to] * b, to);
  }
}

}  // namespace collnet::driver
