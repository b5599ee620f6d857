// SPDX-License-Identifier: Apache-2.0
#include "driver/tuning.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "driver/error.hpp"

namespace collnet::driver {

const char* to_string(TypeClass k) {
  switch (k) {
    case TypeClass::Any: return "any";
    case TypeClass::Int: return "int";
    case TypeClass::Int64: return "int64";
    case TypeClass::Float: return "float";
  }
  return "?";
}

std::optional<TypeClass> type_class_named(const std::string& name) {
  for (TypeClass k : {TypeClass::Any, TypeClass::Int, TypeClass::Int64, TypeClass::Float})
    if (name == to_string(k)) return k;
  return std::nullopt;
}

TypeClass type_class(Datatype t) {
  if (is_float(t)) return TypeClass::Float;
  return bits(t) == 64 ? TypeClass::Int64 : TypeClass::Int;
}

Datatype measured_type(TypeClass k) {
  switch (k) {
    case TypeClass::Int: return Datatype::I32;
    case TypeClass::Int64: return Datatype::I64;
    case TypeClass::Float: return Datatype::F32;
    case TypeClass::Any: break;
  }
  return Datatype::U64;
}

bool per_type_class(Collective c) {
  return c == Collective::Reduce || c == Collective::Allreduce || c == Collective::Scan || c == Collective::Exscan;
}

Tuning::Tuning(std::vector<TuningRule> rules) : rules_(std::move(rules)) {
  for (const TuningRule& r : rules_) {
    if (r.algorithm == Algorithm::Auto || !applies(r.collective, r.algorithm))
      throw Error(std::string("tuning: ") + to_string(r.algorithm) + " is not an algorithm of " + to_string(r.collective));
    if (r.ranks == 0) throw Error(std::string("tuning: a rule for ") + to_string(r.collective) + " names 0 ranks");
    if (r.types != TypeClass::Any && !per_type_class(r.collective))
      throw Error(std::string("tuning: a rule for ") + to_string(r.collective) + " names type class " +
                  to_string(r.types) + ", but its cost does not depend on the type (only reduce, allreduce, scan " +
                  "and exscan have rules per class)");
  }
  std::stable_sort(rules_.begin(), rules_.end(), [](const TuningRule& a, const TuningRule& b) {
    if (a.collective != b.collective) return a.collective < b.collective;
    if (a.types != b.types) return a.types < b.types;
    if (a.ranks != b.ranks) return a.ranks < b.ranks;
    return a.up_to_bytes < b.up_to_bytes;
  });
}

std::optional<Algorithm> Tuning::pick(Collective c, unsigned ranks, size_t bytes, Datatype type) const {
  const TypeClass own = per_type_class(c) ? type_class(type) : TypeClass::Any;
  auto holds = [&](const TuningRule& r) { return r.collective == c && (r.types == own || r.types == TypeClass::Any); };
  // The measured communicator size nearest `ranks`, by ratio.
  std::optional<unsigned> nearest;
  double best = 0;
  for (const TuningRule& r : rules_) {
    if (!holds(r)) continue;
    const double d = std::fabs(std::log2(static_cast<double>(r.ranks)) - std::log2(static_cast<double>(std::max(1u, ranks))));
    if (!nearest || d < best) {
      nearest = r.ranks;
      best = d;
    }
  }
  if (!nearest) return std::nullopt;
  // At that size, the type's own class where the table has rules for it, else the class-free ones.
  TypeClass k = TypeClass::Any;
  for (const TuningRule& r : rules_)
    if (r.collective == c && r.ranks == *nearest && r.types == own) k = own;
  std::optional<Algorithm> last;
  for (const TuningRule& r : rules_) {
    if (r.collective != c || r.types != k || r.ranks != *nearest) continue;
    if (bytes <= r.up_to_bytes) return r.algorithm;
    last = r.algorithm;
  }
  return last;
}

}  // namespace collnet::driver
