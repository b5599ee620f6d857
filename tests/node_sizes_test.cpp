// SPDX-License-Identifier: Apache-2.0
// The node's sizes (systemc/node_sizes.hpp) against the catalogue they come from
// (firmware/rtl_sizes.hpp), and a machine file's "rtl" section (cli/machine_file.hpp).
// Whether the RTL itself enforces the same limits is the RtlSizes tests' (tb/CMakeLists.txt).
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "cli/machine_file.hpp"
#include "firmware/rtl_sizes.hpp"
#include "systemc/node_sizes.hpp"

namespace collnet::sim {
namespace {

using fw::regmap::kSizes;

// The message `fn` throws std::invalid_argument with ("" if it does not).
template <class Fn>
std::string refusal(Fn&& fn) {
  try {
    fn();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(NodeSizes, StartAtTheCataloguesDefaults) {
  const NodeSizes s;
  EXPECT_TRUE(s.is_default());
  EXPECT_EQ(s.changed(), "");
  for (std::size_t i = 0; i < NodeSizes::kCount; ++i) EXPECT_EQ(s.value(i), kSizes[i].def) << kSizes[i].key;
  EXPECT_EQ(s.get("torus.vc_buffer_flits"), 64u);
}

TEST(NodeSizes, TakeEveryBoundAndRefuseAStepBeyond) {
  for (const auto& p : kSizes) {
    NodeSizes s;
    s.set(p.key, p.min);
    EXPECT_EQ(s.get(p.key), p.min) << p.key;
    s.set(p.key, p.max);
    EXPECT_EQ(s.get(p.key), p.max) << p.key;
    EXPECT_EQ(s.is_default(), p.max == p.def) << p.key;
    const long long below = p.power_of_two ? p.min / 2 : static_cast<long long>(p.min) - p.multiple_of;
    for (long long bad : {below, static_cast<long long>(p.max) + 1}) {
      const std::string why = refusal([&] { s.set(p.key, bad); });
      EXPECT_NE(why.find(std::string(p.key) + " (" + p.top + "." + p.param + ") must be " +
                         std::to_string(p.min) + ".." + std::to_string(p.max)),
                std::string::npos)
          << why;
      EXPECT_NE(why.find("got " + std::to_string(bad)), std::string::npos) << why;
      EXPECT_NE(why.find(p.limits), std::string::npos) << why;
      EXPECT_EQ(s.get(p.key), p.max) << "a refused value changed " << p.key;
    }
  }
}

TEST(NodeSizes, RefuseValuesBetweenTheBoundsThatTheRtlCannotHave) {
  NodeSizes s;
  EXPECT_NE(refusal([&] { s.set("torus.reception_fifo_flits", 1022); }).find("a multiple of 4"), std::string::npos);
  EXPECT_NE(refusal([&] { s.set("torus.retransmission_flits", 96); }).find("a power of two"), std::string::npos);
  EXPECT_TRUE(s.is_default());
}

TEST(NodeSizes, NameTheSizesThereAreForAnUnknownKey) {
  NodeSizes s;
  const std::string why = refusal([&] { s.set("torus.vc_depth", 8); });
  EXPECT_NE(why.find("'torus.vc_depth' is not a size of the node"), std::string::npos) << why;
  for (const auto& p : kSizes) EXPECT_NE(why.find(p.key), std::string::npos) << why;
}

TEST(NodeSizes, ParseAssignments) {
  NodeSizes s;
  s.set_assignment("torus.vc_buffer_flits=40");
  s.set_assignment("tree.link_buffer_packets=2");
  EXPECT_EQ(s.changed(), "tree.link_buffer_packets=2, torus.vc_buffer_flits=40");
  EXPECT_EQ(s.overrides("nd_torus_net"),
            (std::vector<std::string>{"-GDynFlits=40", "-GEscSlots=3", "-GInjFlits=128", "-GRcvFifos=1",
                                      "-GRcvFlits=256", "-GRetryFlits=128", "-GDma=0"}));
  EXPECT_EQ(s.overrides("nd_tree_net").front(), "-GLinkPackets=2");
  for (const char* bad : {"torus.vc_buffer_flits", "=40", "torus.vc_buffer_flits=", "torus.vc_buffer_flits=4x",
                          "torus.vc_buffer_flits=-40"})
    EXPECT_NE(refusal([&] { s.set_assignment(bad); }), "") << bad;
  EXPECT_NE(refusal([&] { s.set_assignment("torus.vc_buffer_flits=4x"); }).find("'4x' is not a whole number"),
            std::string::npos);
  EXPECT_EQ(s.get("torus.vc_buffer_flits"), 40u);
}

TEST(MachineFileRtl, SetsSizesAndReportsThemBack) {
  MachineConfig m;
  cli::apply_machine_json(nlohmann::json::parse(R"({"rtl": {"torus": {"vc_buffer_flits": 48, "escape_buffer_packets": 4},
                                                              "tree": {"reception_fifo_packets": 16}}})"),
                          m, "'mine.json'");
  EXPECT_EQ(m.sizes.changed(),
            "tree.reception_fifo_packets=16, torus.vc_buffer_flits=48, torus.escape_buffer_packets=4");
  const nlohmann::json j = cli::machine_json(m);
  EXPECT_EQ(j["rtl"]["torus"]["vc_buffer_flits"], 48);
  EXPECT_EQ(j["rtl"]["tree"]["link_buffer_packets"], 4);
  MachineConfig again;
  cli::apply_machine_json(j, again, "the report");
  EXPECT_EQ(again.sizes, m.sizes);
}

TEST(MachineFileRtl, RefusesWhatTheRtlRefusesNamingFileAndKey) {
  MachineConfig m;
  const auto apply = [&](const char* text) {
    return refusal([&] { cli::apply_machine_json(nlohmann::json::parse(text), m, "'mine.json'"); });
  };
  std::string why = apply(R"({"rtl": {"torus": {"vc_buffer_flits": 20}}})");
  EXPECT_NE(why.find("machine file 'mine.json': 'rtl.torus.vc_buffer_flits' is refused: torus.vc_buffer_flits "
                     "(nd_torus_net.DynFlits) must be 33..255"),
            std::string::npos)
      << why;
  why = apply(R"({"rtl": {"torus": {"vc_depth": 20}}})");
  EXPECT_NE(why.find("'rtl.torus.vc_depth' is refused: 'torus.vc_depth' is not a size"), std::string::npos) << why;
  why = apply(R"({"rtl": {"network": {}}})");
  EXPECT_NE(why.find("'rtl.network' is not a key of the format (expected one of: tree, torus)"), std::string::npos)
      << why;
  why = apply(R"({"rtl": {"tree": {"link_buffer_packets": 2.5}}})");
  EXPECT_NE(why.find("'rtl.tree.link_buffer_packets' must be a whole number, got 2.5"), std::string::npos) << why;
  EXPECT_TRUE(m.sizes.is_default()) << "a refused file changed the machine";
}

}  // namespace
}  // namespace collnet::sim
