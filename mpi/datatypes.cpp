// SPDX-License-Identifier: Apache-2.0
#include "mpi/datatypes.hpp"

#include <algorithm>
#include <cstring>

namespace collnet::mpi {

using driver::Datatype;

namespace {

TypeDesc basic(const char* name, size_t size, std::optional<Datatype> elem) {
  TypeDesc t;
  t.name = name;
  t.predefined = t.committed = true;
  t.size = t.packed = size;
  t.extent = static_cast<ptrdiff_t>(size);
  t.runs = {{0, size}};
  t.elem = elem;
  t.basics = 1;
  t.align = size;
  return t;
}

// A basic type whose reductions the processors compute (TypeDesc::Host).
TypeDesc host_basic(const char* name, size_t size, size_t align, TypeDesc::Host host) {
  TypeDesc t = basic(name, size, std::nullopt);
  t.host = host;
  t.align = align;
  return t;
}

// A (value, index) pair the processors fold (TypeDesc::Host): MPI's size is the two
// fields' (`size`), its extent and what travels the C struct's (`whole`).
TypeDesc host_pair(const char* name, size_t size, size_t whole, size_t align, TypeDesc::Host host) {
  TypeDesc t = host_basic(name, size, align, host);
  t.packed = whole;
  t.extent = static_cast<ptrdiff_t>(whole);
  t.runs = {{0, whole}};
  t.pairs = true;
  return t;
}

// A (value, index) pair: MPI's size is the two fields', its extent and what travels the
// whole ValueIndex<T>.
TypeDesc pair(const char* name, size_t value_bytes, Datatype elem) {
  TypeDesc t;
  t.name = name;
  t.predefined = t.committed = true;
  t.size = value_bytes + 4;
  t.packed = driver::native_bytes(elem, true);
  t.extent = static_cast<ptrdiff_t>(t.packed);
  t.runs = {{0, t.packed}};
  t.elem = elem;
  t.pairs = true;
  t.basics = 1;
  t.align = std::max<size_t>(value_bytes, 4);
  return t;
}

std::vector<TypeDesc> build_predefined() {
  std::vector<TypeDesc> v(1);  // MPI_DATATYPE_NULL
  v[0].name = "MPI_DATATYPE_NULL";
  auto add = [&v](TypeDesc t) {
    t.signature = {{static_cast<int>(v.size()), 1}};
    v.push_back(std::move(t));
  };
  add(basic("MPI_CHAR", 1, Datatype::I8));  // 1
  add(basic("MPI_SIGNED_CHAR", 1, Datatype::I8));
  add(basic("MPI_UNSIGNED_CHAR", 1, Datatype::U8));
  add(basic("MPI_BYTE", 1, Datatype::U8));
  add(basic("MPI_SHORT", 2, Datatype::I16));  // 5
  add(basic("MPI_UNSIGNED_SHORT", 2, Datatype::U16));
  add(basic("MPI_INT", 4, Datatype::I32));
  add(basic("MPI_UNSIGNED", 4, Datatype::U32));
  add(basic("MPI_LONG", sizeof(long), sizeof(long) == 8 ? Datatype::I64 : Datatype::I32));
  add(basic("MPI_UNSIGNED_LONG", sizeof(long), sizeof(long) == 8 ? Datatype::U64 : Datatype::U32));  // 10
  add(basic("MPI_LONG_LONG", 8, Datatype::I64));
  add(basic("MPI_UNSIGNED_LONG_LONG", 8, Datatype::U64));
  add(basic("MPI_FLOAT", 4, Datatype::F32));
  add(basic("MPI_DOUBLE", 8, Datatype::F64));
  add(basic("MPI_INT8_T", 1, Datatype::I8));  // 15
  add(basic("MPI_INT16_T", 2, Datatype::I16));
  add(basic("MPI_INT32_T", 4, Datatype::I32));
  add(basic("MPI_INT64_T", 8, Datatype::I64));
  add(basic("MPI_UINT8_T", 1, Datatype::U8));
  add(basic("MPI_UINT16_T", 2, Datatype::U16));  // 20
  add(basic("MPI_UINT32_T", 4, Datatype::U32));
  add(basic("MPI_UINT64_T", 8, Datatype::U64));
  add(basic("MPI_C_BOOL", 1, Datatype::U8));
  add(basic("MPI_WCHAR", sizeof(wchar_t), std::nullopt));
  add(basic("MPI_AINT", 8, Datatype::I64));  // 25
  add(basic("MPI_COUNT", 8, Datatype::I64));
  add(basic("MPI_OFFSET", 8, Datatype::I64));
  add(basic("MPI_PACKED", 1, std::nullopt));
  add(pair("MPI_FLOAT_INT", 4, Datatype::F32));
  add(pair("MPI_DOUBLE_INT", 8, Datatype::F64));  // 30
  add(pair("MPI_LONG_INT", 8, Datatype::I64));
  add(pair("MPI_2INT", 4, Datatype::I32));
  add(pair("MPI_SHORT_INT", 2, Datatype::I16));
  add(host_basic("MPI_LONG_DOUBLE", sizeof(long double), alignof(long double), TypeDesc::Host::LongDouble));
  add(host_basic("MPI_C_FLOAT_COMPLEX", 8, 4, TypeDesc::Host::FloatComplex));  // 35
  add(host_basic("MPI_C_DOUBLE_COMPLEX", 16, 8, TypeDesc::Host::DoubleComplex));
  add(host_basic("MPI_C_LONG_DOUBLE_COMPLEX", 2 * sizeof(long double), alignof(long double),
                 TypeDesc::Host::LongDoubleComplex));
  add(host_basic("MPI_COMPLEX", 8, 4, TypeDesc::Host::FloatComplex));
  add(host_basic("MPI_DOUBLE_COMPLEX", 16, 8, TypeDesc::Host::DoubleComplex));
  // 40: a pair of a long double and an int, laid out as the C struct (MPI's size is the
  // two fields', its extent the struct's).
  add(host_pair("MPI_LONG_DOUBLE_INT", sizeof(long double) + sizeof(int), 2 * sizeof(long double),
                alignof(long double), TypeDesc::Host::LongDoubleInt));
  add(basic("MPI_CXX_BOOL", sizeof(bool), Datatype::U8));
  add(host_basic("MPI_CXX_FLOAT_COMPLEX", 8, 4, TypeDesc::Host::FloatComplex));
  add(host_basic("MPI_CXX_DOUBLE_COMPLEX", 16, 8, TypeDesc::Host::DoubleComplex));
  add(host_basic("MPI_CXX_LONG_DOUBLE_COMPLEX", 2 * sizeof(long double), alignof(long double),
                 TypeDesc::Host::LongDoubleComplex));
  // 45: Fortran's types with gfortran's default kinds (CHARACTER, LOGICAL, INTEGER, REAL,
  // DOUBLE PRECISION), its pairs, and the sized ones.
  add(basic("MPI_CHARACTER", 1, std::nullopt));
  add(basic("MPI_LOGICAL", 4, Datatype::I32));
  add(basic("MPI_INTEGER", 4, Datatype::I32));
  add(basic("MPI_REAL", 4, Datatype::F32));
  add(basic("MPI_DOUBLE_PRECISION", 8, Datatype::F64));
  add(pair("MPI_2INTEGER", 4, Datatype::I32));  // 50
  add(host_pair("MPI_2REAL", 8, 8, 4, TypeDesc::Host::TwoFloat));
  add(host_pair("MPI_2DOUBLE_PRECISION", 16, 16, 8, TypeDesc::Host::TwoDouble));
  add(basic("MPI_INTEGER1", 1, Datatype::I8));
  add(basic("MPI_INTEGER2", 2, Datatype::I16));
  add(basic("MPI_INTEGER4", 4, Datatype::I32));  // 55
  add(basic("MPI_INTEGER8", 8, Datatype::I64));
  add(basic("MPI_REAL4", 4, Datatype::F32));
  add(basic("MPI_REAL8", 8, Datatype::F64));
  add(host_basic("MPI_COMPLEX8", 8, 4, TypeDesc::Host::FloatComplex));
  add(host_basic("MPI_COMPLEX16", 16, 8, TypeDesc::Host::DoubleComplex));  // 60
  add(basic("MPI_LOGICAL1", 1, Datatype::I8));
  add(basic("MPI_LOGICAL2", 2, Datatype::I16));
  add(basic("MPI_LOGICAL4", 4, Datatype::I32));
  add(basic("MPI_LOGICAL8", 8, Datatype::I64));
  // 65: the 16-byte INTEGER and REAL kinds and the 32-byte COMPLEX one: they travel; no
  // predefined op reduces them (no element type, no host fold).
  add(basic("MPI_INTEGER16", 16, std::nullopt));
  add(basic("MPI_REAL16", 16, std::nullopt));
  TypeDesc complex32 = basic("MPI_COMPLEX32", 32, std::nullopt);
  complex32.align = 16;  // two REAL16s
  add(std::move(complex32));
  return v;
}

// Appends `run` to `runs`, merging it with the last run where they touch (`merge`; a pair
// is never merged: it travels whole).
void append_run(std::vector<TypeDesc::Run>& runs, TypeDesc::Run run, bool merge = true) {
  if (merge && !runs.empty() && runs.back().offset + static_cast<ptrdiff_t>(runs.back().bytes) == run.offset)
    runs.back().bytes += run.bytes;
  else
    runs.push_back(run);
}

// Appends `t`'s runs shifted by `at` to `runs`, merging with the last run where they touch.
void append_runs(std::vector<TypeDesc::Run>& runs, const TypeDesc& t, ptrdiff_t at) {
  for (const TypeDesc::Run& r : t.runs) append_run(runs, {at + r.offset, r.bytes}, !t.pairs);
}

// Appends `times` copies of `t`'s signature to `sig`, merging runs of one type.
void append_signature(std::vector<TypeDesc::Basic>& sig, const TypeDesc& t, size_t times) {
  const auto push = [&sig](TypeDesc::Basic b) {
    if (!sig.empty() && sig.back().type == b.type)
      sig.back().count += b.count;
    else if (b.count)
      sig.push_back(b);
  };
  if (t.signature.size() == 1) {
    push({t.signature[0].type, t.signature[0].count * times});
    return;
  }
  for (size_t i = 0; i < times; ++i)
    for (const TypeDesc::Basic& b : t.signature) push(b);
}

// What a derived type built from (block of `old` at byte displacement) pieces has; the
// bounds are the pieces' (true lb and ub of each element copy).
struct Builder {
  TypeDesc t;
  bool any = false;
  ptrdiff_t lo = 0, hi = 0;
  bool first_elem = true;
  // Widens the bounds to [l, h).
  void bound(ptrdiff_t l, ptrdiff_t h) {
    if (!any || l < lo) lo = l;
    if (!any || h > hi) hi = h;
    any = true;
  }
  void add(const TypeDesc& old, size_t blocklength, ptrdiff_t displacement) {
    // A dense type (one run over its whole extent): the block is one run, however long.
    const bool dense = old.runs.size() == 1 && !old.pairs && old.extent > 0 &&
                       old.runs[0].bytes == static_cast<size_t>(old.extent);
    if (dense && blocklength > 0) {
      append_run(t.runs, {displacement + old.runs[0].offset, blocklength * old.runs[0].bytes});
      bound(displacement + old.lb, displacement + old.lb + static_cast<ptrdiff_t>(blocklength) * old.extent);
    }
    for (size_t i = 0; i < (dense ? 0 : blocklength); ++i) {
      const ptrdiff_t at = displacement + static_cast<ptrdiff_t>(i) * old.extent;
      append_runs(t.runs, old, at);
      bound(at + old.lb, at + old.lb + old.extent);
    }
    if (blocklength == 0) return;
    append_signature(t.signature, old, blocklength);
    t.size += blocklength * old.size;
    t.packed += blocklength * old.packed;
    t.basics += blocklength * old.basics;
    t.align = std::max(t.align, old.align);
    if (first_elem) {
      t.elem = old.elem;
      t.pairs = old.pairs;
      t.host = old.host;
      first_elem = false;
    } else if (t.elem != old.elem || t.pairs != old.pairs || t.host != old.host) {
      t.elem.reset();
      t.host = TypeDesc::Host::None;
    }
  }
  TypeDesc done(std::string name) {
    t.name = std::move(name);
    t.lb = any ? lo : 0;
    t.extent = any ? hi - lo : 0;
    return std::move(t);
  }
};

}  // namespace

const std::vector<TypeDesc>& predefined_types() {
  static const std::vector<TypeDesc> types = build_predefined();
  return types;
}

TypeDesc make_contiguous(size_t count, const TypeDesc& old) {
  Builder b;
  b.add(old, count, 0);
  return b.done("MPI_Type_contiguous(" + std::to_string(count) + ", " + old.name + ")");
}

TypeDesc make_vector(size_t count, size_t blocklength, ptrdiff_t stride_bytes, const TypeDesc& old) {
  Builder b;
  for (size_t i = 0; i < count; ++i) b.add(old, blocklength, static_cast<ptrdiff_t>(i) * stride_bytes);
  return b.done("MPI_Type_vector(" + std::to_string(count) + ", " + std::to_string(blocklength) + ", " + old.name + ")");
}

TypeDesc make_indexed(const std::vector<size_t>& blocklengths, const std::vector<ptrdiff_t>& displacement_bytes,
                      const TypeDesc& old) {
  Builder b;
  for (size_t i = 0; i < blocklengths.size(); ++i) b.add(old, blocklengths[i], displacement_bytes[i]);
  return b.done("MPI_Type_indexed(" + std::to_string(blocklengths.size()) + " blocks of " + old.name + ")");
}

TypeDesc make_struct(const std::vector<size_t>& blocklengths, const std::vector<ptrdiff_t>& displacement_bytes,
                     const std::vector<const TypeDesc*>& types) {
  Builder b;
  for (size_t i = 0; i < blocklengths.size(); ++i) b.add(*types[i], blocklengths[i], displacement_bytes[i]);
  TypeDesc t = b.done("MPI_Type_create_struct(" + std::to_string(blocklengths.size()) + " blocks)");
  // As C lays out a struct (and MPICH and Open MPI do): the extent rounds up to the
  // largest alignment of the members' types.
  const auto a = static_cast<ptrdiff_t>(t.align);
  if (a > 1 && t.extent % a != 0) t.extent += a - t.extent % a;
  return t;
}

TypeDesc make_resized(const TypeDesc& old, ptrdiff_t lb, ptrdiff_t extent) {
  TypeDesc t = old;
  t.name = "MPI_Type_create_resized(" + old.name + ")";
  t.predefined = false;
  t.committed = false;
  t.lb = lb;
  t.extent = extent;
  return t;
}

void pack(const TypeDesc& t, const void* buf, size_t count, void* out) {
  // No bytes to move (an empty type, resized or not, or no element): `buf` may then be
  // NULL, as MPI allows, and must not be offset (undefined behaviour).
  if (count == 0 || t.packed == 0) return;
  const auto* in = static_cast<const uint8_t*>(buf);
  auto* o = static_cast<uint8_t*>(out);
  if (t.contiguous()) {
    if (count * t.packed) std::memmove(o, in, count * t.packed);
    return;
  }
  for (size_t i = 0; i < count; ++i) {
    const uint8_t* base = in + static_cast<ptrdiff_t>(i) * t.extent;
    for (const TypeDesc::Run& r : t.runs) {
      std::memcpy(o, base + r.offset, r.bytes);
      o += r.bytes;
    }
  }
}

void unpack(const TypeDesc& t, const void* packed, size_t count, void* buf) {
  if (count == 0 || t.packed == 0) return;  // as pack
  const auto* in = static_cast<const uint8_t*>(packed);
  auto* out = static_cast<uint8_t*>(buf);
  if (t.contiguous()) {
    if (count * t.packed) std::memmove(out, in, count * t.packed);
    return;
  }
  for (size_t i = 0; i < count; ++i) {
    uint8_t* base = out + static_cast<ptrdiff_t>(i) * t.extent;
    for (const TypeDesc::Run& r : t.runs) {
      std::memcpy(base + r.offset, in, r.bytes);
      in += r.bytes;
    }
  }
}

}  // namespace collnet::mpi
