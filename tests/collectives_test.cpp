// Every collective x type x op that makes sense, on whole simulated machines of 1 to 64
// nodes, on the world and on irregular subsets, with 1 and 4 tasks per node, checked
// against the plain C++ reference (cli/verify.hpp). One machine per test runs the whole
// sweep, one collective after another.
#include <cstdio>
#include <sstream>

#include <gtest/gtest.h>

#include "cli/inputs.hpp"
#include "cli/verify.hpp"
#include "driver/machine.hpp"
#include "support/isolated.hpp"

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
  for (const char* c : {"allreduce", "reduce", "scan", "exscan"})
    for (Datatype t : driver::all_datatypes())
      for (Op op : driver::all_ops())
        if (driver::accepts(op, t)) calls.push_back({c, t, op, count + (k++ % 3), k % ranks});
  for (const char* c : {"bcast", "gather", "allgather"})
    for (Datatype t : driver::all_datatypes()) calls.push_back({c, t, Op::Bor, count + (k++ % 5), k % ranks});
  return calls;
}

struct Case {
  const char* shape;
  unsigned tasks;
  std::vector<unsigned> subset;  // world ranks; empty: the world
};

std::string run_sweep(const Case& c, uint64_t seed) {
  sim::MachineConfig cfg;
  cfg.shape = sim::Shape::parse(c.shape);
  cfg.tasks_per_node = c.tasks;
  cfg.watchdog_cycles = 20'000'000;
  driver::Machine m(cfg);
  const unsigned world = m.sim().nodes() * c.tasks;
  std::vector<unsigned> members = c.subset;
  if (members.empty())
    for (unsigned r = 0; r < world; ++r) members.push_back(r);
  const unsigned n = static_cast<unsigned>(members.size());
  const std::vector<Call> calls = sweep(n, 2);
  // inputs[call][rank], outputs[call][rank]
  std::vector<std::vector<std::vector<uint64_t>>> in(calls.size()), out(calls.size());
  for (size_t i = 0; i < calls.size(); ++i) {
    const Call& call = calls[i];
    const bool pairs = driver::is_loc(call.op) && call.collective != "bcast";
    for (unsigned k = 0; k < n; ++k) {
      in[i].push_back(cli::seeded_input(seed + i, members[k], call.count, call.type, call.op));
      const size_t elems = (call.collective == "gather" || call.collective == "allgather") ? call.count * n : call.count;
      out[i].emplace_back(elems * (pairs ? 2 : 1), 0);
    }
  }
  const driver::RunReport rep = m.run([&](driver::Task& t) {
    std::optional<driver::Communicator> sub = c.subset.empty() ? std::nullopt : t.world().create(c.subset);
    if (!c.subset.empty() && !sub) return;
    driver::Communicator& comm = sub ? *sub : t.world();
    const unsigned k = comm.rank();
    for (size_t i = 0; i < calls.size(); ++i) {
      const Call& call = calls[i];
      const uint64_t* s = in[i][k].data();
      uint64_t* r = out[i][k].data();
      if (call.collective == "allreduce") comm.allreduce(s, r, call.count, call.type, call.op);
      else if (call.collective == "reduce") comm.reduce(s, r, call.count, call.type, call.op, call.root);
      else if (call.collective == "scan") comm.scan(s, r, call.count, call.type, call.op);
      else if (call.collective == "exscan") comm.exscan(s, r, call.count, call.type, call.op);
      else if (call.collective == "gather") comm.gather(s, r, call.count, call.type, call.root);
      else if (call.collective == "allgather") comm.allgather(s, r, call.count, call.type);
      else {
        out[i][k] = in[i][k];
        comm.bcast(out[i][k].data(), call.count, call.type, call.root);
      }
    }
    comm.barrier();
  });
  if (!rep.ok) return rep.error;
  std::ostringstream bad;
  unsigned wrong = 0;
  for (size_t i = 0; i < calls.size(); ++i) {
    const Call& call = calls[i];
    const auto want = cli::reference({call.collective, call.type, call.op, call.root}, in[i]);
    const cli::Mismatch mm = cli::compare(out[i], want);
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

std::string name(const ::testing::TestParamInfo<Case>& p) {
  std::string s = p.param.shape;
  for (char& ch : s)
    if (ch == 'x') ch = '_';
  s += "_tasks" + std::to_string(p.param.tasks);
  if (!p.param.subset.empty()) s += "_subset" + std::to_string(p.param.subset.size());
  return s;
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
    name);

}  // namespace
}  // namespace collnet
