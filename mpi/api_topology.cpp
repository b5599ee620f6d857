// SPDX-License-Identifier: Apache-2.0
// mpi.h: process topologies: MPI_Dims_create, the balanced factorisation programs use to
// shape a grid, and Cartesian communicators. A Cartesian communicator keeps its parent's
// rank order unless reorder finds the grid is the torus's own (cartesian.hpp:
// TorusEmbedding); its ranks are numbered row-major, the last dimension varying fastest.
#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "mpi/api_support.hpp"

using namespace collnet::mpi;
namespace drv = collnet::driver;

namespace {

const Cartesian& cart_of(CommEntry& c) {
  if (!c.cart) fail(MPI_ERR_TOPOLOGY, "the communicator has no Cartesian topology (MPI_Cart_create)");
  return *c.cart;
}

// The communicator's graph topology (`distributed`: a distributed graph one is wanted,
// which a graph one also answers for, as MPI_Dist_graph_neighbors does on both).
const Graph& graph_of(CommEntry& c, bool distributed) {
  if (!c.graph || (!distributed && c.graph->distributed))
    fail(MPI_ERR_TOPOLOGY, std::string("the communicator has no ") + (distributed ? "graph" : "MPI_Graph_create") +
                               " topology");
  return *c.graph;
}

int or_proc_null(int rank) { return rank == Cartesian::kOffGrid ? MPI_PROC_NULL : rank; }

// The grid's shape from the caller's arrays, checked.
Cartesian shape(int ndims, const int dims[], const int periods[]) {
  if (ndims < 0) fail(MPI_ERR_DIMS, "ndims " + std::to_string(ndims) + " is negative");
  Cartesian k;
  for (int i = 0; i < ndims; ++i) {
    if (dims[i] <= 0) fail(MPI_ERR_DIMS, "dims[" + std::to_string(i) + "] " + std::to_string(dims[i]) + " is not positive");
    k.dims.push_back(dims[i]);
    k.periods.push_back(periods[i] != 0);
  }
  return k;
}

// split_comm's communicator, with `k` as its topology.
MPI_Comm make_cart(Rank& r, MPI_Comm parent, bool member, int color, int key, Cartesian k) {
  const MPI_Comm out = split_comm(r, parent, member, color, key);
  if (out != MPI_COMM_NULL) r.comm_slot(out).cart = std::move(k);
  return out;
}

}  // namespace

extern "C" {

int MPI_Dims_create(int nnodes, int ndims, int dims[]) {
  return api("MPI_Dims_create", MPI_COMM_WORLD, [&](Rank&) {
    if (nnodes < 1) fail(MPI_ERR_ARG, "nnodes " + std::to_string(nnodes) + " is not positive");
    if (ndims < 0) fail(MPI_ERR_DIMS, "ndims " + std::to_string(ndims) + " is negative");
    // The dimensions the caller fixed must divide nnodes; the others (0) share the rest.
    long fixed = 1;
    int free_dims = 0;
    for (int i = 0; i < ndims; ++i) {
      if (dims[i] < 0) fail(MPI_ERR_DIMS, "dims[" + std::to_string(i) + "] " + std::to_string(dims[i]) + " is negative");
      if (dims[i] == 0)
        ++free_dims;
      else
        fixed *= dims[i];
    }
    if (nnodes % fixed != 0)
      fail(MPI_ERR_DIMS, "the fixed dimensions (product " + std::to_string(fixed) + ") do not divide nnodes " +
                             std::to_string(nnodes));
    int rest = static_cast<int>(nnodes / fixed);
    if (free_dims == 0) {
      if (rest != 1)
        fail(MPI_ERR_DIMS, "every dimension is fixed and their product " + std::to_string(fixed) + " is not nnodes " +
                               std::to_string(nnodes));
      return;
    }
    // Prime factors, each given in turn, largest first, to the dimension with the smallest
    // product so far (the lowest such), then sorted so that the dimensions do not increase.
    std::vector<int> primes;
    for (int p = 2; static_cast<long>(p) * p <= rest; ++p)
      while (rest % p == 0) {
        primes.push_back(p);
        rest /= p;
      }
    if (rest > 1) primes.push_back(rest);
    std::vector<int> bins(static_cast<size_t>(free_dims), 1);
    for (auto f = primes.rbegin(); f != primes.rend(); ++f) *std::min_element(bins.begin(), bins.end()) *= *f;
    std::sort(bins.begin(), bins.end(), std::greater<int>());
    size_t next = 0;
    for (int i = 0; i < ndims; ++i)
      if (dims[i] == 0) dims[i] = bins[next++];
  });
}

int MPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[], const int periods[], int reorder,
                    MPI_Comm* comm_cart) {
  return api("MPI_Cart_create", comm_old, [&](Rank& r) {
    CommEntry& c = r.comm(comm_old);
    if (c.inter) fail(MPI_ERR_COMM, "comm_old is an intercommunicator");
    Cartesian k = shape(ndims, dims, periods);
    const int size = comm_size(c), rank = comm_rank(c), cells = k.size();
    if (cells > size)
      fail(MPI_ERR_DIMS, "the grid has " + std::to_string(cells) + " places and the communicator " +
                             std::to_string(size) + " ranks");
    // reorder: a grid of the whole machine whose dimensions are its axes takes each rank's
    // place on the torus (TorusEmbedding), as Blue Gene's MPI mapped grids; otherwise, and
    // without reorder, the first `cells` ranks in their order (the others get MPI_COMM_NULL).
    const collnet::driver::Task& t = r.task();
    const std::array<unsigned, 3> torus = t.torus_shape();
    const bool whole = !c.self && size == static_cast<int>(r.runtime().size()) && cells == size;
    std::optional<TorusEmbedding> e = reorder && whole ? embed(k, torus, t.tasks_per_node()) : std::nullopt;
    if (reorder && rank == 0) {
      const std::string machine = std::to_string(torus[0]) + "x" + std::to_string(torus[1]) + "x" +
                                  std::to_string(torus[2]) + " (" + std::to_string(t.tasks_per_node()) + " per node)";
      r.runtime().note_mapping(e ? "MPI_Cart_create reordered " + e->text(k) + " of the torus " + machine
                                 : "MPI_Cart_create kept rank order: grid " + k.text() +
                                       (whole ? " is not the torus " + machine + "'s axes" : " does not span the machine"));
    }
    const int key = e ? e->rank_of(k, r.world_rank(), torus, t.tasks_per_node()) : rank;
    *comm_cart = make_cart(r, comm_old, e || rank < cells, 0, key, std::move(k));
  });
}

int MPI_Cartdim_get(MPI_Comm comm, int* ndims) {
  return api("MPI_Cartdim_get", comm,
             [&](Rank& r) { *ndims = static_cast<int>(cart_of(r.comm(comm)).dims.size()); });
}

int MPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[]) {
  return api("MPI_Cart_get", comm, [&](Rank& r) {
    CommEntry& c = r.comm(comm);
    const Cartesian& k = cart_of(c);
    const std::vector<int> mine = k.coords(comm_rank(c));
    for (size_t i = 0; i < k.dims.size() && static_cast<int>(i) < maxdims; ++i) {
      dims[i] = k.dims[i];
      periods[i] = k.periods[i];
      coords[i] = mine[i];
    }
  });
}

int MPI_Cart_rank(MPI_Comm comm, const int coords[], int* rank) {
  return api("MPI_Cart_rank", comm, [&](Rank& r) {
    const Cartesian& k = cart_of(r.comm(comm));
    const std::vector<int> at(coords, coords + k.dims.size());
    const int found = k.rank_at(at);
    if (found == Cartesian::kOffGrid) fail(MPI_ERR_ARG, "the coordinates leave a non-periodic dimension");
    *rank = found;
  });
}

int MPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[]) {
  return api("MPI_Cart_coords", comm, [&](Rank& r) {
    CommEntry& c = r.comm(comm);
    const Cartesian& k = cart_of(c);
    check_rank(rank, comm_size(c), "rank");
    if (rank == MPI_PROC_NULL) fail(MPI_ERR_RANK, "rank is MPI_PROC_NULL");
    if (maxdims < static_cast<int>(k.dims.size()))
      fail(MPI_ERR_ARG, "maxdims " + std::to_string(maxdims) + " is less than the grid's " +
                            std::to_string(k.dims.size()) + " dimensions");
    const std::vector<int> v = k.coords(rank);
    std::copy(v.begin(), v.end(), coords);
  });
}

int MPI_Cart_shift(MPI_Comm comm, int direction, int disp, int* rank_source, int* rank_dest) {
  return api("MPI_Cart_shift", comm, [&](Rank& r) {
    CommEntry& c = r.comm(comm);
    const Cartesian& k = cart_of(c);
    if (direction < 0 || direction >= static_cast<int>(k.dims.size()))
      fail(MPI_ERR_DIMS, "direction " + std::to_string(direction) + " is not a dimension of the grid (it has " +
                             std::to_string(k.dims.size()) + ")");
    const auto [source, dest] = k.shift(comm_rank(c), direction, disp);
    *rank_source = or_proc_null(source);
    *rank_dest = or_proc_null(dest);
  });
}

int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm* newcomm) {
  return api("MPI_Cart_sub", comm, [&](Rank& r) {
    CommEntry& c = r.comm(comm);
    const Cartesian k = cart_of(c);
    const std::vector<int> at = k.coords(comm_rank(c));
    // One grid per place in the dropped dimensions; in it, the kept ones in their order.
    Cartesian kept;
    int color = 0;
    for (size_t i = 0; i < k.dims.size(); ++i) {
      if (remain_dims[i]) {
        kept.dims.push_back(k.dims[i]);
        kept.periods.push_back(k.periods[i]);
      } else {
        color = color * k.dims[i] + at[i];
      }
    }
    *newcomm = make_cart(r, comm, true, color, comm_rank(c), std::move(kept));
  });
}

int MPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[], int* newrank) {
  return api("MPI_Cart_map", comm, [&](Rank& r) {
    CommEntry& c = r.comm(comm);
    const Cartesian k = shape(ndims, dims, periods);
    const int cells = k.size(), rank = comm_rank(c);
    if (cells > comm_size(c))
      fail(MPI_ERR_DIMS, "the grid has " + std::to_string(cells) + " places and the communicator " +
                             std::to_string(comm_size(c)) + " ranks");
    *newrank = rank < cells ? rank : MPI_UNDEFINED;
  });
}

int MPI_Topo_test(MPI_Comm comm, int* status) {
  return api("MPI_Topo_test", comm, [&](Rank& r) {
    CommEntry& c = r.comm(comm);
    *status = c.cart ? MPI_CART : c.graph ? (c.graph->distributed ? MPI_DIST_GRAPH : MPI_GRAPH) : MPI_UNDEFINED;
  });
}

// ------------------------------------------------ graph topologies

int MPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[], const int edges[], int,
                     MPI_Comm* comm_graph) {
  return api("MPI_Graph_create", comm_old, [&](Rank& r) {
    CommEntry& c = r.comm(comm_old);
    if (c.inter) fail(MPI_ERR_COMM, "comm_old is an intercommunicator");
    const int size = comm_size(c), rank = comm_rank(c);
    if (nnodes < 0 || nnodes > size)
      fail(MPI_ERR_ARG, "nnodes " + std::to_string(nnodes) + " is not 0.." + std::to_string(size));
    Graph g;
    for (int i = 0; i < nnodes; ++i) {
      if (index[i] < (i ? index[i - 1] : 0)) fail(MPI_ERR_ARG, "index[" + std::to_string(i) + "] decreases");
      g.index.push_back(index[i]);
    }
    const int nedges = nnodes ? index[nnodes - 1] : 0;
    for (int e = 0; e < nedges; ++e) {
      if (edges[e] < 0 || edges[e] >= nnodes)
        fail(MPI_ERR_ARG, "edges[" + std::to_string(e) + "] " + std::to_string(edges[e]) + " is not a node (0.." +
                              std::to_string(nnodes - 1) + ")");
      g.edges.push_back(edges[e]);
    }
    if (rank < nnodes) {
      g.sources.assign(g.edges.begin() + (rank ? index[rank - 1] : 0), g.edges.begin() + index[rank]);
      g.destinations = g.sources;
    }
    const MPI_Comm out = split_comm(r, comm_old, rank < nnodes, 0, rank);
    if (out != MPI_COMM_NULL) r.comm_slot(out).graph = std::move(g);
    *comm_graph = out;
  });
}

int MPI_Graphdims_get(MPI_Comm comm, int* nnodes, int* nedges) {
  return api("MPI_Graphdims_get", comm, [&](Rank& r) {
    const Graph& g = graph_of(r.comm(comm), false);
    *nnodes = static_cast<int>(g.index.size());
    *nedges = static_cast<int>(g.edges.size());
  });
}

int MPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[]) {
  return api("MPI_Graph_get", comm, [&](Rank& r) {
    const Graph& g = graph_of(r.comm(comm), false);
    for (size_t i = 0; i < g.index.size() && static_cast<int>(i) < maxindex; ++i) index[i] = g.index[i];
    for (size_t e = 0; e < g.edges.size() && static_cast<int>(e) < maxedges; ++e) edges[e] = g.edges[e];
  });
}

int MPI_Graph_neighbors_count(MPI_Comm comm, int rank, int* nneighbors) {
  return api("MPI_Graph_neighbors_count", comm, [&](Rank& r) {
    const Graph& g = graph_of(r.comm(comm), false);
    check_rank(rank, static_cast<int>(g.index.size()), "rank");
    *nneighbors = g.index[as_size(rank)] - (rank ? g.index[as_size(rank) - 1] : 0);
  });
}

int MPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[]) {
  return api("MPI_Graph_neighbors", comm, [&](Rank& r) {
    const Graph& g = graph_of(r.comm(comm), false);
    check_rank(rank, static_cast<int>(g.index.size()), "rank");
    const int first = rank ? g.index[as_size(rank) - 1] : 0;
    for (int e = first, k = 0; e < g.index[as_size(rank)] && k < maxneighbors; ++e, ++k) neighbors[k] = g.edges[as_size(e)];
  });
}

int MPI_Graph_map(MPI_Comm comm, int nnodes, const int[], const int[], int* newrank) {
  return api("MPI_Graph_map", comm, [&](Rank& r) {
    const int rank = comm_rank(r.comm(comm));
    *newrank = rank < nnodes ? rank : MPI_UNDEFINED;
  });
}

int MPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[], const int sourceweights[],
                                   int outdegree, const int destinations[], const int destweights[], MPI_Info info,
                                   int, MPI_Comm* comm_dist_graph) {
  return api("MPI_Dist_graph_create_adjacent", comm_old, [&](Rank& r) {
    CommEntry& c = r.comm(comm_old);
    if (c.inter) fail(MPI_ERR_COMM, "comm_old is an intercommunicator");
    if (info != MPI_INFO_NULL) r.info(info);
    if (indegree < 0 || outdegree < 0) fail(MPI_ERR_ARG, "a degree is negative");
    const int size = comm_size(c);
    Graph g;
    g.distributed = true;
    g.weighted = sourceweights != MPI_UNWEIGHTED && destweights != MPI_UNWEIGHTED;
    for (int i = 0; i < indegree; ++i) {
      check_rank(sources[i], size, "a sources entry");
      g.sources.push_back(sources[i]);
      if (g.weighted && sourceweights != MPI_WEIGHTS_EMPTY) g.source_weights.push_back(sourceweights[i]);
    }
    for (int i = 0; i < outdegree; ++i) {
      check_rank(destinations[i], size, "a destinations entry");
      g.destinations.push_back(destinations[i]);
      if (g.weighted && destweights != MPI_WEIGHTS_EMPTY) g.destination_weights.push_back(destweights[i]);
    }
    const MPI_Comm out = split_comm(r, comm_old, true, 0, comm_rank(c));
    r.comm_slot(out).graph = std::move(g);
    *comm_dist_graph = out;
  });
}

int MPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const int degrees[], const int destinations[],
                          const int weights[], MPI_Info info, int, MPI_Comm* comm_dist_graph) {
  return api("MPI_Dist_graph_create", comm_old, [&](Rank& r) {
    CommEntry& c = r.comm(comm_old);
    if (c.inter || c.self) fail(MPI_ERR_COMM, "comm_old must be an intracommunicator of several ranks or the world");
    if (info != MPI_INFO_NULL) r.info(info);
    if (n < 0) fail(MPI_ERR_ARG, "n " + std::to_string(n) + " is negative");
    const int size = comm_size(c), me = comm_rank(c);
    const bool weighted = weights != MPI_UNWEIGHTED;
    // This rank's edges (source, destination, weight), then everyone's, in rank order.
    std::vector<int64_t> mine;
    for (int i = 0, at = 0; i < n; ++i) {
      check_rank(sources[i], size, "a sources entry");
      if (degrees[i] < 0) fail(MPI_ERR_ARG, "degrees[" + std::to_string(i) + "] is negative");
      for (int k = 0; k < degrees[i]; ++k, ++at) {
        check_rank(destinations[at], size, "a destinations entry");
        mine.insert(mine.end(), {sources[i], destinations[at], weighted && weights != MPI_WEIGHTS_EMPTY ? weights[at] : 1});
      }
    }
    drv::Communicator& dc = *c.comm;
    const uint64_t count = mine.size();
    std::vector<uint64_t> counts(as_size(size));
    dc.allgather(&count, counts.data(), 1, drv::Datatype::U64);
    std::vector<size_t> sizes, displs;
    size_t total = 0;
    for (uint64_t k : counts) {
      sizes.push_back(k);
      displs.push_back(total);
      total += k;
    }
    std::vector<int64_t> all(total);
    dc.allgatherv(mine.data(), mine.size(), all.data(), sizes, displs, drv::Datatype::I64);
    Graph g;
    g.distributed = true;
    g.weighted = weighted;
    for (size_t e = 0; e + 2 < all.size(); e += 3) {
      if (all[e + 1] == me) {
        g.sources.push_back(static_cast<int>(all[e]));
        if (weighted) g.source_weights.push_back(static_cast<int>(all[e + 2]));
      }
      if (all[e] == me) {
        g.destinations.push_back(static_cast<int>(all[e + 1]));
        if (weighted) g.destination_weights.push_back(static_cast<int>(all[e + 2]));
      }
    }
    const MPI_Comm out = split_comm(r, comm_old, true, 0, me);
    r.comm_slot(out).graph = std::move(g);
    *comm_dist_graph = out;
  });
}

int MPI_Dist_graph_neighbors_count(MPI_Comm comm, int* indegree, int* outdegree, int* weighted) {
  return api("MPI_Dist_graph_neighbors_count", comm, [&](Rank& r) {
    const Graph& g = graph_of(r.comm(comm), true);
    *indegree = static_cast<int>(g.sources.size());
    *outdegree = static_cast<int>(g.destinations.size());
    *weighted = g.weighted;
  });
}

int MPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[], int sourceweights[], int maxoutdegree,
                             int destinations[], int destweights[]) {
  return api("MPI_Dist_graph_neighbors", comm, [&](Rank& r) {
    const Graph& g = graph_of(r.comm(comm), true);
    for (size_t i = 0; i < g.sources.size() && static_cast<int>(i) < maxindegree; ++i) {
      sources[i] = g.sources[i];
      if (g.weighted && sourceweights != MPI_UNWEIGHTED && i < g.source_weights.size()) sourceweights[i] = g.source_weights[i];
    }
    for (size_t i = 0; i < g.destinations.size() && static_cast<int>(i) < maxoutdegree; ++i) {
      destinations[i] = g.destinations[i];
      if (g.weighted && destweights != MPI_UNWEIGHTED && i < g.destination_weights.size())
        destweights[i] = g.destination_weights[i];
    }
  });
}

}  // extern "C"
