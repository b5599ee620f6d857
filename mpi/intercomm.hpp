// SPDX-License-Identifier: Apache-2.0
// Intercommunicators (MPI-3.1 §6.6): two disjoint groups, each rank's messages addressed to
// the other group's ranks. collnet builds one as a driver communicator over both groups
// (CommEntry::Inter says where each sits) and runs its collectives (MPI-3.1 §5.2.2) as
// point-to-point messages between the groups over a duplicate of it: a rooted one's root
// passes MPI_ROOT, the rest of its group MPI_PROC_NULL, and the other group the root's
// rank; the all-to-all ones send every rank's blocks to every rank of the other group,
// and a reduction's result in one group is the other group's contributions, folded in
// their rank order (c0 op c1 op ...). MPI_Scan and MPI_Exscan are not defined there
// (MPI_ERR_COMM).
#pragma once

#include <optional>
#include <vector>

#include "mpi/runtime.hpp"

namespace collnet::mpi::inter {

// An intercommunicator between this rank's group `local` and the group `remote` (world
// ranks, each in its group's rank order; disjoint, else MPI_ERR_COMM), with error handler
// `errhandler`: what MPI_Intercomm_create, MPI_Comm_accept/connect and MPI_Comm_join make
// once each side knows both groups. Collective over both groups.
MPI_Comm bridge(Rank& r, MPI_Errhandler errhandler, const std::vector<unsigned>& local,
                const std::vector<unsigned>& remote);

void barrier(CommEntry& c);
void bcast(Rank& r, CommEntry& c, void* buf, int count, MPI_Datatype type, int root);
// Reduce (root) or allreduce (none).
void reduce(Rank& r, CommEntry& c, const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op,
            std::optional<int> root);
// Gather(v) (root) or allgather(v) (none); `rcounts`/`displs` null: `rcount` each, packed in order.
void gather(Rank& r, CommEntry& c, const void* send, int scount, MPI_Datatype stype, void* recv, int rcount,
            const int* rcounts, const int* displs, MPI_Datatype rtype, std::optional<int> root);
void scatter(Rank& r, CommEntry& c, const void* send, int scount, const int* scounts, const int* displs,
             MPI_Datatype stype, void* recv, int rcount, MPI_Datatype rtype, int root);
// Alltoall(v): `scounts`/`rcounts` null: `scount`/`rcount` each, in order.
void alltoall(Rank& r, CommEntry& c, const void* send, int scount, const int* scounts, const int* sdispls,
              MPI_Datatype stype, void* recv, int rcount, const int* rcounts, const int* rdispls, MPI_Datatype rtype);
// Alltoallw: block j counts[j] elements of types[j] at byte displacement displs[j].
void alltoallw(Rank& r, CommEntry& c, const void* send, const int* scounts, const int* sdispls,
               const MPI_Datatype* stypes, void* recv, const int* rcounts, const int* rdispls,
               const MPI_Datatype* rtypes);
// Reduce_scatter(_block): `counts` are the local group's blocks of the other group's reduction.
void reduce_scatter(Rank& r, CommEntry& c, const void* send, void* recv, const std::vector<size_t>& counts,
                    MPI_Datatype type, MPI_Op op);

}  // namespace collnet::mpi::inter
