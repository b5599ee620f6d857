// SPDX-License-Identifier: Apache-2.0
#include "driver/algorithm.hpp"

#include <algorithm>
#include <array>

namespace collnet::driver {

namespace {

constexpr std::array<const char*, kNumCollectives> kCollectiveNames = {
    "barrier", "bcast", "reduce", "allreduce", "gather", "allgather", "allgatherv",
    "scatter", "alltoall", "scan", "exscan"};

struct AlgorithmInfo {
  const char* name;
  const char* what;
};
constexpr std::array<AlgorithmInfo, kNumAlgorithms> kAlgorithms = {{
    {"auto", "chosen per call by communicator and message size"},
    {"tree", "the combining network (a world barrier: the barrier network)"},
    {"torus-binomial", "a binomial tree of torus messages, log2(n) rounds"},
    {"torus-recursive-doubling", "log2(n) rounds of pairwise exchanges at distance 1, 2, 4, ..."},
    {"torus-ring", "n-1 steps neighbour to neighbour around a ring of ranks"},
    {"torus-rabenseifner", "reduce-scatter by recursive halving, then allgather by recursive doubling"},
    {"torus-bruck", "log2(n) rounds of rotated blocks"},
    {"torus-pairwise", "n-1 steps, one exchange partner each"},
    {"torus-linear", "every message in flight at once"},
    {"torus-dissemination", "log2(n) rounds of zero-byte messages at distance 1, 2, 4, ..."},
    {"alltoallv-segment", "an alltoallv of the own segment, a piece to each destination in turn (the segmented allgather)"},
    {"torus-deposit", "line broadcasts (deposit bit) along x, then y, then z, a packet at a time (world only)"},
    {"torus-neighbourhood",
     "two phases: within each gap-free plane of the members (line broadcasts for bcast), among the planes' roots "
     "(regular neighbourhoods)"},
}};

}  // namespace

const char* to_string(Collective c) { return kCollectiveNames[static_cast<unsigned>(c)]; }
const char* to_string(Algorithm a) { return kAlgorithms[static_cast<unsigned>(a)].name; }
const char* describe(Algorithm a) { return kAlgorithms[static_cast<unsigned>(a)].what; }

std::optional<Collective> collective_named(const std::string& name) {
  for (unsigned i = 0; i < kNumCollectives; ++i)
    if (name == kCollectiveNames[i]) return static_cast<Collective>(i);
  return std::nullopt;
}

std::optional<Algorithm> algorithm_named(const std::string& name) {
  for (unsigned i = 0; i < kNumAlgorithms; ++i)
    if (name == kAlgorithms[i].name) return static_cast<Algorithm>(i);
  return std::nullopt;
}

const char* to_string(SegmentOrder o) {
  switch (o) {
    case SegmentOrder::Random: return "random";
    case SegmentOrder::Rank: return "rank";
    case SegmentOrder::Shifted: return "shifted";
  }
  return "?";
}

std::optional<SegmentOrder> segment_order_named(const std::string& name) {
  for (SegmentOrder o : {SegmentOrder::Random, SegmentOrder::Rank, SegmentOrder::Shifted})
    if (name == to_string(o)) return o;
  return std::nullopt;
}

Algorithm torus_default(Collective c) {
  using A = Algorithm;
  switch (c) {
    case Collective::Barrier: return A::TorusDissemination;
    case Collective::Bcast:
    case Collective::Reduce:
    case Collective::Gather:
    case Collective::Scatter: return A::TorusBinomial;
    case Collective::Allreduce:
    case Collective::Scan:
    case Collective::Exscan: return A::TorusRecursiveDoubling;
    case Collective::Allgather:
    case Collective::Allgatherv: return A::TorusRing;
    case Collective::Alltoall: return A::TorusPairwise;
  }
  return A::TorusBinomial;
}

}  // namespace collnet::driver
