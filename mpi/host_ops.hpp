// SPDX-License-Identifier: Apache-2.0
// The predefined reductions of the basic types the driver has no element type for
// (MPI_LONG_DOUBLE, the complex types and the pairs of TypeDesc::Host): the processors compute them, as
// functions with the shape of a user op over a run of basic elements, folded along the
// same tree as a user op (api_coll.cpp).
#pragma once

#include "mpi/datatypes.hpp"
#include "mpi/runtime.hpp"

namespace collnet::mpi {

// The function computing `op` on elements of `host`, or null when the op does not apply
// (MPI allows sum and product on complex numbers; sum, product, max and min on long double;
// MPI_MAXLOC and MPI_MINLOC on pairs).
const UserOp* host_op(MPI_Op op, TypeDesc::Host host);
// The basic type whose elements a host op's `len` counts.
const TypeDesc& host_basic_type(TypeDesc::Host host);

}  // namespace collnet::mpi
