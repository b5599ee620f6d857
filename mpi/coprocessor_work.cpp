// SPDX-License-Identifier: Apache-2.0
#include "mpi/coprocessor_work.hpp"

#include <exception>
#include <memory>
#include <utility>

#include "mpi/api_support.hpp"

namespace collnet::mpi {

namespace {

// A request no packet completes: the work posted does, setting its state done, and an
// error the work raised is thrown by its completion.
struct Posted {
  std::shared_ptr<driver::RequestState> state = std::make_shared<driver::RequestState>();
  std::shared_ptr<std::exception_ptr> failure = std::make_shared<std::exception_ptr>();
  RequestEntry entry;

  explicit Posted(driver::Communicator& comm) {
    state->is_send = true;
    state->context = comm.context();
    entry.req = driver::Request(state);
    entry.dcomm = &comm;
    entry.on_done = [f = failure](const driver::Status&) {
      if (*f) std::rethrow_exception(*f);
    };
  }
  // What the coprocessor or the fiber runs.
  std::function<void()> runner(Rank& r, std::function<void(Rank&)> work) const {
    return [&r, s = state, f = failure, work = std::move(work)] {
      r.runtime().set_current(r);  // code of the program it calls (a user op) finds its rank
      try {
        work(r);
      } catch (...) {
        *f = std::current_exception();
      }
      s->done = true;
    };
  }
};

}  // namespace

RequestEntry started_entry(Rank& r, MPI_Comm comm, std::function<void(Rank&)> work) {
  if (r.task().coprocessor()) {
    fw::Coprocessor& co = *r.task().coprocessor();
    Posted p(r.dcomm(MPI_COMM_WORLD));
    p.entry.coprocessor = &co;
    p.entry.ticket = co.post(p.runner(r, std::move(work)));
    return std::move(p.entry);
  }
  // An intercommunicator's collectives are messages over its driver communicator of both
  // groups (mpi/intercomm.hpp): they queue there.
  CommEntry& c = r.comm(comm);
  const std::shared_ptr<driver::Communicator> on = c.inter ? c.inter->coll : c.self ? nullptr : c.owned;
  driver::Communicator* const dc = c.inter ? on.get() : c.self ? nullptr : c.comm;
  if (dc) {
    Posted p(*dc);
    p.entry.keep = on;  // its driver communicator lives until the request completes
    if (dc->post_background(p.runner(r, work))) return std::move(p.entry);
  }
  work(r);
  return RequestEntry{};  // complete
}

void post_in_background(Rank& r, MPI_Comm comm, MPI_Request* request, std::function<void(Rank&)> work) {
  if (!request) fail(MPI_ERR_ARG, "request is null");
  *request = r.add_request(started_entry(r, comm, std::move(work)));
}

void after_posted(Rank& r, driver::Communicator& comm) {
  if (fw::Coprocessor* co = r.task().coprocessor()) co->drain();
  comm.finish_background();
}

void settle_posted(Rank& r) {
  if (fw::Coprocessor* co = r.task().coprocessor()) co->drain();
  driver::Communicator& world = r.dcomm(MPI_COMM_WORLD);
  world.finish_all_background();
  world.finish_started();  // and what it started on the DMA engines
}

}  // namespace collnet::mpi
