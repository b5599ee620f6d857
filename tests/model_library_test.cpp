// SPDX-License-Identifier: Apache-2.0
// Node models for other sizes (systemc/model_library.hpp), as a user meets them: --rtl and a
// machine file's "rtl" build a model library once into $COLLNET_MODEL_CACHE, later runs
// load it, a broken entry is built again, and a size the RTL refuses is refused before
// anything is built; collnet sweep runs a workload over such variants. The libraries are built with COLLNET_MODEL_OPT_FAST=-O0, which
// compiles in a fraction of the time and simulates the same cycles.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/support/collnet_cli.hpp"

namespace collnet::test {
namespace {

namespace fs = std::filesystem;

// Each test has a cache of its own: ctest may run them at once.
const std::string kCache = std::string(COLLNET_TEST_TMP) + "/model-cache-library";
const std::string kSweepCache = std::string(COLLNET_TEST_TMP) + "/model-cache-sweep";

CommandResult run_with(const std::vector<std::string>& extra, const std::string& json) {
  std::vector<std::string> args{"run", "allreduce", "--torus", "2x2x2", "--count", "4096", "--json", json};
  args.insert(args.end(), extra.begin(), extra.end());
  return collnet(args, {{"COLLNET_MODEL_CACHE=" + kCache, "COLLNET_MODEL_OPT_FAST=-O0"}});
}

bool built(const CommandResult& r) { return r.err.find("building node models") != std::string::npos; }

// The one entry the cache holds.
fs::path entry() {
  fs::path found;
  for (const auto& e : fs::directory_iterator(kCache)) found = e.path();
  return found;
}

TEST(ModelLibrary, BuildsOnceLoadsAfterAndRebuildsWhatIsBroken) {
  fs::remove_all(kCache);
  const std::string dir = std::string(COLLNET_TEST_TMP) + "/model-library-";
  const CommandResult plain = run_with({}, dir + "plain.json");
  ASSERT_EQ(plain.status, 0) << plain.err;
  EXPECT_FALSE(built(plain)) << "the default sizes need no build";
  EXPECT_FALSE(fs::exists(kCache)) << "the default sizes touched the cache";
  const uint64_t default_cycles = read_json(dir + "plain.json")["cycles"];

  // One link buffer per VC: a sender waits a credit's round trip for every packet.
  const CommandResult first = run_with({"--rtl", "tree.link_buffer_packets=1"}, dir + "first.json");
  ASSERT_EQ(first.status, 0) << first.err;
  EXPECT_TRUE(built(first)) << first.err;
  const nlohmann::json j = read_json(dir + "first.json");
  EXPECT_TRUE(j["verified"].get<bool>());
  EXPECT_EQ(j["machine"]["rtl"]["tree"]["link_buffer_packets"], 1);
  const uint64_t cycles = j["cycles"];
  EXPECT_GT(cycles, default_cycles + default_cycles / 10) << "the variant ran the default's models";

  const CommandResult again = run_with({"--rtl", "tree.link_buffer_packets=1"}, dir + "again.json");
  ASSERT_EQ(again.status, 0) << again.err;
  EXPECT_FALSE(built(again)) << "the second run built again: " << again.err;
  EXPECT_EQ(read_json(dir + "again.json")["cycles"], cycles);

  // The same sizes from a machine file are the same entry.
  const std::string file = dir + "machine.json";
  std::ofstream(file) << R"({"rtl": {"tree": {"link_buffer_packets": 1}}})";
  const CommandResult from_file = run_with({"--machine", file}, dir + "file.json");
  ASSERT_EQ(from_file.status, 0) << from_file.err;
  EXPECT_FALSE(built(from_file)) << from_file.err;
  EXPECT_EQ(read_json(dir + "file.json")["cycles"], cycles);

  // A deleted library, and a manifest of something else, are built again, never loaded.
  const fs::path e = entry();
  fs::remove(e / "libcollnet_node_models.so");
  const CommandResult deleted = run_with({"--rtl", "tree.link_buffer_packets=1"}, dir + "deleted.json");
  ASSERT_EQ(deleted.status, 0) << deleted.err;
  EXPECT_TRUE(built(deleted)) << deleted.err;
  EXPECT_EQ(read_json(dir + "deleted.json")["cycles"], cycles);
  std::ofstream(e / "manifest.txt", std::ios::app) << "size tree.link_buffer_packets 2\n";
  const CommandResult stale = run_with({"--rtl", "tree.link_buffer_packets=1"}, dir + "stale.json");
  ASSERT_EQ(stale.status, 0) << stale.err;
  EXPECT_NE(stale.err.find("was built from something else"), std::string::npos) << stale.err;
  EXPECT_EQ(read_json(dir + "stale.json")["cycles"], cycles);
}

TEST(ModelLibrary, RefusesASizeTheRtlRefusesBeforeBuilding) {
  const std::string cache = std::string(COLLNET_TEST_TMP) + "/model-cache-refused";
  fs::remove_all(cache);
  const CommandResult r = collnet({"run", "allreduce", "--torus", "2x2x2", "--rtl", "torus.vc_buffer_flits=20"},
                                  {{"COLLNET_MODEL_CACHE=" + cache}});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("--rtl: torus.vc_buffer_flits (nd_torus_net.DynFlits) must be 33..255 (a whole packet"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(built(r));
  EXPECT_FALSE(fs::exists(cache));
}

// The number of user class routes is the hardware's, and the driver reads it: with none, a
// subset communicator gets no class and runs its allreduce on the torus (verified), where the
// default machine gives it class 1 and the tree.
TEST(ModelLibrary, ACommunicatorGetsAClassRouteOnlyIfTheAdapterHasOne) {
  const std::string cache = std::string(COLLNET_TEST_TMP) + "/model-cache-classes";
  const std::string dir = std::string(COLLNET_TEST_TMP) + "/model-library-classes-";
  const std::vector<std::string> args{"run", "allreduce", "--torus", "2x2x2", "--ranks", "0,1,2,3", "--count", "64"};
  const CommandSetup env{{"COLLNET_MODEL_CACHE=" + cache, "COLLNET_MODEL_OPT_FAST=-O0"}};
  std::vector<std::string> plain = args, none = args;
  plain.insert(plain.end(), {"--json", dir + "plain.json"});
  none.insert(none.end(), {"--rtl", "tree.class_routes=0", "--json", dir + "none.json"});
  const CommandResult p = collnet(plain, env), n = collnet(none, env);
  ASSERT_EQ(p.status, 0) << p.err;
  ASSERT_EQ(n.status, 0) << n.err;
  const nlohmann::json jp = read_json(dir + "plain.json"), jn = read_json(dir + "none.json");
  EXPECT_EQ(jp["class_route"], 1);
  EXPECT_EQ(jp["algorithm"], "tree");
  EXPECT_TRUE(jn["class_route"].is_null()) << jn.dump();
  EXPECT_NE(jn["algorithm"].get<std::string>().find("torus"), std::string::npos) << jn["algorithm"];
  EXPECT_TRUE(jn["verified"].get<bool>());
  EXPECT_EQ(jn["machine"]["rtl"]["tree"]["class_routes"], 0);
}

// collnet sweep over two variants of the tree's link buffers: a smoke set passed by each
// (the router's and the adapter's testbenches built at its sizes, then the machine runs),
// one row each, the JSON with every variant's sizes and result, and the plot. Then a
// variant whose adapter testbench fails gets no numbers.
TEST(Sweep, RunsTheWorkloadOnEveryVariantAfterItsSmokeSet) {
  const std::string json = std::string(COLLNET_TEST_TMP) + "/sweep.json";
  const std::string svg = std::string(COLLNET_TEST_TMP) + "/sweep.svg";
  fs::remove(json);
  fs::remove(svg);
  const CommandResult r = collnet({"sweep", "--rtl", "tree.link_buffer_packets=1,4", "--json", json, "--plot", svg, "--",
                                   "run", "allreduce", "--torus", "2x2x2", "--count", "4096"},
                                  {{"COLLNET_MODEL_CACHE=" + kSweepCache, "COLLNET_MODEL_OPT_FAST=-O0"}});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("| tree.link_buffer_packets=1 | passed | "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("| tree.link_buffer_packets=4 | passed | "), std::string::npos) << r.out;
  const nlohmann::json j = read_json(json);
  ASSERT_EQ(j["variants"].size(), 2u);
  for (const auto& v : j["variants"]) {
    EXPECT_TRUE(v["smoke_passed"].get<bool>()) << v.dump();
    ASSERT_EQ(v["smoke"].size(), 7u);
    for (const auto& run : v["smoke"]) EXPECT_TRUE(run["verified"].get<bool>()) << run.dump();
    EXPECT_TRUE(v["result"]["verified"].get<bool>());
  }
  // The block testbenches, each at the variant's sizes of its block, and every test ran.
  const auto& adapter = j["variants"][0]["smoke"][1];
  EXPECT_NE(adapter["run"].get<std::string>().find("tb_cn_adapter (cn_adapter at LinkPackets=1 "), std::string::npos)
      << adapter.dump();
  EXPECT_GE(adapter["tests"].get<unsigned>(), 20u);
  EXPECT_EQ(adapter["failures"].get<unsigned>(), 0u);
  EXPECT_NE(j["variants"][1]["smoke"][1]["run"].get<std::string>().find("at LinkPackets=4 "), std::string::npos);
  const auto& router = j["variants"][0]["smoke"][0];
  EXPECT_NE(router["run"].get<std::string>().find("tb_tr_router (tr_router at DynFlits=64 "), std::string::npos)
      << router.dump();
  EXPECT_EQ(router["executable"], j["variants"][1]["smoke"][0]["executable"])
      << "both variants have the default torus: one router bench";
  EXPECT_NE(adapter["executable"], j["variants"][1]["smoke"][1]["executable"]);
  EXPECT_EQ(j["variants"][0]["rtl"]["tree"]["link_buffer_packets"], 1);
  EXPECT_EQ(j["variants"][1]["rtl"]["tree"]["link_buffer_packets"], 4);
  EXPECT_GT(j["variants"][0]["result"]["cycles"].get<uint64_t>(), j["variants"][1]["result"]["cycles"].get<uint64_t>());
  EXPECT_TRUE(fs::exists(svg) && fs::file_size(svg) > 1000) << "no plot";

  // The adapter's bench of the first variant, made to fail (its cache entry is removed
  // afterwards, so the next run builds it afresh).
  const fs::path bench = adapter["executable"].get<std::string>();
  {
    std::ofstream f(bench, std::ios::trunc);
    f << "#!/bin/sh\necho '[  FAILED  ] CnAdapterLeaf.Made to fail'\nexit 1\n";
  }
  const CommandResult failed =
      collnet({"sweep", "--rtl", "tree.link_buffer_packets=1", "--json", json, "--", "run", "allreduce", "--torus", "2x2x2"},
              {{"COLLNET_MODEL_CACHE=" + kSweepCache, "COLLNET_MODEL_OPT_FAST=-O0"}});
  fs::remove_all(bench.parent_path());
  EXPECT_EQ(failed.status, 1) << failed.err;
  EXPECT_NE(failed.err.find("tb_cn_adapter failed 0 of 0 tests (exit status 1)"), std::string::npos) << failed.err;
  EXPECT_NE(failed.err.find("failed its smoke set: no numbers for it"), std::string::npos) << failed.err;
  EXPECT_NE(failed.out.find("| tree.link_buffer_packets=1 | FAILED | — |"), std::string::npos) << failed.out;
  const nlohmann::json jf = read_json(json);
  EXPECT_FALSE(jf["variants"][0]["smoke_passed"].get<bool>());
  EXPECT_FALSE(jf["variants"][0]["smoke"][1]["verified"].get<bool>());
  EXPECT_FALSE(jf["variants"][0].contains("result")) << "a variant that failed its smoke set has no result";
}

TEST(Sweep, RefusesWhatItCannotRunBeforeRunningAnything) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"sweep", "--rtl", "torus.vc_buffer_flits=40,20", "--", "traffic"}, "torus.vc_buffer_flits (nd_torus_net.DynFlits) must be 33..255"},
      {{"sweep", "--rtl", "torus.vc_buffer_flits=40", "--", "compare", "allreduce"}, "not 'compare'"},
      {{"sweep", "--rtl", "torus.vc_buffer_flits=40", "--", "run", "allreduce", "--json", "x.json"},
       "the workload's --json is the sweep's to give"},
      {{"sweep", "--rtl", "torus.vc_buffer_flits=40", "--rtl", "torus.vc_buffer_flits=48", "--", "traffic"},
       "swept twice"},
      {{"sweep", "--", "traffic"}, "give --rtl lists or --machines"},
      {{"sweep", "--machines", "nosuch.json", "--", "traffic"}, "--machines: "},
  };
  for (const auto& [args, why] : cases) {
    const CommandResult r = collnet(args, {{"COLLNET_MODEL_CACHE=" + std::string(COLLNET_TEST_TMP) + "/no-cache"}});
    EXPECT_EQ(r.status, 2) << args[2] << ": " << r.err;
    EXPECT_NE(r.err.find(why), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(std::string(COLLNET_TEST_TMP) + "/no-cache")) << "a refused sweep built something";
  }
}

}  // namespace
}  // namespace collnet::test
