// SPDX-License-Identifier: Apache-2.0
// Combining on one processor as the combining network does, in no simulated time: the
// messages of a node's tasks and of the torus algorithms, and MPI_Reduce_local's buffers.
#pragma once

#include <cstddef>
#include <cstdint>

#include "driver/datatype.hpp"
#include "driver/encoding.hpp"
#include "driver/op.hpp"

namespace collnet::driver {

// acc[i] = acc[i] op in[i] over `n` words of operands in encoding `e`, as the ALU
// combines two messages (firmware/alu_model.hpp).
void combine_encoded(const Encoding& e, uint64_t* acc, const uint64_t* in, size_t n);

// inout[i] = in[i] op inout[i] over `count` elements of `type` in their native layout
// (ValueIndex pairs for maxloc/minloc), with the values a collective over two ranks gives:
// through the ALU's encoding (float sums as the tree's two passes, maxloc/minloc ties to
// the smaller index), prod multiplied in the type, `in` on the left. Throws collnet::Error
// naming `call` when `op` cannot reduce `type`.
void reduce_local(const char* call, const void* in, void* inout, size_t count, Datatype type, Op op);

}  // namespace collnet::driver
