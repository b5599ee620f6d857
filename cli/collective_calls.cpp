// SPDX-License-Identifier: Apache-2.0
// The call of each collective on a communicator, on native copies of the raw buffers.
#include "cli/collective_calls.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <stdexcept>
#include <vector>

namespace collnet::cli {

namespace {

using reference::packed;
using reference::total;

// Runs `f(send, recv)` on native copies of the call's buffers (the receive buffer starting
// as the raw one, laid out natively too), then reads the receive buffer back.
template <class F>
void on_native(const Call& k, bool pairs, F&& f) {
  const size_t b = driver::native_bytes(k.type, pairs);
  std::vector<unsigned char> send(k.count * b), recv(k.recv_count * b);
  driver::raw_to_native(k.type, pairs, k.send, k.count, send.data());
  driver::raw_to_native(k.type, pairs, k.recv, k.recv_count, recv.data());
  f(send.data(), recv.data());
  const std::vector<uint64_t> back = driver::native_to_raw(k.type, pairs, recv.data(), k.recv_count);
  std::copy(back.begin(), back.end(), k.recv);
}

// on_native with explicit lengths: `send_count` elements in, `k.recv_count` out.
template <class F>
void on_native_n(const Call& k, bool pairs, size_t send_count, F&& f) {
  Call c = k;
  c.count = send_count;
  on_native(c, pairs, std::forward<F>(f));
}

using driver::Communicator;

// barrier, bcast, the reductions, the gathers and the scans: buffers of `count` elements.
void add_whole_buffer_calls(std::map<std::string, CollectiveCall>& t) {
  t["barrier"] = [](Communicator& c, const Call&) { c.barrier(); };
  t["bcast"] = [](Communicator& c, const Call& k) {
    on_native(k, false, [&](const void* send, void* recv) {
      std::memcpy(recv, send, k.count * driver::bytes(k.type));  // in place: the buffer starts as the input
      c.bcast(recv, k.count, k.type, k.root);
    });
  };
  t["reduce"] = [](Communicator& c, const Call& k) {
    on_native(k, driver::is_loc(k.op), [&](const void* s, void* r) { c.reduce(s, r, k.count, k.type, k.op, k.root); });
  };
  t["allreduce"] = [](Communicator& c, const Call& k) {
    on_native(k, driver::is_loc(k.op), [&](const void* s, void* r) { c.allreduce(s, r, k.count, k.type, k.op); });
  };
  t["gather"] = [](Communicator& c, const Call& k) {
    on_native(k, false, [&](const void* s, void* r) { c.gather(s, r, k.count, k.type, k.root); });
  };
  t["allgather"] = [](Communicator& c, const Call& k) {
    on_native(k, false, [&](const void* s, void* r) { c.allgather(s, r, k.count, k.type); });
  };
  t["scan"] = [](Communicator& c, const Call& k) {
    on_native(k, driver::is_loc(k.op), [&](const void* s, void* r) { c.scan(s, r, k.count, k.type, k.op); });
  };
  t["exscan"] = [](Communicator& c, const Call& k) {
    on_native(k, driver::is_loc(k.op), [&](const void* s, void* r) { c.exscan(s, r, k.count, k.type, k.op); });
  };
}

// The personalised and vector forms: receive buffers packed in rank order.
void add_personalised_calls(std::map<std::string, CollectiveCall>& t) {
  t["alltoall"] = [](Communicator& c, const Call& k) {
    on_native_n(k, false, k.count * c.size(), [&](const void* s, void* r) { c.alltoall(s, r, k.count, k.type); });
  };
  t["alltoallv"] = [](Communicator& c, const Call& k) {
    const std::vector<size_t>& sc = k.counts->pair.at(c.rank());
    const std::vector<size_t> rc = reference::sent_to(*k.counts, c.rank());
    on_native_n(k, false, total(sc),
                [&](const void* s, void* r) { c.alltoallv(s, sc, packed(sc), r, rc, packed(rc), k.type); });
  };
  t["scatter"] = [](Communicator& c, const Call& k) {
    on_native_n(k, false, c.rank() == k.root ? k.count * c.size() : 0,
                [&](const void* s, void* r) { c.scatter(s, r, k.count, k.type, k.root); });
  };
  t["scatterv"] = [](Communicator& c, const Call& k) {
    const std::vector<size_t>& sc = k.counts->member;
    const bool root = c.rank() == k.root;
    on_native_n(k, false, root ? total(sc) : 0, [&](const void* s, void* r) {
      c.scatterv(s, root ? sc : std::vector<size_t>{}, root ? packed(sc) : std::vector<size_t>{}, r, sc.at(c.rank()),
                 k.type, k.root);
    });
  };
  t["gatherv"] = [](Communicator& c, const Call& k) {
    const std::vector<size_t>& rc = k.counts->member;
    const bool root = c.rank() == k.root;
    on_native_n(k, false, rc.at(c.rank()), [&](const void* s, void* r) {
      c.gatherv(s, rc.at(c.rank()), r, root ? rc : std::vector<size_t>{}, root ? packed(rc) : std::vector<size_t>{},
                k.type, k.root);
    });
  };
  t["allgatherv"] = [](Communicator& c, const Call& k) {
    const std::vector<size_t>& rc = k.counts->member;
    on_native_n(k, false, rc.at(c.rank()),
                [&](const void* s, void* r) { c.allgatherv(s, rc.at(c.rank()), r, rc, packed(rc), k.type); });
  };
  t["reduce_scatter"] = [](Communicator& c, const Call& k) {
    const std::vector<size_t>& rc = k.counts->member;
    on_native_n(k, driver::is_loc(k.op), total(rc),
                [&](const void* s, void* r) { c.reduce_scatter(s, r, rc, k.type, k.op); });
  };
  t["reduce_scatter_block"] = [](Communicator& c, const Call& k) {
    on_native_n(k, driver::is_loc(k.op), k.count * c.size(),
                [&](const void* s, void* r) { c.reduce_scatter_block(s, r, k.count, k.type, k.op); });
  };
}

}  // namespace

const CollectiveCall& collective_call(const std::string& name) {
  static const std::map<std::string, CollectiveCall> calls = [] {
    std::map<std::string, CollectiveCall> t;
    add_whole_buffer_calls(t);
    add_personalised_calls(t);
    return t;
  }();
  const auto it = calls.find(name);
  if (it == calls.end()) throw std::invalid_argument("no call for the collective '" + name + "'");
  return it->second;
}

}  // namespace collnet::cli
