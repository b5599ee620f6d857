// SPDX-License-Identifier: Apache-2.0
// mpi.h: the neighbourhood collectives on Cartesian communicators. A rank's neighbours are,
// for each dimension in order, the one below and the one above (MPI_Cart_shift by 1: its
// source, then its destination); a missing one (the edge of a non-periodic dimension) is
// MPI_PROC_NULL, and its block is neither sent nor received. The blocks travel as
// point-to-point messages on the tag the collectives reserve, all started at once and then
// waited for. Between two ranks that are neighbours twice (a periodic dimension of 2, or
// of 1: the rank itself) the messages are told apart by their order: a rank sends to its
// neighbour above before the one below, and receives from the one below first.
#include <initializer_list>
#include <string>
#include <vector>

#include "mpi/api_support.hpp"

using namespace collnet::mpi;
namespace drv = collnet::driver;

namespace {

// The neighbours of this rank in the communicator's Cartesian topology, in MPI's order.
std::vector<int> neighbours(CommEntry& c) {
  if (!c.cart) fail(MPI_ERR_TOPOLOGY, "the communicator has no Cartesian topology (MPI_Cart_create)");
  std::vector<int> n;
  for (size_t d = 0; d < c.cart->dims.size(); ++d) {
    const auto [below, above] = c.cart->shift(comm_rank(c), static_cast<int>(d), 1);
    n.push_back(below == Cartesian::kOffGrid ? MPI_PROC_NULL : below);
    n.push_back(above == Cartesian::kOffGrid ? MPI_PROC_NULL : above);
  }
  return n;
}

// One exchange: to neighbour j the packed bytes `out[j]` (null: nothing), from neighbour j
// into `in[j]` (its expected length). Sends go above before below in each dimension.
void exchange(CommEntry& c, const std::vector<int>& nbrs, const std::vector<const uint8_t*>& out,
              const std::vector<size_t>& out_bytes, std::vector<std::vector<uint8_t>>& in) {
  const unsigned tag = drv::Communicator::kMaxTag;
  std::vector<drv::Request> reqs;
  for (size_t j = 0; j < nbrs.size(); ++j)
    if (nbrs[j] != MPI_PROC_NULL)
      reqs.push_back(c.comm->irecv(in[j].data(), in[j].size(), drv::Datatype::U8, static_cast<unsigned>(nbrs[j]), tag));
  for (size_t d = 0; 2 * d < nbrs.size(); ++d)
    for (size_t j : {2 * d + 1, 2 * d})
      if (nbrs[j] != MPI_PROC_NULL)
        reqs.push_back(c.comm->isend(out[j], out_bytes[j], drv::Datatype::U8, static_cast<unsigned>(nbrs[j]), tag));
  for (drv::Request& q : reqs) c.comm->wait(q);
}

// counts[j] elements of `t` at displs[j] extents of `buf` (or block j of `count` elements).
struct Blocks {
  const TypeDesc& t;
  std::vector<size_t> counts;
  std::vector<ptrdiff_t> displs;
  Blocks(const TypeDesc& type, size_t n, const int* c, const int* d, int count) : t(type) {
    for (size_t j = 0; j < n; ++j) {
      const int k = c ? c[j] : count;
      if (k < 0) fail(MPI_ERR_COUNT, "count " + std::to_string(k) + " for neighbour " + std::to_string(j) + " is negative");
      counts.push_back(as_size(k));
      displs.push_back((d ? d[j] : static_cast<ptrdiff_t>(j) * count) * type.extent);
    }
  }
};

// The neighbourhood allgather (`same`: one block for all) or alltoall, v-forms included.
void neighbour_exchange(Rank& r, MPI_Comm comm, const void* send, const Blocks& s, bool same, void* recv,
                        const Blocks& rb) {
  CommEntry& c = r.comm(comm);
  const std::vector<int> nbrs = neighbours(c);
  if (c.self) fail(MPI_ERR_COMM, "the neighbourhood collectives do not run on MPI_COMM_SELF");
  std::vector<std::vector<uint8_t>> packed(nbrs.size()), in(nbrs.size());
  std::vector<const uint8_t*> out(nbrs.size());
  std::vector<size_t> out_bytes(nbrs.size());
  for (size_t j = 0; j < nbrs.size(); ++j) {
    const size_t k = same ? 0 : j;
    if (!same || j == 0) {
      packed[k].resize(s.counts[k] * s.t.packed);
      pack(s.t, static_cast<const uint8_t*>(send) + s.displs[k], s.counts[k], packed[k].data());
    }
    out[j] = packed[k].data();
    out_bytes[j] = packed[k].size();
    in[j].resize(rb.counts[j] * rb.t.packed);
  }
  exchange(c, nbrs, out, out_bytes, in);
  for (size_t j = 0; j < nbrs.size(); ++j)
    if (nbrs[j] != MPI_PROC_NULL) {
      unpack(rb.t, in[j].data(), rb.counts[j], static_cast<uint8_t*>(recv) + rb.displs[j]);
      r.bytes_received += in[j].size();
      r.bytes_sent += out_bytes[j];
    }
}

size_t degree(Rank& r, MPI_Comm comm) { return neighbours(r.comm(comm)).size(); }

void allgather(Rank& r, MPI_Comm comm, const void* send, int scount, MPI_Datatype stype, void* recv,
               const int* rcounts, const int* displs, int rcount, MPI_Datatype rtype) {
  const size_t n = degree(r, comm);
  neighbour_exchange(r, comm, send, Blocks(r.type(stype, "sendtype"), 1, nullptr, nullptr, scount), true, recv,
                     Blocks(r.type(rtype, "recvtype"), n, rcounts, displs, rcount));
}

void alltoall(Rank& r, MPI_Comm comm, const void* send, const int* scounts, const int* sdispls, int scount,
              MPI_Datatype stype, void* recv, const int* rcounts, const int* rdispls, int rcount, MPI_Datatype rtype) {
  const size_t n = degree(r, comm);
  neighbour_exchange(r, comm, send, Blocks(r.type(stype, "sendtype"), n, scounts, sdispls, scount), false, recv,
                     Blocks(r.type(rtype, "recvtype"), n, rcounts, rdispls, rcount));
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

// The non-blocking forms: done when they return, as the other non-blocking collectives are.
int MPI_Ineighbor_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                            MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  return api("MPI_Ineighbor_allgather", comm, [&](Rank& r) {
    allgather(r, comm, sendbuf, sendcount, sendtype, recvbuf, nullptr, nullptr, recvcount, recvtype);
    complete_request(r, request);
  });
}

int MPI_Ineighbor_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                             const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request* request) {
  return api("MPI_Ineighbor_allgatherv", comm, [&](Rank& r) {
    check_arrays({recvcounts, displs});
    allgather(r, comm, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, 0, recvtype);
    complete_request(r, request);
  });
}

int MPI_Ineighbor_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                           MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  return api("MPI_Ineighbor_alltoall", comm, [&](Rank& r) {
    alltoall(r, comm, sendbuf, nullptr, nullptr, sendcount, sendtype, recvbuf, nullptr, nullptr, recvcount, recvtype);
    complete_request(r, request);
  });
}

int MPI_Ineighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                            void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                            MPI_Comm comm, MPI_Request* request) {
  return api("MPI_Ineighbor_alltoallv", comm, [&](Rank& r) {
    check_arrays({sendcounts, sdispls, recvcounts, rdispls});
    alltoall(r, comm, sendbuf, sendcounts, sdispls, 0, sendtype, recvbuf, recvcounts, rdispls, 0, recvtype);
    complete_request(r, request);
  });
}

}  // extern "C"
