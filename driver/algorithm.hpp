// SPDX-License-Identifier: Apache-2.0
// Which algorithm a collective runs: on the combining network ("tree", the barrier
// network for a world barrier) or on the torus, by one of the algorithms MPI libraries use
// there. Each collective has a set of algorithms that apply to it; Auto picks one.
// Algorithms and their costs: docs/torus-algorithms.md.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace collnet::driver {

// The collectives whose algorithm can be chosen.
enum class Collective {
  Barrier,
  Bcast,
  Reduce,
  Allreduce,
  Gather,
  Allgather,
  Allgatherv,
  Scatter,
  Alltoall,
  Scan,
  Exscan,
};
constexpr unsigned kNumCollectives = 11;

enum class Algorithm {
  Auto,                    // the default: chosen per call (Communicator::choose)
  Tree,                    // the combining network; a world barrier: the barrier network
  TorusBinomial,           // binomial tree of point-to-point messages
  TorusRecursiveDoubling,  // log2 rounds of pairwise exchanges (non-powers of two folded)
  TorusRing,               // neighbour to neighbour around a ring of ranks
  TorusRabenseifner,       // reduce-scatter by recursive halving, allgather by doubling
  TorusBruck,              // log2 rounds of rotated blocks
  TorusPairwise,           // one partner per step, size()-1 steps
  TorusLinear,             // every message in flight at once
  TorusDissemination,      // log2 rounds of zero-byte messages
  AlltoallvSegment,        // the segmented allgather: an alltoallv of the own segment, sent a piece at a time
  TorusDeposit,            // line broadcasts (the deposit bit) along x, then y, then z, pipelined
  TorusNeighbourhood,      // regular neighbourhoods: two phases, within gap-free planes and among their roots
};
constexpr unsigned kNumAlgorithms = 13;

const char* to_string(Collective c);
const char* to_string(Algorithm a);
std::optional<Collective> collective_named(const std::string& name);
std::optional<Algorithm> algorithm_named(const std::string& name);
// What an algorithm does, one line.
const char* describe(Algorithm a);

// The algorithms that apply to a collective, Auto first: the algorithm table's entries
// (collective_table.hpp, which defines these two).
const std::vector<Algorithm>& algorithms_for(Collective c);
bool applies(Collective c, Algorithm a);
// What auto runs on a communicator without a class route when its table would pick the
// tree: binomial for the rooted collectives, recursive doubling for the reductions and
// prefixes, ring for the gathers, dissemination for the barrier, pairwise for alltoall.
Algorithm torus_default(Collective c);
// Whether `a` runs `c` by line broadcasts (torus-deposit; the neighbourhood bcast): deposit
// packets go straight along a torus line, so they cannot go around a node that is down.
inline bool broadcasts_along_lines(Collective c, Algorithm a) {
  return a == Algorithm::TorusDeposit || (c == Collective::Bcast && a == Algorithm::TorusNeighbourhood);
}

// How alltoallv-segment sends: a piece of `piece_bytes` to each destination in turn, the
// destinations in an order: random (seeded per rank, as the segmented allgather sends), rank order 0, 1, 2, ...
// (a conventional alltoallv's: every rank starts with rank 0), or shifted r+1, r+2, ...
// (every rank starts with a different one).
enum class SegmentOrder { Random, Rank, Shifted };
const char* to_string(SegmentOrder o);
std::optional<SegmentOrder> segment_order_named(const std::string& name);  // "random", "rank", "shifted"

struct SegmentOptions {
  size_t piece_bytes = 1024;
  SegmentOrder order = SegmentOrder::Random;
  uint64_t seed = 1;
};

}  // namespace collnet::driver
