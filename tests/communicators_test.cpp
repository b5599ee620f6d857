// SPDX-License-Identifier: Apache-2.0
// Communicator management (driver/communicator.hpp, communicator_management.cpp): split,
// create, dup and free; rank translation; class routes as resources that come back when
// freed (a thousand create/free cycles leave none taken); more communicators alive at once
// than the network has user class routes, the rest running on the torus; and every
// collective on a communicator without a class route against the reference.
#include <cstdio>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cli/collective_calls.hpp"
#include "driver/error.hpp"
#include "driver/job.hpp"
#include "reference/collectives.hpp"
#include "reference/inputs.hpp"
#include "reference/verify.hpp"
#include "systemc/machine.hpp"
#include "tests/support/test_machine.hpp"

namespace collnet {
namespace {

using driver::Communicator;
using driver::Datatype;
using driver::Op;

// Runs `fn` on every task of a machine in a child process; the child's report is "ok" or
// the first failure (a rank's exception or a check's message).
template <class Fn>
std::string on_machine(const std::string& shape, unsigned tasks, Fn fn, uint64_t watchdog = 2'000'000) {
  const auto r = test::run_isolated([&] {
    sim::Machine model(test::machine_config(shape, tasks, watchdog));
    driver::Job job(model);
    std::string failure;
    const driver::RunReport rep = job.run([&](driver::Task& t) {
      const std::string f = fn(t);
      if (!f.empty() && failure.empty()) failure = "rank " + std::to_string(t.rank()) + ": " + f;
    });
    if (!rep.ok) return rep.error;
    return failure.empty() ? std::string("ok in ") + std::to_string(rep.cycles) + " cycles" : failure;
  });
  std::printf("[ machine  ] %s\n", r.report.c_str());
  return r.exited ? r.report : "the child did not exit: " + r.report;
}

// The sum over the communicator of (world rank + salt), by allreduce, checked.
std::string check_sum(Communicator& c, unsigned world_rank, uint64_t salt) {
  const uint64_t mine = world_rank + salt;
  uint64_t sum = 0;
  c.allreduce(&mine, &sum, 1, Datatype::U64, Op::Sum);
  uint64_t want = 0;
  for (unsigned r = 0; r < c.size(); ++r) want += c.world_rank(r) + salt;
  if (sum != want) return "allreduce gave " + std::to_string(sum) + ", expected " + std::to_string(want);
  return "";
}

TEST(Communicators, SplitRanksByKeyAndTranslatesRanks) {
  // 8 ranks: colour rank % 3 (rank 7 joins none), key -rank: each group in reverse order.
  const std::string r = on_machine("2x2x1", 2, [](driver::Task& t) -> std::string {
    Communicator& w = t.world();
    const unsigned me = w.rank();
    std::optional<Communicator> c = w.split(me == 7 ? Communicator::kUndefined : static_cast<int>(me % 3),
                                            -static_cast<int>(me));
    if (me == 7) return c ? "rank 7 passed kUndefined but got a communicator" : "";
    if (!c) return "no communicator";
    std::vector<unsigned> want;
    for (unsigned x = 7; x-- > 0;)
      if (x % 3 == me % 3) want.push_back(x);
    if (c->size() != want.size()) return "size " + std::to_string(c->size());
    for (unsigned k = 0; k < want.size(); ++k) {
      if (c->world_rank(k) != want[k]) return "rank " + std::to_string(k) + " is world " + std::to_string(c->world_rank(k));
      if (c->rank_in(w, k) != want[k]) return "rank_in(world) of " + std::to_string(k);
      if (w.rank_in(*c, want[k]) != k) return "rank_in(split) of world " + std::to_string(want[k]);
    }
    if (c->world_rank(c->rank()) != me) return "its own rank";
    // docs/communicators.md's worked example: colour 0's route takes class 1; the others
    // meet it at node 0 and run on the torus.
    if (c->class_route() != (me % 3 == 0 ? 1u : driver::kNoClass)) return "class route " + std::to_string(c->class_route());
    // A world rank of another colour has no rank here.
    const unsigned other = (me + 1) % 7;
    if (other % 3 != me % 3 && w.rank_in(*c, other)) return "world rank " + std::to_string(other) + " translated";
    if (std::string f = check_sum(*c, me, 5); !f.empty()) return f;
    // Point-to-point in the new numbering: a ring, the status naming ranks of c.
    const unsigned n = c->size(), k = c->rank();
    uint64_t out = me, in = 0;
    const driver::Status st = c->sendrecv(&out, 1, Datatype::U64, (k + 1) % n, 9, &in, 1, Datatype::U64, (k + n - 1) % n, 9);
    if (st.source != (k + n - 1) % n || in != c->world_rank((k + n - 1) % n)) return "ring got " + std::to_string(in);
    // create from a communicator that is not the world: its first two ranks.
    std::optional<Communicator> pair = c->create({0, 1});
    if ((k < 2) != pair.has_value()) return "create({0, 1}) membership";
    if (pair) {
      if (pair->world_rank(0) != want[0] || pair->world_rank(1) != want[1]) return "create's order";
      if (std::string f = check_sum(*pair, me, 1); !f.empty()) return "create: " + f;
      pair->free();
    }
    // dup: the same ranks in the same order, a context of its own, the same class route.
    Communicator d = c->dup();
    if (d.size() != n || d.rank() != k || d.world_rank(0) != want[0]) return "dup's ranks";
    if (d.context() == c->context()) return "dup shares the context id " + std::to_string(d.context());
    if (d.class_route() != c->class_route()) return "dup's class route";
    if (std::string f = check_sum(d, me, 2); !f.empty()) return "dup: " + f;
    d.free();
    c->free();
    return "";
  });
  EXPECT_EQ(r.substr(0, 3), "ok ") << r;
}

// Each of `n` communicators splits the whole world (one colour), so every one's route
// passes every node: only 11 can hold a class at once.
std::string many_at_once(driver::Task& t, unsigned n, unsigned* on_tree) {
  Communicator& w = t.world();
  std::vector<Communicator> live;
  *on_tree = 0;
  for (unsigned i = 0; i < n; ++i) {
    std::optional<Communicator> c = i % 3 == 2 ? std::optional<Communicator>(live.back().dup())
                                               : w.split(0, static_cast<int>(w.rank()));
    if (!c) return "split " + std::to_string(i) + " gave nothing";
    if (c->has_class_route() && i % 3 != 2) ++*on_tree;
    live.push_back(std::move(*c));
  }
  // Every one correct, used in an interleaved order.
  for (unsigned round = 0; round < 2; ++round)
    for (unsigned i = 0; i < n; ++i) {
      if (std::string f = check_sum(live[i], w.rank(), i * 10 + round); !f.empty())
        return "communicator " + std::to_string(i) + ": " + f;
      std::vector<uint64_t> b(3, w.rank() == i % w.size() ? 1000 + i : 0);
      live[i].bcast(b.data(), b.size(), Datatype::U64, i % w.size());
      if (b[2] != 1000 + i) return "communicator " + std::to_string(i) + ": bcast";
    }
  for (auto it = live.rbegin(); it != live.rend(); ++it) it->free();
  return "";
}

TEST(Communicators, MoreThanElevenAliveAtOnceAreAllCorrect) {
  const std::string r = on_machine("2x2x1", 2, [](driver::Task& t) -> std::string {
    for (unsigned pass = 0; pass < 2; ++pass) {  // the second finds every class free again
      unsigned on_tree = 0;
      if (std::string f = many_at_once(t, 24, &on_tree); !f.empty()) return f;
      if (on_tree != 11) return "pass " + std::to_string(pass) + ": " + std::to_string(on_tree) + " splits on the tree";
    }
    return "";
  });
  EXPECT_EQ(r.substr(0, 3), "ok ") << r;
}

TEST(Communicators, AThousandCreateFreeCyclesLeaveNoClassRouteTaken) {
  // Members on nodes 3 and 2 of 2x2x1: their route passes node 1 (no member: the
  // identity-injection unit covers it) up to node 0, so freeing it must reach node 1 by a
  // release packet.
  const std::string r = on_machine(
      "2x2x1", 1,
      [](driver::Task& t) -> std::string {
        Communicator& w = t.world();
        const bool member = t.node() == 2 || t.node() == 3;
        for (unsigned i = 0; i < 1000; ++i) {
          std::optional<Communicator> c = w.split(member ? 0 : Communicator::kUndefined, 0);
          if (member != c.has_value()) return "cycle " + std::to_string(i) + ": membership";
          if (c) {
            if (!c->has_class_route()) return "cycle " + std::to_string(i) + ": no class route free";
            if (c->context() > 3) return "cycle " + std::to_string(i) + ": context id " + std::to_string(c->context());
            if (i % 100 == 0)
              if (std::string f = check_sum(*c, w.rank(), i); !f.empty()) return "cycle " + std::to_string(i) + ": " + f;
            if (i % 10 == 0) c->dup().free();
            c->free();
          }
        }
        // Nothing left taken anywhere: 11 whole-world communicators all get a class.
        unsigned on_tree = 0;
        if (std::string f = many_at_once(t, 11, &on_tree); !f.empty()) return f;
        if (on_tree != 8) return std::to_string(on_tree) + " of 8 splits on the tree after the cycles";
        return "";
      },
      50'000'000);
  EXPECT_EQ(r.substr(0, 3), "ok ") << r;
}

// Every collective that moves data, auto's choice, on a communicator without a class
// route, against the reference: the 12th whole-world split (the 11 before it hold every
// class), and a split of a subset whose route would pass nodes outside it.
TEST(Communicators, EveryCollectiveRunsOnTheTorusWithoutAClassRoute) {
  const uint64_t seed = 20261123;
  std::printf("[ seed     ] %llu\n", static_cast<unsigned long long>(seed));
  for (const bool gaps : {false, true}) {
    const std::string r = test::run_isolated([&] {
      sim::Machine model(test::machine_config("2x2x1", 2, 5'000'000));
      driver::Job job(model);
      // gaps: ranks on nodes 2 and 3 (tasks 4..7), split again by task parity: routes
      // through node 1 and 0, which run no rank of the parent.
      const std::vector<unsigned> members = gaps ? std::vector<unsigned>{4, 6} : std::vector<unsigned>{0, 1, 2, 3, 4, 5, 6, 7};
      const unsigned n = static_cast<unsigned>(members.size());
      std::vector<const reference::Collective*> specs;
      for (const reference::Collective& c : reference::collectives())
        if (c.moves_data) specs.push_back(&c);
      std::vector<reference::Counts> counts(specs.size());
      std::vector<std::vector<std::vector<uint64_t>>> in(specs.size()), out(specs.size());
      std::vector<std::vector<size_t>> recv_len(specs.size());
      const size_t count = 3;
      auto type_of = [](const reference::Collective& c) { return c.takes_op ? Datatype::F64 : Datatype::U32; };
      for (size_t i = 0; i < specs.size(); ++i) {
        counts[i] = reference::seeded_counts(seed + i, n, count);
        for (unsigned k = 0; k < n; ++k) {
          const reference::Lengths len = reference::member_lengths(*specs[i], count, counts[i], 1, n, k);
          in[i].push_back(reference::seeded_input(seed + i, members[k], len.send, type_of(*specs[i]), Op::Sum));
          out[i].emplace_back(len.recv, 0);
          recv_len[i].push_back(len.recv);
        }
      }
      std::string failure;
      const driver::RunReport rep = job.run([&](driver::Task& t) {
        Communicator& w = t.world();
        std::vector<Communicator> hold;
        std::optional<Communicator> half;
        if (!gaps) {
          for (unsigned i = 0; i < 11; ++i) hold.push_back(*w.split(0, 0));
        } else {
          std::optional<Communicator> h = w.split(t.node() >= 2 ? 0 : Communicator::kUndefined, 0);
          if (!h) return;
          half.emplace(std::move(*h));
        }
        std::optional<Communicator> c = gaps ? half->split(static_cast<int>(t.task_on_node() % 2), 0) : w.split(0, 0);
        if (gaps && t.task_on_node() % 2) return;
        if (c->has_class_route()) {
          failure = "the communicator holds class route " + std::to_string(c->class_route());
          return;
        }
        const unsigned k = c->rank();
        for (size_t i = 0; i < specs.size(); ++i)
          cli::collective_call(specs[i]->name)(*c, cli::Call{type_of(*specs[i]), Op::Sum, 1, count, in[i][k].data(),
                                                             out[i][k].data(), recv_len[i][k], &counts[i]});
        c->barrier();
      });
      if (!rep.ok) return rep.error;
      if (!failure.empty()) return failure;
      std::ostringstream bad;
      for (size_t i = 0; i < specs.size(); ++i) {
        reference::Problem p;
        p.collective = specs[i]->name;
        p.type = type_of(*specs[i]);
        p.op = Op::Sum;
        p.root = 1;
        p.count = count;
        p.counts = &counts[i];
        const reference::Mismatch mm = reference::compare(out[i], reference::reference(p, in[i]));
        if (mm.count)
          bad << p.collective << ": rank " << mm.rank << " element " << mm.index << " expected 0x" << std::hex
              << mm.expected << " got 0x" << mm.got << std::dec << "; ";
      }
      return bad.str().empty() ? "ok " + std::to_string(specs.size()) + " collectives" : bad.str();
    }).report;
    EXPECT_EQ(r.substr(0, 3), "ok ") << (gaps ? "split of a subset: " : "12th split: ") << r;
  }
}

TEST(Communicators, MisuseIsNamed) {
  for (const auto& [what, message] : std::vector<std::pair<int, std::string>>{
           {0, "free: the world communicator cannot be freed"},
           {1, "allreduce: the communicator has been freed"},
           {2, "split: colour -5 is negative (a colour is 0 or more, or kUndefined)"},
           {3, "set_algorithm: allreduce cannot run on the tree: this communicator has no class route"},
           {4, "send: the communicator has been freed"},
           {5, "alltoall: the communicator has been freed"}}) {
    const std::string r = on_machine("2x1x1", 1, [what = what](driver::Task& t) -> std::string {
      Communicator& w = t.world();
      if (what == 0) w.free();
      if (what == 1) {
        Communicator d = w.dup();
        d.free();
        uint64_t x = 1;
        d.allreduce(&x, &x, 1, Datatype::U64, Op::Sum);
      }
      if (what == 4 || what == 5) {
        Communicator d = w.dup();
        d.free();
        uint64_t x[2] = {1, 2};
        if (what == 4) d.send(x, 1, Datatype::U64, 0);
        if (what == 5) d.alltoall(x, x + 1, 1, Datatype::U64);
      }
      if (what == 2) w.split(-5, 0);
      if (what == 3) {
        std::vector<Communicator> hold;
        for (unsigned i = 0; i < 12; ++i) hold.push_back(*w.split(0, 0));
        hold.back().set_algorithm(driver::Collective::Allreduce, driver::Algorithm::Tree);
      }
      return "no error";
    });
    EXPECT_NE(r.find(message), std::string::npos) << r;
  }
}

}  // namespace
}  // namespace collnet
