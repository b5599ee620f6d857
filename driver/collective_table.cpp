// SPDX-License-Identifier: Apache-2.0
#include "driver/collective_table.hpp"

#include <algorithm>
#include <array>

#include "driver/neighbourhood_collectives.hpp"
#include "driver/personalised.hpp"
#include "driver/torus_collectives.hpp"
#include "driver/tree_collectives.hpp"

namespace collnet::driver {

const std::vector<AlgorithmEntry>& algorithm_table() {
  using A = Algorithm;
  using C = Collective;
  // In the order `collnet algorithms` lists them.
  static const std::vector<AlgorithmEntry> table = {
      {C::Barrier, A::Tree, tree::barrier},
      {C::Barrier, A::TorusDissemination, torus::barrier_dissemination},

      {C::Bcast, A::Tree, tree::bcast},
      {C::Bcast, A::TorusBinomial, torus::bcast_binomial},
      {C::Bcast, A::TorusDeposit, torus::bcast_deposit},
      {C::Bcast, A::TorusNeighbourhood, neighbourhood::bcast},

      {C::Reduce, A::Tree, tree::reduce},
      {C::Reduce, A::TorusBinomial, torus::reduce_binomial},
      {C::Reduce, A::TorusNeighbourhood, neighbourhood::reduce},

      {C::Allreduce, A::Tree, tree::allreduce},
      {C::Allreduce, A::TorusBinomial, torus::allreduce_binomial},
      {C::Allreduce, A::TorusRecursiveDoubling, torus::allreduce_recursive_doubling},
      {C::Allreduce, A::TorusRing, torus::allreduce_ring},
      {C::Allreduce, A::TorusRabenseifner, torus::allreduce_rabenseifner},

      {C::Gather, A::Tree, tree::gather},
      {C::Gather, A::TorusBinomial, torus::gather_binomial},
      {C::Gather, A::TorusNeighbourhood, neighbourhood::gather},

      {C::Allgather, A::Tree, tree::allgather},
      {C::Allgather, A::TorusRing, torus::allgather_ring},
      {C::Allgather, A::TorusRecursiveDoubling, torus::allgather_recursive_doubling},
      {C::Allgather, A::TorusBruck, torus::allgather_bruck},
      {C::Allgather, A::AlltoallvSegment, torus::allgather_segment},

      {C::Allgatherv, A::Tree, tree::allgatherv},
      {C::Allgatherv, A::TorusRing, torus::allgatherv_ring},
      {C::Allgatherv, A::AlltoallvSegment, torus::allgatherv_segment},

      {C::Scatter, A::TorusLinear, personalised::scatter_linear},
      {C::Scatter, A::TorusBinomial, torus::scatter_binomial},
      {C::Scatter, A::TorusNeighbourhood, neighbourhood::scatter},

      {C::Alltoall, A::TorusLinear, personalised::alltoall_linear},
      {C::Alltoall, A::TorusPairwise, torus::alltoall_pairwise},
      {C::Alltoall, A::TorusBruck, torus::alltoall_bruck},

      {C::Scan, A::Tree, tree::scan},
      {C::Scan, A::TorusRecursiveDoubling, torus::scan_recursive_doubling},

      {C::Exscan, A::Tree, tree::exscan},
      {C::Exscan, A::TorusRecursiveDoubling, torus::exscan_recursive_doubling},
  };
  return table;
}

Runner runner(Collective c, Algorithm a) {
  for (const AlgorithmEntry& e : algorithm_table())
    if (e.collective == c && e.algorithm == a) return e.run;
  return nullptr;
}

// algorithm.hpp: what applies is what the table holds.
const std::vector<Algorithm>& algorithms_for(Collective c) {
  static const std::array<std::vector<Algorithm>, kNumCollectives> lists = [] {
    std::array<std::vector<Algorithm>, kNumCollectives> l;
    for (std::vector<Algorithm>& v : l) v.push_back(Algorithm::Auto);
    for (const AlgorithmEntry& e : algorithm_table()) l[static_cast<unsigned>(e.collective)].push_back(e.algorithm);
    return l;
  }();
  return lists[static_cast<unsigned>(c)];
}

bool applies(Collective c, Algorithm a) {
  const std::vector<Algorithm>& v = algorithms_for(c);
  return std::find(v.begin(), v.end(), a) != v.end();
}

}  // namespace collnet::driver
