// SPDX-License-Identifier: Apache-2.0
// The reference model `collnet run` and the tests check results against: plain C++ on the
// element types (not on the network's encodings), and the comparison.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "driver/datatype.hpp"
#include "driver/op.hpp"

namespace collnet::reference {

struct Counts;

// One collective as every rank called it. Elements are raw bit patterns (pairs of value
// and index for maxloc/minloc, as in driver/communicator.hpp).
struct Problem {
  std::string collective;  // a name in collectives() (reference/collectives.hpp)
  driver::Datatype type = driver::Datatype::U64;
  driver::Op op = driver::Op::Sum;
  unsigned root = 0;
  size_t count = 0;                // --count of the personalised and vector forms
  const Counts* counts = nullptr;  // the vector forms' counts
};

// The op over `values` (raw elements of one position, in rank order). Floating-point
// sums follow driver/float_sum.hpp's precision rule: the exact sum of the contributions,
// each truncated toward minus infinity to the quantum set by the largest exponent,
// rounded once to nearest-even. Products are rounded after every multiplication, in the
// order driver/torus_reductions.cpp defines (the recursive-doubling scan's).
uint64_t reference_op(driver::Datatype t, driver::Op op, const std::vector<uint64_t>& values);
// maxloc/minloc over (value, index) pairs: the winning pair.
std::pair<uint64_t, uint64_t> reference_loc(driver::Datatype t, driver::Op op,
                                            const std::vector<std::pair<uint64_t, uint64_t>>& pairs);

// What each rank's receive buffer must hold afterwards; nothing for ranks whose buffer
// the collective does not define (non-roots of reduce and gather, rank 0 of exscan).
std::vector<std::optional<std::vector<uint64_t>>> reference(const Problem& p,
                                                            const std::vector<std::vector<uint64_t>>& inputs);

struct Mismatch {
  uint64_t count = 0;  // wrong elements over all ranks
  unsigned rank = 0;   // the first wrong one
  uint64_t index = 0, expected = 0, got = 0;
};

// Compares every rank's result with what it must hold.
Mismatch compare(const std::vector<std::vector<uint64_t>>& results,
                 const std::vector<std::optional<std::vector<uint64_t>>>& want);

}  // namespace collnet::reference
