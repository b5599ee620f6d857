// SPDX-License-Identifier: Apache-2.0
// The vector collectives on the tree: gatherv and allgatherv (the tree's gather with
// ranges of different lengths) and reduce_scatter (a reduction of the whole vector of
// which each rank keeps its part), with MPI's arguments (elements of call.type, kInPlace
// as MPI_IN_PLACE). docs/vector-collectives.md.
#pragma once

#include <cstddef>
#include <vector>

#include "driver/collective_context.hpp"

namespace collnet::driver::vector {

// gatherv: the ranges' lengths first (a one-word-per-rank MAX pass that also carries the
// root's recvcounts, so that every rank checks them against what is sent), then one pass.
void gatherv(CollectiveContext& c, const void* send, size_t sendcount, void* recv,
             const std::vector<size_t>& recvcounts, const std::vector<size_t>& displs);
// allgatherv's checks and agreement; fills call.send (this rank's block), counts, displs
// and in_place for the algorithm the table runs (tree::allgatherv or a torus one).
void prepare_allgatherv(CollectiveContext& c, const void* send, size_t sendcount, const std::vector<size_t>& recvcounts,
                        const std::vector<size_t>& displs);
// reduce_scatter (recvcounts[r] elements to rank r) and _block (every count call.count).
void reduce_scatter(CollectiveContext& c, const std::vector<size_t>& recvcounts);

}  // namespace collnet::driver::vector
