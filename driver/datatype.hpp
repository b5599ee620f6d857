// SPDX-License-Identifier: Apache-2.0
// Element types of the collectives library. A program's buffers hold elements in their
// native layout, as in C or MPI: packed at their natural width (a u8 array is one byte per
// element), and the (value, index) pairs of maxloc/minloc as ValueIndex<T>. Inside, the
// library moves each element as its bit pattern in a uint64_t (zero-extended), the "raw"
// form; these helpers give a type's size and signedness and convert between the forms.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace collnet::driver {

enum class Datatype { U8, U16, U32, U64, I8, I16, I32, I64, F32, F64 };

// "u8" .. "u64", "i8" .. "i64", "f32", "f64"; throws collnet::Error naming the text.
Datatype parse_datatype(const std::string& text);
const char* to_string(Datatype t);
const std::vector<Datatype>& all_datatypes();

unsigned bits(Datatype t);  // 8, 16, 32 or 64
inline unsigned bytes(Datatype t) { return bits(t) / 8; }
bool is_signed(Datatype t);  // the signed integer types
bool is_float(Datatype t);   // f32, f64
// The mask of the type's bits in a raw element.
inline uint64_t raw_mask(Datatype t) { return bits(t) == 64 ? ~0ull : (1ull << bits(t)) - 1; }

// A (value, index) pair, the element of maxloc and minloc: MPI's MPI_2INT, MPI_FLOAT_INT,
// MPI_DOUBLE_INT and the like. The index is an int; ties go to the smaller one.
template <class T>
struct ValueIndex {
  T value;
  int32_t index;
};

// The Datatype of a C++ element type (uint8_t .. double, or ValueIndex of one).
template <class T>
constexpr Datatype datatype_of() {
  if constexpr (std::is_same_v<T, uint8_t>) return Datatype::U8;
  else if constexpr (std::is_same_v<T, uint16_t>) return Datatype::U16;
  else if constexpr (std::is_same_v<T, uint32_t>) return Datatype::U32;
  else if constexpr (std::is_same_v<T, uint64_t>) return Datatype::U64;
  else if constexpr (std::is_same_v<T, int8_t>) return Datatype::I8;
  else if constexpr (std::is_same_v<T, int16_t>) return Datatype::I16;
  else if constexpr (std::is_same_v<T, int32_t>) return Datatype::I32;
  else if constexpr (std::is_same_v<T, int64_t>) return Datatype::I64;
  else if constexpr (std::is_same_v<T, float>) return Datatype::F32;
  else if constexpr (std::is_same_v<T, double>) return Datatype::F64;
  else static_assert(sizeof(T) == 0, "not an element type of the collectives library");
}

// The Datatype of a buffer's element type (uint8_t .. double, or ValueIndex of one, the
// elements of maxloc and minloc), and whether it is a (value, index) pair.
template <class T>
struct ElementType {
  static constexpr Datatype type = datatype_of<T>();
  static constexpr bool pairs = false;
};
template <class T>
struct ElementType<ValueIndex<T>> {
  static constexpr Datatype type = datatype_of<T>();
  static constexpr bool pairs = true;
};

// Bytes one element takes in a program's buffer: the type's size, or for (value, index)
// pairs the size of ValueIndex<T> (the index at offset max(size, 4), the whole padded to
// twice that).
size_t native_bytes(Datatype t, bool pairs);
// Element i of a native buffer in raw form (pairs: the value, and the index sign-extended
// into *index), and back (the element's bytes only, never padding).
uint64_t load_raw(Datatype t, bool pairs, const void* native, size_t i, uint64_t* index = nullptr);
void store_raw(Datatype t, bool pairs, void* native, size_t i, uint64_t raw, uint64_t index = 0);
// `count` elements of a native buffer in raw form (pairs: the value, then the index
// sign-extended, per element).
std::vector<uint64_t> native_to_raw(Datatype t, bool pairs, const void* native, size_t count);
// And back: writes `count` elements (each element's bytes only, never padding).
void raw_to_native(Datatype t, bool pairs, const uint64_t* raw, size_t count, void* native);

// A raw element (bit pattern) as a signed integer (sign-extended for the signed types).
int64_t raw_to_int(Datatype t, uint64_t raw);
// A floating-point raw element as a double (exact for f32 and f64).
double raw_to_double(Datatype t, uint64_t raw);
// The bit pattern of `value` as type `t` (f32 rounds to nearest).
uint64_t double_to_raw(Datatype t, double value);

}  // namespace collnet::driver
