// SPDX-License-Identifier: Apache-2.0
// Non-blocking collectives left running. In coprocessor mode (docs/coprocessor.md) the
// rank posts the work to its node's coprocessor (fw::Coprocessor), which runs it while the
// rank goes on; without one, the work runs in the background of the rank's own waits, in
// a fiber of its processor (driver::Communicator::post_background). Either way the request
// completes when the work has run, and an error the work raises is the request's: MPI_Wait
// or MPI_Test reports it.
#pragma once

#include <functional>

#include "mpi/runtime.hpp"

namespace collnet::mpi {

// A request that completes when `work` (a blocking collective, holding copies of its
// arguments) has run on communicator `comm`: posted to the rank's coprocessor in
// coprocessor mode, else started in the background of the rank's waits (any communicator
// but MPI_COMM_SELF, on a processor that runs fibers), else run at once (the request
// returned is then a complete one).
RequestEntry started_entry(Rank& r, MPI_Comm comm, std::function<void(Rank&)> work);
// The same, made the request *request (MPI_ERR_ARG when `request` is null).
void post_in_background(Rank& r, MPI_Comm comm, MPI_Request* request, std::function<void(Rank&)> work);

// Waits until what the rank posted has run (to its coprocessor, or in the background on
// any of its communicators), and finishes what it started on the DMA engines
// (driver::Communicator::finish_started): MPI lets a program free the datatype, op or
// communicator of a non-blocking collective it has just started, and the work uses them
// when it runs, so MPI_Type_free, MPI_Op_free, MPI_Comm_free and MPI_Finalize call this
// first.
void settle_posted(Rank& r);

// Waits until what the rank posted to its coprocessor, and what it started in the
// background on `comm`, has run (nothing when there is none, or in the work itself): a
// collective the rank runs itself comes after those it posted, as
// driver::Communicator::context() orders the driver's. The collectives the MPI layer
// builds from point-to-point messages (a user op's tree, the neighbourhood and
// intercommunicator ones) call it first: they share their tag with the posted ones.
void after_posted(Rank& r, driver::Communicator& comm);

}  // namespace collnet::mpi
