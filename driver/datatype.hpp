// Element types of the collectives library. The library moves elements as their bit
// patterns, one element per uint64_t (zero-extended); these helpers give a type's size
// and signedness and convert values to and from that raw form.
#pragma once

#include <cstdint>
#include <string>
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

// A raw element (bit pattern) as a signed integer (sign-extended for the signed types).
int64_t raw_to_int(Datatype t, uint64_t raw);
// A floating-point raw element as a double (exact for f32 and f64).
double raw_to_double(Datatype t, uint64_t raw);
// The bit pattern of `value` as type `t` (f32 rounds to nearest).
uint64_t double_to_raw(Datatype t, double value);

}  // namespace collnet::driver
