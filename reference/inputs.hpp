// SPDX-License-Identifier: Apache-2.0
// Seeded input data for `collnet run`: each rank's data depends only on the seed, the
// rank and the element index (never on the machine's shape), and is shaped per type and
// operation so that results are not trivially all-zero or all-one on large machines.
// Elements are raw bit patterns; maxloc/minloc inputs are (value, index) pairs whose
// index is the rank, with values drawn from a small set so that ties happen.
#pragma once

#include <cstdint>
#include <vector>

#include "driver/datatype.hpp"
#include "driver/op.hpp"

namespace collnet::reference {

std::vector<uint64_t> seeded_input(uint64_t seed, unsigned rank, uint64_t count, driver::Datatype type, driver::Op op);

}  // namespace collnet::reference
