// SPDX-License-Identifier: Apache-2.0
// Nodes down from boot (--down-nodes, docs/down-nodes.md), through the command line: a
// down node is down on every network and runs no rank; the collectives of the live nodes
// go around it (on the tree where its route still joins them, else on the torus) and are
// verified; nothing crosses its edges; what cannot work is refused before the run, naming
// the node.
#include <cctype>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/support/collnet_cli.hpp"

namespace collnet {
namespace {

using test::collnet;
using test::read_json;

const std::string kTmp = COLLNET_TEST_TMP;

const char* const kCollectives[] = {"barrier", "bcast",     "reduce",  "allreduce",  "gather",  "allgather",
                                    "scan",    "exscan",    "alltoall", "alltoallv", "scatter", "scatterv",
                                    "gatherv", "allgatherv", "reduce_scatter", "reduce_scatter_block"};

// Every node but `down`, as --ranks takes them.
std::string every_node_but(unsigned nodes, unsigned down) {
  std::string s;
  for (unsigned n = 0; n < nodes; ++n)
    if (n != down) s += (s.empty() ? "" : ",") + std::to_string(n);
  return s;
}

// The run's JSON says nothing crossed the edges of each of `down` on any network.
void expect_untouched(const nlohmann::json& j, const std::vector<unsigned>& down, const std::string& what) {
  ASSERT_EQ(j.at("down_nodes").size(), down.size()) << what;
  for (size_t k = 0; k < down.size(); ++k) {
    const nlohmann::json& d = j.at("down_nodes")[k];
    EXPECT_EQ(d.at("node"), down[k]) << what;
    for (const char* key : {"tree_flits_out", "tree_flits_in", "torus_flits_out", "torus_flits_in",
                            "barrier_words_out", "barrier_words_in"})
      EXPECT_EQ(d.at(key), 0) << what << ": node " << down[k] << " " << key;
  }
}

// Seed 001's point: allgather and allgatherv by the segmented algorithm on the 63 live
// nodes of 4x4x4 with node 21 down, in each destination order. Node 21 is the tree parent
// of 43 and 44: nothing may reach the tree through it either.
TEST(DownNodes, TheSegmentedAllgatherGoesAroundANodeDownInEveryOrder) {
  const std::string json = kTmp + "/down-segment.json";
  for (const char* c : {"allgather", "allgatherv"})
    for (const char* order : {"random", "rank", "shifted"}) {
      const std::string what = std::string(c) + " " + order;
      const auto r = collnet({"run", c, "--torus", "4x4x4", "--ranks", every_node_but(64, 21), "--down-nodes", "21",
                              "--algorithm", "alltoallv-segment", "--order", order, "--piece-bytes", "64", "--type", "u64",
                              "--count", "16",
                              "--json", json});
      ASSERT_EQ(r.status, 0) << what << ": " << r.out << r.err;
      const auto j = read_json(json);
      EXPECT_EQ(j.at("verified"), true) << what;
      EXPECT_EQ(j.at("members"), 63) << what;
      EXPECT_EQ(j.at("algorithm"), "alltoallv-segment") << what;
      EXPECT_GT(j.at("torus_link_flits").get<uint64_t>(), 0u) << what;
      expect_untouched(j, {21}, what);
    }
}

// Every collective with auto on the live nodes (the world: no --ranks) of 4x4x4 with node
// 21 down, and of 4x4x2 with two down: where the machine tree still joins the live nodes
// (30 and 31 are leaves) the world keeps class route 0 and the tree; where it does not
// (node 5 is the parent of 11 and 12), every collective runs on the torus. The JSON names
// the algorithm.
TEST(DownNodes, EveryCollectiveRunsVerifiedWithAutoOnTheLiveNodes) {
  struct Machine {
    std::string torus, down;
    std::vector<unsigned> down_list;
    unsigned members;
    bool tree;  // the world keeps the machine tree's class route
  };
  const std::string json = kTmp + "/down-auto.json";
  for (const Machine& m : {Machine{"4x4x4", "21", {21}, 63, false}, Machine{"4x4x2", "5,26", {5, 26}, 30, false},
                           Machine{"4x4x2", "31,30", {30, 31}, 30, true}})
    for (const char* c : kCollectives) {
      const std::string what = std::string(c) + " on " + m.torus + " with " + m.down + " down";
      const auto r = collnet({"run", c, "--torus", m.torus, "--down-nodes", m.down, "--count", "16", "--json", json});
      ASSERT_EQ(r.status, 0) << what << ": " << r.out << r.err;
      const auto j = read_json(json);
      EXPECT_EQ(j.at("verified"), true) << what;
      EXPECT_EQ(j.at("members"), m.members) << what;
      EXPECT_EQ(j.at("machine").at("down_nodes"), nlohmann::json(m.down_list)) << what;
      const std::string algorithm = j.at("algorithm");
      EXPECT_FALSE(algorithm.empty()) << what;
      if (m.tree) {
        EXPECT_EQ(j.at("class_route"), 0) << what;
      } else {
        EXPECT_TRUE(j.at("class_route").is_null()) << what;
        EXPECT_NE(algorithm, "tree") << what;
        EXPECT_EQ(j.at("link_flits"), 0) << what << ": nothing may use the tree";
      }
      expect_untouched(j, m.down_list, what);
    }
}

// The barrier network still serves the world when the tree joins the live nodes: the
// barrier takes its tree time, not the torus's.
TEST(DownNodes, LeavesDownKeepTheBarrierNetwork) {
  const std::string json = kTmp + "/down-barrier.json";
  ASSERT_EQ(collnet({"run", "barrier", "--torus", "4x4x2", "--json", json}).status, 0);
  const uint64_t whole = read_json(json).at("cycles");
  ASSERT_EQ(collnet({"run", "barrier", "--torus", "4x4x2", "--down-nodes", "30,31", "--json", json}).status, 0);
  const auto leaves = read_json(json);
  EXPECT_EQ(leaves.at("algorithm"), "tree");
  ASSERT_EQ(collnet({"run", "barrier", "--torus", "4x4x2", "--down-nodes", "5", "--json", json}).status, 0);
  const auto cut = read_json(json);
  EXPECT_NE(cut.at("algorithm"), "tree");
  EXPECT_LE(leaves.at("cycles").get<uint64_t>(), whole + 10);
  EXPECT_GT(cut.at("cycles").get<uint64_t>(), leaves.at("cycles").get<uint64_t>());
}

// A machine file's down_nodes does what --down-nodes does; the option replaces it.
TEST(DownNodes, AMachineFileNamesThemToo) {
  const std::string file = kTmp + "/down-machine.json", json = kTmp + "/down-file.json";
  std::ofstream(file) << R"({"shape": "4x4x2", "down_nodes": [26, 5]})";
  auto r = collnet({"run", "allreduce", "--machine", file, "--json", json});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("down=5,26"), std::string::npos) << r.out;
  EXPECT_EQ(read_json(json).at("members"), 30);
  r = collnet({"run", "allreduce", "--machine", file, "--down-nodes", "7", "--json", json});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(read_json(json).at("machine").at("down_nodes"), nlohmann::json({7}));
  std::ofstream(file) << R"({"shape": "2x2x2", "down_nodes": [8]})";
  r = collnet({"run", "allreduce", "--machine", file});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("'down_nodes' down node 8 is not on a machine of 8 nodes"), std::string::npos) << r.err;
}

// What cannot work is refused before the run, naming the node.
struct Refusal {
  std::vector<std::string> args;
  std::string names;
};

std::string refusal_name(const ::testing::TestParamInfo<Refusal>& p) {
  std::string n = "case" + std::to_string(p.index);
  for (const auto& a : p.param.args)
    for (char ch : a) n += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
  return n.substr(0, 100);
}

class DownNodesRefuse : public ::testing::TestWithParam<Refusal> {};

TEST_P(DownNodesRefuse, BeforeTheRunNamingTheNode) {
  const auto r = collnet(GetParam().args);
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_NE(r.err.find(GetParam().names), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("cycles"), std::string::npos) << "it ran: " << r.out;
}

INSTANTIATE_TEST_SUITE_P(
    WhatCannotWork, DownNodesRefuse,
    ::testing::Values(
        Refusal{{"run", "allreduce", "--torus", "4x4x4", "--down-nodes", "21", "--algorithm", "tree"},
                "--algorithm tree: the members' route on the tree passes node 21, which is down"},
        Refusal{{"run", "allreduce", "--torus", "4x4x4", "--down-nodes", "21", "--ranks", "43,44", "--algorithm",
                 "tree"},
                "--algorithm tree: the members' route on the tree meets at node 21, which is down"},
        Refusal{{"run", "allreduce", "--torus", "4x4x4", "--down-nodes", "10", "--ranks", "12,43,44", "--algorithm",
                 "tree"},
                "--algorithm tree: the members' route on the tree passes node 10, which is down"},
        Refusal{{"run", "allreduce", "--torus", "4x4x4", "--down-nodes", "21", "--ranks", "20,21"},
                "--ranks: rank 21 is on node 21, which is down"},
        Refusal{{"run", "allreduce", "--torus", "2x2x2", "--tasks", "2", "--down-nodes", "3", "--ranks", "0,7"},
                "rank 7 is on node 3, which is down"},
        Refusal{{"run", "bcast", "--torus", "4x4x4", "--down-nodes", "21", "--algorithm", "torus-deposit"},
                "--algorithm torus-deposit: it broadcasts along torus lines, which cannot go around node 21, which is "
                "down"},
        Refusal{{"run", "bcast", "--torus", "4x4x4", "--down-nodes", "21", "--algorithm", "torus-neighbourhood"},
                "--algorithm torus-neighbourhood: it broadcasts along torus lines, which cannot go around node 21"},
        Refusal{{"run", "pingpong", "--torus", "2x2x2", "--down-nodes", "5", "--ranks", "0,5"},
                "rank 5 is on node 5, which is down"},
        Refusal{{"compare", "allreduce", "--torus", "4x4x4", "--down-nodes", "21", "--algorithms", "tree"},
                "--algorithms: tree: the members' route on the tree passes node 21"},
        Refusal{{"run", "allreduce", "--torus", "2x2x2", "--down-nodes", "8"},
                "--down-nodes: node 8 is not on a machine of 8 nodes"},
        Refusal{{"run", "allreduce", "--torus", "2x1x1", "--down-nodes", "1,1"}, "--down-nodes: node 1 is listed twice"},
        Refusal{{"run", "allreduce", "--torus", "2x1x1", "--down-nodes", "0,1"},
                "--down-nodes: every node of the 2x1x1 machine is down"},
        Refusal{{"tune", "--torus", "2x2x2", "--down-nodes", "x", "--output", kTmp + "/down-tune.json"},
                "--down-nodes: 'x' in 'x' is not a node"},
        Refusal{{"mpirun", "-n", "64", "--torus", "4x4x4", "--down-nodes", "21", "--", "true"},
                "-n 64 with --tasks 1 and 1 node down needs 65"},
        Refusal{{"mpirun", "-n", "6", "--torus", "2x2x2", "--down-nodes", "2,9", "--", "true"},
                "--down-nodes: node 9 is not on a machine of 8 nodes"},
        Refusal{{"traffic", "--torus", "2x2x2", "--down-nodes", "3,3"}, "--down-nodes: node 3 is listed twice"}),
    refusal_name);

}  // namespace
}  // namespace collnet
