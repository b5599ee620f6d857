// SPDX-License-Identifier: Apache-2.0
// The collectives on the combining network ("tree" in the algorithm table): one pass over
// the class route each (two for float sums), bits moved by OR with the zeros of the ranks
// that do not own them, reductions through the ALU; the barrier on the barrier network.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "driver/collective_context.hpp"

namespace collnet::driver::tree {

// The runners of the algorithm table (collective_table.hpp).
void barrier(CollectiveContext& c);
void bcast(CollectiveContext& c);
void reduce(CollectiveContext& c);
void allreduce(CollectiveContext& c);
void gather(CollectiveContext& c);
void allgather(CollectiveContext& c);
void allgatherv(CollectiveContext& c);
void scan(CollectiveContext& c);
void exscan(CollectiveContext& c);

// One pass gathering rank j's counts[j] elements (this rank's from `src`) at offset
// counts[0] + ... + counts[j-1]; with `recv`, block j goes to recv at displs[j] (this
// rank's own skipped when in place). `call_id` and the call's root go into the tag; off
// the tree, gatherv's data goes to the root only.
void gather_ranges(CollectiveContext& c, const void* src, const std::vector<size_t>& counts, void* recv,
                   const std::vector<size_t>& displs, bool in_place, CallId call_id);

}  // namespace collnet::driver::tree
