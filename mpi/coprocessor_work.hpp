// SPDX-License-Identifier: Apache-2.0
// Non-blocking calls in coprocessor mode (docs/coprocessor.md): the rank posts the work to
// its node's coprocessor (fw::Coprocessor), which runs it while the rank goes on, and the
// request completes when it has run. An error the work raises is the request's: MPI_Wait
// or MPI_Test reports it.
#pragma once

#include <functional>

#include "mpi/runtime.hpp"

namespace collnet::mpi {

// Posts `work` (a blocking collective with its arguments) to the rank's coprocessor and
// makes *request the request it completes. The rank must have a coprocessor.
void post_to_coprocessor(Rank& r, MPI_Request* request, std::function<void(Rank&)> work);

}  // namespace collnet::mpi
