// SPDX-License-Identifier: Apache-2.0
// The "external32" data representation (MPI-3.1 13.5.2) that MPI_Pack_external writes:
// every basic element big-endian, at the standard's sizes (MPI_LONG and MPI_WCHAR in 4
// and 2 bytes, long double as IEEE binary128, a pair's fields without padding), in
// type-map order. It converts from and to collnet's packed form (datatypes.hpp's pack),
// element by element along the type's signature.
#pragma once

#include <cstddef>
#include <cstdint>

#include "mpi/datatypes.hpp"

namespace collnet::mpi {

// Bytes one element of `t` takes in external32.
size_t external32_bytes(const TypeDesc& t);
// `count` elements of `t`, packed (count * t.packed bytes), into external32 at `out`
// (count * external32_bytes(t)); MPI_ERR_ARG naming a value external32 cannot hold (a
// long beyond 32 bits, a wide character beyond 16).
void to_external32(const TypeDesc& t, const uint8_t* packed, size_t count, uint8_t* out);
// And back.
void from_external32(const TypeDesc& t, const uint8_t* in, size_t count, uint8_t* packed);

}  // namespace collnet::mpi
