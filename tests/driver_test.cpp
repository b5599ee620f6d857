// SPDX-License-Identifier: Apache-2.0
// The collectives library on whole simulated machines (each test runs its machine in a
// child process: SystemC builds one simulation per process).
#include <algorithm>
#include <memory>
#include <random>
#include <sstream>

#include <gtest/gtest.h>

#include "driver/error.hpp"
#include "driver/job.hpp"
#include "reference/inputs.hpp"
#include "reference/verify.hpp"
#include "systemc/machine.hpp"
#include "tests/support/test_machine.hpp"

namespace collnet {
namespace {

using driver::Op;
using test::run_isolated;
using test::machine_config;

std::vector<uint64_t> input(uint64_t seed, unsigned rank, size_t count) {
  std::mt19937_64 rng(seed * 1000003 + rank);
  std::vector<uint64_t> v(count);
  for (auto& w : v) w = rng() >> (rng() % 60);
  return v;
}

// Runs allreduce on every rank and returns "ok" or a description of the first wrong element.
std::string check_allreduce(const std::string& shape, Op op, size_t count, uint64_t seed) {
  sim::Machine m_model(machine_config(shape));
  driver::Job m(m_model);
  const unsigned n = m_model.nodes();
  std::vector<std::vector<uint64_t>> out(n);
  const driver::RunReport rep = m.run([&](driver::Task& t) {
    const auto in = input(seed, t.rank(), count);
    out[t.rank()].assign(count, 0xdeadbeef);
    t.world().allreduce(in, out[t.rank()], op);
  });
  if (!rep.ok) return rep.error;
  std::vector<uint64_t> ref = input(seed, 0, count);
  for (unsigned r = 1; r < n; ++r) {
    const auto in = input(seed, r, count);
    for (size_t i = 0; i < count; ++i) ref[i] = reference::reference_op(driver::Datatype::U64, op, {ref[i], in[i]});
  }
  for (unsigned r = 0; r < n; ++r)
    for (size_t i = 0; i < count; ++i)
      if (out[r][i] != ref[i]) {
        std::ostringstream s;
        s << "rank " << r << " element " << i << ": expected " << ref[i] << ", got " << out[r][i];
        return s.str();
      }
  return "ok";
}

struct AllreduceCase {
  const char* shape;
  Op op;
  size_t count;
};

class Allreduce : public ::testing::TestWithParam<AllreduceCase> {};

TEST_P(Allreduce, MatchesTheReferenceOnEveryRank) {
  const AllreduceCase c = GetParam();
  const uint64_t seed = 20261122 + c.count;
  std::printf("[ seed     ] %llu\n", static_cast<unsigned long long>(seed));
  const auto r = run_isolated([&] { return check_allreduce(c.shape, c.op, c.count, seed); });
  ASSERT_TRUE(r.exited) << r.report;
  EXPECT_EQ(r.report, "ok") << c.shape << " " << driver::to_string(c.op) << " x" << c.count;
}

INSTANTIATE_TEST_SUITE_P(
    ShapesOpsAndCounts, Allreduce,
    ::testing::Values(AllreduceCase{"1x1x1", Op::Sum, 64}, AllreduceCase{"2x1x1", Op::Sum, 64},
                      AllreduceCase{"3x1x1", Op::Max, 33}, AllreduceCase{"7x1x1", Op::Min, 1},
                      AllreduceCase{"2x2x2", Op::Band, 100}, AllreduceCase{"5x3x1", Op::Bor, 65},
                      AllreduceCase{"3x3x3", Op::Bxor, 31}, AllreduceCase{"4x4x4", Op::Sum, 1000},
                      AllreduceCase{"4x2x1", Op::Sum, 2048}),
    [](const ::testing::TestParamInfo<AllreduceCase>& p) {
      return std::string(p.param.shape).replace(1, 1, "_").replace(3, 1, "_") + "_" +
             driver::to_string(p.param.op) + "_" + std::to_string(p.param.count);
    });

TEST(Allreduce, SendAndReceiveBuffersMayBeTheSame) {
  const auto r = run_isolated([] {
    sim::Machine m_model(machine_config("3x2x1"));
    driver::Job m(m_model);
    std::vector<std::vector<uint64_t>> buf(6);
    auto rep = m.run([&](driver::Task& t) {
      buf[t.rank()].assign(70, t.rank() + 1);
      t.world().allreduce(buf[t.rank()].data(), buf[t.rank()].data(), 70, Op::Sum);
    });
    if (!rep.ok) return rep.error;
    for (const auto& b : buf)
      if (std::any_of(b.begin(), b.end(), [](uint64_t v) { return v != 21; })) return std::string("wrong sum");
    return std::string("ok");
  });
  EXPECT_EQ(r.report, "ok");
}

TEST(Allreduce, SeveralInARowKeepTheirOrder) {
  const auto r = run_isolated([] {
    sim::Machine m_model(machine_config("2x2x1"));
    driver::Job m(m_model);
    std::vector<std::string> errors(4);
    auto rep = m.run([&](driver::Task& t) {
      for (uint64_t k = 0; k < 5; ++k) {
        std::vector<uint64_t> in(40, t.rank() * 10 + k), out(40);
        t.world().allreduce(in, out, Op::Max);
        if (out[0] != 30 + k || out[39] != 30 + k) errors[t.rank()] = "round " + std::to_string(k) + " wrong";
      }
    });
    if (!rep.ok) return rep.error;
    for (const auto& e : errors)
      if (!e.empty()) return e;
    return std::string("ok");
  });
  EXPECT_EQ(r.report, "ok");
}

TEST(Bcast, EveryRankGetsTheRootsBufferFromAnyRoot) {
  for (unsigned root : {0u, 3u, 6u}) {
    const auto r = run_isolated([root] {
      sim::Machine m_model(machine_config("7x1x1"));
      driver::Job m(m_model);
      std::vector<std::vector<uint64_t>> buf(7);
      auto rep = m.run([&](driver::Task& t) {
        buf[t.rank()] = input(99, t.rank(), 45);
        t.world().bcast(buf[t.rank()], root);
      });
      if (!rep.ok) return rep.error;
      const auto want = input(99, root, 45);
      for (unsigned i = 0; i < 7; ++i)
        if (buf[i] != want) return "rank " + std::to_string(i) + " differs";
      return std::string("ok");
    });
    EXPECT_EQ(r.report, "ok") << "root " << root;
  }
}

TEST(Barrier, NoRankLeavesBeforeTheLastArrivesRoundAfterRound) {
  for (const char* shape : {"1x1x1", "2x1x1", "7x1x1", "3x3x2", "4x4x4"}) {
    const auto r = run_isolated([shape] {
      sim::Machine m_model(machine_config(shape));
      driver::Job m(m_model);
      const unsigned n = m_model.nodes();
      constexpr unsigned kRounds = 5;
      std::vector<std::vector<uint64_t>> in(kRounds, std::vector<uint64_t>(n)), out = in;
      auto rep = m.run([&](driver::Task& t) {
        std::mt19937_64 rng(t.rank() * 31 + 7);
        for (unsigned k = 0; k < kRounds; ++k) {
          t.cpu().idle(rng() % 300);
          in[k][t.rank()] = t.cycle();
          t.world().barrier();
          out[k][t.rank()] = t.cycle();
        }
      });
      if (!rep.ok) return rep.error;
      for (unsigned k = 0; k < kRounds; ++k) {
        const uint64_t last_in = *std::max_element(in[k].begin(), in[k].end());
        for (unsigned i = 0; i < n; ++i)
          if (out[k][i] < last_in)
            return "round " + std::to_string(k) + ": rank " + std::to_string(i) + " left at " +
                   std::to_string(out[k][i]) + " before the last arrival at " + std::to_string(last_in);
      }
      return std::string("ok");
    });
    EXPECT_EQ(r.report, "ok") << shape;
  }
}

// ------------------------------------------------------------------ subset communicators
// Runs allreduce on a subset communicator; non-members only program their route.
std::string check_subset(const std::string& shape, const std::vector<unsigned>& ranks, Op op, size_t count) {
  sim::Machine m_model(machine_config(shape));
  driver::Job m(m_model);
  std::vector<std::vector<uint64_t>> out(ranks.size());
  std::vector<int> member_rank(m_model.nodes(), -1);
  auto rep = m.run([&](driver::Task& t) {
    auto sub = t.world().create(ranks);
    if (!sub) return;
    member_rank[t.rank()] = static_cast<int>(sub->rank());
    if (sub->size() != ranks.size()) throw Error("wrong subset size");
    const auto in = input(5, t.rank(), count);
    out[sub->rank()].assign(count, 0);
    sub->allreduce(in.data(), out[sub->rank()].data(), count, op);
  });
  if (!rep.ok) return rep.error;
  std::vector<unsigned> sorted = ranks;
  std::sort(sorted.begin(), sorted.end());
  std::vector<uint64_t> ref = input(5, sorted[0], count);
  for (size_t k = 1; k < sorted.size(); ++k) {
    const auto in = input(5, sorted[k], count);
    for (size_t i = 0; i < count; ++i) ref[i] = reference::reference_op(driver::Datatype::U64, op, {ref[i], in[i]});
  }
  for (unsigned r = 0; r < m_model.nodes(); ++r) {
    const bool member = std::binary_search(sorted.begin(), sorted.end(), r);
    if (member != (member_rank[r] >= 0)) return "rank " + std::to_string(r) + " membership is wrong";
  }
  for (size_t k = 0; k < sorted.size(); ++k)
    if (out[k] != ref) return "subset rank " + std::to_string(k) + " differs from the reference";
  return std::string("ok");
}

TEST(Subset, AllreduceOnIrregularSubsetsCoversRouteNodesByIdentity) {
  struct Case {
    const char* shape;
    std::vector<unsigned> ranks;
    Op op;
  };
  const Case cases[] = {
      {"3x3x3", {0, 5, 6, 11, 20}, Op::Sum},  {"3x3x3", {20, 11, 6, 5, 0}, Op::Min},
      {"4x4x4", {7, 8, 40, 41, 62}, Op::Band}, {"4x4x4", {63}, Op::Max},
      {"2x2x2", {1, 2}, Op::Bxor},             {"7x1x1", {3, 4, 5, 6}, Op::Bor},
  };
  for (const Case& c : cases) {
    const auto r = run_isolated([&] { return check_subset(c.shape, c.ranks, c.op, 70); });
    EXPECT_EQ(r.report, "ok") << c.shape << " " << driver::to_string(c.op);
  }
}

TEST(Subset, BcastAndBarrierWorkOnASubset) {
  const auto r = run_isolated([] {
    sim::Machine m_model(machine_config("3x3x3"));
    driver::Job m(m_model);
    const std::vector<unsigned> ranks = {2, 9, 13, 26};
    std::vector<std::vector<uint64_t>> buf(27);
    auto rep = m.run([&](driver::Task& t) {
      auto sub = t.world().create(ranks);
      if (!sub) return;
      buf[t.rank()] = input(3, t.rank(), 40);
      sub->barrier();
      sub->bcast(buf[t.rank()], 2);  // subset rank 2 is world rank 13
      sub->barrier();
    });
    if (!rep.ok) return rep.error;
    for (unsigned r : ranks)
      if (buf[r] != input(3, 13, 40)) return "rank " + std::to_string(r) + " differs";
    return std::string("ok");
  });
  EXPECT_EQ(r.report, "ok");
}

TEST(Subset, CreatingWithABadRankIsNamed) {
  for (const auto& [ranks, message] : std::vector<std::pair<std::vector<unsigned>, std::string>>{
           {{0, 9}, "create: rank 9 is not in a communicator of size 4"},
           {{1, 1}, "create: rank 1 is listed twice"},
           {{}, "create: the rank list is empty"}}) {
    const auto r = run_isolated([ranks = ranks] {
      sim::Machine m_model(machine_config("2x2x1"));
      driver::Job m(m_model);
      auto rep = m.run([&](driver::Task& t) { t.world().create(ranks); });
      return rep.ok ? std::string("no error") : rep.error;
    });
    EXPECT_NE(r.report.find(message), std::string::npos) << r.report;
  }
}

// ------------------------------------------------------------------ misuse and failures
TEST(Misuse, ARootOutsideTheCommunicatorIsNamed) {
  const auto r = run_isolated([] {
    sim::Machine m_model(machine_config("2x1x1"));
    driver::Job m(m_model);
    auto rep = m.run([&](driver::Task& t) {
      std::vector<uint64_t> b(4);
      t.world().bcast(b, 9);
    });
    return rep.ok ? std::string("no error") : rep.error;
  });
  EXPECT_NE(r.report.find("bcast: root 9 is not a rank"), std::string::npos) << r.report;
}

TEST(Misuse, AReceiveBufferSmallerThanTheSendBufferIsNamed) {
  const auto r = run_isolated([] {
    sim::Machine m_model(machine_config("1x1x1"));
    driver::Job m(m_model);
    auto rep = m.run([&](driver::Task& t) {
      std::vector<uint64_t> in(10), out(5);
      t.world().allreduce(in, out, Op::Sum);
    });
    return rep.ok ? std::string("no error") : rep.error;
  });
  EXPECT_NE(r.report.find("allreduce: receive buffer holds 5 elements"), std::string::npos) << r.report;
}

TEST(Misuse, ANullBufferIsNamed) {
  const auto r = run_isolated([] {
    sim::Machine m_model(machine_config("1x1x1"));
    driver::Job m(m_model);
    auto rep = m.run([&](driver::Task& t) {
      uint64_t out[4];
      t.world().allreduce(static_cast<const uint64_t*>(nullptr), out, 4, Op::Sum);
    });
    return rep.ok ? std::string("no error") : rep.error;
  });
  EXPECT_NE(r.report.find("allreduce: send buffer is null"), std::string::npos) << r.report;
}

TEST(Failures, ARankThatNeverJoinsIsReportedByTheWatchdog) {
  const auto r = run_isolated([] {
    auto c = machine_config("2x2x1");
    c.watchdog_cycles = 5000;
    sim::Machine m_model(c);
    driver::Job m(m_model);
    auto rep = m.run([&](driver::Task& t) {
      if (t.rank() == 3) return;  // rank 3 skips the collective
      std::vector<uint64_t> in(8, 1), out(8);
      t.world().allreduce(in, out, Op::Sum);
    });
    return rep.ok ? std::string("no error") : rep.error;
  });
  EXPECT_NE(r.report.find("watchdog"), std::string::npos) << r.report;
  EXPECT_NE(r.report.find("3 of 4 ranks had not finished: 0 1 2"), std::string::npos) << r.report;
}

TEST(Failures, MismatchedCollectivesRaiseAHardwareErrorNamingNodeAndLink) {
  const auto r = run_isolated([] {
    sim::Machine m_model(machine_config("3x1x1"));
    driver::Job m(m_model);
    auto rep = m.run([&](driver::Task& t) {
      std::vector<uint64_t> in(8, 1), out(8);
      t.world().set_algorithm(driver::Collective::Allreduce, driver::Algorithm::Tree);  // the adapter's check
      if (t.rank() == 2) t.world().allreduce(in, out, Op::Max);  // the others do Sum
      else t.world().allreduce(in, out, Op::Sum);
    });
    return rep.ok ? std::string("no error") : rep.error;
  });
  EXPECT_NE(r.report.find("node 0: tree adapter error: header mismatch"), std::string::npos) << r.report;
  EXPECT_NE(r.report.find("from link 2"), std::string::npos) << r.report;
}

TEST(Firmware, AnUnprivilegedSystemClassRouteIsRefused) {
  const auto r2 = run_isolated([] {
    sim::Machine m(machine_config("1x1x1"));
    std::string seen = "no error";
    auto res = m.run([&](fw::TaskContext& t) {
      fw::ClassRoute route = t.tree.machine_tree_route();
      try {
        t.tree.configure_class_route(13, route, /*privileged=*/false);
      } catch (const fw::HardwareError& e) {
        seen = e.what();
      }
      t.tree.configure_class_route(13, route, /*privileged=*/true);
      if (t.tree.read_class_route(13).encode() != route.encode()) seen += "; privileged write did not stick";
    });
    return res.finished ? seen : std::string("did not finish");
  });
  EXPECT_NE(r2.report.find("class route 13"), std::string::npos) << r2.report;
  EXPECT_NE(r2.report.find("privilege violation"), std::string::npos) << r2.report;
  EXPECT_EQ(r2.report.find("did not stick"), std::string::npos) << r2.report;
}

// Two tasks per node drive the two virtual channels at once: task 0 combines on the user
// VC (class 1), task 1 on the system VC (class 13, privileged). Both streams share every
// tree link; each must arrive whole, summed over the machine, in its own reception FIFOs.
TEST(VirtualChannels, UserAndSystemTrafficShareTheTreeAndStayApart) {
  const auto r = run_isolated([] {
    sim::MachineConfig c = machine_config("2x2x2");
    c.tasks_per_node = 2;
    sim::Machine m(c);
    constexpr unsigned kPackets = 20;  // per VC, more than the FIFOs hold
    constexpr unsigned kWords = fw::regmap::kPayloadFlits;
    auto word = [](unsigned vc, unsigned rank, unsigned packet, unsigned i) {
      return uint64_t{vc + 1} * 1'000'000'007ull * (rank + 1) + packet * 1000 + i;
    };
    std::vector<std::string> problems(m.nodes() * 2);
    auto res = m.run([&](fw::TaskContext& t) {
      const bool system = t.task == 1;
      fw::TreeFirmware& tree = system ? t.tree_system : t.tree;
      const unsigned cls = system ? 13 : 1;
      tree.configure_class_route(cls, tree.machine_tree_route(), system);
      m.align();  // every route is in place before any packet moves
      fw::Header h;
      h.cls = cls;
      h.op = fw::AluOp::Add;
      h.size_words = 4;
      unsigned sent = 0, got = 0;
      std::string& problem = problems[t.node * 2 + t.task];
      std::vector<uint64_t> buf(kWords);
      while (got < kPackets) {
        const fw::TreeStatus s = tree.status();
        if (sent < kPackets && s.inj_hdr_free > 0 && s.inj_data_free >= kWords) {
          h.tag = sent;
          for (unsigned i = 0; i < kWords; ++i) buf[i] = word(t.task, t.node, sent, i);
          tree.push_header(h);
          tree.push_words(buf.data(), kWords);
          ++sent;
        }
        if (s.rcv_hdrs > 0 && s.rcv_data >= kWords) {
          const fw::Header back = tree.pop_header();
          tree.pop_words(buf.data(), kWords);
          if (back.cls != cls || back.tag != got) problem = "unexpected header " + back.describe();
          for (unsigned i = 0; i < kWords && problem.empty(); ++i) {
            uint64_t want = 0;
            for (unsigned rank = 0; rank < m.nodes(); ++rank) want += word(t.task, rank, got, i);
            if (buf[i] != want) problem = "packet " + std::to_string(got) + " word " + std::to_string(i) + " wrong";
          }
          ++got;
        }
      }
      tree.check_errors();
    });
    if (!res.finished) return std::string("did not finish");
    if (!res.failures.empty()) return std::string("a task failed");
    for (size_t i = 0; i < problems.size(); ++i)
      if (!problems[i].empty()) return "rank " + std::to_string(i / 2) + (i % 2 ? " system VC: " : " user VC: ") + problems[i];
    return std::string("ok");
  });
  EXPECT_EQ(r.report, "ok");
}

// A run that ends with tasks still waiting (the watchdog, or a task's hardware error)
// unwinds them: what their stacks hold is destroyed, in every kind of wait (a clock edge,
// the bus, the machine's alignment), and they stay reported unfinished, not failed.
TEST(Machine, TasksLeftWaitingAtTheEndOfARunAreUnwound) {
  const auto r = run_isolated([] {
    auto c = machine_config("2x1x1");
    c.tasks_per_node = 2;
    c.watchdog_cycles = 2000;
    sim::Machine m(c);
    auto held = std::make_shared<int>(0);
    std::vector<std::string> after(4);
    const auto res = m.run([&](fw::TaskContext& t) {
      const std::shared_ptr<int> mine = held;  // released only if the stack unwinds
      const unsigned id = t.node * 2 + t.task;
      try {
        if (id == 0) return;               // finishes
        if (id == 1) m.align();            // waits for the others at the alignment forever
        if (id == 2) for (;;) t.cpu.idle(7);  // idles forever
        for (;;) t.torus.errors();         // polls a register forever
      } catch (...) {
        after[id] = "caught";
        t.cpu.idle(1);  // a wait while unwinding does not suspend the task again
        after[id] = "waited";
        throw;
      }
    });
    std::string out = "unfinished";
    for (unsigned u : res.unfinished) out += " " + std::to_string(u);
    out += "; failures " + std::to_string(res.failures.size()) + "; still held " + std::to_string(held.use_count() - 1);
    for (unsigned i = 1; i < 4; ++i) out += "; " + after[i];
    return out;
  });
  EXPECT_EQ(r.report, "unfinished 1 2 3; failures 0; still held 0; caught; caught; caught");
}

TEST(Machine, CannotBeBuiltTwiceInOneProcess) {
  const auto r = run_isolated([] {
    { sim::Machine first(machine_config("1x1x1")); first.run([](fw::TaskContext&) {}); }
    try {
      sim::Machine second(machine_config("1x1x1"));
    } catch (const std::logic_error& e) {
      return std::string(e.what());
    }
    return std::string("second machine built");
  });
  EXPECT_NE(r.report.find("only once per process"), std::string::npos) << r.report;
}

// Buffers in their native layout, as a C or MPI program holds them: int8_t one byte per
// element (sums wrapping at 8 bits), (float, int) pairs for maxloc with negative indices,
// uint16_t gathered two bytes per element; nothing written past the elements.
TEST(NativeBuffers, PassStraightThroughAtTheirNaturalWidth) {
  const auto r = run_isolated([] {
    sim::Machine m_model(machine_config("2x2x1"));
    driver::Job m(m_model);
    std::string problems;
    auto rep = m.run([&](driver::Task& t) {
      auto& w = t.world();
      const unsigned n = w.size(), me = w.rank();
      // int8_t sum: 20 elements and a canary byte after them.
      std::vector<int8_t> in(20), out(21, 0x5a);
      for (unsigned i = 0; i < 20; ++i) in[i] = static_cast<int8_t>(100 - 60 * static_cast<int>(me) + static_cast<int>(i));
      w.allreduce(in.data(), out.data(), 20, driver::Datatype::I8, Op::Sum);
      for (unsigned i = 0; i < 20; ++i) {
        int sum = 0;
        for (unsigned k = 0; k < n; ++k) sum += 100 - 60 * static_cast<int>(k) + static_cast<int>(i);
        if (out[i] != static_cast<int8_t>(sum)) problems += "i8 sum element " + std::to_string(i) + "; ";
      }
      if (out[20] != 0x5a) problems += "i8 sum wrote past its elements; ";
      // (float, int) maxloc: ranks 1 and 3 hold the maximum, and the smaller index wins: -3.
      std::vector<driver::ValueIndex<float>> pin(3), pout(3);
      for (auto& p : pin) p = {static_cast<float>(me % 2), -static_cast<int32_t>(me)};
      w.allreduce(pin, pout, Op::Maxloc);
      for (const auto& p : pout)
        if (p.value != 1.0f || p.index != -3) problems += "maxloc gave (" + std::to_string(p.value) + ", " + std::to_string(p.index) + "); ";
      // uint16_t gather to rank 2.
      std::vector<uint16_t> g(5), all(5 * n + 1, 0xbeef);
      for (unsigned i = 0; i < 5; ++i) g[i] = static_cast<uint16_t>(1000 * me + i);
      w.gather(g.data(), all.data(), 5, driver::Datatype::U16, 2);
      if (me == 2) {
        for (unsigned k = 0; k < n; ++k)
          for (unsigned i = 0; i < 5; ++i)
            if (all[5 * k + i] != 1000 * k + i) problems += "gather element " + std::to_string(5 * k + i) + "; ";
        if (all[5 * n] != 0xbeef) problems += "gather wrote past its elements; ";
      } else if (all[0] != 0xbeef) {
        problems += "gather wrote a non-root's buffer; ";
      }
    });
    if (!rep.ok) return rep.error;
    return problems.empty() ? std::string("ok") : problems;
  });
  EXPECT_EQ(r.report, "ok");
}

}  // namespace
}  // namespace collnet
