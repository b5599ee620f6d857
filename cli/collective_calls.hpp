// SPDX-License-Identifier: Apache-2.0
// How a command calls each collective on a communicator: the command line's half of the
// collectives table (reference/collectives.hpp is the reference model's), one call per
// collective there.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "driver/communicator.hpp"
#include "driver/datatype.hpp"
#include "driver/op.hpp"
#include "reference/counts.hpp"

namespace collnet::cli {

// One rank's call. The command line keeps elements in raw form, one per uint64_t (pairs
// of value and index words for maxloc/minloc), which the reference model works on; the
// call lays them out natively, as a program holds them, runs the collective on those
// buffers and reads the result back. `recv` holds `recv_count` elements.
struct Call {
  driver::Datatype type;
  driver::Op op;
  unsigned root;
  size_t count;
  const uint64_t* send;
  uint64_t* recv;
  size_t recv_count;
  const reference::Counts* counts = nullptr;  // the vector and personalised forms
};

using CollectiveCall = std::function<void(driver::Communicator&, const Call&)>;

// The call of the collective `name` (a name of reference::collectives()). Throws
// std::invalid_argument for any other name.
const CollectiveCall& collective_call(const std::string& name);

}  // namespace collnet::cli
