// SPDX-License-Identifier: Apache-2.0
// Every collective x type x op that makes sense, on the combining network, on whole
// simulated machines of 1 to 64 nodes, on the world and on irregular subsets, with 1 and 4
// tasks per node, checked against the plain C++ reference (reference/verify.hpp). One machine per test runs the whole
// sweep, one collective after another.
#include <algorithm>
#include <cstdio>
#include <functional>
#include <sstream>

#include <gtest/gtest.h>

#include "cli/collective_calls.hpp"
#include "driver/error.hpp"
#include "driver/job.hpp"
#include "reference/collectives.hpp"
#include "reference/inputs.hpp"
#include "reference/verify.hpp"
#include "systemc/machine.hpp"
#include "tests/support/machine_case.hpp"
#include "tests/support/test_machine.hpp"

namespace collnet {
namespace {

using driver::Datatype;
using driver::Op;

struct Call {
  std::string collective;
  Datatype type;
  Op op;
  size_t count;
  unsigned root;
};

// The sweep: reductions with every accepted op, data movement with every type.
std::vector<Call> sweep(unsigned ranks, size_t count) {
  std::vector<Call> calls;
  unsigned k = 0;
  for (const reference::Collective& c : reference::collectives())
    if (c.moves_data && c.takes_op && !c.lengths)  // the vector forms: vector_collectives_test.cpp
      for (Datatype t : driver::all_datatypes())
        for (Op op : driver::all_ops())
          if (driver::accepts(op, t)) calls.push_back({c.name, t, op, count + (k++ % 3), k % ranks});
  for (const reference::Collective& c : reference::collectives())
    if (c.moves_data && !c.takes_op && !c.lengths)
      for (Datatype t : driver::all_datatypes()) calls.push_back({c.name, t, Op::Bor, count + (k++ % 5), k % ranks});
  return calls;
}

using Case = test::MachineCase;

std::string run_sweep(const Case& c, uint64_t seed) {
  sim::Machine m_model(test::machine_config(c.shape, c.tasks, 20'000'000));
  driver::Job m(m_model);
  const unsigned world = m_model.nodes() * c.tasks;
  const std::vector<unsigned> members = c.members(world);
  const unsigned n = static_cast<unsigned>(members.size());
  const std::vector<Call> calls = sweep(n, 2);
  // inputs[call][rank], outputs[call][rank]
  std::vector<std::vector<std::vector<uint64_t>>> in(calls.size()), out(calls.size());
  std::vector<const reference::Collective*> specs(calls.size());
  std::vector<size_t> recv_elems(calls.size());  // elements of each rank's receive buffer
  for (size_t i = 0; i < calls.size(); ++i) {
    const Call& call = calls[i];
    specs[i] = reference::find_collective(call.collective);
    const bool pairs = driver::is_loc(call.op) && specs[i]->takes_op;
    recv_elems[i] = specs[i]->recv_per_member ? call.count * n : call.count;
    for (unsigned k = 0; k < n; ++k) {
      in[i].push_back(reference::seeded_input(seed + i, members[k], call.count, call.type, call.op));
      out[i].emplace_back(recv_elems[i] * (pairs ? 2 : 1), 0);
    }
  }
  const driver::RunReport rep = m.run([&](driver::Task& t) {
    std::optional<driver::Communicator> sub = c.subset.empty() ? std::nullopt : t.world().create(c.subset);
    if (!c.subset.empty() && !sub) return;
    driver::Communicator& comm = sub ? *sub : t.world();
    const unsigned k = comm.rank();
    // This suite is the combining network's: whatever auto would pick (algorithms_test.cpp
    // has the torus algorithms).
    for (unsigned ci = 0; ci < driver::kNumCollectives; ++ci) {
      const auto coll = static_cast<driver::Collective>(ci);
      if (driver::applies(coll, driver::Algorithm::Tree)) comm.set_algorithm(coll, driver::Algorithm::Tree);
    }
    for (size_t i = 0; i < calls.size(); ++i) {
      const Call& call = calls[i];
      cli::collective_call(specs[i]->name)(
          comm, cli::Call{call.type, call.op, call.root, call.count, in[i][k].data(), out[i][k].data(), recv_elems[i]});
    }
    comm.barrier();
  });
  if (!rep.ok) return rep.error;
  std::ostringstream bad;
  unsigned wrong = 0;
  for (size_t i = 0; i < calls.size(); ++i) {
    const Call& call = calls[i];
    const auto want = reference::reference({call.collective, call.type, call.op, call.root}, in[i]);
    const reference::Mismatch mm = reference::compare(out[i], want);
    if (mm.count && wrong++ < 5)
      bad << call.collective << " " << to_string(call.type) << " " << to_string(call.op) << " x" << call.count
          << ": rank " << mm.rank << " element " << mm.index << " expected 0x" << std::hex << mm.expected << " got 0x"
          << mm.got << std::dec << "; ";
  }
  if (wrong) return std::to_string(wrong) + " of " + std::to_string(calls.size()) + " collectives wrong: " + bad.str();
  return "ok " + std::to_string(calls.size()) + " collectives in " + std::to_string(rep.cycles) + " cycles";
}

class Collectives : public ::testing::TestWithParam<Case> {};

TEST_P(Collectives, EveryCollectiveTypeAndOpMatchesTheReference) {
  const Case c = GetParam();
  const uint64_t seed = 20261122;
  std::printf("[ seed     ] %llu\n", static_cast<unsigned long long>(seed));
  const auto r = test::run_isolated([&] { return run_sweep(c, seed); });
  ASSERT_TRUE(r.exited) << r.report;
  EXPECT_EQ(r.report.substr(0, 3), "ok ") << r.report;
  std::printf("[ sweep    ] %s\n", r.report.c_str());
}

INSTANTIATE_TEST_SUITE_P(
    NodesTasksAndSubsets, Collectives,
    ::testing::Values(Case{"1x1x1", 1, {}}, Case{"2x1x1", 1, {}}, Case{"3x1x1", 1, {}}, Case{"7x1x1", 1, {}},
                      Case{"2x2x2", 1, {}}, Case{"3x3x3", 1, {}}, Case{"4x4x4", 1, {}},
                      Case{"1x1x1", 4, {}}, Case{"2x1x1", 4, {}}, Case{"3x1x1", 4, {}}, Case{"7x1x1", 4, {}},
                      Case{"2x2x2", 4, {}}, Case{"3x3x3", 4, {}}, Case{"4x4x4", 4, {}},
                      Case{"3x3x3", 1, {0, 5, 6, 11, 20}}, Case{"4x4x4", 1, {7, 8, 40, 41, 62}},
                      Case{"7x1x1", 1, {2, 6}}, Case{"2x2x2", 4, {0, 5, 6, 11, 20}},
                      Case{"3x3x3", 4, {1, 2, 3, 21, 44, 45, 46, 47, 107}}),
    test::machine_case_name<Case>);

}  // namespace
}  // namespace collnet

namespace collnet {
namespace {

sim::MachineConfig small(const char* shape, unsigned tasks = 1) {
  return test::machine_config(shape, tasks, 100'000);
}

// Runs `fn` on every rank of a machine and returns the run's error ("" if it succeeded).
std::string run_error(const sim::MachineConfig& cfg, const std::function<void(driver::Task&)>& fn) {
  const auto r = test::run_isolated([&] {
    sim::Machine m_model(cfg);
    driver::Job m(m_model);
    const driver::RunReport rep = m.run(fn);
    return rep.ok ? std::string("ok") : rep.error;
  });
  return r.exited ? r.report : "child crashed: " + r.report;
}

TEST(CollectiveMisuse, RaisesAnErrorNamingTheArgument) {
  struct Misuse {
    std::function<void(driver::Communicator&)> call;
    const char* message;
  };
  std::vector<uint64_t> buf(64, 1), small_buf(3, 0);
  const std::vector<Misuse> cases = {
      {[&](driver::Communicator& c) { c.reduce(buf.data(), buf.data(), 4, Datatype::U64, Op::Sum, 9); },
       "reduce: root 9 is not a rank of a communicator of size 8"},
      {[&](driver::Communicator& c) { c.gather(buf.data(), buf.data(), 4, Datatype::U8, 8); }, "gather: root 8"},
      {[&](driver::Communicator& c) { c.allreduce(buf.data(), buf.data(), 4, Datatype::F64, Op::Band); },
       "allreduce: op band cannot reduce f64 elements"},
      {[&](driver::Communicator& c) { c.scan(buf.data(), buf.data(), 4, Datatype::F32, Op::Lxor); },
       "scan: op lxor cannot reduce f32"},
      {[&](driver::Communicator& c) { c.allgather(std::vector<uint64_t>(2, 0), small_buf); },
       "allgather: receive buffer holds 3 elements, needs 16"},
      {[&](driver::Communicator& c) { c.allreduce(nullptr, buf.data(), 4, Datatype::U64, Op::Sum); },
       "allreduce: send buffer is null"},
      {[&](driver::Communicator& c) { c.allreduce(std::vector<uint64_t>(3, 0), buf, Op::Maxloc); },
       "allreduce: maxloc reduces (value, index) pairs: pass ValueIndex<T> elements"},
      {[&](driver::Communicator& c) {
         std::vector<driver::ValueIndex<double>> pairs(4);
         c.allreduce(pairs, pairs, Op::Sum);
       },
       "allreduce: sum reduces plain elements, not (value, index) pairs"},
  };
  for (const Misuse& m : cases) {
    const std::string err = run_error(small("2x2x1", 2), [&](driver::Task& t) { m.call(t.world()); });
    EXPECT_NE(err.find(m.message), std::string::npos) << "expected '" << m.message << "', got: " << err;
  }
}

TEST(CollectiveMisuse, DifferentCountsAreCaughtByTheArgumentCheck) {
  const std::string err = run_error(small("3x1x1"), [](driver::Task& t) {
    t.world().set_argument_check(true);
    std::vector<uint64_t> v(8, 1);
    t.world().allreduce(v.data(), v.data(), t.rank() == 1 ? 5 : 4, Datatype::U64, Op::Sum);
  });
  EXPECT_NE(err.find("allreduce: the ranks passed different count (from 4 to 5)"), std::string::npos) << err;
}

TEST(CollectiveMisuse, DifferentOpsWithoutTheCheckRaiseTheAdaptersHeaderMismatch) {
  // The arguments are folded into the tag: the combining adapter sees two headers that
  // disagree, flags it, and never delivers a result. Nothing hangs: the error names the
  // node and link, or the watchdog names the ranks left waiting.
  const std::string err = run_error(small("3x1x1"), [](driver::Task& t) {
    std::vector<uint64_t> v(4, 1);
    t.world().set_algorithm(driver::Collective::Allreduce, driver::Algorithm::Tree);
    t.world().allreduce(v.data(), v.data(), 4, Datatype::U64, t.rank() == 2 ? Op::Max : Op::Sum);
  });
  EXPECT_NE(err, "ok");
  EXPECT_NE(err.find("node 0"), std::string::npos) << err;
  EXPECT_TRUE(err.find("header mismatch") != std::string::npos || err.find("error flag") != std::string::npos) << err;
}

// On the torus the arguments lead every message of a reduction: a rank whose op differs
// gets an error naming the call and the rank, never a wrong result.
TEST(CollectiveMisuse, DifferentOpsOnTheTorusAreNamedByTheReceivingRank) {
  for (const auto a : {driver::Algorithm::TorusRecursiveDoubling, driver::Algorithm::TorusRing,
                       driver::Algorithm::TorusRabenseifner, driver::Algorithm::TorusBinomial}) {
    const std::string err = run_error(small("3x1x1"), [a](driver::Task& t) {
      std::vector<uint64_t> v(4, 1);
      t.world().set_algorithm(driver::Collective::Allreduce, a);
      t.world().allreduce(v.data(), v.data(), 4, Datatype::U64, t.rank() == 2 ? Op::Max : Op::Sum);
    });
    EXPECT_NE(err.find("allreduce: rank"), std::string::npos) << to_string(a) << ": " << err;
    EXPECT_NE(err.find("passed a different count, type, op or root than rank"), std::string::npos) << err;
  }
}

TEST(FloatSumOnMachines, IsTheSameOnEveryShapeAndTaskCount) {
  // Eight ranks as 8 nodes, 4 nodes x 2 tasks and 2 nodes x 4 tasks: three different trees
  // and node-local combines must give bit-identical sums, equal to the reference.
  const uint64_t seed = 99;
  std::printf("[ seed     ] %llu\n", static_cast<unsigned long long>(seed));
  std::vector<std::string> results;
  for (auto [shape, tasks] : {std::pair{"8x1x1", 1u}, std::pair{"4x1x1", 2u}, std::pair{"2x1x1", 4u}}) {
    const auto r = test::run_isolated([&, shape = shape, tasks = tasks] {
      sim::Machine m_model(small(shape, tasks));
      driver::Job m(m_model);
      std::vector<std::vector<uint64_t>> out(8);
      const auto rep = m.run([&](driver::Task& t) {
        const auto in = reference::seeded_input(seed, t.rank(), 100, Datatype::F64, Op::Sum);
        out[t.rank()].assign(100, 0);
        t.world().allreduce(in.data(), out[t.rank()].data(), 100, Datatype::F64, Op::Sum);
      });
      if (!rep.ok) return rep.error;
      std::vector<std::vector<uint64_t>> in;
      for (unsigned k = 0; k < 8; ++k) in.push_back(reference::seeded_input(seed, k, 100, Datatype::F64, Op::Sum));
      const auto want = reference::reference({"allreduce", Datatype::F64, Op::Sum, 0}, in);
      if (reference::compare(out, want).count) return std::string("differs from the reference");
      std::ostringstream s;
      for (uint64_t w : out[3]) s << std::hex << w << ",";
      return s.str();
    });
    ASSERT_TRUE(r.exited) << r.report;
    results.push_back(r.report);
  }
  EXPECT_NE(results[0].find(','), std::string::npos) << results[0];
  EXPECT_EQ(results[0], results[1]);
  EXPECT_EQ(results[0], results[2]);
}

TEST(Tasks, NoTaskLeavesTheBarrierBeforeTheLastArrives) {
  // Three tasks per node (the counter is padded to 4), arriving at different times.
  const auto r = test::run_isolated([] {
    sim::Machine m_model(small("3x2x1", 3));
    driver::Job m(m_model);
    std::vector<std::vector<uint64_t>> arrive(3, std::vector<uint64_t>(18)), leave = arrive;
    const auto rep = m.run([&](driver::Task& t) {
      for (int round = 0; round < 3; ++round) {
        t.cpu().idle((t.rank() * 37 + round * 11) % 90);
        arrive[round][t.rank()] = t.cycle();
        t.world().barrier();
        leave[round][t.rank()] = t.cycle();
      }
    });
    if (!rep.ok) return rep.error;
    for (int round = 0; round < 3; ++round) {
      const uint64_t last = *std::max_element(arrive[round].begin(), arrive[round].end());
      const auto first_out = std::min_element(leave[round].begin(), leave[round].end());
      if (*first_out < last)
        return "round " + std::to_string(round) + ": rank " + std::to_string(first_out - leave[round].begin()) +
               " left at " + std::to_string(*first_out) + " before the last arrival at " + std::to_string(last);
    }
    return rep.ok ? std::string("ok") : rep.error;
  });
  ASSERT_TRUE(r.exited) << r.report;
  EXPECT_EQ(r.report, "ok");
}

}  // namespace
}  // namespace collnet
