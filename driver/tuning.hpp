// SPDX-License-Identifier: Apache-2.0
// What `auto` runs: for each collective, the algorithm measured fastest at a communicator
// size and up to a message size. `collnet tune --torus XxYxZ` measures a table on a machine
// (every algorithm at every size of a grid, `collnet compare`); the table shipped in the
// driver (tuning_shipped.cpp) comes from `make bench`. A collective no rule covers runs
// the built-in choice: the tree where it applies, torus-linear otherwise.
//
// The reductions (reduce, allreduce, scan, exscan) cost differently per element type: the
// combining network carries integers of up to 32 bits in 16- or 32-bit lanes, several to a
// word, 64-bit ones a word each, and sums floats exactly in two passes, five words per
// element (docs/collectives.md), and a torus algorithm combines them in the processors at
// their own costs. Their rules are kept per type class; every other collective moves
// bytes, whatever they hold.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "driver/algorithm.hpp"
#include "driver/datatype.hpp"

namespace collnet::driver {

// Which element types a rule holds for: any, or one class of the reductions'.
enum class TypeClass {
  Any,
  Int,    // integers of 8 to 32 bits (measured at i32)
  Int64,  // 64-bit integers (measured at i64)
  Float,  // f32 and f64 (measured at f32)
};
const char* to_string(TypeClass k);                               // "any", "int", "int64", "float"
std::optional<TypeClass> type_class_named(const std::string& name);
TypeClass type_class(Datatype t);  // never Any
Datatype measured_type(TypeClass k);  // the type a class is tuned at (Any: u64)
// The collectives whose cost depends on the element type (their rules are per class).
bool per_type_class(Collective c);

struct TuningRule {
  Collective collective;
  unsigned ranks;        // the communicator size it was measured at
  size_t up_to_bytes;    // bytes per rank (per pair for alltoall and scatter) it holds up to
  Algorithm algorithm;   // never Auto
  TypeClass types = TypeClass::Any;  // the element types it holds for
};

class Tuning {
 public:
  Tuning() = default;
  // Throws collnet::Error naming a rule whose algorithm does not apply to its collective,
  // is auto, or has zero ranks, or a type class on a collective that is not per_type_class.
  explicit Tuning(std::vector<TuningRule> rules);

  // Among the rules of collective `c` for `type`'s class (the class-free ones where `c` has
  // none for it), those measured at the communicator size nearest `ranks` (on a log scale;
  // a tie goes to the smaller): the first whose up_to_bytes holds `bytes`, or the last.
  // Nothing when no rule names `c`.
  std::optional<Algorithm> pick(Collective c, unsigned ranks, size_t bytes, Datatype type) const;
  const std::vector<TuningRule>& rules() const { return rules_; }

  // The table measured by make bench.
  static const Tuning& shipped();

 private:
  std::vector<TuningRule> rules_;  // per collective and ranks, by up_to_bytes
};

}  // namespace collnet::driver
