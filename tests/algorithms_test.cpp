// SPDX-License-Identifier: Apache-2.0
// Every algorithm of every collective (driver/algorithm.hpp) x type (x op), on whole
// simulated machines of 1 to 64 nodes, with 1 and 4 tasks per node and on irregular
// subsets, checked against the plain C++ reference (reference/verify.hpp); the dissemination
// barrier checked to hold every rank until the last one arrives. One machine per test
// runs the whole sweep, one collective after another, switching algorithms between calls.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include <gtest/gtest.h>

#include "cli/collective_calls.hpp"
#include "driver/algorithm.hpp"
#include "driver/error.hpp"
#include "driver/job.hpp"
#include "reference/collectives.hpp"
#include "reference/inputs.hpp"
#include "reference/member_sets.hpp"
#include "reference/verify.hpp"
#include "systemc/machine.hpp"
#include "tests/support/machine_case.hpp"
#include "tests/support/test_machine.hpp"

namespace collnet {
namespace {

using driver::Algorithm;
using driver::Collective;
using driver::Datatype;
using driver::Op;

struct Call {
  Collective coll;
  Algorithm alg;
  Datatype type;
  Op op;
  size_t count;
  unsigned root;
  driver::SegmentOptions segment;
};

// Every algorithm but auto, of every collective that moves data, with every type (every
// fourth on large communicators) and, for reductions, every op the type accepts;
// torus-deposit on the world only (a line broadcast reaches every node of its line).
std::vector<Call> sweep(unsigned ranks, bool big, bool world) {
  std::vector<Call> calls;
  unsigned k = 0;
  for (unsigned ci = 0; ci < driver::kNumCollectives; ++ci) {
    const Collective c = static_cast<Collective>(ci);
    if (c == Collective::Barrier) continue;
    const reference::Collective* spec = reference::find_collective(driver::to_string(c));
    for (Algorithm a : driver::algorithms_for(c)) {
      if (a == Algorithm::Auto || (a == Algorithm::TorusDeposit && !world)) continue;
      unsigned ti = 0;
      for (Datatype t : driver::all_datatypes()) {
        if (big && ti++ % 4 != 0) continue;
        for (Op op : driver::all_ops()) {
          if (spec->takes_op ? !driver::accepts(op, t) : op != Op::Bor) continue;
          if (spec->takes_op && op == Op::Prod) continue;  // prod has one algorithm (torus_reductions.cpp)
          if (spec->takes_op && big && k % 3 != 0) {
            ++k;
            continue;
          }
          driver::SegmentOptions seg;
          seg.piece_bytes = 8 + 16 * (k % 3);  // several pieces per segment
          seg.order = static_cast<driver::SegmentOrder>(k % 3);
          seg.seed = k;
          // Counts 0..3 beyond 1; the personalised forms take count per pair.
          calls.push_back({c, a, t, op, 1 + (k % 4), (k * 7) % ranks, seg});
          ++k;
        }
      }
    }
  }
  return calls;
}

using Case = test::MachineCase;

std::string run_sweep(const Case& c, uint64_t seed) {
  sim::Machine model(test::machine_config(c.shape, c.tasks, 50'000'000));
  driver::Job job(model);
  const unsigned world = model.nodes() * c.tasks;
  const std::vector<unsigned> members = c.members(world);
  const unsigned n = static_cast<unsigned>(members.size());
  const std::vector<Call> calls = sweep(n, n > 20, c.subset.empty());
  std::vector<const reference::Collective*> specs(calls.size());
  std::vector<reference::Counts> counts(calls.size());
  std::vector<std::vector<std::vector<uint64_t>>> in(calls.size()), out(calls.size());
  std::vector<std::vector<size_t>> recv_len(calls.size());
  for (size_t i = 0; i < calls.size(); ++i) {
    const Call& call = calls[i];
    specs[i] = reference::find_collective(driver::to_string(call.coll));
    const bool pairs = specs[i]->takes_op && driver::is_loc(call.op);
    counts[i] = reference::seeded_counts(seed + i, n, call.count);
    for (unsigned k = 0; k < n; ++k) {
      const reference::Lengths len = reference::member_lengths(*specs[i], call.count, counts[i], call.root, n, k);
      in[i].push_back(reference::seeded_input(seed + i, members[k], len.send, call.type, call.op));
      out[i].emplace_back(len.recv * (pairs ? 2 : 1), 0);
      recv_len[i].push_back(len.recv);
    }
  }
  // Dissemination barriers: rank k arrives (k * 37) % 200 cycles late; none may leave
  // before the last has arrived.
  constexpr unsigned kBarriers = 3;
  std::vector<std::vector<uint64_t>> arrive(kBarriers, std::vector<uint64_t>(n)), leave = arrive;
  const driver::RunReport rep = job.run([&](driver::Task& t) {
    std::optional<driver::Communicator> sub = c.subset.empty() ? std::nullopt : t.world().create(c.subset);
    if (!c.subset.empty() && !sub) return;
    driver::Communicator& comm = sub ? *sub : t.world();
    const unsigned k = comm.rank();
    comm.set_algorithm(Collective::Barrier, Algorithm::TorusDissemination);
    for (unsigned b = 0; b < kBarriers; ++b) {
      t.cpu().idle((k * 37 + b * 91) % 200);
      arrive[b][k] = t.cycle();
      comm.barrier();
      leave[b][k] = t.cycle();
    }
    for (size_t i = 0; i < calls.size(); ++i) {
      const Call& call = calls[i];
      comm.set_algorithm(call.coll, call.alg);
      comm.set_segment_options(call.segment);
      cli::collective_call(specs[i]->name)(comm, cli::Call{call.type, call.op, call.root, call.count, in[i][k].data(),
                                                           out[i][k].data(), recv_len[i][k], &counts[i]});
    }
    comm.set_algorithm(Collective::Barrier, Algorithm::Auto);
    comm.barrier();
  });
  if (!rep.ok) return rep.error;
  std::ostringstream bad;
  unsigned wrong = 0;
  for (unsigned b = 0; b < kBarriers; ++b) {
    const uint64_t last_in = *std::max_element(arrive[b].begin(), arrive[b].end());
    const uint64_t first_out = *std::min_element(leave[b].begin(), leave[b].end());
    if (first_out < last_in && wrong++ < 5)
      bad << "dissemination barrier " << b << ": a rank left at cycle " << first_out << ", before the last arrival at "
          << last_in << "; ";
  }
  for (size_t i = 0; i < calls.size(); ++i) {
    const Call& call = calls[i];
    reference::Problem p;
    p.collective = driver::to_string(call.coll);
    p.type = call.type;
    p.op = call.op;
    p.root = call.root;
    p.count = call.count;
    p.counts = &counts[i];
    const reference::Mismatch mm = reference::compare(out[i], reference::reference(p, in[i]));
    if (mm.count && wrong++ < 5)
      bad << p.collective << " " << to_string(call.alg) << " " << to_string(call.type) << " " << to_string(call.op)
          << " x" << call.count << " root " << call.root << ": rank " << mm.rank << " element " << mm.index
          << " expected 0x" << std::hex << mm.expected << " got 0x" << mm.got << std::dec << "; ";
  }
  if (wrong) return std::to_string(wrong) + " of " + std::to_string(calls.size()) + " wrong: " + bad.str();
  return "ok " + std::to_string(calls.size()) + " collectives and " + std::to_string(kBarriers) + " barriers in " +
         std::to_string(rep.cycles) + " cycles";
}

class Algorithms : public ::testing::TestWithParam<Case> {};

TEST_P(Algorithms, EveryAlgorithmTypeAndOpMatchesTheReference) {
  const Case c = GetParam();
  const uint64_t seed = 20261123;
  std::printf("[ seed     ] %llu\n", static_cast<unsigned long long>(seed));
  const auto r = test::run_isolated([&] { return run_sweep(c, seed); });
  ASSERT_TRUE(r.exited) << r.report;
  EXPECT_EQ(r.report.substr(0, 3), "ok ") << r.report;
  std::printf("[ sweep    ] %s\n", r.report.c_str());
}

INSTANTIATE_TEST_SUITE_P(NodesTasksAndSubsets, Algorithms,
                         ::testing::Values(Case{"1x1x1", 1, {}}, Case{"2x1x1", 1, {}}, Case{"3x1x1", 1, {}},
                                           Case{"7x1x1", 1, {}}, Case{"2x2x2", 1, {}}, Case{"3x3x3", 1, {}},
                                           Case{"4x4x4", 1, {}}, Case{"1x1x1", 4, {}}, Case{"3x1x1", 4, {}},
                                           Case{"2x2x2", 4, {}}, Case{"3x3x3", 1, {0, 5, 6, 11, 20}},
                                           Case{"2x2x2", 4, {1, 2, 3, 12, 21, 30, 31}}),
                         test::machine_case_name<Case>);

// The segmented allgather with a torus discontinuity: node 21 = (1, 1, 1) of 4x4x4 is down and not a
// member; allgather and allgatherv by alltoallv-segment (random and rank order, pieces of
// 256 bytes and more) on the other 63 complete and match the reference, and no flit
// enters or leaves node 21: every pair's packets went around it.
TEST(Algorithms, SegmentedAllgatherAroundADownNode) {
  const uint64_t seed = 20261123;
  std::printf("[ seed     ] %llu\n", static_cast<unsigned long long>(seed));
  const auto r = test::run_isolated([seed]() -> std::string {
    sim::MachineConfig cfg = test::machine_config("4x4x4", 1, 400'000);
    constexpr unsigned kDown = 21;
    cfg.down_nodes = {kDown};
    sim::Machine model(cfg);
    driver::Job job(model);
    // The world holds the 63 live nodes (world rank w on node w, or w + 1 past node 21).
    std::vector<unsigned> members;
    for (unsigned w = 0; w < 63; ++w) members.push_back(w);
    const unsigned n = static_cast<unsigned>(members.size());
    struct Run {
      const char* coll;
      size_t count;
      driver::SegmentOptions seg;
    };
    using O = driver::SegmentOrder;
    const std::vector<Run> runs = {{"allgather", 100, {256, O::Random, 7}},
                                   {"allgather", 100, {512, O::Rank, 7}},
                                   {"allgatherv", 60, {256, O::Shifted, 8}}};
    std::vector<reference::Counts> counts;
    std::vector<std::vector<std::vector<uint64_t>>> in(runs.size()), out(runs.size());
    for (size_t i = 0; i < runs.size(); ++i) {
      counts.push_back(reference::seeded_counts(seed + i, n, runs[i].count));
      const reference::Collective* spec = reference::find_collective(runs[i].coll);
      for (unsigned k = 0; k < n; ++k) {
        const reference::Lengths len = spec->lengths ? spec->lengths(runs[i].count, counts[i], 0, n, k)
                                                     : reference::Lengths{runs[i].count, runs[i].count * n};
        in[i].push_back(reference::seeded_input(seed + i, members[k], len.send, Datatype::U64, Op::Bor));
        out[i].emplace_back(len.recv, 0);
      }
    }
    const driver::RunReport rep = job.run([&](driver::Task& t) {
      std::optional<driver::Communicator> sub = t.world().create(members);
      if (!sub) return;
      for (size_t i = 0; i < runs.size(); ++i) {
        sub->set_algorithm(*driver::collective_named(runs[i].coll), Algorithm::AlltoallvSegment);
        sub->set_segment_options(runs[i].seg);
        const unsigned k = sub->rank();
        cli::collective_call(runs[i].coll)(*sub, cli::Call{Datatype::U64, Op::Bor, 0, runs[i].count, in[i][k].data(),
                                                           out[i][k].data(), out[i][k].size(), &counts[i]});
      }
    });
    if (!rep.ok) return rep.error;
    for (size_t i = 0; i < runs.size(); ++i) {
      reference::Problem p;
      p.collective = runs[i].coll;
      p.type = Datatype::U64;
      p.op = Op::Bor;
      p.count = runs[i].count;
      p.counts = &counts[i];
      const reference::Mismatch mm = reference::compare(out[i], reference::reference(p, in[i]));
      if (mm.count) return std::string(runs[i].coll) + " run " + std::to_string(i) + ": rank " + std::to_string(mm.rank) +
                           " element " + std::to_string(mm.index) + " wrong";
    }
    uint64_t through = 0, total = 0;
    for (unsigned node = 0; node < 64; ++node)
      for (unsigned d = 0; d < 6; ++d) {
        total += model.torus_link_flits(node, d);
        if (node == kDown) through += model.torus_link_flits(node, d);
      }
    if (total == 0) return std::string("no torus traffic at all");
    return through == 0 ? std::string("ok") : std::to_string(through) + " flits left node " + std::to_string(kDown);
  });
  ASSERT_TRUE(r.exited) << r.report;
  EXPECT_EQ(r.report, "ok");
}

// torus-deposit on a subset is refused by name on every rank: its line broadcasts would
// reach nodes that are not members.
TEST(Algorithms, LineBroadcastsOnASubsetAreRefusedByName) {
  const auto r = test::run_isolated([]() -> std::string {
    sim::Machine model(test::machine_config("3x1x1", 1, 100'000));
    driver::Job job(model);
    std::vector<std::string> seen(2);
    const driver::RunReport rep = job.run([&](driver::Task& t) {
      std::optional<driver::Communicator> sub = t.world().create({0, 2});
      if (!sub) return;
      sub->set_algorithm(Collective::Bcast, Algorithm::TorusDeposit);
      uint64_t v = 7;
      try {
        sub->bcast(&v, 1, Datatype::U64, 0);
      } catch (const Error& e) {
        seen[sub->rank()] = e.what();
      }
    });
    if (!rep.ok) return rep.error;
    return seen[0] == seen[1] ? seen[0] : seen[0] + " / " + seen[1];
  });
  ASSERT_TRUE(r.exited) << r.report;
  EXPECT_EQ(r.report,
            "bcast: torus-deposit runs on the world communicator and its duplicates only, with no node down (a line "
            "broadcast reaches every node of its line, members or not)");
}

// The driver API refuses an algorithm that does not apply, naming the ones that do.
TEST(Algorithms, AnAlgorithmThatDoesNotApplyIsRefusedByName) {
  const auto r = test::run_isolated([]() -> std::string {
    sim::Machine model(test::machine_config("2x1x1", 1, 100'000));
    driver::Job job(model);
    std::string seen;
    const driver::RunReport rep = job.run([&](driver::Task& t) {
      try {
        t.world().set_algorithm(Collective::Bcast, Algorithm::TorusRing);
      } catch (const Error& e) {
        if (t.rank() == 0) seen = e.what();
      }
    });
    return rep.ok ? seen : rep.error;
  });
  ASSERT_TRUE(r.exited) << r.report;
  EXPECT_EQ(r.report,
            "set_algorithm: torus-ring does not apply to bcast (it takes auto, tree, torus-binomial, torus-deposit, "
            "torus-neighbourhood)");
}

// Regular neighbourhoods on 8x8x8: torus-neighbourhood's bcast, reduce, gather and scatter on irregular
// member sets (reference/member_sets.hpp), against the reference, on every member, rooted in turn
// at ranks first, first + step, ... of a set's communicator. All the sets of a plan are
// communicators of one machine. Returns "ok ..." with a summary, or what went wrong.
struct NeighbourhoodSet {
  std::string name;
  unsigned first = 0, step = 1;  // the roots
};

std::string run_neighbourhoods(const std::vector<NeighbourhoodSet>& plan, uint64_t seed) {
  std::printf("[ seed     ] %llu\n", static_cast<unsigned long long>(seed));
  const auto r = test::run_isolated([&plan, seed]() -> std::string {
    sim::Machine model(test::machine_config("8x8x8", 1, 50'000'000));
    driver::Job job(model);
    const fw::Coord dims{8, 8, 8};
    struct Call {
      const char* coll;
      Datatype type;
      Op op;
      size_t count;
      unsigned root;  // a rank of the set's communicator
    };
    struct Set {
      std::string name;
      std::vector<unsigned> members;
      std::vector<Call> calls;
      std::vector<reference::Counts> counts;
      std::vector<std::vector<std::vector<uint64_t>>> in, out;
    };
    std::vector<Set> sets;
    for (const NeighbourhoodSet& want : plan) {
      Set s;
      s.name = want.name;
      s.members = reference::member_nodes(want.name, dims, seed);
      const unsigned n = static_cast<unsigned>(s.members.size());
      for (unsigned root = want.first; root < n; root += want.step) {
        s.calls.push_back({"bcast", Datatype::U64, Op::Bor, 3, root});
        s.calls.push_back({"reduce", Datatype::F64, Op::Sum, 3, root});
        s.calls.push_back({"gather", Datatype::U32, Op::Bor, 2, root});
        s.calls.push_back({"scatter", Datatype::U16, Op::Bor, 2, root});
      }
      for (size_t i = 0; i < s.calls.size(); ++i) {
        const Call& c = s.calls[i];
        const reference::Collective* spec = reference::find_collective(c.coll);
        s.counts.push_back(reference::seeded_counts_for(*spec, seed + i, n, c.count));
        s.in.emplace_back();
        s.out.emplace_back();
        for (unsigned k = 0; k < n; ++k) {
          const reference::Lengths len = reference::member_lengths(*spec, c.count, s.counts[i], c.root, n, k);
          s.in[i].push_back(reference::seeded_input(seed + i, s.members[k], len.send, c.type, c.op));
          s.out[i].emplace_back(len.recv, 0);
        }
      }
      sets.push_back(std::move(s));
    }
    const driver::RunReport rep = job.run([&](driver::Task& t) {
      for (Set& s : sets) {
        std::optional<driver::Communicator> sub = t.world().create(s.members);
        if (!sub) continue;
        const unsigned k = sub->rank();
        for (size_t i = 0; i < s.calls.size(); ++i) {
          const Call& c = s.calls[i];
          sub->set_algorithm(*driver::collective_named(c.coll), Algorithm::TorusNeighbourhood);
          cli::collective_call(c.coll)(*sub, cli::Call{c.type, c.op, c.root, c.count, s.in[i][k].data(),
                                                       s.out[i][k].data(), s.out[i][k].size(), &s.counts[i]});
        }
        sub->free();
      }
    });
    if (!rep.ok) return rep.error;
    std::ostringstream summary;
    for (const Set& s : sets) {
      for (size_t i = 0; i < s.calls.size(); ++i) {
        const Call& c = s.calls[i];
        reference::Problem p;
        p.collective = c.coll;
        p.type = c.type;
        p.op = c.op;
        p.root = c.root;
        p.count = c.count;
        p.counts = &s.counts[i];
        const reference::Mismatch mm = reference::compare(s.out[i], reference::reference(p, s.in[i]));
        if (mm.count)
          return s.name + ": " + c.coll + " rooted at rank " + std::to_string(c.root) + ": rank " +
                 std::to_string(mm.rank) + " element " + std::to_string(mm.index) + " wrong";
      }
      summary << s.name << " " << s.members.size() << " members " << s.calls.size() << " calls; ";
    }
    return "ok " + summary.str() + std::to_string(rep.cycles) + " cycles";
  });
  return r.exited ? r.report : "the run did not exit: " + r.report;
}

constexpr uint64_t kNeighbourhoodsSeed = 20261123;

// Every member is the root in turn on the l-shape, the plane with holes and the two boxes.
TEST(Algorithms, NeighbourhoodsOnIrregularMemberSetsForEveryRoot) {
  const std::string r = run_neighbourhoods({{"l-shape"}, {"plane-holes"}, {"two-boxes"}}, kNeighbourhoodsSeed);
  EXPECT_EQ(r.substr(0, 3), "ok ") << r;
  std::printf("[ sets     ] %s\n", r.c_str());
}

// On the checkerboard and random 50% (256 and 270 members) the roots are split into
// kNeighbourhoodsShards shards (rank k in shard k mod kNeighbourhoodsShards), each a run of
// a minute or more: `make test` runs one shard per set (the checkerboard's shard 0, random
// 50%'s shard 3), and COLLNET_NEIGHBOURHOOD_SHARDS picks others: a shard number, or "all"
// for every member the root in turn (about 13 minutes of one core).
constexpr unsigned kNeighbourhoodsShards = 6;

// The shards to run of a set, `usual` unless COLLNET_NEIGHBOURHOOD_SHARDS says otherwise.
std::vector<unsigned> neighbourhood_shards(unsigned usual) {
  const char* e = std::getenv("COLLNET_NEIGHBOURHOOD_SHARDS");
  if (!e || !*e) return {usual};
  std::vector<unsigned> all;
  for (unsigned k = 0; k < kNeighbourhoodsShards; ++k) all.push_back(k);
  if (std::string(e) == "all") return all;
  const unsigned k = static_cast<unsigned>(std::strtoul(e, nullptr, 10));
  if (k >= kNeighbourhoodsShards)
    ADD_FAILURE() << "COLLNET_NEIGHBOURHOOD_SHARDS=" << e << ": a shard is 0.." << kNeighbourhoodsShards - 1
                  << " or all";
  return {k % kNeighbourhoodsShards};
}

class NeighbourhoodsLargeSet : public testing::TestWithParam<std::tuple<const char*, unsigned>> {};

TEST_P(NeighbourhoodsLargeSet, EveryRootOfAShard) {
  const auto [set, usual] = GetParam();
  for (unsigned shard : neighbourhood_shards(usual)) {
    const std::string r = run_neighbourhoods({{set, shard, kNeighbourhoodsShards}}, kNeighbourhoodsSeed);
    EXPECT_EQ(r.substr(0, 3), "ok ") << r;
    std::printf("[ sets     ] roots %u, %u, ...: %s\n", shard, shard + kNeighbourhoodsShards, r.c_str());
  }
}

INSTANTIATE_TEST_SUITE_P(Algorithms, NeighbourhoodsLargeSet,
                         testing::Values(std::make_tuple("checkerboard", 0u), std::make_tuple("random:50", 3u)),
                         [](const testing::TestParamInfo<NeighbourhoodsLargeSet::ParamType>& info) {
                           std::string name = std::get<0>(info.param);
                           name.erase(std::remove(name.begin(), name.end(), ':'), name.end());
                           return name;
                         });

}  // namespace
}  // namespace collnet
