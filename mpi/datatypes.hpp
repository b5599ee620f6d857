// SPDX-License-Identifier: Apache-2.0
// MPI datatypes of collnet's MPI interface: the predefined ones, which map onto the
// driver's element types, and the derived ones (contiguous, vector, indexed, struct,
// resized), described by where their bytes lie. A message or collective contribution
// travels packed: the bytes of its elements in type-map order, without gaps; a
// (value, index) pair travels whole, as the driver's ValueIndex<T> (padding included),
// so that pairs reach the combining network in the layout it reduces.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "driver/datatype.hpp"

namespace collnet::mpi {

struct TypeDesc {
  std::string name;      // "MPI_INT", or what built it ("MPI_Type_vector(...)")
  bool predefined = false;
  bool committed = false;
  size_t size = 0;       // MPI_Type_size: bytes of data in one element
  ptrdiff_t lb = 0;      // MPI_Type_get_extent
  ptrdiff_t extent = 0;
  // Where one element's bytes lie, relative to its start, in type-map order, adjacent
  // runs merged; a pair is one run over its whole ValueIndex layout.
  struct Run {
    ptrdiff_t offset;
    size_t bytes;
  };
  std::vector<Run> runs;
  size_t packed = 0;  // bytes one element packs to (the runs' sum)
  // The one element type every basic element of the type map has, if there is one (the
  // reductions need it); `pairs` when those are (value, index) pairs. `basics`: how many.
  std::optional<driver::Datatype> elem;
  bool pairs = false;
  size_t basics = 0;
  size_t align = 1;  // the largest alignment of its basic types (a struct's extent rounds up to it)
  // Basic types the driver has no element type for, whose predefined reductions the
  // processors compute (MPI_LONG_DOUBLE, the complex types, and the pairs whose index is
  // not an int or whose value is a long double: MPI_LONG_DOUBLE_INT, MPI_2REAL,
  // MPI_2DOUBLE_PRECISION): the one every basic element of the type map has, if there is one.
  // Its type signature: the predefined type (handle) of each basic element in type-map
  // order, runs of one type merged; a pair is one element (MPI_Pack_external converts by it).
  struct Basic {
    int type;
    size_t count;
  };
  std::vector<Basic> signature;
  enum class Host { None, LongDouble, FloatComplex, DoubleComplex, LongDoubleComplex, LongDoubleInt, TwoFloat, TwoDouble };
  Host host = Host::None;
  // How it was made (MPI_Type_get_envelope, _get_contents): the combiner (0: a named,
  // predefined type) and the constructor's arguments; the types as their handles, and for
  // a derived one a copy of it (the program may free its handle meanwhile).
  struct Envelope {
    int combiner = 0;
    std::vector<int> ints;
    std::vector<ptrdiff_t> aints;
    std::vector<int> types;
    std::vector<std::shared_ptr<const TypeDesc>> derived;  // null for a predefined type
  } envelope;

  // One element's bytes lie at [0, packed) with nothing between: buffers pass as they are.
  bool contiguous() const {
    return runs.size() <= 1 && (runs.empty() || runs[0].offset == 0) && extent == static_cast<ptrdiff_t>(packed);
  }
};

// The predefined types, indexed by their handle (MPI_CHAR .. MPI_COMPLEX32); [0] is
// MPI_DATATYPE_NULL's empty slot.
const std::vector<TypeDesc>& predefined_types();

// Derived types, from a type each (the constructors check nothing: the caller has).
TypeDesc make_contiguous(size_t count, const TypeDesc& old);
TypeDesc make_vector(size_t count, size_t blocklength, ptrdiff_t stride_bytes, const TypeDesc& old);
TypeDesc make_indexed(const std::vector<size_t>& blocklengths, const std::vector<ptrdiff_t>& displacement_bytes,
                      const TypeDesc& old);
TypeDesc make_struct(const std::vector<size_t>& blocklengths, const std::vector<ptrdiff_t>& displacement_bytes,
                     const std::vector<const TypeDesc*>& types);
TypeDesc make_resized(const TypeDesc& old, ptrdiff_t lb, ptrdiff_t extent);

// `count` elements at `buf` packed into `out` (count * t.packed bytes), and back.
void pack(const TypeDesc& t, const void* buf, size_t count, void* out);
void unpack(const TypeDesc& t, const void* packed, size_t count, void* buf);

}  // namespace collnet::mpi
