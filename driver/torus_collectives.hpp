// SPDX-License-Identifier: Apache-2.0
// The collectives' torus algorithms: what MPI libraries run on a torus without a combining
// network, on the collectives' point-to-point messages (torus_messages.hpp). Each is a
// runner of the algorithm table (collective_table.hpp); docs/torus-algorithms.md
// describes each with its cost.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "driver/collective_context.hpp"

namespace collnet::driver::torus {

void barrier_dissemination(CollectiveContext& c);
void bcast_binomial(CollectiveContext& c);
// BG/L's torus broadcast: line broadcasts along x from the root, along y from its x line,
// along z from its xy plane, one packet-sized chunk at a time (the world only).
void bcast_deposit(CollectiveContext& c);
void reduce_binomial(CollectiveContext& c);
void allreduce_binomial(CollectiveContext& c);
void allreduce_recursive_doubling(CollectiveContext& c);
void allreduce_ring(CollectiveContext& c);
void allreduce_rabenseifner(CollectiveContext& c);
void scan_recursive_doubling(CollectiveContext& c);
void exscan_recursive_doubling(CollectiveContext& c);
void gather_binomial(CollectiveContext& c);
void scatter_binomial(CollectiveContext& c);
void alltoall_pairwise(CollectiveContext& c);
void alltoall_bruck(CollectiveContext& c);
// allgather and allgatherv: this rank's block is put in place first, then the blocks of
// the others come. Recursive doubling and Bruck need equal blocks in rank order.
void allgather_ring(CollectiveContext& c);
void allgather_recursive_doubling(CollectiveContext& c);
void allgather_bruck(CollectiveContext& c);
void allgather_segment(CollectiveContext& c);
void allgatherv_ring(CollectiveContext& c);
void allgatherv_segment(CollectiveContext& c);

// The segmented allgather's alltoallv: out[j] to rank j, a piece at a time (CollectiveState::segment);
// rank j's message into in_at[j], in_len[j] bytes.
void segment_alltoallv(CollectiveContext& c, const std::vector<std::pair<const unsigned char*, size_t>>& out,
                       const std::vector<unsigned char*>& in_at, const std::vector<size_t>& in_len);

}  // namespace collnet::driver::torus
