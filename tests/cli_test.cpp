// SPDX-License-Identifier: Apache-2.0
// The command line as a user drives it: verified runs on many shapes, counts and ops,
// JSON output, exit statuses, usage errors that name the argument, and traces that
// GTKWave's tools can read.
#include <array>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/support/collnet_cli.hpp"

namespace collnet {
namespace {

using test::run_command;

const std::string kTmp = COLLNET_TEST_TMP;

using test::collnet;
using test::read_json;

// ------------------------------------------------------------------ verified runs
struct RunCase {
  std::string torus, op;
  unsigned count;
};

class CliAllreduce : public ::testing::TestWithParam<RunCase> {};

TEST_P(CliAllreduce, IsVerifiedAndReportsItsJson) {
  const RunCase c = GetParam();
  const std::string json = kTmp + "/allreduce_" + c.torus + "_" + c.op + "_" + std::to_string(c.count) + ".json";
  const auto r = collnet({"run", "allreduce", "--op", c.op, "--type", "u64", "--count", std::to_string(c.count),
                          "--torus", c.torus, "--json", json});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("verified"), std::string::npos) << r.out;
  const auto j = read_json(json);
  EXPECT_EQ(j.at("collective"), "allreduce");
  EXPECT_EQ(j.at("op"), c.op);
  EXPECT_EQ(j.at("type"), "u64");
  EXPECT_EQ(j.at("count"), c.count);
  EXPECT_EQ(j.at("verified"), true);
  EXPECT_GT(j.at("cycles").get<uint64_t>(), 0u);
  EXPECT_EQ(j.at("packets"), (c.count + 31) / 32);
  EXPECT_GE(j.at("link_utilization").get<double>(), 0.0);
  EXPECT_LE(j.at("link_utilization").get<double>(), 1.0);
  unsigned x, y, z;
  char sep;
  std::istringstream(c.torus) >> x >> sep >> y >> sep >> z;
  EXPECT_EQ(j.at("nodes"), x * y * z);
}

std::vector<RunCase> run_cases() {
  std::vector<RunCase> v;
  for (const char* t : {"1x1x1", "2x1x1", "3x1x1", "2x2x2", "5x3x1", "7x1x1", "4x4x4"}) v.push_back({t, "sum", 64});
  for (const char* t : {"2x2x2", "4x4x4"})
    for (unsigned count : {1u, 33u, 1000u}) v.push_back({t, "sum", count});
  for (const char* t : {"5x3x1", "4x4x4"})
    for (const char* op : {"max", "min", "band", "bor", "bxor"}) v.push_back({t, op, 64});
  return v;
}

INSTANTIATE_TEST_SUITE_P(MustShow, CliAllreduce, ::testing::ValuesIn(run_cases()),
                         [](const ::testing::TestParamInfo<RunCase>& p) {
                           std::string t = p.param.torus;
                           for (char& ch : t)
                             if (ch == 'x') ch = '_';
                           return "t" + t + "_" + p.param.op + "_" + std::to_string(p.param.count);
                         });

TEST(CliBcast, IsVerifiedFromANonZeroRoot) {
  const auto r = collnet({"run", "bcast", "--torus", "3x2x1", "--root", "4", "--count", "50"});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("verified"), std::string::npos);
}

TEST(CliRun, TheSameSeedGivesTheSameCyclesAndADifferentSeedStillVerifies) {
  const auto a = collnet({"run", "allreduce", "--torus", "2x2x1", "--count", "100", "--seed", "7", "--json", kTmp + "/s7a.json"});
  const auto b = collnet({"run", "allreduce", "--torus", "2x2x1", "--count", "100", "--seed", "7", "--json", kTmp + "/s7b.json"});
  const auto c = collnet({"run", "allreduce", "--torus", "2x2x1", "--count", "100", "--seed", "8"});
  ASSERT_EQ(a.status, 0);
  ASSERT_EQ(b.status, 0);
  ASSERT_EQ(c.status, 0);
  EXPECT_EQ(read_json(kTmp + "/s7a.json").at("cycles"), read_json(kTmp + "/s7b.json").at("cycles"));
}

// pingpong: one row per size, each verified, one-way times not shrinking with the size, and the
// bandwidth of a long message close to the link's; its arguments are checked.
TEST(CliPingpong, ReportsEverySizeVerified) {
  const std::string json = kTmp + "/pingpong.json";
  const auto r = collnet({"run", "pingpong", "--torus", "2x2x1", "--ranks", "0,3", "--sizes", "0,8,1k,64k",
                          "--iterations", "2", "--json", json});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("2 hops"), std::string::npos) << r.out;
  const auto js = read_json(json);
  ASSERT_EQ(js.at("sizes").size(), 4u);
  double last = -1;
  for (const auto& row : js.at("sizes")) {
    EXPECT_TRUE(row.at("verified").get<bool>());
    EXPECT_GE(row.at("cycles_one_way").get<double>(), last);  // 0 and 8 bytes are one packet each
    last = row.at("cycles_one_way").get<double>();
  }
  EXPECT_GT(js.at("sizes")[3].at("cycles_one_way").get<double>(), js.at("sizes")[2].at("cycles_one_way").get<double>());
  EXPECT_GT(js.at("sizes")[3].at("link_fraction").get<double>(), 0.8);
  // The per-link table: node 0 to node 3 is two hops, so some torus link of node 0 sent.
  uint64_t from_0 = 0;
  for (const auto& row : js.at("links").at("per_link"))
    if (row.at("network") == "torus" && row.at("node") == 0) from_0 += row.at("tx_flits").get<uint64_t>();
  EXPECT_GT(from_0, 64u * 1024 / 8) << "the 64 KiB messages crossed node 0's links";
  const auto one = collnet({"run", "pingpong", "--torus", "2x2x1", "--ranks", "0"});
  EXPECT_EQ(one.status, 2);
  EXPECT_NE(one.err.find("--ranks: pingpong takes two ranks"), std::string::npos) << one.err;
  const auto bad = collnet({"run", "pingpong", "--torus", "2x2x1", "--ranks", "0,1", "--sizes", "8,x"});
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("--sizes: 'x' in '8,x' is not a size"), std::string::npos) << bad.err;
}

// `collnet algorithms` lists every collective with its algorithms; `--algorithm` runs the
// one named, verified, and records it in the JSON (auto records what it chose).
TEST(CliAlgorithms, AreListedAndRunVerifiedByName) {
  const auto list = collnet({"algorithms"});
  ASSERT_EQ(list.status, 0) << list.err;
  EXPECT_NE(list.out.find("allreduce  auto, tree, torus-binomial, torus-recursive-doubling, torus-ring, torus-rabenseifner"),
            std::string::npos)
      << list.out;
  for (const char* a : {"torus-ring", "torus-bruck", "alltoallv-segment"}) {
    const std::string json = kTmp + "/allgather_" + a + ".json";
    const auto r = collnet({"run", "allgather", "--torus", "3x2x1", "--count", "40", "--algorithm", a, "--piece-bytes",
                            "64", "--json", json});
    ASSERT_EQ(r.status, 0) << a << ": " << r.out << r.err;
    EXPECT_NE(r.out.find(std::string("allgather algorithm=") + a), std::string::npos) << r.out;
    EXPECT_EQ(read_json(json).at("algorithm"), a);
  }
  const std::string json = kTmp + "/allreduce_auto.json";
  ASSERT_EQ(collnet({"run", "allreduce", "--torus", "2x1x1", "--json", json}).status, 0);
  EXPECT_EQ(read_json(json).at("algorithm"), "tree");
}

// The JSON says which class route a run's communicator rides: the world's is 0, a subset
// takes the first user class.
// `collnet neighbourhoods`: the planes of a named member set, their local roots and trees,
// a picture, and the same in JSON; a root that is not a member and a bad set are named.
TEST(CliNeighbourhoods, PrintsPlanesRootsAndTrees) {
  const std::string json = kTmp + "/neighbourhoods.json";
  const auto r = collnet({"neighbourhoods", "--torus", "8x8x8", "--ranks", "l-shape", "--root", "9", "--json", json});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("28 member nodes on 8x8x8: 2 regular neighbourhoods (gap-free planes of x and y), rooted at node 9"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("local roots' tree (binomial from node 9): 16->9"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("plane z=0 (x across, y down)\n  aaaaaaaa\n  aAaaaaaa\n  Bb......\n"), std::string::npos) << r.out;
  const auto j = read_json(json);
  EXPECT_EQ(j.at("neighbourhoods").size(), 2u);
  EXPECT_EQ(j.at("neighbourhoods")[0].at("local_root"), 9);
  EXPECT_EQ(j.at("neighbourhoods")[1].at("nodes").size(), 12u);
  EXPECT_EQ(j.at("roots_tree")[0], nlohmann::json::array({16, 9}));

  const auto bad_root = collnet({"neighbourhoods", "--torus", "8x8x8", "--ranks", "l-shape", "--root", "100"});
  EXPECT_EQ(bad_root.status, 2);
  EXPECT_NE(bad_root.err.find("--root 100 is not a member node"), std::string::npos) << bad_root.err;
  const auto bad_set = collnet({"neighbourhoods", "--torus", "4x4x4", "--ranks", "random:200"});
  EXPECT_NE(bad_set.status, 0);
  EXPECT_NE(bad_set.err.find("--ranks: 'random:200': the percentage must be above 0 and at most 100"), std::string::npos)
      << bad_set.err;
}

// `collnet run --ranks` takes a named member set: every task of those nodes.
TEST(CliRun, RanksTakeANamedMemberSet) {
  const std::string json = kTmp + "/two_boxes.json";
  const auto r = collnet({"run", "bcast", "--torus", "4x4x4", "--ranks", "two-boxes", "--tasks", "2", "--algorithm",
                          "torus-neighbourhood", "--root", "3", "--json", json});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("verified"), std::string::npos) << r.out;
  EXPECT_EQ(read_json(json).at("members"), 32) << "16 nodes, two tasks each";
}

TEST(CliRun, ReportsTheClassRouteOfItsCommunicator) {
  const std::string world = kTmp + "/class_world.json", subset = kTmp + "/class_subset.json";
  ASSERT_EQ(collnet({"run", "allreduce", "--torus", "2x2x1", "--json", world}).status, 0);
  EXPECT_EQ(read_json(world).at("class_route"), 0);
  const auto r = collnet({"run", "allreduce", "--torus", "2x2x1", "--ranks", "1,3", "--json", subset});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(read_json(subset).at("class_route"), 1);
}

// `collnet compare` runs every algorithm at every size, verified, and marks the fastest;
// its JSON holds the same cycles a single run of that algorithm reports.
TEST(CliCompare, RunsEveryAlgorithmAtEverySizeAndMarksTheFastest) {
  const std::string json = kTmp + "/compare.json";
  const auto r = collnet({"compare", "allreduce", "--torus", "2x2x1", "--sizes", "8,2k", "--json", json});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  const auto js = read_json(json);
  ASSERT_EQ(js.at("rows").size(), 2u);
  for (const auto& row : js.at("rows")) {
    ASSERT_EQ(row.at("cycles").size(), 5u);  // tree and four torus algorithms
    uint64_t best = UINT64_MAX;
    for (const auto& [name, c] : row.at("cycles").items()) best = std::min(best, c.get<uint64_t>());
    EXPECT_EQ(row.at("cycles").at(row.at("fastest").get<std::string>()).get<uint64_t>(), best);
  }
  EXPECT_NE(r.out.find("*"), std::string::npos) << r.out;
  const std::string one = kTmp + "/compare_one.json";
  ASSERT_EQ(collnet({"run", "allreduce", "--torus", "2x2x1", "--count", "256", "--algorithm", "torus-ring", "--json", one})
                .status,
            0);
  EXPECT_EQ(read_json(one).at("cycles"), js.at("rows")[1].at("cycles").at("torus-ring"));
}

// `collnet tune` measures a table; with it, auto runs the fastest algorithm at every point
// of the grid it was measured on (compare's auto column equals the best), and `run
// --tuning` picks from it.
TEST(CliTune, WritesATableWithWhichAutoRunsTheFastest) {
  const std::string table = kTmp + "/tune_3x1x1.json";
  const auto t = collnet(
      {"tune", "--torus", "3x1x1", "--sizes", "8,4k", "--collectives", "allgather,allreduce", "--output", table});
  ASSERT_EQ(t.status, 0) << t.out << t.err;
  const nlohmann::json rules = read_json(table).at("rules");
  std::set<std::string> classes;  // the type classes of the allreduce rules
  for (const auto& r : rules) {
    EXPECT_TRUE(r.at("collective") == "allgather" || r.at("collective") == "allreduce") << r.dump();
    if (r.at("collective") == "allgather") EXPECT_FALSE(r.contains("types")) << r.dump();
    if (r.at("collective") == "allreduce") classes.insert(r.at("types").get<std::string>());
  }
  EXPECT_EQ(classes, (std::set<std::string>{"int", "int64", "float"}));
  const std::string json = kTmp + "/tune_compare.json";
  for (const char* type : {"f32", "u64"}) {  // allreduce of f32, then allgather (kept in json)
    const std::string c = type == std::string("u64") ? "allgather" : "allreduce";
    const auto r = collnet({"compare", c, "--torus", "3x1x1", "--type", type, "--sizes", "8,4k", "--tuning", table,
                            "--json", json});
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    const nlohmann::json compared = read_json(json);  // kept: a range-for over a temporary's member dangles
    for (const auto& row : compared.at("rows")) {
      EXPECT_EQ(row.at("auto").at("algorithm"), row.at("fastest")) << c << " " << row.dump();
      EXPECT_EQ(row.at("auto").at("cycles"), row.at("cycles").at(row.at("fastest").get<std::string>())) << row.dump();
    }
  }
  const std::string one = kTmp + "/tune_run.json";
  ASSERT_EQ(collnet({"run", "allgather", "--torus", "3x1x1", "--count", "512", "--tuning", table, "--json", one}).status, 0);
  EXPECT_EQ(read_json(one).at("algorithm"), read_json(json).at("rows")[1].at("fastest"));
  const std::string bad = kTmp + "/tune_bad.json";
  std::ofstream(bad) << R"({"rules": [{"collective": "bcast", "ranks": 3, "up_to_bytes": null, "algorithm": "torus-ring"}]})";
  const auto b = collnet({"run", "bcast", "--torus", "3x1x1", "--tuning", bad});
  EXPECT_EQ(b.status, 2);
  EXPECT_NE(b.err.find("torus-ring is not an algorithm of bcast"), std::string::npos) << b.err;
  std::ofstream(bad) << R"({"rules": [{"collective": "allreduce", "ranks": 3, "up_to_bytes": null,
                                        "algorithm": "tree", "types": "complex"}]})";
  const auto k = collnet({"run", "allreduce", "--torus", "3x1x1", "--tuning", bad});
  EXPECT_EQ(k.status, 2);
  EXPECT_NE(k.err.find("rule 0: unknown type class \"complex\" (any, int, int64, float)"), std::string::npos) << k.err;
}

// The shipped table (driver/tuning/, measured by scripts/bench_tuning.sh at every power of
// two from 4 B to 64 KiB and each type class): at a sample of that grid, and at types a
// class was not measured at (u8, f64), auto runs within 10% of the fastest algorithm.
TEST(CliTune, TheShippedTableIsWithinTenPercentAtSamplePoints) {
  struct Point {
    const char *torus, *collective, *type, *sizes;
  };
  const Point points[] = {
      {"2x2x2", "allreduce", "f32", "8,16,32,64"}, {"2x2x2", "allreduce", "u8", "16,32,64"},
      {"2x2x2", "reduce", "f64", "4,8,64"},        {"2x2x2", "allgather", "u64", "32,256"},
      {"2x2x2", "gather", "u64", "64,1k"},         {"2x2x2", "scan", "i16", "32,128"},
      {"4x4x4", "allreduce", "f32", "4,64"},       {"4x4x4", "bcast", "u64", "8,1k"},
      {"4x4x4", "scan", "i32", "8,1k"},            {"4x4x4", "alltoall", "u64", "8,64"},
  };
  const std::string json = kTmp + "/tune_sample.json";
  for (const Point& p : points) {
    const auto r = collnet({"compare", p.collective, "--torus", p.torus, "--type", p.type, "--sizes", p.sizes, "--json", json});
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    const nlohmann::json table = read_json(json);  // kept: a range-for over a temporary's member dangles
    for (const auto& row : table.at("rows")) {
      const uint64_t best = row.at("cycles").at(row.at("fastest").get<std::string>()).get<uint64_t>();
      const uint64_t chosen = row.at("auto").at("cycles").get<uint64_t>();
      EXPECT_LE(chosen * 10, best * 11) << p.torus << " " << p.collective << " " << p.type << " at " << row.at("bytes")
                                        << " bytes: auto ran " << row.at("auto").at("algorithm") << ", " << chosen
                                        << " cycles; " << row.at("fastest") << " takes " << best;
    }
  }
}

TEST(CliBarrier, IsVerifiedOnEveryShape) {
  for (const char* t : {"1x1x1", "2x1x1", "5x3x1", "8x8x8"}) {
    const std::string json = kTmp + "/barrier_" + t + ".json";
    const auto r = collnet({"run", "barrier", "--torus", t, "--json", json});
    ASSERT_EQ(r.status, 0) << t << ": " << r.out << r.err;
    const auto j = read_json(json);
    EXPECT_EQ(j.at("collective"), "barrier");
    EXPECT_EQ(j.at("verified"), true);
    EXPECT_GT(j.at("cycles").get<uint64_t>(), 0u);
  }
}

TEST(CliRanks, RunsOnASubsetCommunicator) {
  const std::string json = kTmp + "/ranks.json";
  for (const char* c : {"allreduce", "bcast", "barrier"}) {
    const auto r = collnet({"run", c, "--torus", "3x3x3", "--ranks", "0,5,6,11,20", "--count", "77", "--json", json});
    ASSERT_EQ(r.status, 0) << c << ": " << r.out << r.err;
    const auto j = read_json(json);
    EXPECT_EQ(j.at("verified"), true);
    EXPECT_EQ(j.at("members"), 5);
    EXPECT_EQ(j.at("nodes"), 27);
    EXPECT_EQ(j.at("ranks"), nlohmann::json({0, 5, 6, 11, 20}));
  }
}

// One run of every collective, on shapes, types and options that differ.
std::vector<std::vector<std::string>> collective_runs() {
  return {
      {"scan", "--torus", "4x4x4", "--type", "i32", "--op", "max", "--count", "3"},
      {"exscan", "--torus", "3x3x3", "--type", "f64", "--op", "sum", "--count", "8"},
      {"gather", "--torus", "4x4x4", "--type", "u64", "--count", "32", "--root", "5"},
      {"allgather", "--torus", "2x2x2", "--type", "u8", "--count", "5", "--tasks", "4"},
      {"reduce", "--torus", "7x1x1", "--type", "f32", "--op", "minloc", "--count", "10", "--root", "3"},
      {"allreduce", "--torus", "3x3x3", "--type", "i16", "--op", "lxor", "--ranks", "0,5,6,11,20"},
      {"bcast", "--torus", "4x4x4", "--type", "f64", "--count", "100", "--root", "17"},
      {"barrier", "--torus", "2x2x2", "--tasks", "3"},
      {"allreduce", "--torus", "2x2x1", "--type", "u16", "--op", "sum", "--count", "40", "--check-args"},
  };
}

TEST(CliCollectives, EveryCollectiveRunsVerifiedAndReportsItsJson) {
  const std::vector<std::vector<std::string>> runs = collective_runs();
  const std::string json = kTmp + "/collective.json";
  for (auto args : runs) {
    const std::string what = args[0];
    args.insert(args.begin(), "run");
    args.insert(args.end(), {"--json", json});
    const auto r = collnet(args);
    ASSERT_EQ(r.status, 0) << what << ": " << r.out << r.err;
    EXPECT_NE(r.out.find("verified"), std::string::npos) << r.out;
    const auto j = read_json(json);
    EXPECT_EQ(j.at("collective"), what);
    EXPECT_EQ(j.at("verified"), true);
    for (const char* key : {"cycles", "bytes", "tree_depth", "link_latency"}) EXPECT_TRUE(j.contains(key)) << key;
    if (what != "barrier")
      for (const char* key : {"cycles_per_packet", "link_utilization", "packets", "flits_per_cycle"})
        EXPECT_TRUE(j.contains(key)) << what << " " << key;
  }
}

// Skipping a quiescent node side's clock edges changes nothing: every collective takes the
// same cycles, moves the same flits and gives the same results bit for bit with skipping
// off, on, and in check mode (which also evaluates every skipped edge and fails the run if
// one would have changed the model). The torus side, idle in a tree collective, is skipped
// for most of the run.
TEST(CliIdleSkip, EveryCollectiveIsTheSameCycleForCycleWithAndWithoutSkipping) {
  const std::string json = kTmp + "/idle_skip.json", out = kTmp + "/idle_skip_out.json";
  for (auto args : collective_runs()) {
    const std::string what = args[0];
    args.insert(args.begin(), "run");
    args.insert(args.end(), {"--json", json});
    if (what != "barrier") args.insert(args.end(), {"--output", out});
    nlohmann::json reference, reference_out;
    for (const char* mode : {"off", "on", "check"}) {
      auto a = args;
      a.insert(a.end(), {"--idle-skip", mode});
      const auto r = collnet(a);
      ASSERT_EQ(r.status, 0) << what << " --idle-skip " << mode << ": " << r.out << r.err;
      const auto j = read_json(json);
      EXPECT_EQ(j.at("idle_skip"), mode);
      const auto results = what == "barrier" ? nlohmann::json() : read_json(out);
      if (std::string(mode) == "off") {
        reference = j;
        reference_out = results;
        EXPECT_EQ(j.at("idle_skipped_fraction"), 0.0) << what;
        continue;
      }
      for (const char* key : {"cycles", "sim_cycles", "link_flits"}) EXPECT_EQ(j.at(key), reference.at(key)) << what << " " << mode << " " << key;
      EXPECT_EQ(results, reference_out) << what << " " << mode;
      // A collective on the tree leaves the torus idle most of the time (auto may pick a
      // torus algorithm for some of these small runs: docs/torus-algorithms.md).
      if (j.at("algorithm") == "tree" || j.at("algorithm") == "default")
        EXPECT_GT(j.at("torus_skipped_fraction").get<double>(), 0.5) << what << " " << mode;
    }
  }
}

TEST(CliData, InputAndOutputFilesRoundTripFloatsBitExactly) {
  const std::string in = kTmp + "/data_in.json", out = kTmp + "/data_out.json";
  std::ofstream(in) << R"([[1.5, -2, 0.1], [0.25, "inf", 1e-30], [3, 4, -0.1]])";
  const auto r = collnet({"run", "allreduce", "--torus", "3x1x1", "--type", "f64", "--op", "sum", "--input", in,
                          "--output", out});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  const auto j = read_json(out);
  ASSERT_EQ(j.size(), 3u);
  for (const auto& rank : j) {
    EXPECT_EQ(rank.at(0).get<double>(), 4.75);
    EXPECT_EQ(rank.at(1), "inf");
    EXPECT_EQ(rank.at(2).get<double>(), 1e-30);  // exact: in double arithmetic 0.1 + 1e-30 - 0.1 is 0
  }
  // Scan output leaves nothing undefined; exscan's rank 0 is null.
  std::ofstream(in) << "[[1], [2], [3]]";
  ASSERT_EQ(collnet({"run", "exscan", "--torus", "3x1x1", "--type", "i8", "--input", in, "--output", out}).status, 0);
  EXPECT_EQ(read_json(out), nlohmann::json::parse("[null, [1], [3]]"));
}

// ------------------------------------------------------------------ traffic
// The traffic command reports every JSON key it promises, loses nothing, and gives the
// same numbers on two host threads as on one.
TEST(CliTraffic, ReportsItsJsonAndTheSameResultsOnTwoThreads) {
  nlohmann::json j[2];
  for (int t = 0; t < 2; ++t) {
    const std::string json = kTmp + "/traffic_threads" + std::to_string(t + 1) + ".json";
    const auto r = collnet({"traffic", "--torus", "3x2x2", "--rate", "0.5", "--cycles", "1500", "--warmup", "200",
                            "--seed", "7", "--threads", std::to_string(t + 1), "--json", json});
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("node-cycles/s"), std::string::npos) << r.out;
    j[t] = read_json(json);
    for (const char* key : {"accepted_flits_per_node_cycle", "avg_latency", "p99_latency", "packets_delivered",
                            "packets_lost", "sim_cycles_per_second", "node_cycles_per_second"})
      EXPECT_TRUE(j[t].contains(key)) << key;
    EXPECT_EQ(j[t].at("threads"), t + 1);
    EXPECT_EQ(j[t].at("packets_lost"), 0);
    EXPECT_EQ(j[t].at("packets_duplicated"), 0);
    EXPECT_EQ(j[t].at("packets_corrupted"), 0);
    EXPECT_GT(j[t].at("packets_delivered").get<uint64_t>(), 100u);
    EXPECT_GT(j[t].at("node_cycles_per_second").get<double>(), 0.0);
  }
  for (const char* key : {"accepted_flits_per_node_cycle", "avg_latency", "p99_latency", "max_latency",
                          "packets_created", "packets_delivered", "simulated_cycles"})
    EXPECT_EQ(j[0].at(key), j[1].at(key)) << key;
}

TEST(CliTraffic, SamplesAddUpToTheLinkLayersFlitCountsAndTheMachinesOwn) {
  // The window and the drain's steps are multiples of the sample period, so the samples
  // cover the whole run: their flits are every flit the torus links sent, as the link
  // layer (lk_port's counters, the JSON's links.per_link) and the wires count them.
  const std::string json = kTmp + "/traffic_samples.json";
  const auto r = collnet({"traffic", "--torus", "3x2x2", "--rate", "0.4", "--cycles", "1500", "--warmup", "500",
                          "--seed", "5", "--sample-every", "50", "--json", json});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("  samples    "), std::string::npos) << r.out;
  const nlohmann::json j = read_json(json);
  const nlohmann::json& s = j.at("samples");
  const uint64_t cycles = j.at("simulated_cycles");
  ASSERT_EQ(cycles % 50, 0u);
  ASSERT_EQ(s.at("cycle").size(), cycles / 50);
  EXPECT_EQ(s.at("cycle").back(), cycles);
  // 3x2x2: x has 3 nodes (x+ and x- links), y and z 2 (both directions to one neighbour).
  const double links = 12.0 * 6;
  double sampled = 0;
  for (size_t k = 0; k < s.at("cycle").size(); ++k) {
    const double mean = s.at("torus_utilisation")[k], busiest = s.at("torus_busiest")[k];
    EXPECT_LE(mean, busiest + 1e-12);
    EXPECT_LE(busiest, 1.0);
    sampled += mean * links * 50;
  }
  uint64_t counted = 0;
  for (const auto& row : j.at("links").at("per_link"))
    if (row.at("network") == "torus") counted += row.at("tx_flits").get<uint64_t>();
  EXPECT_GT(counted, 1000u);
  EXPECT_NEAR(sampled, static_cast<double>(counted), 0.5);
}

// The routers' per-VC counters in --json: per torus link, the VCs' flits add up to the
// link layer's; a VC is held at least a cycle per flit; the total is the rows' sum. Under
// adaptive routing at saturation packets take the dynamic VCs and wait for credits; under
// dimension order they take the escape VC only.
TEST(CliTraffic, TheJsonCarriesEachTorusLinksPerVcCounters) {
  for (const std::string routing : {"adaptive", "dor"}) {
    const std::string json = kTmp + "/traffic_vcs_" + routing + ".json";
    const auto r = collnet({"traffic", "--torus", "4x2x2", "--rate", "0.9", "--size", "4", "--cycles", "1500",
                            "--warmup", "300", "--routing", routing, "--seed", "3", "--json", json});
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    const nlohmann::json links = read_json(json).at("links");
    std::map<std::string, std::array<uint64_t, 3>> sum;  // VC -> flits, busy, stall over the rows
    unsigned rows = 0;
    for (const auto& row : links.at("per_link")) {
      if (row.at("network") != "torus") continue;
      ++rows;
      uint64_t flits = 0;
      for (const auto& [vc, c] : row.at("vcs").items()) {
        const uint64_t f = c.at("flits"), b = c.at("busy"), s = c.at("credit_stall");
        EXPECT_GE(b, f) << routing << " node " << row.at("node") << " " << row.at("link") << " " << vc;
        flits += f;
        sum[vc][0] += f, sum[vc][1] += b, sum[vc][2] += s;
      }
      EXPECT_EQ(flits, row.at("tx_flits").get<uint64_t>()) << routing << " node " << row.at("node") << " "
                                                           << row.at("link");
    }
    EXPECT_GT(rows, 0u);
    for (const auto& [vc, c] : links.at("torus").at("vcs").items()) {
      EXPECT_EQ(c.at("flits").get<uint64_t>(), sum[vc][0]) << routing << " " << vc;
      EXPECT_EQ(c.at("busy").get<uint64_t>(), sum[vc][1]) << routing << " " << vc;
      EXPECT_EQ(c.at("credit_stall").get<uint64_t>(), sum[vc][2]) << routing << " " << vc;
    }
    EXPECT_EQ(sum["priority"][0], 0u) << routing << ": traffic sends nothing at high priority";
    if (routing == "dor") {
      EXPECT_EQ(sum["dyn0"][0] + sum["dyn1"][0], 0u) << "dimension order uses the escape VC only";
      EXPECT_GT(sum["escape"][0], 1000u);
      EXPECT_GT(sum["escape"][2], 0u) << "at saturation packets wait for the escape VC's slots";
    } else {
      EXPECT_GT(sum["dyn0"][0] + sum["dyn1"][0], sum["escape"][0]) << "adaptive packets mostly take the dynamic VCs";
      EXPECT_GT(sum["dyn0"][2] + sum["dyn1"][2], 0u) << "at saturation packets wait for the dynamic VCs' credits";
    }
  }
}

// `run --sample-every`: the samples cover the whole run (the last one ends at its last
// cycle, a shorter period), and their tree flits are every flit the tree's wires carried;
// a tree collective leaves the torus idle. A negative period is refused by name.
TEST(CliRun, SamplesAddUpToTheTreesFlitsOverTheWholeRun) {
  const std::string json = kTmp + "/run_samples.json";
  const auto r = collnet({"run", "allreduce", "--torus", "2x2x2", "--count", "2048", "--sample-every", "100",
                          "--json", json});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("  samples    "), std::string::npos) << r.out;
  const nlohmann::json j = read_json(json);
  const nlohmann::json& s = j.at("samples");
  const auto& cycle = s.at("cycle");
  ASSERT_GT(cycle.size(), 3u);
  const uint64_t end = j.at("sim_cycles");
  EXPECT_EQ(cycle.back(), end);
  const double links = 2.0 * (8 - 1);
  double sampled = 0;
  uint64_t before = 0;
  for (size_t k = 0; k < cycle.size(); ++k) {
    const uint64_t at = cycle[k];
    ASSERT_GT(at, before);
    if (k > 0 && k + 1 < cycle.size()) EXPECT_EQ(at, before + 100) << "sample " << k;
    sampled += s.at("tree_utilisation")[k].get<double>() * links * static_cast<double>(at - before);
    EXPECT_LE(s.at("tree_utilisation")[k].get<double>(), s.at("tree_busiest")[k].get<double>() + 1e-12);
    EXPECT_EQ(s.at("torus_utilisation")[k].get<double>(), 0.0);
    before = at;
  }
  EXPECT_GT(j.at("link_flits").get<uint64_t>(), 1000u);
  EXPECT_NEAR(sampled, j.at("link_flits").get<double>(), 0.5);

  const auto bad = collnet({"run", "allreduce", "--torus", "2x1x1", "--sample-every", "-5"});
  EXPECT_EQ(bad.status, 2) << bad.out << bad.err;
  EXPECT_NE(bad.err.find("--sample-every: must be 0 (no samples) or a number of cycles, got -5"), std::string::npos)
      << bad.err;
}

TEST(CliTraffic, ASweepRunsEveryLoadAndItsJsonHoldsEachRun) {
  const std::string json = kTmp + "/traffic_sweep.json";
  const auto r = collnet({"traffic", "--torus", "2x2x2", "--cycles", "600", "--sweep", "0.2:0.8:0.3", "--json", json});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  const nlohmann::json j = read_json(json);
  ASSERT_EQ(j.at("points").size(), 3u);
  const double want[] = {0.2, 0.5, 0.8};
  for (size_t k = 0; k < 3; ++k) {
    const nlohmann::json& p = j.at("points")[k];
    // The offered load is measured: a Bernoulli process comes close to the rate asked for.
    EXPECT_NEAR(p.at("offered_flits_per_node_cycle").get<double>(), want[k], 0.08) << k;
    EXPECT_EQ(p.at("packets_lost"), 0);
    EXPECT_GT(p.at("packets_delivered").get<uint64_t>(), 0u);
    // Each row of the table is that run.
    char row[64];
    std::snprintf(row, sizeof row, "%10.4f", p.at("accepted_flits_per_node_cycle").get<double>());
    EXPECT_NE(r.out.find(row), std::string::npos) << row << "\n" << r.out;
  }
  EXPECT_LT(j.at("points")[0].at("avg_latency").get<double>(), j.at("points")[2].at("avg_latency").get<double>());
}

// ------------------------------------------------------------------ progress line
// A traffic run long enough for several redraws; COLLNET_PROGRESS=1 shows the line at once
// instead of after two seconds. The report on standard output is the same either way.
const std::vector<std::string> kProgressTraffic = {"traffic", "--torus", "2x2x2", "--cycles", "30000",
                                                   "--warmup", "0", "--seed", "3"};

TEST(CliProgress, ATerminalShowsTheCyclesABarAndTheTimeLeftThenTheLineIsErased) {
  const auto r = collnet(kProgressTraffic, {{"CI", "COLLNET_PROGRESS=1"}, true});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.err.find("\rtraffic ["), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("/30,000 cycles"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(" left"), std::string::npos) << r.err;
  ASSERT_GE(r.err.size(), 4u);
  EXPECT_EQ(r.err.substr(r.err.size() - 4), "\r\x1b[K") << "the last thing written erases the line";
  EXPECT_NE(r.out.find("packets    created"), std::string::npos) << r.out;

  const auto run = collnet({"run", "allreduce", "--torus", "2x2x2", "--count", "2048"},
                           {{"CI", "COLLNET_PROGRESS=1"}, true});
  ASSERT_EQ(run.status, 0) << run.out << run.err;
  EXPECT_NE(run.err.find("\rallreduce  "), std::string::npos) << run.err;
  EXPECT_NE(run.err.find(" cycles  "), std::string::npos) << run.err;
}

TEST(CliProgress, APipeOrCiGetsNothing) {
  const auto pipe = collnet(kProgressTraffic, {{"CI", "COLLNET_PROGRESS=1"}, false});
  ASSERT_EQ(pipe.status, 0) << pipe.out << pipe.err;
  EXPECT_EQ(pipe.err, "");
  const auto ci = collnet(kProgressTraffic, {{"CI=true", "COLLNET_PROGRESS=1"}, true});
  ASSERT_EQ(ci.status, 0) << ci.out << ci.err;
  EXPECT_EQ(ci.err, "");
  const auto off = collnet(kProgressTraffic, {{"CI", "COLLNET_PROGRESS=0"}, true});
  ASSERT_EQ(off.status, 0) << off.out << off.err;
  EXPECT_EQ(off.err, "");
}

// ------------------------------------------------------------------ machine files
// Every key but what measures the host (wall time, speed).
nlohmann::json without_host(nlohmann::json j) {
  for (const char* key : {"wall_seconds", "node_cycles_per_second", "sim_cycles_per_second", "cycles_per_second"})
    j.erase(key);
  return j;
}

// A machine file and the command-line options that say the same give the same run, cycle
// for cycle and field for field, for a collective on the tree, a barrier and torus traffic;
// and the timing is really applied (the run differs from the default machine's).
TEST(CliMachine, AFileAndTheEquivalentOptionsRunTheSameCycleForCycle) {
  const std::string file = kTmp + "/machine_test.json";
  {
    std::ofstream f(file);
    f << R"({"name": "test", "description": "every timing parameter away from its default",
             "clock_mhz": 500,
             "tree": {"latency": 9, "cycles_per_flit": 2.5},
             "torus": {"latency": {"x": 5, "y": 7, "z": 11}, "cycles_per_flit": 3},
             "barrier": {"latency": 13},
             "processor": {"access_cycles": 2},
             "sources": {"tree.latency": "made up for the test"}})";
  }
  const std::vector<std::string> options = {"--clock-mhz", "500", "--tree-latency", "9", "--tree-cycles-per-flit", "2.5",
                                            "--torus-latency", "5,7,11", "--torus-cycles-per-flit", "3",
                                            "--barrier-latency", "13", "--access-cycles", "2"};
  const std::string json = kTmp + "/machine_run.json";
  const std::vector<std::vector<std::string>> runs = {
      {"run", "allreduce", "--torus", "3x2x2", "--count", "200"},
      {"run", "barrier", "--torus", "3x2x2"},
      {"run", "alltoall", "--torus", "2x2x2", "--count", "16"},
      {"traffic", "--torus", "3x3x2", "--cycles", "2000", "--warmup", "200", "--rate", "0.05"}};
  for (const auto& base : runs) {
    std::vector<nlohmann::json> got;
    for (int way = 0; way < 3; ++way) {
      auto args = base;
      if (way == 0) args.insert(args.end(), {"--machine", file});
      if (way == 1) args.insert(args.end(), options.begin(), options.end());
      args.insert(args.end(), {"--json", json});
      const auto r = collnet(args);
      ASSERT_EQ(r.status, 0) << base[1] << ": " << r.out << r.err;
      got.push_back(without_host(read_json(json)));
    }
    EXPECT_EQ(got[0], got[1]) << base[1] << ": the file and the options differ";
    EXPECT_EQ(got[0].at("machine").at("torus").at("latency").at("z"), 11) << base[1];
    EXPECT_EQ(got[0].at("machine").at("tree").at("cycles_per_flit"), 2.5) << base[1];
    EXPECT_NE(got[0], got[2]) << base[1] << ": the machine file changed nothing";
    const char* key = base[0] == "traffic" ? "avg_latency" : "cycles";
    EXPECT_GT(got[0].at(key).get<double>(), got[2].at(key).get<double>()) << base[1] << ": slower links, more cycles";
  }
}

// `--machine default` is the machine with no options, and a preset's values are applied
// (bgl: the tree's serialisation bounds a long allreduce, a barrier takes the barrier
// wires' latency), with its shape unless --torus says otherwise.
TEST(CliMachine, PresetsApplyAndTheDefaultIsTheMachineWithoutOptions) {
  const std::string json = kTmp + "/machine_preset.json";
  std::vector<nlohmann::json> got;
  for (bool preset : {false, true}) {
    std::vector<std::string> args = {"run", "allreduce", "--torus", "2x2x2", "--count", "100", "--json", json};
    if (preset) args.insert(args.end(), {"--machine", "default"});
    const auto r = collnet(args);
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    got.push_back(without_host(read_json(json)));
  }
  EXPECT_EQ(got[0], got[1]);

  const auto list = collnet({"machines"});
  ASSERT_EQ(list.status, 0) << list.err;
  EXPECT_NE(list.out.find("bgl"), std::string::npos) << list.out;
  const auto show = collnet({"machines", "--show", "bgl"});
  ASSERT_EQ(show.status, 0) << show.err;
  const auto bgl = nlohmann::json::parse(show.out);
  EXPECT_EQ(bgl.at("shape"), "64x32x32");
  EXPECT_EQ(bgl.at("tree").at("cycles_per_flit"), 16);

  // 4096 u64 on 2x2x1 is 128 packets of 33 flits through the root's links: at 16 cycles a
  // flit, at least 128 * 33 * 16 cycles.
  const auto r = collnet({"run", "allreduce", "--machine", "bgl", "--torus", "2x2x1", "--count", "4096", "--json", json,
                          "--idle-skip", "check"});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  auto j = read_json(json);
  EXPECT_EQ(j.at("torus"), "2x2x1") << "--torus wins over the preset's shape";
  EXPECT_GE(j.at("cycles").get<uint64_t>(), 128u * 33 * 16);
  EXPECT_LE(j.at("cycles").get<uint64_t>(), 128u * 33 * 16 * 11 / 10);
  // compare runs every algorithm on the preset's timing too.
  const auto c = collnet({"compare", "allreduce", "--machine", "bgl", "--torus", "2x1x1", "--sizes", "8",
                          "--algorithms", "tree", "--json", json});
  ASSERT_EQ(c.status, 0) << c.out << c.err;
  EXPECT_EQ(read_json(json).at("machine").at("torus").at("cycles_per_flit"), 32);
  const auto b = collnet({"run", "barrier", "--machine", "bgl", "--torus", "2x2x1", "--json", json});
  ASSERT_EQ(b.status, 0) << b.out << b.err;
  j = read_json(json);
  EXPECT_GE(j.at("cycles").get<uint64_t>(), 2u * bgl.at("barrier").at("latency").get<uint64_t>())
      << "a barrier's bits cross at least one barrier wire each way";
}

// The bgl preset's torus has Blue Gene/L's six normal reception FIFOs of 1 KB (a model
// library, built once in the tests' cache): on 2x2x2 every node's packets arrive on all six
// links, so all six FIFOs fill, and the driver (an alltoall, point-to-point), the MPI-style
// collectives on the torus and the traffic agent drain every one of them. The software is
// the default machine's: it learns the FIFOs from the status registers.
TEST(CliMachine, TheBglPresetsSixReceptionFifosAreAllDrained) {
  const std::string json = kTmp + "/machine_bgl_fifos.json";
  const auto show = collnet({"machines", "--show", "bgl"});
  ASSERT_EQ(show.status, 0) << show.err;
  EXPECT_EQ(nlohmann::json::parse(show.out).at("rtl").at("torus").at("reception_fifos"), 6);
  for (const std::vector<std::string>& run :
       {std::vector<std::string>{"run", "alltoall", "--count", "512"},
        std::vector<std::string>{"run", "allreduce", "--algorithm", "torus-ring", "--count", "4096"},
        std::vector<std::string>{"run", "pingpong", "--ranks", "0,7", "--sizes", "0,64k"}}) {
    std::vector<std::string> args = run;
    args.insert(args.end(), {"--machine", "bgl", "--torus", "2x2x2", "--json", json});
    const auto r = collnet(args);
    ASSERT_EQ(r.status, 0) << run[1] << ": " << r.out << r.err;
    const auto j = read_json(json);
    EXPECT_EQ(j.at("machine").at("rtl").at("torus").at("reception_fifos"), 6) << run[1];
    EXPECT_EQ(j.at("machine").at("rtl").at("torus").at("reception_fifo_flits"), 128) << run[1];
    EXPECT_TRUE(j.at("verified").get<bool>()) << run[1];
  }
  const auto t = collnet({"traffic", "--machine", "bgl", "--torus", "2x2x2", "--rate", "0.3", "--cycles", "3000",
                          "--json", json});
  ASSERT_EQ(t.status, 0) << t.out << t.err;
  const auto j = read_json(json);
  EXPECT_GT(j.at("packets_delivered").get<uint64_t>(), 100u) << j.dump();
  EXPECT_EQ(j.at("packets_corrupted").get<uint64_t>(), 0u) << j.dump();
  EXPECT_EQ(j.at("packets_lost").get<uint64_t>(), 0u) << j.dump();
  EXPECT_EQ(j.at("packets_duplicated").get<uint64_t>(), 0u) << j.dump();
}

// Each torus dimension has its own latency: a message to the x neighbour and one to the z
// neighbour differ by exactly the difference of their links' latencies, each way.
TEST(CliMachine, EachTorusDimensionTakesItsOwnLatency) {
  const std::string json = kTmp + "/machine_dims.json";
  std::vector<double> one_way;
  for (const char* peer : {"0,1", "0,16"}) {  // node 1 is x+ of node 0 on 4x4x4, node 16 is z+
    const auto r = collnet({"run", "pingpong", "--torus", "4x4x4", "--ranks", peer, "--sizes", "0,256",
                            "--torus-latency", "5,9,20", "--json", json});
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    const auto j = read_json(json);
    ASSERT_EQ(j.at("hops"), 1);
    one_way.push_back(j.at("sizes").at(0).at("cycles_one_way").get<double>());
  }
  EXPECT_EQ(one_way[1] - one_way[0], 20 - 5);
}

// A machine file with something wrong is refused before anything runs, naming the file
// and the key.
TEST(CliMachine, ABadMachineFileIsRefusedNamingTheKey) {
  const std::string file = kTmp + "/machine_bad.json";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"tree": {"latency": 4, "bandwidth": 3}})", "'tree.bandwidth' is not a key of the format"},
      {R"({"torus": {"latency": {"x": 4, "w": 4}}})", "'torus.latency.w' is not a key"},
      {R"({"tree": {"latency": "fast"}})", "'tree.latency' must be a whole number"},
      {R"({"tree": {"latency": 2.5}})", "'tree.latency' must be a whole number"},
      {R"({"torus": {"latency": 61}})", "'torus.latency' must be 1..60"},
      {R"({"barrier": {"latency": 0}})", "'barrier.latency' must be 1..1000"},
      {R"({"tree": {"cycles_per_flit": 0.5}})", "tree link rate"},
      {R"({"shape": "4x4"})", "'shape'"},
      {R"({"clock_mhz": -1})", "'clock_mhz' must be positive"},
      {R"({"processor": {"instructions_per_cycle": 0}})", "processor instructions per cycle 0.000000 must be above 0"},
      {R"({"processor": {"instructions_per_cycle": "fast"}})", "'processor.instructions_per_cycle'"},
      {R"({"tree": 4)", "is not valid JSON"},
      {R"([1, 2])", "must be an object"}};
  for (const auto& [text, names] : cases) {
    {
      std::ofstream f(file);
      f << text;
    }
    const auto r = collnet({"run", "allreduce", "--torus", "2x1x1", "--machine", file});
    EXPECT_EQ(r.status, 2) << text << ": " << r.out << r.err;
    EXPECT_NE(r.err.find(names), std::string::npos) << text << ": " << r.err;
    EXPECT_NE(r.err.find(file), std::string::npos) << text << ": " << r.err;
  }
}

// ------------------------------------------------------------------ bad usage
struct UsageCase {
  std::vector<std::string> args;
  std::string names;  // the message must contain this
};

std::string usage_case_name(const ::testing::TestParamInfo<UsageCase>& p) {
  std::string n = "case" + std::to_string(p.index);
  for (const auto& a : p.param.args)
    for (char ch : a) n += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
  return n;
}

class CliUsage : public ::testing::TestWithParam<UsageCase> {};

TEST_P(CliUsage, ExitsTwoNamingTheBadArgument) {
  const UsageCase c = GetParam();
  const auto r = collnet(c.args);
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_NE(r.err.find(c.names), std::string::npos) << "stderr: " << r.err;
}

INSTANTIATE_TEST_SUITE_P(
    BadArguments, CliUsage,
    ::testing::Values(UsageCase{{"run", "allreduce", "--torus", "0x1x1"}, "--torus"},
                      UsageCase{{"run", "allreduce", "--torus", "0x1x1"}, "0x1x1"},
                      UsageCase{{"run", "allreduce", "--torus", "4x4"}, "--torus"},
                      UsageCase{{"run", "allreduce", "--op", "bogus"}, "--op"},
                      UsageCase{{"run", "allreduce", "--op", "bogus"}, "bogus"},
                      UsageCase{{"run", "allreduce", "--count", "-1"}, "--count"},
                      UsageCase{{"run", "allreduce", "--count", "0"}, "--count"},
                      UsageCase{{"run", "allreduce", "--count", "many"}, "--count"},
                      UsageCase{{"run", "allreduce", "--type", "f128"}, "--type"},
                      UsageCase{{"run", "allreduce", "--torus", "2x2x1", "--ranks", "1,9"}, "--ranks"},
                      UsageCase{{"run", "allreduce", "--torus", "2x2x1", "--ranks", "1,1"}, "listed twice"},
                      UsageCase{{"run", "allreduce", "--torus", "2x2x1", "--ranks", "1,,2"}, "--ranks"},
                      UsageCase{{"run", "bcast", "--torus", "2x2x1", "--ranks", "1,2", "--root", "2"}, "--root"},
                      UsageCase{{"run", "allreduce", "--torus", "64x64x64"}, "at most 65536"},
                      UsageCase{{"run", "allreduce", "--torus", "8x8x8", "--count", "1000000"}, "--count"},
                      UsageCase{{"run", "allreduce", "--link-latency", "0"}, "--link-latency"},
                      UsageCase{{"run", "bcast", "--torus", "2x1x1", "--root", "2"}, "--root"},
                      UsageCase{{"run", "allreduce", "--trace", "out.vcd"}, "--trace"},
                      UsageCase{{"run", "reduce_everything"}, "reduce_everything"},
                      UsageCase{{"run", "allreduce", "--frobnicate"}, "--frobnicate"},
                      UsageCase{{"run", "allreduce", "--type", "f64", "--op", "band"}, "band cannot reduce f64"},
                      UsageCase{{"run", "allreduce", "--tasks", "0"}, "--tasks"},
                      UsageCase{{"run", "gather", "--torus", "2x1x1", "--tasks", "2", "--root", "4"}, "--root"},
                      UsageCase{{"run", "allreduce", "--input", "/nonexistent/in.json"}, "--input"},
                      UsageCase{{"run", "allreduce", "--idle-skip", "sometimes"}, "--idle-skip"},
                      UsageCase{{"traffic", "--torus", "2x2x2", "--idle-skip", "never"}, "never"},
                      UsageCase{{"traffic", "--torus", "2x2x2", "--threads", "0"}, "--threads"},
                      UsageCase{{"traffic", "--torus", "2x2x2", "--sweep", "0.5"}, "'0.5' is not FROM:TO:STEP"},
                      UsageCase{{"traffic", "--torus", "2x2x2", "--sweep", "0.1:1.5:0.1"}, "at most 1"},
                      UsageCase{{"traffic", "--torus", "2x2x2", "--sweep", "0.1:0.9:0"}, "STEP must be more than 0"},
                      UsageCase{{"traffic", "--torus", "2x2x2", "--sweep", "0.1:x:0.1"}, "'x' in '0.1:x:0.1' is not a number"},
                      UsageCase{{"traffic", "--torus", "2x2x2", "--sweep", "0.001:1:0.001"}, "at most 100"},
                      UsageCase{{"traffic", "--torus", "2x2x2", "--sweep", "0.1:1:0.1", "--rate", "0.3"}, "excludes"},
                      UsageCase{{"traffic", "--torus", "2x2x2", "--sweep", "0.1:1:0.1", "--trace", "t.fst"},
                                "--sweep and --trace"},
                      UsageCase{{"traffic", "--torus", "2x2x2", "--sample-every", "-5"}, "--sample-every"},
                      UsageCase{{"traffic", "--torus", "2x2x2", "--trace-nodes", "1"}, "add --trace FILE.fst"},
                      UsageCase{{"traffic", "--torus", "2x2x2", "--trace", "t.fst", "--trace-nodes", "8"},
                                "--trace-nodes: node 8 is not on a machine of 8 nodes"},
                      UsageCase{{"run", "allreduce", "--torus", "2x2x2", "--trace", "t.fst", "--trace-nodes", "1,1"},
                                "--trace-nodes: node 1 is listed twice"},
                      UsageCase{{"traffic", "--torus", "2x2x2", "--engine", "flat", "--trace", "t.fst",
                                 "--trace-nodes", "1"},
                                "trace nodes and the flat engine"},
                      UsageCase{{"traffic", "--torus", "2x2x2", "--sample-every", "100", "--engine", "flat"},
                                "sampling and the flat engine"},
                      UsageCase{{"traffic", "--torus", "2x2x2", "--down-nodes", "1,1"}, "node 1 is listed twice"},
                      UsageCase{{"traffic", "--torus", "2x2x2", "--down-nodes", "9"}, "node 9 is not on a machine of 8 nodes"},
                      UsageCase{{"traffic", "--torus", "2x2x2", "--down-links", "3:x+,z:y-"}, "'z' in '3:x+,z:y-' is not a node"},
                      UsageCase{{"traffic", "--torus", "2x2x2", "--threads", "2", "--engine", "flat"},
                                "threads 2 and the flat engine"},
                      UsageCase{{"traffic", "--torus", "2x2x2", "--threads", "2", "--lockstep"}, "threads 2 and lockstep"},
                      UsageCase{{"traffic", "--torus", "2x2x2", "--threads", "2", "--trace", "t.fst"},
                                "threads 2 and a trace"},
                      UsageCase{{"traffic", "--torus", "2x2x2", "--lockstep", "--engine", "flat"},
                                "lockstep and the flat engine"},
                      UsageCase{{"run", "bcast", "--algorithm", "torus-ring"}, "torus-ring does not apply to bcast"},
                      UsageCase{{"run", "allreduce", "--algorithm", "fastest"}, "unknown algorithm 'fastest'"},
                      UsageCase{{"run", "alltoallv", "--algorithm", "torus-bruck"}, "alltoallv has one algorithm"},
                      UsageCase{{"run", "allgather", "--piece-bytes", "0"}, "--piece-bytes"},
                      UsageCase{{"run", "allgather", "--order", "sorted"}, "--order"},
                      UsageCase{{"compare", "alltoallv"}, "'alltoallv' is not a collective"},
                      UsageCase{{"compare", "allreduce", "--algorithms", "tree,torus-bruck"}, "'torus-bruck'"},
                      UsageCase{{"compare", "allreduce", "--sizes", "8,lots"}, "lots"},
                      UsageCase{{"compare", "allreduce", "--prune", "0.5"}, "compare: --prune must be 0 (off) or a factor"},
                      UsageCase{{"tune", "--prune", "-1", "--output", "t.json"}, "tune: --prune must be 0 (off)"},
                      UsageCase{{"tune", "--collectives", "allreduce,fft", "--output", "t.json"},
                                "tune: --collectives: 'fft' is not a collective"},
                      UsageCase{{"run", "allreduce", "--machine", "nosuch"}, "neither a preset (bgl, default)"},
                      UsageCase{{"mpirun", "-n", "2", "--compute-scale", "fast", "--", "prog"},
                                "--compute-scale fast is neither auto nor a number >= 0"},
                      UsageCase{{"mpirun", "-n", "2", "--compute-scale", "-1", "--", "prog"},
                                "--compute-scale -1 is neither auto nor a number >= 0"},
                      UsageCase{{"run", "allreduce", "--tree-latency", "61"}, "--tree-latency: must be 1..60"},
                      UsageCase{{"run", "allreduce", "--torus-latency", "4,5"}, "--torus-latency: give one latency or three"},
                      UsageCase{{"run", "allreduce", "--torus-latency", "4,x,4"}, "--torus-latency"},
                      UsageCase{{"run", "allreduce", "--barrier-latency", "0"}, "--barrier-latency"},
                      UsageCase{{"run", "allreduce", "--tree-cycles-per-flit", "0.5"}, "--tree-cycles-per-flit: must be 1..64"},
                      UsageCase{{"run", "allreduce", "--torus-cycles-per-flit", "1.3"}, "not a multiple of 1/256"},
                      UsageCase{{"traffic", "--torus-latency", "99"}, "--torus-latency"},
                      UsageCase{{"traffic", "--torus", "2x2x2", "--engine", "flat", "--tree-latency", "5"},
                                "the flat engine models one latency for every link"},
                      UsageCase{{"traffic", "--torus", "2x2x2", "--engine", "flat", "--rtl", "torus.vc_buffer_flits=40"},
                                "the flat engine's nd_node has the default sizes only"},
                      UsageCase{{"run", "allreduce", "--rtl", "torus.vc_buffer_flits"}, "--rtl: 'torus.vc_buffer_flits' is not KEY=VALUE"},
                      UsageCase{{"traffic", "--rtl", "tree.retransmission_flits=96"}, "a power of two"},
                      UsageCase{{"mpirun", "-n", "2", "--rtl", "tree.fifo=3", "--", "prog"}, "'tree.fifo' is not a size of the node"},
                      UsageCase{{"mpirun", "-np", "2"}, "mpirun: name the program to run"},
                      UsageCase{{"mpirun", "-n", "2", "--bogus", "prog"}, "--bogus is not an option of mpirun"},
                      UsageCase{{"mpirun", "-np", "0", "prog"}, "-n must be at least 1, got 0"},
                      UsageCase{{"mpirun", "-np", "2", "-x", "COLLNET_SURELY_UNSET_VARIABLE", "prog"},
                                "COLLNET_SURELY_UNSET_VARIABLE is not set here"},
                      UsageCase{{"mpirun", "-np", "2", "-x", "=3", "prog"}, "-x =3: not NAME or NAME=VALUE"},
                      UsageCase{{}, "subcommand"}),
    usage_case_name);

// A flat model Verilated hierarchically (the default build) cannot trace, and says so; one
// Verilated whole (COLLNET_FLAT_HIERARCHICAL=OFF) traces.
TEST(CliTrace, TheFlatEngineTracesExactlyWhenItsModelIsNotHierarchical) {
  const std::string fst = kTmp + "/flat_trace.fst";
  std::remove(fst.c_str());
  const auto r = collnet({"traffic", "--torus", "2x2x2", "--cycles", "10", "--engine", "flat", "--trace", fst});
  if (COLLNET_FLAT_HIERARCHICAL) {
    EXPECT_EQ(r.status, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("hierarchically"), std::string::npos) << "stderr: " << r.err;
    EXPECT_FALSE(std::ifstream(fst).good()) << "a refused run wrote a trace";
  } else {
    EXPECT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_TRUE(std::ifstream(fst).good()) << "no trace written";
  }
}

// ------------------------------------------------------------------ traces
TEST(CliTrace, WritesAnFstThatFst2vcdReadsWithEveryNodesAluAndLinks) {
  const std::string fst = kTmp + "/trace_test.fst";
  const std::string gtkw = kTmp + "/trace_test.gtkw";
  std::remove(fst.c_str());
  std::remove(gtkw.c_str());
  const auto r = collnet({"run", "allreduce", "--torus", "2x2x1", "--count", "40", "--trace", fst});
  ASSERT_EQ(r.status, 0) << r.err;

  const auto vcd = run_command({"/usr/bin/fst2vcd", fst});
  ASSERT_EQ(vcd.status, 0) << "fst2vcd could not read " << fst << ": " << vcd.err;
  for (int n = 0; n < 4; ++n) {
    const std::string node = "$scope module node" + std::to_string(n) + " $end";
    EXPECT_NE(vcd.out.find(node), std::string::npos) << "no scope for node " << n;
  }
  for (const char* sig : {"tree0_out_data_o", "tree1_in_valid_i", "tree2_out_credit_i", "alu_result_o", "alu_opcode_o",
                          "gi0_out_o", "gi2_in_i"})
    EXPECT_NE(vcd.out.find(sig), std::string::npos) << "signal " << sig << " missing";

  std::ifstream g(gtkw);
  ASSERT_TRUE(g) << "no .gtkw beside the FST";
  std::stringstream ss;
  ss << g.rdbuf();
  EXPECT_NE(ss.str().find("[dumpfile] \"trace_test.fst\""), std::string::npos)
      << "the view names the FST beside itself";
  EXPECT_NE(ss.str().find("node3.nd_tree_net.tree0_out_valid_o"), std::string::npos);
}

TEST(CliTrace, TraceNodesKeepsOnlyTheNodesAskedFor) {
  const std::string fst = kTmp + "/trace_nodes.fst";
  const auto r = collnet({"run", "allreduce", "--torus", "2x2x1", "--count", "40", "--trace", fst,
                          "--trace-nodes", "3,0"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto vcd = run_command({"/usr/bin/fst2vcd", fst});
  ASSERT_EQ(vcd.status, 0) << vcd.err;
  for (int n = 0; n < 4; ++n) {
    const bool kept = n == 0 || n == 3;
    EXPECT_EQ(vcd.out.find("$scope module node" + std::to_string(n) + " $end") != std::string::npos, kept) << n;
  }
  std::ifstream g(kTmp + "/trace_nodes.gtkw");
  std::stringstream ss;
  ss << g.rdbuf();
  EXPECT_LT(ss.str().find("-node3 tree"), ss.str().find("-node0 tree")) << "in the order asked for";
  EXPECT_EQ(ss.str().find("node1."), std::string::npos);

  const auto t = collnet({"traffic", "--torus", "2x2x1", "--cycles", "50", "--trace", kTmp + "/trace_nodes_t.fst",
                          "--trace-nodes", "1"});
  ASSERT_EQ(t.status, 0) << t.err;
  const auto tv = run_command({"/usr/bin/fst2vcd", kTmp + "/trace_nodes_t.fst"});
  EXPECT_NE(tv.out.find("$scope module node1 $end"), std::string::npos);
  EXPECT_EQ(tv.out.find("$scope module node0 $end"), std::string::npos);
}

}  // namespace
}  // namespace collnet
