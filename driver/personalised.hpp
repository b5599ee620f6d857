// SPDX-License-Identifier: Apache-2.0
// The personalised collectives over the torus: alltoallv (every pair's message in flight
// at once) and scatterv (the root sends each rank its block), and alltoall and scatter
// as their cases (torus-linear in the algorithm table). docs/vector-collectives.md.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "driver/collective_context.hpp"
#include "driver/pending_collective.hpp"

namespace collnet::driver::personalised {

// The bodies, with MPI's arguments (in elements of call.type; kInPlace as MPI_IN_PLACE):
// they check the layouts and the counts the ranks exchange, naming call.name.
void alltoallv(CollectiveContext& c, const void* send, const std::vector<size_t>& sendcounts,
               const std::vector<size_t>& sdispls, void* recv, const std::vector<size_t>& recvcounts,
               const std::vector<size_t>& rdispls);
void scatterv(CollectiveContext& c, const void* send, const std::vector<size_t>& sendcounts,
              const std::vector<size_t>& displs, void* recv, size_t recvcount);

// The runners: call.count elements per rank.
void alltoall_linear(CollectiveContext& c);
// alltoall by the DMA engines, started (its descriptors queued) and not waited for; nullptr
// where alltoall would not go by them (no engine, a block not of whole words, in place, ...).
std::shared_ptr<PendingCollective> alltoall_start(CollectiveContext& c);
void scatter_linear(CollectiveContext& c);

}  // namespace collnet::driver::personalised
