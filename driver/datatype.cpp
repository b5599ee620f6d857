#include "datatype.hpp"

#include <cstring>

#include "error.hpp"

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

}  // namespace collnet::driver
