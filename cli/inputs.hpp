// Seeded input data for `collnet run`: each rank's data depends only on the seed, the
// rank and the element index (never on the machine's shape), and is shaped per operation
// so that results are not trivially all-zero or all-one on large machines.
#pragma once

#include <cstdint>
#include <vector>

#include "driver/op.hpp"

namespace collnet::cli {

std::vector<uint64_t> seeded_input(uint64_t seed, unsigned rank, uint64_t count, driver::Op op);

}  // namespace collnet::cli
