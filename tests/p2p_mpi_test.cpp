// SPDX-License-Identifier: Apache-2.0
// Point-to-point with MPI's semantics on whole simulated machines (each in a child
// process): requests and their wait/test families, wildcards and statuses, probe, the
// rendezvous protocol under adaptive routing, the bound on unexpected memory, and progress
// inside collectives.
#include <algorithm>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "driver/error.hpp"
#include "driver/job.hpp"
#include "tests/support/test_machine.hpp"
#include "tests/support/test_machine.hpp"
#include "systemc/machine.hpp"

namespace collnet {
namespace {

using driver::Datatype;
using driver::kAnySource;
using driver::kAnyTag;
using test::machine_config;
using test::run_isolated;

using Body = std::function<void(driver::Task&, std::string& problem)>;

// The bytes of message `k` from world rank `src` to `dst`: different for every message and byte.
std::vector<uint8_t> payload(unsigned src, unsigned dst, unsigned k, size_t bytes) {
  std::vector<uint8_t> v(bytes);
  for (size_t i = 0; i < bytes; ++i) v[i] = static_cast<uint8_t>((src * 131 + dst * 31 + k * 7 + i * 13 + (i >> 8)) & 0xff);
  return v;
}

// Runs `body` on every rank of `shape`; "ok" when every rank returned and reported nothing.
std::string run_on(const char* shape, unsigned tasks, const driver::P2pConfig& cfg, const Body& body,
                   uint64_t watchdog = 2'000'000) {
  return run_isolated([&] {
           sim::Machine model(machine_config(shape, tasks, watchdog));
           driver::Job job(model, cfg);
           std::vector<std::string> problems(model.nodes() * tasks);
           const driver::RunReport rep = job.run([&](driver::Task& t) { body(t, problems[t.rank()]); });
           if (!rep.ok) return rep.error;
           for (size_t r = 0; r < problems.size(); ++r)
             if (!problems[r].empty()) return "rank " + std::to_string(r) + ": " + problems[r];
           return std::string("ok");
         })
      .report;
}

// Every other rank sends one message with its rank as the tag (and 0..40 bytes); rank 0
// receives them all with kAnySource and kAnyTag and learns from each status who sent it.
TEST(P2pMpi, WildcardReceivesReportSourceTagAndLength) {
  for (unsigned tasks : {1u, 2u}) {
    const std::string r = run_on("2x2x2", tasks, {}, [](driver::Task& t, std::string& problem) {
      driver::Communicator& w = t.world();
      const unsigned me = w.rank(), n = w.size();
      if (me != 0) {
        const auto m = payload(me, 0, 0, 5 * me);
        w.send(m.data(), m.size(), Datatype::U8, 0, me);
        return;
      }
      std::vector<bool> seen(n, false);
      for (unsigned i = 1; i < n; ++i) {
        std::vector<uint8_t> got(128, 0);
        const driver::Status st = w.recv(got.data(), got.size(), Datatype::U8, kAnySource, kAnyTag);
        if (st.source == 0 || st.source >= n || seen[st.source]) {
          problem += "status source " + std::to_string(st.source) + "; ";
          continue;
        }
        seen[st.source] = true;
        if (st.tag != st.source) problem += "tag " + std::to_string(st.tag) + " from " + std::to_string(st.source) + "; ";
        if (st.bytes != 5 * st.source) problem += "length from " + std::to_string(st.source) + "; ";
        got.resize(st.bytes);
        if (got != payload(st.source, 0, 0, st.bytes)) problem += "data from " + std::to_string(st.source) + "; ";
      }
    });
    EXPECT_EQ(r, "ok") << tasks << " tasks per node";
  }
}

// Rendezvous messages (longer than the eager limit) between two nodes that differ in every
// coordinate: their data travels adaptively on several paths and is placed by offset, and
// messages of one tag are still received in the order they were sent.
TEST(P2pMpi, RendezvousMessagesArriveWholeAndInOrderUnderAdaptiveRouting) {
  const std::string r = run_on("4x4x4", 1, {}, [](driver::Task& t, std::string& problem) {
    driver::Communicator& w = t.world();
    const unsigned far = 1 + 4 * 2 + 16 * 3;  // (1, 2, 3) from (0, 0, 0)
    const size_t sizes[] = {20000, 4097, 12345, 100000};
    if (w.rank() == 0) {
      std::vector<std::vector<uint8_t>> out;
      std::vector<driver::Request> rs;
      for (unsigned k = 0; k < 4; ++k) out.push_back(payload(0, far, k, sizes[k]));
      for (unsigned k = 0; k < 4; ++k) rs.push_back(w.isend(out[k].data(), out[k].size(), Datatype::U8, far, 3));
      w.waitall(rs);
    } else if (w.rank() == far) {
      for (unsigned k = 0; k < 4; ++k) {
        std::vector<uint8_t> got(sizes[k]);
        const driver::Status st = w.recv(got.data(), got.size(), Datatype::U8, 0, 3);
        if (st.bytes != sizes[k]) problem += "message " + std::to_string(k) + " has " + std::to_string(st.bytes) + " bytes; ";
        if (got != payload(0, far, k, sizes[k])) problem += "message " + std::to_string(k) + " differs; ";
      }
      if (w.p2p_engine().stats().rendezvous != 0) problem += "the receiver counted sends of its own; ";
    } else if (w.rank() == 1) {
      // The sender's node counts: all four went by rendezvous.
    }
    if (w.rank() == 0 && w.p2p_engine().stats().rendezvous != 4)
      problem += std::to_string(w.p2p_engine().stats().rendezvous) + " rendezvous sends, not 4; ";
  });
  EXPECT_EQ(r, "ok");
}

// probe and iprobe report a message without taking it; the receive then takes it.
TEST(P2pMpi, ProbeReportsAMessageWithoutTakingIt) {
  const std::string r = run_on("2x2x2", 1, {}, [](driver::Task& t, std::string& problem) {
    driver::Communicator& w = t.world();
    if (w.rank() == 5) {
      std::vector<int32_t> v(37);
      for (int i = 0; i < 37; ++i) v[i] = -i;
      w.send(v.data(), v.size(), Datatype::I32, 2, 9);
    } else if (w.rank() == 2) {
      if (w.iprobe(5, 8)) problem += "iprobe found a message with tag 8; ";
      const driver::Status st = w.probe(kAnySource, kAnyTag);
      if (st.source != 5 || st.tag != 9 || st.count(Datatype::I32) != 37)
        problem += "probe: source " + std::to_string(st.source) + " tag " + std::to_string(st.tag) + "; ";
      const auto again = w.iprobe(5, 9);
      if (!again || again->bytes != 37 * 4) problem += "iprobe after probe; ";
      std::vector<int32_t> got(37);
      w.recv(got.data(), got.size(), Datatype::I32, 5, 9);
      for (int i = 0; i < 37; ++i)
        if (got[i] != -i) problem += "element " + std::to_string(i) + "; ";
      if (w.iprobe()) problem += "iprobe found a message after the receive; ";
    }
  });
  EXPECT_EQ(r, "ok");
}

// Rank 0 posts a receive from every rank for three tags and finishes them with waitany as
// they complete, in whatever order; the senders start at staggered times.
TEST(P2pMpi, WaitanyFinishesEachOfManyRequestsOnce) {
  const std::string r = run_on("3x3x1", 2, {}, [](driver::Task& t, std::string& problem) {
    driver::Communicator& w = t.world();
    const unsigned n = w.size(), me = w.rank();
    const size_t bytes[3] = {8, 3000, 9000};  // eager, eager, rendezvous
    if (me != 0) {
      t.cpu().idle(200 * (n - me));
      for (unsigned k = 0; k < 3; ++k) {
        const auto m = payload(me, 0, k, bytes[k]);
        w.send(m.data(), m.size(), Datatype::U8, 0, k);
      }
      return;
    }
    std::vector<std::vector<uint8_t>> got;
    std::vector<driver::Request> rs;
    std::vector<std::pair<unsigned, unsigned>> what;
    for (unsigned s = 1; s < n; ++s)
      for (unsigned k = 0; k < 3; ++k) {
        got.emplace_back(bytes[k]);
        rs.push_back(w.irecv(got.back().data(), bytes[k], Datatype::U8, s, k));
        what.emplace_back(s, k);
      }
    std::vector<int> finished(rs.size(), 0);
    for (size_t i = 0; i < rs.size(); ++i) {
      driver::Status st;
      const size_t idx = w.waitany(rs, &st);
      if (idx == driver::Communicator::kNoRequest || idx >= rs.size()) {
        problem += "waitany returned " + std::to_string(idx) + "; ";
        break;
      }
      ++finished[idx];
      if (!rs[idx].null()) problem += "request " + std::to_string(idx) + " is not null after waitany; ";
      if (st.source != what[idx].first || st.tag != what[idx].second) problem += "status of " + std::to_string(idx) + "; ";
      if (got[idx] != payload(what[idx].first, 0, what[idx].second, bytes[what[idx].second]))
        problem += "data of " + std::to_string(idx) + "; ";
    }
    for (size_t i = 0; i < rs.size(); ++i)
      if (finished[i] != 1) problem += "request " + std::to_string(i) + " finished " + std::to_string(finished[i]) + " times; ";
    if (w.waitany(rs) != driver::Communicator::kNoRequest) problem += "waitany over null requests; ";
  });
  EXPECT_EQ(r, "ok");
}

// 1000 outstanding isends to one rank, which receives nothing for a while, with a small
// unexpected-message limit: every message arrives, in order, and the receiver's unexpected
// eager data never exceeds the limit (the sends beyond it wait as rendezvous).
TEST(P2pMpi, AThousandOutstandingIsendsStayWithinTheUnexpectedLimit) {
  driver::P2pConfig cfg;
  cfg.eager_limit = 256;
  cfg.unexpected_limit = 8 * 1024;  // 1 KiB per sending node on 2x2x2
  const std::string r = run_on(
      "2x2x2", 1, cfg,
      [](driver::Task& t, std::string& problem) {
        driver::Communicator& w = t.world();
        constexpr unsigned kCount = 1000;
        if (w.rank() == 7) {
          std::vector<std::vector<uint8_t>> out;
          out.reserve(kCount);
          std::vector<driver::Request> rs;
          for (unsigned k = 0; k < kCount; ++k) {
            out.push_back(payload(7, 0, k, 8 + k % 120));
            rs.push_back(w.isend(out.back().data(), out.back().size(), Datatype::U8, 0, 1));
          }
          w.waitall(rs);
          const auto& s = w.p2p_engine().stats();
          if (s.eager + s.rendezvous != kCount) problem += "sends counted: " + std::to_string(s.eager + s.rendezvous) + "; ";
          if (s.rendezvous == 0) problem += "no send waited for its receive; ";
        } else if (w.rank() == 0) {
          t.cpu().idle(30000);  // everything that can arrive unexpected does
          const auto& s = w.p2p_engine().stats();
          for (unsigned k = 0; k < kCount; ++k) {
            std::vector<uint8_t> got(200);
            const driver::Status st = w.recv(got.data(), got.size(), Datatype::U8, 7, 1);
            got.resize(st.bytes);
            if (got != payload(7, 0, k, 8 + k % 120)) {
              problem += "message " + std::to_string(k) + " differs; ";
              break;
            }
          }
          if (s.unexpected_peak > 8 * 1024)
            problem += "unexpected data peaked at " + std::to_string(s.unexpected_peak) + " bytes; ";
          if (s.unexpected_peak == 0) problem += "nothing was unexpected; ";
          if (s.records != 0 || s.unexpected_bytes != 0) problem += "unexpected messages left behind; ";
        }
      },
      20'000'000);
  EXPECT_EQ(r, "ok");
}

// Rank 0 starts a send and joins a barrier, then waits for its send; rank 1 joins the
// barrier first and then receives. Eager and rendezvous lengths, another node and the
// same node.
TEST(P2pMpi, IsendThenBarrierAgainstBarrierThenRecvDoesNotHang) {
  for (unsigned tasks : {1u, 2u}) {
    const std::string r = run_on("2x2x1", tasks, {}, [](driver::Task& t, std::string& problem) {
      driver::Communicator& w = t.world();
      for (size_t bytes : {size_t{100}, size_t{50000}}) {
        if (w.rank() == 0) {
          const auto m = payload(0, 1, 0, bytes);
          driver::Request r = w.isend(m.data(), m.size(), Datatype::U8, 1, 2);
          w.barrier();
          w.wait(r);
        } else if (w.rank() == 1) {
          w.barrier();
          std::vector<uint8_t> got(bytes);
          w.recv(got.data(), got.size(), Datatype::U8, 0, 2);
          if (got != payload(0, 1, 0, bytes)) problem += std::to_string(bytes) + " bytes differ; ";
        } else {
          w.barrier();
        }
      }
    });
    EXPECT_EQ(r, "ok") << tasks << " tasks per node";
  }
}

// Rank 1 sits in an allreduce and a barrier while rank 2 sends it 64 eager messages of 4 KiB
// with blocking sends before joining them: more than the network and rank 1's reception
// FIFO hold, so rank 2's sends finish only because rank 1 serves the torus while it waits
// in the collectives.
TEST(P2pMpi, ARankInACollectiveServesAnotherRanksSends) {
  const std::string r = run_on("2x2x1", 1, {}, [](driver::Task& t, std::string& problem) {
    driver::Communicator& w = t.world();
    constexpr unsigned kMessages = 64;
    constexpr size_t kBytes = 4096;
    if (w.rank() == 2)
      for (unsigned k = 0; k < kMessages; ++k) {
        const auto m = payload(2, 1, k, kBytes);
        w.send(m.data(), m.size(), Datatype::U8, 1, 4);
      }
    std::vector<uint64_t> in(100, w.rank()), out(100);
    w.allreduce(in, out, driver::Op::Sum);
    w.barrier();
    if (out[0] != 0 + 1 + 2 + 3) problem += "allreduce; ";
    if (w.rank() == 1)
      for (unsigned k = 0; k < kMessages; ++k) {
        std::vector<uint8_t> got(kBytes);
        w.recv(got.data(), got.size(), Datatype::U8, 2, 4);
        if (got != payload(2, 1, k, kBytes)) problem += "message " + std::to_string(k) + "; ";
      }
  });
  EXPECT_EQ(r, "ok");
}

// sendrecv around a ring, test/testall on requests that complete later, and a request
// of the wrong communicator refused by wait.
TEST(P2pMpi, SendrecvTestAndTestall) {
  const std::string r = run_on("3x1x1", 2, {}, [](driver::Task& t, std::string& problem) {
    driver::Communicator& w = t.world();
    const unsigned n = w.size(), me = w.rank(), next = (me + 1) % n, prev = (me + n - 1) % n;
    for (size_t bytes : {size_t{16}, size_t{6000}}) {
      const auto m = payload(me, next, 1, bytes);
      std::vector<uint8_t> got(bytes);
      const driver::Status st = w.sendrecv(m.data(), m.size(), Datatype::U8, next, 5, got.data(), got.size(),
                                           Datatype::U8, prev, 5);
      if (st.source != prev || got != payload(prev, me, 1, bytes)) problem += "sendrecv of " + std::to_string(bytes) + "; ";
    }
    // test: a receive whose message comes only after this rank has polled a while.
    std::vector<uint8_t> a(8), b(8);
    std::vector<driver::Request> rs{w.irecv(a.data(), 8, Datatype::U8, prev, 6), w.irecv(b.data(), 8, Datatype::U8, prev, 7)};
    const bool early = w.testall(rs);
    const auto ma = payload(me, next, 6, 8), mb = payload(me, next, 7, 8);
    t.cpu().idle(300);
    w.send(ma.data(), 8, Datatype::U8, next, 6);
    w.send(mb.data(), 8, Datatype::U8, next, 7);
    if (early) problem += "testall was true before anything was sent; ";
    while (!w.testall(rs)) {
    }
    if (a != payload(prev, me, 6, 8) || b != payload(prev, me, 7, 8)) problem += "testall data; ";
    if (!rs[0].null() || !rs[1].null()) problem += "requests not null after testall; ";
    driver::Request none;
    if (!w.test(none)) problem += "test of a null request; ";
    auto sub = w.create({0, 1});
    if (sub) {
      std::vector<uint8_t> c(1);
      driver::Request rq = sub->irecv(c.data(), 1, Datatype::U8, kAnySource, 3);
      std::string what;
      try {
        w.wait(rq);
      } catch (const Error& e) {
        what = e.what();
      }
      if (what.find("wait: the request belongs to the communicator with context id") == std::string::npos)
        problem += "wait on another communicator said '" + what + "'; ";
      const uint8_t x = 42;
      sub->send(&x, 1, Datatype::U8, sub->rank(), 3);
      sub->wait(rq);
      if (c[0] != 42) problem += "the subset's message; ";
    }
  });
  EXPECT_EQ(r, "ok");
}

// With node 21 = (1, 1, 1) of 4x4x4 down, messages between nodes whose minimal paths cross
// it (along x, y and z), eager and rendezvous, both ways, still arrive: their packets take
// the hinted routes around it (fw::routes_around, as the traffic generator's do). From
// node 16 = (0, 0, 1) to node 5 = (1, 1, 0) every dimension-order route passes node 21, so
// 16's packets to 5 are forwarded through an intermediate node, whose engine sends them on.
// The pairs are nodes: the world holds the 63 live ones, so node n > 21 runs world rank n - 1.
TEST(P2pMpi, MessagesWhoseMinimalPathsCrossADownNodeArrive) {
  const std::string r = run_isolated([] {
                          sim::MachineConfig cfg = machine_config("4x4x4", 1, 2'000'000);
                          cfg.down_nodes = {21};
                          sim::Machine model(cfg);
                          driver::Job job(model);
                          std::string problems;
                          const driver::RunReport rep = job.run([&](driver::Task& t) {
                            driver::Communicator& w = t.world();
                            const std::pair<unsigned, unsigned> nodes[] = {{20, 22}, {17, 25}, {5, 37}, {16, 5}};
                            const auto rank_of = [](unsigned node) { return node < 21 ? node : node - 1; };
                            for (const auto& [na, nb] : nodes) {
                              const unsigned a = rank_of(na), b = rank_of(nb);
                              for (size_t bytes : {size_t{40}, size_t{30000}}) {
                                if (w.rank() != a && w.rank() != b) continue;
                                const unsigned peer = w.rank() == a ? b : a;
                                const auto m = payload(w.rank(), peer, 0, bytes);
                                std::vector<uint8_t> got(bytes);
                                w.sendrecv(m.data(), m.size(), Datatype::U8, peer, 1, got.data(), got.size(), Datatype::U8,
                                           peer, 1);
                                if (got != payload(peer, w.rank(), 0, bytes))
                                  problems += std::to_string(peer) + "->" + std::to_string(w.rank()) + " (" +
                                              std::to_string(bytes) + " bytes); ";
                              }
                            }
                            if (w.rank() == 16 && w.p2p_engine().stats().forwarded_out == 0)
                              problems += "rank " + std::to_string(w.rank()) + " forwarded nothing; ";
                          });
                          if (!rep.ok) return rep.error;
                          return problems.empty() ? std::string("ok") : problems;
                        }).report;
  EXPECT_EQ(r, "ok");
}

}  // namespace
}  // namespace collnet
