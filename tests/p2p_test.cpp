// SPDX-License-Identifier: Apache-2.0
// Point-to-point send and recv on whole simulated machines (each in a child process), on
// 2x2x2 and 3x1x2 tori with one and two tasks per node.
#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <random>
#include <sstream>

#include <gtest/gtest.h>

#include "driver/error.hpp"
#include "driver/job.hpp"
#include "systemc/machine.hpp"
#include "driver/p2p_envelope.hpp"
#include "driver/pending_collective.hpp"
#include "firmware/torus_layout.hpp"
#include "tests/support/test_machine.hpp"
#include "tests/support/test_machine.hpp"

namespace collnet {
namespace {

using test::run_isolated;
using test::machine_config;

struct Setup {
  const char* shape;
  unsigned tasks;
};
// With two tasks per node, rank r and r ^ 1 share a node: both the torus and the
// node-local path are exercised.
const Setup kSetups[] = {{"2x2x2", 1}, {"3x1x2", 1}, {"2x2x2", 2}, {"3x1x2", 2}};

std::string name(const Setup& s) { return std::string(s.shape) + " with " + std::to_string(s.tasks) + " tasks per node"; }

uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// The content of message `k` from world rank `src` to `dst`: different for every message and word.
std::vector<uint64_t> message(unsigned src, unsigned dst, uint64_t k, size_t count) {
  std::vector<uint64_t> v(count);
  for (size_t i = 0; i < count; ++i) v[i] = mix((((uint64_t{src} << 20 | dst) << 24 | k) << 20) + i);
  return v;
}

// "" if equal, else where they first differ.
std::string differs(const std::vector<uint64_t>& got, const std::vector<uint64_t>& want, const std::string& what) {
  if (got.size() != want.size())
    return what + ": " + std::to_string(got.size()) + " words, expected " + std::to_string(want.size()) + "; ";
  for (size_t i = 0; i < got.size(); ++i)
    if (got[i] != want[i]) return what + ": word " + std::to_string(i) + " wrong; ";
  return "";
}

using Body = std::function<void(driver::Task&, std::string& problem)>;

// Runs `body` on every rank; "ok" when every rank returned and reported no problem.
std::string run_on(const Setup& s, const Body& body) {
  sim::Machine m_model(machine_config(s.shape, s.tasks, 400'000));
  driver::Job m(m_model);
  std::vector<std::string> problems(m_model.nodes() * s.tasks);
  const driver::RunReport rep = m.run([&](driver::Task& t) { body(t, problems[t.rank()]); });
  if (!rep.ok) return rep.error;
  for (size_t r = 0; r < problems.size(); ++r)
    if (!problems[r].empty()) return "rank " + std::to_string(r) + ": " + problems[r];
  return "ok";
}

void expect_ok_everywhere(const Body& body) {
  for (const Setup& s : kSetups) {
    const auto res = run_isolated([&] { return run_on(s, body); });
    ASSERT_TRUE(res.exited) << name(s) << ": " << res.report;
    EXPECT_EQ(res.report, "ok") << name(s);
  }
}

// ------------------------------------------------------------------ machines

// Rank 0 plays ping-pong with the last rank (another node) and with rank 1 (the next node,
// or the same node with two tasks): messages of 1 to 118 words go there and come back
// incremented.
TEST(P2p, PingPongCarriesTheDataBothWays) {
  expect_ok_everywhere([](driver::Task& t, std::string& problem) {
    driver::Communicator& w = t.world();
    const unsigned last = w.size() - 1;
    for (unsigned peer : {last, 1u}) {
      for (unsigned round = 0; round < 10; ++round) {
        const size_t count = 1 + 13 * round;
        const auto ping = message(0, peer, round, count);
        if (w.rank() == 0) {
          w.send(ping, peer, round);
          std::vector<uint64_t> back(count);
          w.recv(back, peer, round);
          auto want = ping;
          for (auto& x : want) ++x;
          problem += differs(back, want, "pong " + std::to_string(round) + " from " + std::to_string(peer));
        } else if (w.rank() == peer) {
          std::vector<uint64_t> got(count);
          w.recv(got, 0, round);
          problem += differs(got, ping, "ping " + std::to_string(round));
          for (auto& x : got) ++x;
          w.send(got, 0, round);
        }
      }
    }
  });
}

// Every rank starts sending 1000 words (a rendezvous: longer than the eager limit) to the
// next rank and only then receives from the previous one: every send starts before any
// receive is posted, and each waits for its receive's clear to send while its own rank
// serves the requests that reach it. (A blocking send here would wait for a receive that
// is never posted, as MPI allows.)
TEST(P2p, RingExchangeOfLargeMessagesDoesNotDeadlock) {
  expect_ok_everywhere([](driver::Task& t, std::string& problem) {
    driver::Communicator& w = t.world();
    const unsigned n = w.size(), next = (w.rank() + 1) % n, prev = (w.rank() + n - 1) % n;
    const std::vector<uint64_t> out = message(w.rank(), next, 0, 1000);
    driver::Request r = w.isend(out.data(), out.size(), driver::Datatype::U64, next);
    std::vector<uint64_t> got(1000);
    w.recv(got, prev);
    w.wait(r);
    problem += differs(got, message(prev, w.rank(), 0, 1000), "from " + std::to_string(prev));
  });
}

// A started barrier (MPI_Ibarrier's) lets the task go on: the last rank sends
// synchronously to rank 0 before it starts its barrier, and rank 0 receives only after
// starting its own; then rank 0 waits in a receive that rank 2 sends only once its barrier
// has finished, which takes rank 0's second round (2 - 0 = 2^1): rank 0's barrier must
// advance inside that receive (the engine's poller). Started barriers go on beside each
// other and beside the task's collectives: two are outstanding at once, a blocking barrier
// runs while they are, and finish_started() ends both.
TEST(P2p, AStartedBarrierAdvancesWhileTheTaskSendsAndReceives) {
  expect_ok_everywhere([](driver::Task& t, std::string& problem) {
    driver::Communicator& w = t.world();
    const unsigned last = w.size() - 1;
    std::vector<uint64_t> v(1, w.rank() + 100), got(1, 0);
    if (w.rank() == last) {
      driver::Request r = w.issend(v.data(), 1, driver::Datatype::U64, 0, 9);
      w.wait(r);
    }
    std::shared_ptr<driver::PendingCollective> b = w.start_barrier();
    if (w.rank() == 0) {
      w.recv(got, last, 9);
      if (got[0] != last + 100) problem += "the synchronous send before the barrier: " + std::to_string(got[0]) + "; ";
    }
    b->finish();
    if (!b->finished()) problem += "finish() left it unfinished; ";
    b = w.start_barrier();
    if (w.rank() == 0) {
      w.recv(got, 2, 10);  // the barrier advances in here
      if (got[0] != 102) problem += "the send after the barrier: " + std::to_string(got[0]) + "; ";
    }
    if (w.rank() == 2) {
      b->finish();
      w.send(v, 0, 10);
    }
    const std::shared_ptr<driver::PendingCollective> second = w.start_barrier();
    w.barrier();
    w.finish_started();
    if (!b->finished() || !second->finished()) problem += "finish_started() left a started barrier unfinished; ";
  });
}

// Collectives started in the background (Communicator::post_background, MPI's
// non-blocking collectives without a coprocessor) on two communicators, the even ranks
// starting A's first and the odd ones B's, both end while the task waits in progress():
// each runs in a fiber of the task's processor on point-to-point messages. A blocking
// collective on A, called while A's is outstanding, runs after it; one on the world runs
// beside both. Nothing runs in the background without a fiber to run it in.
TEST(P2p, CollectivesStartedInTheBackgroundInOppositeOrdersBothEnd) {
  expect_ok_everywhere([](driver::Task& t, std::string& problem) {
    driver::Communicator& w = t.world();
    driver::Communicator a = w.dup(), b = w.dup();
    const unsigned n = w.size(), me = w.rank();
    uint64_t x = me + 1, sum = 0, root_word = me == n - 1 ? 77 : 0, world_max = 0, then = 0;
    bool a_done = false, b_done = false;
    const std::function<void()> on_a = [&] {
      a.allreduce(&x, &sum, 1, driver::Datatype::U64, driver::Op::Sum);
      if (!a.in_background()) problem += "A's allreduce ran outside its fiber; ";
      a_done = true;
    };
    const std::function<void()> on_b = [&] {
      b.bcast(&root_word, 1, driver::Datatype::U64, n - 1);
      b_done = true;
    };
    const bool posted = me % 2 == 0 ? a.post_background(on_a) && b.post_background(on_b)
                                    : b.post_background(on_b) && a.post_background(on_a);
    if (!posted) problem += "post_background refused; ";
    w.allreduce(&x, &world_max, 1, driver::Datatype::U64, driver::Op::Max);  // beside both
    a.allreduce(&x, &then, 1, driver::Datatype::U64, driver::Op::Max);       // after A's
    if (!a_done) problem += "a collective on A ran before A's started one ended; ";
    while (!(a_done && b_done)) w.progress();
    b.finish_background();
    if (sum != uint64_t{n} * (n + 1) / 2) problem += "A's allreduce: " + std::to_string(sum) + "; ";
    if (root_word != 77) problem += "B's bcast: " + std::to_string(root_word) + "; ";
    if (world_max != n || then != n) problem += "the blocking allreduces; ";
    if (a.background_busy() || b.background_busy()) problem += "still busy after both ended; ";
  });
}

// Every rank r sends 40 messages of 0 to 77 words with one tag to rank size-1-r (on the
// opposite node, several dimensions away: adaptive routing would have paths to reorder
// them on) and to its partner r ^ 1 (the same node with two tasks), interleaved, while all
// the others do the same: each receiver gets every sender's messages in the order sent.
TEST(P2p, MessagesOfOnePairAndTagArriveInOrder) {
  expect_ok_everywhere([](driver::Task& t, std::string& problem) {
    driver::Communicator& w = t.world();
    const unsigned n = w.size(), me = w.rank();
    const unsigned far = n - 1 - me, partner = me ^ 1u;
    constexpr unsigned kMessages = 40;
    auto count = [](unsigned k) { return size_t{(k * 37u) % 78u}; };
    for (unsigned k = 0; k < kMessages; ++k)
      for (unsigned peer : {far, partner}) w.send(message(me, peer, k, count(k)), peer, 5);
    for (unsigned k = 0; k < kMessages; ++k)
      for (unsigned src : {far, partner}) {
        std::vector<uint64_t> got(count(k));
        w.recv(got, src, 5);
        problem += differs(got, message(src, me, k, count(k)), "message " + std::to_string(k) + " from " + std::to_string(src));
      }
  });
}

// Tags 0..7 sent in that order (50 to 190 words each), received 7 first: the receive of tag
// 7 waits while the others arrive and wait as unexpected messages.
TEST(P2p, DifferentTagsAreMatchedInTheOppositeOrderOfSending) {
  expect_ok_everywhere([](driver::Task& t, std::string& problem) {
    driver::Communicator& w = t.world();
    const unsigned last = w.size() - 1;
    auto count = [](unsigned tag) { return size_t{50 + 20 * tag}; };
    if (w.rank() == 0) {
      // Started all at once (longer ones wait for their receives, which come in reverse).
      std::vector<std::vector<uint64_t>> out;
      std::vector<driver::Request> rs;
      for (unsigned tag = 0; tag < 8; ++tag)
        for (unsigned peer : {last, 1u}) out.push_back(message(0, peer, tag, count(tag)));
      size_t k = 0;
      for (unsigned tag = 0; tag < 8; ++tag)
        for (unsigned peer : {last, 1u}) {
          rs.push_back(w.isend(out[k].data(), out[k].size(), driver::Datatype::U64, peer, tag));
          ++k;
        }
      w.waitall(rs);
    } else if (w.rank() == last || w.rank() == 1) {
      for (unsigned tag = 8; tag-- > 0;) {
        std::vector<uint64_t> got(count(tag));
        w.recv(got, 0, tag);
        problem += differs(got, message(0, w.rank(), tag, count(tag)), "tag " + std::to_string(tag));
      }
    }
  });
}

// Empty messages are messages: they are matched and ordered like the others.
TEST(P2p, ZeroLengthMessagesAreMatchedAndOrdered) {
  expect_ok_everywhere([](driver::Task& t, std::string& problem) {
    driver::Communicator& w = t.world();
    const unsigned last = w.size() - 1;
    if (w.rank() == 0) {
      for (unsigned peer : {last, 1u}) {
        w.send(nullptr, 0, peer, 1);
        w.send(message(0, peer, 1, 5), peer, 1);
        w.send(nullptr, 0, peer, 2);
      }
    } else if (w.rank() == last || w.rank() == 1) {
      w.recv(nullptr, 0, 0, 2);
      std::vector<uint64_t> none, five(5);
      w.recv(none, 0, 1);
      w.recv(five, 0, 1);
      problem += differs(five, message(0, w.rank(), 1, 5), "the 5-word message");
      // A 0-word receive must not take a 5-word message: nothing of the kind is left.
      w.send(nullptr, 0, 0, 9);
    }
    if (w.rank() == 0) {
      for (unsigned peer : {last, 1u}) w.recv(nullptr, 0, peer, 9);
    }
  });
}

// A rank sends to itself through its node's memory: large and empty messages, received
// in another order than sent.
TEST(P2p, SendToSelfIsReceived) {
  expect_ok_everywhere([](driver::Task& t, std::string& problem) {
    driver::Communicator& w = t.world();
    const unsigned me = w.rank();
    w.send(message(me, me, 0, 1000), me, 3);
    w.send(nullptr, 0, me, 4);
    w.recv(nullptr, 0, me, 4);
    std::vector<uint64_t> got(1000);
    w.recv(got, me, 3);
    problem += differs(got, message(me, me, 0, 1000), "to itself");
  });
}

// Messages in their native layout: 5 int16_t (10 bytes, not a whole word) and doubles
// around a ring; a receive shorter in bytes (4 int16_t: 8 bytes, the same one word on the
// wire) is truncated, and a receive of the right length writes exactly 10 bytes.
TEST(P2p, NativeMessagesAreTheirBytes) {
  expect_ok_everywhere([](driver::Task& t, std::string& problem) {
    driver::Communicator& w = t.world();
    const unsigned n = w.size(), me = w.rank(), next = (me + 1) % n, prev = (me + n - 1) % n;
    int16_t out[5];
    for (int i = 0; i < 5; ++i) out[i] = static_cast<int16_t>(-1000 * static_cast<int>(me) - i);
    w.send(out, 5, driver::Datatype::I16, next, 6);
    w.send(out, 5, driver::Datatype::I16, next, 6);
    std::vector<double> d(3, 0.5 * me);
    w.send(d, next, 7);
    int16_t in[6] = {0, 0, 0, 0, 0, 0x7777};
    std::string what;
    try {
      w.recv(in, 4, driver::Datatype::I16, prev, 6);
    } catch (const Error& e) {
      what = e.what();
    }
    if (what.find("a message of 10 bytes with tag 6 arrived for a receive of 8 bytes: truncated") == std::string::npos)
      problem += "the short receive said '" + what + "'; ";
    w.recv(in, 5, driver::Datatype::I16, prev, 6);
    for (int i = 0; i < 5; ++i)
      if (in[i] != static_cast<int16_t>(-1000 * static_cast<int>(prev) - i)) problem += "int16 element " + std::to_string(i) + "; ";
    if (in[5] != 0x7777) problem += "the receive wrote past its 10 bytes; ";
    std::vector<double> got(3);
    w.recv(got, prev, 7);
    if (got != std::vector<double>(3, 0.5 * prev)) problem += "the doubles; ";
  });
}

// A receive takes a message of at most its own length, and its status says how long the
// message was (MPI's rule); a longer message fails the receive as truncated, naming the
// source and both lengths, and the next message is received as usual. From another node
// and, with two tasks per node, from the same node.
TEST(P2p, AShorterMessageIsReceivedAndALongerOneTruncates) {
  expect_ok_everywhere([](driver::Task& t, std::string& problem) {
    driver::Communicator& w = t.world();
    const unsigned last = w.size() - 1;
    if (w.rank() == last || w.rank() == 1) {
      w.send(message(w.rank(), 0, 0, 10), 0, 3);
      w.send(message(w.rank(), 0, 1, 14), 0, 3);
      w.send(message(w.rank(), 0, 2, 4), 0, 3);
    } else if (w.rank() == 0) {
      for (unsigned src : {last, 1u}) {
        std::vector<uint64_t> big(12);
        const driver::Status st = w.recv(big, src, 3);
        if (st.bytes != 80 || st.source != src || st.tag != 3 || st.count(driver::Datatype::U64) != 10)
          problem += "status of the 10-word message: " + std::to_string(st.bytes) + " bytes from " +
                     std::to_string(st.source) + "; ";
        big.resize(10);
        problem += differs(big, message(src, 0, 0, 10), "the 10-word message");
        std::string what;
        std::vector<uint64_t> small(12);
        try {
          w.recv(small, src, 3);
        } catch (const Error& e) {
          what = e.what();
        }
        const std::string want = "recv from rank " + std::to_string(src) +
                                 ": a message of 112 bytes with tag 3 arrived for a receive of 96 bytes: truncated";
        if (what.find(want) == std::string::npos) problem += "from " + std::to_string(src) + ": got '" + what + "'; ";
        std::vector<uint64_t> four(4);
        w.recv(four, src, 3);
        problem += differs(four, message(src, 0, 2, 4), "the message after the truncated one");
      }
    }
  });
}

// Bad ranks, tags and buffers raise collnet::Error naming the call and the argument.
TEST(P2p, BadRanksTagsAndBuffersAreRefused) {
  const auto res = run_isolated([] {
    return run_on({"2x2x2", 1}, [](driver::Task& t, std::string& problem) {
      if (t.rank() != 0) return;
      driver::Communicator& w = t.world();
      std::vector<uint64_t> buf(4);
      const std::pair<std::function<void()>, std::string> cases[] = {
          {[&] { w.send(buf, 8); }, "send: destination rank 8 is not a rank of a communicator of size 8"},
          {[&] { w.recv(buf, 11); }, "recv: source rank 11 is not a rank of a communicator of size 8"},
          {[&] { w.send(buf, 1, 65536); }, "send: tag 65536 is outside 0..65535"},
          {[&] { w.recv(buf, 1, 70000); }, "recv: tag 70000 is outside 0..65535"},
          {[&] { w.send(nullptr, 3, 1); }, "send: the buffer is null for 3 elements"},
          {[&] { w.recv(nullptr, 2, 1); }, "recv: the buffer is null for 2 elements"},
      };
      for (const auto& c : cases) {
        std::string what = "no error";
        try {
          c.first();
        } catch (const Error& e) {
          what = e.what();
        }
        if (what != c.second) problem += "expected '" + c.second + "', got '" + what + "'; ";
      }
      // The largest tag is fine, and it is the collectives' own: a receive or probe for any
      // tag passes it over for the next message, an explicit one takes it.
      w.send(buf, 0, driver::Communicator::kMaxTag);
      const std::vector<uint64_t> other = {9, 8, 7, 6};
      w.send(other, 0, 3);
      if (w.probe(0, driver::kAnyTag).tag != 3) problem += "a probe for any tag found the reserved tag; ";
      std::vector<uint64_t> got(4);
      const driver::Status any = w.recv(got.data(), 4, driver::Datatype::U64, 0, driver::kAnyTag);
      if (any.tag != 3) problem += "a receive for any tag took tag " + std::to_string(any.tag) + "; ";
      problem += differs(got, other, "any tag");
      w.recv(got, 0, driver::Communicator::kMaxTag);
      problem += differs(got, buf, "tag 65535");
    });
  });
  ASSERT_TRUE(res.exited) << res.report;
  EXPECT_EQ(res.report, "ok");
}

// A subset communicator numbers its own ranks and matches its own messages: the same
// (source, tag) on the world and on the subset are two different streams.
TEST(P2p, CommunicatorsMatchTheirOwnMessages) {
  expect_ok_everywhere([](driver::Task& t, std::string& problem) {
    driver::Communicator& w = t.world();
    const unsigned last = w.size() - 1;
    auto sub = w.create({last, 2, 0});  // subset ranks: 0 -> 0, 2 -> 1, last -> 2
    if (!sub) return;
    if (w.rank() == last) {
      w.send(message(last, 0, 0, 40), 0, 4);
      sub->send(message(last, 0, 1, 40), 0, 4);
      sub->send(message(last, 2, 2, 3), 1, 4);
      std::string what;
      try {
        sub->send(nullptr, 0, 3);
      } catch (const Error& e) {
        what = e.what();
      }
      if (what != "send: destination rank 3 is not a rank of a communicator of size 3") problem += "got '" + what + "'; ";
    } else if (w.rank() == 0) {
      std::vector<uint64_t> a(40), b(40);
      sub->recv(a, 2, 4);
      w.recv(b, last, 4);
      problem += differs(a, message(last, 0, 1, 40), "on the subset");
      problem += differs(b, message(last, 0, 0, 40), "on the world");
    } else {
      std::vector<uint64_t> c(3);
      sub->recv(c, 2, 4);
      problem += differs(c, message(last, 2, 2, 3), "rank 2 on the subset");
    }
  });
}

// Every rank sends every rank (itself included) 1 to 3 messages of random tags 0..3 and
// random sizes (mostly up to 100 words, some 300), then receives them all in a random order
// that keeps the messages of one (source, tag) in sending order.
TEST(P2p, RandomAllPairsExchangeDeliversEveryMessage) {
  const uint64_t seed = 20240611;
  std::printf("[ seed     ] %llu\n", static_cast<unsigned long long>(seed));
  expect_ok_everywhere([seed](driver::Task& t, std::string& problem) {
    driver::Communicator& w = t.world();
    const unsigned n = w.size(), me = w.rank();
    struct Msg {
      unsigned tag;
      size_t count;
    };
    // The plan, the same on every rank: plan[src][dst].
    std::mt19937_64 plan_rng(seed);
    std::vector<std::vector<std::vector<Msg>>> plan(n, std::vector<std::vector<Msg>>(n));
    for (auto& row : plan)
      for (auto& msgs : row) {
        msgs.resize(1 + plan_rng() % 3);
        for (Msg& m : msgs) m = {static_cast<unsigned>(plan_rng() % 4), plan_rng() % 8 == 0 ? 300 : plan_rng() % 101};
      }
    std::mt19937_64 rng(seed ^ mix(me));
    std::vector<unsigned> dests(n);
    for (unsigned d = 0; d < n; ++d) dests[d] = d;
    std::shuffle(dests.begin(), dests.end(), rng);
    for (unsigned d : dests)
      for (size_t k = 0; k < plan[me][d].size(); ++k) w.send(message(me, d, k, plan[me][d][k].count), d, plan[me][d][k].tag);

    // Shuffle every (source, message), then give each (source, tag) group's positions to
    // its messages in sending order.
    std::vector<std::pair<unsigned, size_t>> order;
    for (unsigned s = 0; s < n; ++s)
      for (size_t k = 0; k < plan[s][me].size(); ++k) order.emplace_back(s, k);
    std::shuffle(order.begin(), order.end(), rng);
    std::map<std::pair<unsigned, unsigned>, std::vector<size_t>> group;  // (source, tag) -> messages in order
    for (unsigned s = 0; s < n; ++s)
      for (size_t k = 0; k < plan[s][me].size(); ++k) group[{s, plan[s][me][k].tag}].push_back(k);
    std::map<std::pair<unsigned, unsigned>, size_t> taken;
    for (auto& [s, k] : order) {
      const std::pair<unsigned, unsigned> g{s, plan[s][me][k].tag};
      k = group[g][taken[g]++];
    }
    for (const auto& [s, k] : order) {
      const Msg& m = plan[s][me][k];
      std::vector<uint64_t> got(m.count);
      w.recv(got, s, m.tag);
      problem += differs(got, message(s, me, k, m.count), "message " + std::to_string(k) + " from " + std::to_string(s));
    }
  });
}

// Flits a message of `count` words puts on a link: its packets' headers and chunks.
uint64_t message_flits(size_t count) {
  uint64_t flits = 0;
  for (uint64_t p = 0, left = count; p < driver::p2p::packets_for(count); ++p) {
    const size_t n = std::min<uint64_t>(left, driver::p2p::kDataWords);
    flits += 1 + fw::regmap::kChunkFlits * driver::p2p::chunks_for(n);
    left -= n;
  }
  return flits;
}

// Cycles from the start of a send on rank 0 to the end of the receive on `dest`, on 2x2x2
// with one task per node; "" and the problem if it went wrong.
std::pair<uint64_t, std::string> measure(unsigned dest, size_t count) {
  const auto res = run_isolated([dest, count] {
    sim::Machine m_model(machine_config("2x2x2", 1, 400'000));
    driver::Job m(m_model);
    uint64_t start = 0, end = 0;
    std::string problem;
    const auto rep = m.run([&](driver::Task& t) {
      if (t.rank() == 0) {
        start = t.cycle();
        t.world().send(message(0, dest, 0, count), dest);
      } else if (t.rank() == dest) {
        std::vector<uint64_t> got(count);
        t.world().recv(got, 0);
        end = t.cycle();
        problem = differs(got, message(0, dest, 0, count), "the message");
      }
    });
    if (!rep.ok) return rep.error;
    if (!problem.empty()) return problem;
    return std::to_string(end - start);
  });
  const uint64_t cycles = res.exited ? std::strtoull(res.report.c_str(), nullptr, 10) : 0;
  return {cycles, cycles > 0 ? "" : res.report};
}

// A one-word and a 1000-word message from rank 0 to its x neighbour (rank 1) and to the far
// corner of 2x2x2 (rank 7, three hops). A message cannot beat a link's flit per cycle, and
// two more hops cost time.
TEST(P2p, MeasuresMessagesNearAndFar) {
  const fw::TorusLayout layout({2, 2, 2});
  for (size_t count : {size_t{1}, size_t{1000}}) {
    uint64_t cycles[2] = {};
    const unsigned dests[2] = {1, 7};
    for (int i = 0; i < 2; ++i) {
      const auto [c, problem] = measure(dests[i], count);
      ASSERT_EQ(problem, "") << count << " words to rank " << dests[i];
      cycles[i] = c;
      std::printf("[ cycles   ] %zu words from rank 0 to rank %u (%u hops): %llu cycles, %.3f words per cycle\n", count,
                  dests[i], layout.distance(layout.coord(0), layout.coord(dests[i])),
                  static_cast<unsigned long long>(c), double(count) / double(c));
      // One link to the neighbour; across the machine a message may spread over several
      // paths, but it enters the destination through its two reception FIFOs.
      const uint64_t bound = i == 0 ? message_flits(count) : message_flits(count) / 2;
      EXPECT_GE(c, bound) << "faster than the links carry " << message_flits(count) << " flits";
    }
    if (count == 1) EXPECT_GT(cycles[1], cycles[0]) << "three hops took no longer than one";
  }
}

// ------------------------------------------------------------------ the envelope alone

TEST(P2pEnvelope, RoundTripsEveryFieldAtItsLimits) {
  for (unsigned tag : {0u, 1u, driver::p2p::kMaxTag})
    for (unsigned task : {0u, 37u, 63u})
      for (unsigned context : {0u, 11u, driver::p2p::kNumContexts - 1})
        for (uint64_t value : {uint64_t{0}, uint64_t{1000}, driver::p2p::kMaxBytes}) {
          driver::p2p::Envelope e;
          e.tag = tag;
          e.src_task = task;
          e.dst_task = 63 - task;
          e.context = context;
          e.value = value;
          const driver::p2p::Envelope d = driver::p2p::Envelope::decode(e.encode());
          EXPECT_EQ(d.tag, tag);
          EXPECT_EQ(d.src_task, task);
          EXPECT_EQ(d.dst_task, 63 - task);
          EXPECT_EQ(d.context, context);
          EXPECT_EQ(d.value, value);
        }
}

TEST(P2pEnvelope, PacketsAndChunksFitTheMessage) {
  EXPECT_EQ(driver::p2p::packets_for(0), 1u);
  EXPECT_EQ(driver::p2p::packets_for(driver::p2p::kDataWords), 1u);
  EXPECT_EQ(driver::p2p::packets_for(driver::p2p::kDataWords + 1), 2u);
  EXPECT_EQ(driver::p2p::chunks_for(0), 1u);
  EXPECT_EQ(driver::p2p::chunks_for(3), 1u);
  EXPECT_EQ(driver::p2p::chunks_for(4), 2u);
  EXPECT_EQ(driver::p2p::chunks_for(driver::p2p::kDataWords), fw::regmap::kMaxChunks);
}


}  // namespace
}  // namespace collnet
