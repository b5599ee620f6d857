// SPDX-License-Identifier: Apache-2.0
// Op::Prod's reductions over the torus (the ALU cannot multiply), in a fixed order that
// depends only on the communicator's size, on the program's buffers as they are.
#pragma once

#include <cstddef>

#include "driver/collective_context.hpp"

namespace collnet::driver::prod {

// The product of call.count elements of call.send over ranks 0..size()-1: into `out` on
// every rank (allreduce, reduce_scatter: `out` holds count elements) or into call.recv on
// call.root (reduce).
void allreduce(CollectiveContext& c, void* out);
void reduce(CollectiveContext& c);
// The prefixes of scan (inclusive) and exscan into call.recv.
void scan(CollectiveContext& c, bool inclusive);

}  // namespace collnet::driver::prod
