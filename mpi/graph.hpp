// SPDX-License-Identifier: Apache-2.0
// A graph topology (MPI_Graph_create) or a distributed graph one (MPI_Dist_graph_create,
// _create_adjacent): each rank's neighbours, the ranks it receives from (sources) and
// sends to (destinations), in the order the neighbourhood collectives use.
#pragma once

#include <vector>

namespace collnet::mpi {

struct Graph {
  bool distributed = false;
  std::vector<int> sources, destinations;
  std::vector<int> source_weights, destination_weights;  // distributed, when weighted
  bool weighted = false;
  // MPI_Graph_create's whole graph, for MPI_Graph_get and _neighbors of any rank.
  std::vector<int> index, edges;
};

}  // namespace collnet::mpi
