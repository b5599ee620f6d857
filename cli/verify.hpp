// The reference model `collnet run` checks results against, and the comparison.
#pragma once

#include <cstdint>
#include <vector>

#include "driver/op.hpp"

namespace collnet::cli {

// The element-wise reduction of every rank's input.
std::vector<uint64_t> reference_allreduce(const std::vector<std::vector<uint64_t>>& inputs, driver::Op op);

struct Mismatch {
  uint64_t count = 0;  // wrong elements over all ranks
  unsigned rank = 0;   // the first wrong one
  uint64_t index = 0, expected = 0, got = 0;
};

// Compares every rank's result with `want`.
Mismatch compare(const std::vector<std::vector<uint64_t>>& results, const std::vector<uint64_t>& want);

}  // namespace collnet::cli
