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

// Waits until what the rank posted has run (nothing without a coprocessor), and finishes
// what it started on the DMA engines (driver::Communicator::finish_started): MPI lets a
// program free the datatype, op or communicator of a non-blocking collective it has just
// started, and the work uses them when it runs, so MPI_Type_free, MPI_Op_free and
// MPI_Comm_free call this first.
void settle_posted(Rank& r);

// Waits until what the rank posted to its coprocessor has run (nothing without one, or on
// the coprocessor itself): a collective the rank runs itself comes after those it posted,
// as driver::Communicator::context() orders the driver's. The collectives the MPI layer
// builds from point-to-point messages (a user op's tree, the neighbourhood and
// intercommunicator ones) call it first: they share their tag with the posted ones.
void after_posted(Rank& r);

}  // namespace collnet::mpi
