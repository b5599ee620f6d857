// SPDX-License-Identifier: Apache-2.0
#include "mpi/external32.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "mpi/runtime.hpp"

namespace collnet::mpi {

namespace {

// One field of a basic element: what it holds, where it lies in the packed element, and
// its bytes here and in external32.
struct Field {
  enum Kind { Bytes, Signed, Unsigned, Real, LongDouble } kind;
  size_t at, native, external;
};

// A basic element: one or two fields (a complex number's parts, a pair's value and index).
struct Format {
  Field f[2];
  int fields;
};

Format format_of(int type) {
  const auto one = [](Field::Kind k, size_t native, size_t external) { return Format{{{k, 0, native, external}, {}}, 1}; };
  const auto two = [](Field a, Field b) { return Format{{a, b}, 2}; };
  const size_t ld = sizeof(long double);
  switch (type) {
    case MPI_SHORT: case MPI_INT: case MPI_LONG_LONG: case MPI_INT8_T: case MPI_INT16_T: case MPI_INT32_T:
    case MPI_INT64_T: case MPI_AINT: case MPI_COUNT: case MPI_OFFSET: case MPI_LOGICAL: case MPI_INTEGER:
    case MPI_INTEGER1: case MPI_INTEGER2: case MPI_INTEGER4: case MPI_INTEGER8:
      return one(Field::Signed, predefined_types()[type].packed, predefined_types()[type].packed);
    case MPI_UNSIGNED_SHORT: case MPI_UNSIGNED: case MPI_UNSIGNED_LONG_LONG: case MPI_UINT8_T: case MPI_UINT16_T:
    case MPI_UINT32_T: case MPI_UINT64_T:
      return one(Field::Unsigned, predefined_types()[type].packed, predefined_types()[type].packed);
    case MPI_LONG: return one(Field::Signed, sizeof(long), 4);
    case MPI_UNSIGNED_LONG: return one(Field::Unsigned, sizeof(unsigned long), 4);
    case MPI_WCHAR: return one(Field::Unsigned, sizeof(wchar_t), 2);
    case MPI_FLOAT: case MPI_REAL: case MPI_REAL4: return one(Field::Real, 4, 4);
    case MPI_DOUBLE: case MPI_DOUBLE_PRECISION: case MPI_REAL8: return one(Field::Real, 8, 8);
    case MPI_LONG_DOUBLE: return one(Field::LongDouble, ld, 16);
    case MPI_C_FLOAT_COMPLEX: case MPI_COMPLEX: case MPI_CXX_FLOAT_COMPLEX: case MPI_COMPLEX8:
      return two({Field::Real, 0, 4, 4}, {Field::Real, 4, 4, 4});
    case MPI_C_DOUBLE_COMPLEX: case MPI_DOUBLE_COMPLEX: case MPI_CXX_DOUBLE_COMPLEX: case MPI_COMPLEX16:
      return two({Field::Real, 0, 8, 8}, {Field::Real, 8, 8, 8});
    case MPI_C_LONG_DOUBLE_COMPLEX: case MPI_CXX_LONG_DOUBLE_COMPLEX:
      return two({Field::LongDouble, 0, ld, 16}, {Field::LongDouble, ld, ld, 16});
    // The pairs: the value, then an int where the C struct has it (after the value,
    // aligned to 4), or for Fortran's a second value of the same type.
    case MPI_FLOAT_INT: return two({Field::Real, 0, 4, 4}, {Field::Signed, 4, 4, 4});
    case MPI_DOUBLE_INT: return two({Field::Real, 0, 8, 8}, {Field::Signed, 8, 4, 4});
    case MPI_LONG_INT: return two({Field::Signed, 0, sizeof(long), 4}, {Field::Signed, sizeof(long), 4, 4});
    case MPI_2INT: case MPI_2INTEGER: return two({Field::Signed, 0, 4, 4}, {Field::Signed, 4, 4, 4});
    case MPI_SHORT_INT: return two({Field::Signed, 0, 2, 2}, {Field::Signed, 4, 4, 4});
    case MPI_LONG_DOUBLE_INT: return two({Field::LongDouble, 0, ld, 16}, {Field::Signed, ld, 4, 4});
    case MPI_2REAL: return two({Field::Real, 0, 4, 4}, {Field::Real, 4, 4, 4});
    case MPI_2DOUBLE_PRECISION: return two({Field::Real, 0, 8, 8}, {Field::Real, 8, 8, 8});
    default:  // MPI_CHAR, MPI_SIGNED_CHAR, MPI_UNSIGNED_CHAR, MPI_BYTE, MPI_PACKED, the bools, MPI_CHARACTER
      return one(Field::Bytes, 1, 1);
  }
}

size_t format_bytes(const Format& f) {
  size_t n = 0;
  for (int i = 0; i < f.fields; ++i) n += f.f[i].external;
  return n;
}

// A little-endian integer of `n` bytes, sign-extended when `sign`.
uint64_t load(const uint8_t* p, size_t n, bool sign) {
  uint64_t v = 0;
  for (size_t i = n; i-- > 0;) v = v << 8 | p[i];
  if (sign && n < 8 && (v >> (8 * n - 1) & 1)) v |= ~uint64_t{0} << (8 * n);
  return v;
}

void to_field(const Field& f, int type, const uint8_t* in, uint8_t* out) {
  switch (f.kind) {
    case Field::Bytes: std::memcpy(out, in, f.native); return;
    case Field::Real: std::reverse_copy(in, in + f.native, out); return;
    case Field::LongDouble: {
      long double v;
      std::memcpy(&v, in, sizeof v);
      const __float128 q = static_cast<__float128>(v);  // exact: binary128 holds every x87 value
      uint8_t b[16];
      std::memcpy(b, &q, 16);
      std::reverse_copy(b, b + 16, out);
      return;
    }
    case Field::Signed:
    case Field::Unsigned: {
      const bool sign = f.kind == Field::Signed;
      const uint64_t v = load(in, f.native, sign);
      if (f.external < f.native) {
        const int bits = static_cast<int>(8 * f.external);
        const bool fits = sign ? static_cast<int64_t>(v) >= -(int64_t{1} << (bits - 1)) &&
                                     static_cast<int64_t>(v) < (int64_t{1} << (bits - 1))
                               : v < (uint64_t{1} << bits);
        if (!fits)
          fail(MPI_ERR_ARG, "the " + predefined_types()[type].name + " value " +
                                (sign ? std::to_string(static_cast<int64_t>(v)) : std::to_string(v)) +
                                " does not fit external32's " + std::to_string(f.external) + " bytes");
      }
      for (size_t i = 0; i < f.external; ++i) out[i] = static_cast<uint8_t>(v >> (8 * (f.external - 1 - i)));
      return;
    }
  }
}

void from_field(const Field& f, const uint8_t* in, uint8_t* out) {
  switch (f.kind) {
    case Field::Bytes: std::memcpy(out, in, f.native); return;
    case Field::Real: std::reverse_copy(in, in + f.native, out); return;
    case Field::LongDouble: {
      uint8_t b[16];
      std::reverse_copy(in, in + 16, b);
      __float128 q;
      std::memcpy(&q, b, 16);
      const long double v = static_cast<long double>(q);
      std::memcpy(out, &v, sizeof v);
      return;
    }
    case Field::Signed:
    case Field::Unsigned: {
      uint64_t v = 0;
      for (size_t i = 0; i < f.external; ++i) v = v << 8 | in[i];
      if (f.kind == Field::Signed && f.external < 8 && (v >> (8 * f.external - 1) & 1))
        v |= ~uint64_t{0} << (8 * f.external);
      for (size_t i = 0; i < f.native; ++i) out[i] = static_cast<uint8_t>(v >> (8 * i));
      return;
    }
  }
}

}  // namespace

size_t external32_bytes(const TypeDesc& t) {
  size_t n = 0;
  for (const TypeDesc::Basic& b : t.signature) n += b.count * format_bytes(format_of(b.type));
  return n;
}

void to_external32(const TypeDesc& t, const uint8_t* packed, size_t count, uint8_t* out) {
  for (size_t e = 0; e < count; ++e)
    for (const TypeDesc::Basic& b : t.signature) {
      const Format f = format_of(b.type);
      const size_t native = predefined_types()[b.type].packed;
      for (size_t k = 0; k < b.count; ++k, packed += native)
        for (int i = 0; i < f.fields; ++i) {
          to_field(f.f[i], b.type, packed + f.f[i].at, out);
          out += f.f[i].external;
        }
    }
}

void from_external32(const TypeDesc& t, const uint8_t* in, size_t count, uint8_t* packed) {
  for (size_t e = 0; e < count; ++e)
    for (const TypeDesc::Basic& b : t.signature) {
      const Format f = format_of(b.type);
      const size_t native = predefined_types()[b.type].packed;
      for (size_t k = 0; k < b.count; ++k, packed += native) {
        std::memset(packed, 0, native);  // a pair's or a long double's padding
        for (int i = 0; i < f.fields; ++i) {
          from_field(f.f[i], in, packed + f.f[i].at);
          in += f.f[i].external;
        }
      }
    }
}

}  // namespace collnet::mpi
