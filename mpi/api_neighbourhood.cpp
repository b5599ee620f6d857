// SPDX-License-Identifier: Apache-2.0
// mpi.h: the neighbourhood collectives, on Cartesian, graph and distributed graph
// communicators. A Cartesian rank's neighbours are, for each dimension in order, the one
// below and the one above (MPI_Cart_shift by 1: its source, then its destination); a
// missing one (the edge of a non-periodic dimension) is MPI_PROC_NULL, and its block is
// neither sent nor received. A graph rank's are its adjacency list, a distributed graph
// rank's its sources (receives) and destinations (sends). The blocks travel as
// point-to-point messages on the tag the collectives reserve, all started at once and then
// waited for. Between two ranks that are neighbours twice the messages are told apart by
// their order: on a Cartesian grid (a periodic dimension of 2, or of 1: the rank itself) a
// rank sends to its neighbour above before the one below, and receives from the one below
// first; on a graph the k-th edge from one rank to another meets the k-th back.
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

#include "mpi/api_support.hpp"
#include "mpi/coprocessor_work.hpp"

using namespace collnet::mpi;
namespace drv = collnet::driver;

namespace {

// This rank's neighbours: whom it receives from and sends to, and the order it sends in.
struct Neighbourhood {
  std::vector<int> sources, destinations;
  std::vector<size_t> send_order;
};

Neighbourhood neighbours(CommEntry& c) {
  Neighbourhood n;
  if (c.graph) {
    n.sources = c.graph->sources;
    n.destinations = c.graph->destinations;
  } else if (c.cart) {
    for (size_t d = 0; d < c.cart->dims.size(); ++d) {
      const auto [below, above] = c.cart->shift(comm_rank(c), static_cast<int>(d), 1);
      n.sources.push_back(below == Cartesian::kOffGrid ? MPI_PROC_NULL : below);
      n.sources.push_back(above == Cartesian::kOffGrid ? MPI_PROC_NULL : above);
    }
    n.destinations = n.sources;
  } else {
    fail(MPI_ERR_TOPOLOGY, "the communicator has no topology (MPI_Cart_create, MPI_Graph_create, MPI_Dist_graph_create)");
  }
  for (size_t j = 0; j < n.destinations.size(); ++j) n.send_order.push_back(c.cart ? (j ^ 1) : j);
  return n;
}

// Part j of a buffer: counts[j] elements of types[j] at byte displacement displs[j].
struct Blocks {
  std::vector<const TypeDesc*> types;
  std::vector<size_t> counts;
  std::vector<ptrdiff_t> displs;
  size_t bytes(size_t j) const { return counts[j] * types[j]->packed; }
  // One type, counts and displacements in its extents (null: `count` each, in order).
  Blocks(const TypeDesc& type, size_t n, const int* c, const int* d, int count) {
    for (size_t j = 0; j < n; ++j) {
      const int k = c ? c[j] : count;
      if (k < 0) fail(MPI_ERR_COUNT, "count " + std::to_string(k) + " for neighbour " + std::to_string(j) + " is negative");
      types.push_back(&type);
      counts.push_back(as_size(k));
      displs.push_back((d ? d[j] : static_cast<ptrdiff_t>(j) * count) * type.extent);
    }
  }
  // A type per block, byte displacements (MPI_Neighbor_alltoallw).
  Blocks(Rank& r, size_t n, const int* c, const MPI_Aint* d, const MPI_Datatype* t) {
    for (size_t j = 0; j < n; ++j) {
      if (c[j] < 0) fail(MPI_ERR_COUNT, "count " + std::to_string(c[j]) + " for neighbour " + std::to_string(j) + " is negative");
      types.push_back(&r.type(t[j], "a datatypes entry"));
      counts.push_back(as_size(c[j]));
      displs.push_back(d[j]);
    }
  }
};

// The neighbourhood allgather (`same`: block 0 to every destination) or alltoall.
void neighbour_exchange(Rank& r, MPI_Comm comm, const void* send, const Blocks& s, bool same, void* recv,
                        const Blocks& rb) {
  CommEntry& c = r.comm(comm);
  if (c.self) fail(MPI_ERR_COMM, "the neighbourhood collectives do not run on MPI_COMM_SELF");
  const Neighbourhood n = neighbours(c);
  after_posted(r, *c.comm);
  const unsigned tag = drv::Communicator::kMaxTag;
  std::vector<std::vector<uint8_t>> out(n.destinations.size()), in(n.sources.size());
  std::vector<drv::Request> reqs;
  for (size_t j = 0; j < n.sources.size(); ++j) {
    if (n.sources[j] == MPI_PROC_NULL) continue;
    in[j].resize(rb.bytes(j));
    reqs.push_back(c.comm->irecv(in[j].data(), in[j].size(), drv::Datatype::U8, static_cast<unsigned>(n.sources[j]), tag));
  }
  for (size_t j : n.send_order) {
    if (n.destinations[j] == MPI_PROC_NULL) continue;
    const size_t k = same ? 0 : j;
    out[j].resize(s.bytes(k));
    pack(*s.types[k], static_cast<const uint8_t*>(send) + s.displs[k], s.counts[k], out[j].data());
    r.bytes_sent += out[j].size();
    reqs.push_back(c.comm->isend(out[j].data(), out[j].size(), drv::Datatype::U8,
                                 static_cast<unsigned>(n.destinations[j]), tag));
  }
  for (drv::Request& q : reqs) c.comm->wait(q);
  for (size_t j = 0; j < n.sources.size(); ++j)
    if (n.sources[j] != MPI_PROC_NULL) {
      unpack(*rb.types[j], in[j].data(), rb.counts[j], static_cast<uint8_t*>(recv) + rb.displs[j]);
      r.bytes_received += in[j].size();
    }
}

void allgather(Rank& r, MPI_Comm comm, const void* send, int scount, MPI_Datatype stype, void* recv,
               const int* rcounts, const int* displs, int rcount, MPI_Datatype rtype) {
  const size_t n = neighbours(r.comm(comm)).sources.size();
  neighbour_exchange(r, comm, send, Blocks(r.type(stype, "sendtype"), 1, nullptr, nullptr, scount), true, recv,
                     Blocks(r.type(rtype, "recvtype"), n, rcounts, displs, rcount));
}

void alltoall(Rank& r, MPI_Comm comm, const void* send, const int* scounts, const int* sdispls, int scount,
              MPI_Datatype stype, void* recv, const int* rcounts, const int* rdispls, int rcount, MPI_Datatype rtype) {
  const Neighbourhood n = neighbours(r.comm(comm));
  neighbour_exchange(r, comm, send, Blocks(r.type(stype, "sendtype"), n.destinations.size(), scounts, sdispls, scount),
                     false, recv, Blocks(r.type(rtype, "recvtype"), n.sources.size(), rcounts, rdispls, rcount));
}

void alltoallw(Rank& r, MPI_Comm comm, const void* send, const int* scounts, const MPI_Aint* sdispls,
               const MPI_Datatype* stypes, void* recv, const int* rcounts, const MPI_Aint* rdispls,
               const MPI_Datatype* rtypes) {
  if (!scounts || !sdispls || !stypes || !rcounts || !rdispls || !rtypes)
    fail(MPI_ERR_ARG, "a count, displacement or datatype array is null");
  const Neighbourhood n = neighbours(r.comm(comm));
  neighbour_exchange(r, comm, send, Blocks(r, n.destinations.size(), scounts, sdispls, stypes), false, recv,
                     Blocks(r, n.sources.size(), rcounts, rdispls, rtypes));
}

// A persistent neighbourhood collective's check when it is made: `comm` has a topology.
std::function<void(Rank&)> has_topology(MPI_Comm comm) {
  return [comm](Rank& r) { neighbours(r.comm(comm)); };
}

void check_arrays(std::initializer_list<const int*> arrays) {
  for (const int* a : arrays)
    if (!a) fail(MPI_ERR_ARG, "a count or displacement array is null");
}

}  // namespace

extern "C" {

int MPI_Neighbor_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                           MPI_Datatype recvtype, MPI_Comm comm) {
  return api("MPI_Neighbor_allgather", comm, [&](Rank& r) {
    allgather(r, comm, sendbuf, sendcount, sendtype, recvbuf, nullptr, nullptr, recvcount, recvtype);
  });
}

int MPI_Neighbor_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                            const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm) {
  return api("MPI_Neighbor_allgatherv", comm, [&](Rank& r) {
    check_arrays({recvcounts, displs});
    allgather(r, comm, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, 0, recvtype);
  });
}

int MPI_Neighbor_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                          MPI_Datatype recvtype, MPI_Comm comm) {
  return api("MPI_Neighbor_alltoall", comm, [&](Rank& r) {
    alltoall(r, comm, sendbuf, nullptr, nullptr, sendcount, sendtype, recvbuf, nullptr, nullptr, recvcount, recvtype);
  });
}

int MPI_Neighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                           void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                           MPI_Comm comm) {
  return api("MPI_Neighbor_alltoallv", comm, [&](Rank& r) {
    check_arrays({sendcounts, sdispls, recvcounts, rdispls});
    alltoall(r, comm, sendbuf, sendcounts, sdispls, 0, sendtype, recvbuf, recvcounts, rdispls, 0, recvtype);
  });
}

// The non-blocking forms: started as the other non-blocking collectives are
// (post_in_background: in the background of the rank's waits, or on its coprocessor).
int MPI_Ineighbor_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                            MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  return api("MPI_Ineighbor_allgather", comm, [&](Rank& r) {
    post_in_background(r, comm, request, [=](Rank& rr) {
      allgather(rr, comm, sendbuf, sendcount, sendtype, recvbuf, nullptr, nullptr, recvcount, recvtype);
    });
  });
}

int MPI_Ineighbor_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                             const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request* request) {
  return api("MPI_Ineighbor_allgatherv", comm, [&](Rank& r) {
    check_arrays({recvcounts, displs});
    post_in_background(r, comm, request, [=](Rank& rr) {
      allgather(rr, comm, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, 0, recvtype);
    });
  });
}

int MPI_Ineighbor_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                           MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  return api("MPI_Ineighbor_alltoall", comm, [&](Rank& r) {
    post_in_background(r, comm, request, [=](Rank& rr) {
      alltoall(rr, comm, sendbuf, nullptr, nullptr, sendcount, sendtype, recvbuf, nullptr, nullptr, recvcount, recvtype);
    });
  });
}

int MPI_Ineighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                            void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                            MPI_Comm comm, MPI_Request* request) {
  return api("MPI_Ineighbor_alltoallv", comm, [&](Rank& r) {
    check_arrays({sendcounts, sdispls, recvcounts, rdispls});
    post_in_background(r, comm, request, [=](Rank& rr) {
      alltoall(rr, comm, sendbuf, sendcounts, sdispls, 0, sendtype, recvbuf, recvcounts, rdispls, 0, recvtype);
    });
  });
}

int MPI_Neighbor_alltoallw(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                           const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                           const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
  return api("MPI_Neighbor_alltoallw", comm, [&](Rank& r) {
    alltoallw(r, comm, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes);
  });
}

int MPI_Ineighbor_alltoallw(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                            const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                            const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                            MPI_Request* request) {
  return api("MPI_Ineighbor_alltoallw", comm, [&](Rank& r) {
    post_in_background(r, comm, request, [=](Rank& rr) {
      alltoallw(rr, comm, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes);
    });
  });
}

// The persistent forms (MPI-4): the topology checked now, the blocking one started by each
// MPI_Start as the non-blocking forms are.
int MPI_Neighbor_allgather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                MPI_Request* request) {
  return persistent_collective("MPI_Neighbor_allgather_init", comm, info, request, [=](Rank& rr) {
    allgather(rr, comm, sendbuf, sendcount, sendtype, recvbuf, nullptr, nullptr, recvcount, recvtype);
  }, has_topology(comm));
}
int MPI_Neighbor_allgatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                 const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                                 MPI_Info info, MPI_Request* request) {
  return persistent_collective("MPI_Neighbor_allgatherv_init", comm, info, request, [=](Rank& rr) {
    check_arrays({recvcounts, displs});
    allgather(rr, comm, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, 0, recvtype);
  }, has_topology(comm));
}
int MPI_Neighbor_alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                               int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                               MPI_Request* request) {
  return persistent_collective("MPI_Neighbor_alltoall_init", comm, info, request, [=](Rank& rr) {
    alltoall(rr, comm, sendbuf, nullptr, nullptr, sendcount, sendtype, recvbuf, nullptr, nullptr, recvcount,
             recvtype);
  }, has_topology(comm));
}
int MPI_Neighbor_alltoallv_init(const void* sendbuf, const int sendcounts[], const int sdispls[],
                                MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                                MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return persistent_collective("MPI_Neighbor_alltoallv_init", comm, info, request, [=](Rank& rr) {
    check_arrays({sendcounts, sdispls, recvcounts, rdispls});
    alltoall(rr, comm, sendbuf, sendcounts, sdispls, 0, sendtype, recvbuf, recvcounts, rdispls, 0, recvtype);
  }, has_topology(comm));
}
int MPI_Neighbor_alltoallw_init(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                                const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                                const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                                MPI_Info info, MPI_Request* request) {
  return persistent_collective("MPI_Neighbor_alltoallw_init", comm, info, request, [=](Rank& rr) {
    alltoallw(rr, comm, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes);
  }, has_topology(comm));
}

}  // extern "C"
