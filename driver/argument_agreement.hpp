// SPDX-License-Identifier: Apache-2.0
// Where every data collective starts: the ranks agree on the call's arguments. With
// checking on (Communicator::set_argument_check) that is one extra one-packet pass, and
// ranks passing different counts, types, ops or roots all raise collnet::Error; in any
// case the arguments become the word the call's torus messages lead with.
#pragma once

#include <cstddef>
#include <vector>

#include "driver/collective_context.hpp"

namespace collnet::driver {

// Throws "<call>: the communicator has been freed" once it has.
void check_live(const CollectiveContext& c);
// Checks the communicator is live, starts the call's statistics afresh and folds the
// arguments into c.agreed; with checking on, every rank passed the same ones.
void agree(CollectiveContext& c, size_t count, Datatype type, Op op, unsigned root);
// With checking on: every rank passed the same per-rank array `name`.
void agree_counts(CollectiveContext& c, const char* name, const std::vector<size_t>& v);

}  // namespace collnet::driver
