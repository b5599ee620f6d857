// SPDX-License-Identifier: Apache-2.0
#include "driver/datatype.hpp"

#include <algorithm>
#include <cstring>

#include "driver/error.hpp"

namespace collnet::driver {

namespace {
struct TypeInfo {
  Datatype type;
  const char* name;
  unsigned bits;
  bool is_signed, is_float;
};
constexpr TypeInfo kTypes[] = {
    {Datatype::U8, "u8", 8, false, false},    {Datatype::U16, "u16", 16, false, false},
    {Datatype::U32, "u32", 32, false, false}, {Datatype::U64, "u64", 64, false, false},
    {Datatype::I8, "i8", 8, true, false},     {Datatype::I16, "i16", 16, true, false},
    {Datatype::I32, "i32", 32, true, false},  {Datatype::I64, "i64", 64, true, false},
    {Datatype::F32, "f32", 32, true, true},   {Datatype::F64, "f64", 64, true, true},
};
const TypeInfo& info(Datatype t) {
  for (const TypeInfo& i : kTypes)
    if (i.type == t) return i;
  throw Error("unknown element type");
}
}  // namespace

Datatype parse_datatype(const std::string& text) {
  for (const TypeInfo& i : kTypes)
    if (text == i.name) return i.type;
  std::string known;
  for (const TypeInfo& i : kTypes) known += std::string(known.empty() ? "" : ", ") + i.name;
  throw Error("unknown type '" + text + "' (known: " + known + ")");
}

const char* to_string(Datatype t) { return info(t).name; }

const std::vector<Datatype>& all_datatypes() {
  static const std::vector<Datatype> types = [] {
    std::vector<Datatype> v;
    for (const TypeInfo& i : kTypes) v.push_back(i.type);
    return v;
  }();
  return types;
}

unsigned bits(Datatype t) { return info(t).bits; }
bool is_signed(Datatype t) { return info(t).is_signed && !info(t).is_float; }
bool is_float(Datatype t) { return info(t).is_float; }

int64_t raw_to_int(Datatype t, uint64_t raw) {
  const unsigned b = bits(t);
  raw &= raw_mask(t);
  if (is_signed(t) && b < 64 && (raw >> (b - 1)) & 1) raw |= ~raw_mask(t);
  return static_cast<int64_t>(raw);
}

double raw_to_double(Datatype t, uint64_t raw) {
  if (t == Datatype::F32) {
    const uint32_t b = static_cast<uint32_t>(raw);
    float f;
    std::memcpy(&f, &b, sizeof f);
    return f;
  }
  double d;
  std::memcpy(&d, &raw, sizeof d);
  return d;
}

uint64_t double_to_raw(Datatype t, double value) {
  if (t == Datatype::F32) {
    const float f = static_cast<float>(value);
    uint32_t b;
    std::memcpy(&b, &f, sizeof b);
    return b;
  }
  uint64_t b;
  std::memcpy(&b, &value, sizeof b);
  return b;
}

size_t native_bytes(Datatype t, bool pairs) {
  const size_t b = bytes(t);
  return pairs ? 2 * std::max<size_t>(b, 4) : b;
}

uint64_t load_raw(Datatype t, bool pairs, const void* native, size_t i, uint64_t* index) {
  const size_t b = bytes(t);
  const auto* p = static_cast<const unsigned char*>(native) + i * native_bytes(t, pairs);
  uint64_t v = 0;
  std::memcpy(&v, p, b);  // little-endian: the low bytes
  if (pairs && index) {
    int32_t x = 0;
    std::memcpy(&x, p + std::max<size_t>(b, 4), sizeof x);
    *index = static_cast<uint64_t>(static_cast<int64_t>(x));  // sign-extended
  }
  return v;
}

void store_raw(Datatype t, bool pairs, void* native, size_t i, uint64_t raw, uint64_t index) {
  const size_t b = bytes(t);
  auto* p = static_cast<unsigned char*>(native) + i * native_bytes(t, pairs);
  std::memcpy(p, &raw, b);
  if (pairs) {
    const auto x = static_cast<int32_t>(static_cast<int64_t>(index));
    std::memcpy(p + std::max<size_t>(b, 4), &x, sizeof x);
  }
}

std::vector<uint64_t> native_to_raw(Datatype t, bool pairs, const void* native, size_t count) {
  std::vector<uint64_t> raw(count * (pairs ? 2 : 1));
  for (size_t i = 0; i < count; ++i) {
    if (pairs)
      raw[2 * i] = load_raw(t, true, native, i, &raw[2 * i + 1]);
    else
      raw[i] = load_raw(t, false, native, i);
  }
  return raw;
}

void raw_to_native(Datatype t, bool pairs, const uint64_t* raw, size_t count, void* native) {
  for (size_t i = 0; i < count; ++i) {
    if (pairs)
      store_raw(t, true, native, i, raw[2 * i], raw[2 * i + 1]);
    else
      store_raw(t, false, native, i, raw[i]);
  }
}

}  // namespace collnet::driver
