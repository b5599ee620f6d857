// SPDX-License-Identifier: Apache-2.0
#include "mpi/coprocessor_work.hpp"

#include <exception>
#include <memory>
#include <utility>

namespace collnet::mpi {

void post_to_coprocessor(Rank& r, MPI_Request* request, std::function<void(Rank&)> work) {
  fw::Coprocessor& co = *r.task().coprocessor();
  driver::Communicator& world = r.dcomm(MPI_COMM_WORLD);
  // A request of the world communicator that no packet completes: the coprocessor does.
  auto state = std::make_shared<driver::RequestState>();
  state->is_send = true;
  state->context = world.context();
  auto failure = std::make_shared<std::exception_ptr>();
  RequestEntry e;
  e.req = driver::Request(state);
  e.dcomm = &world;
  e.on_done = [failure](const driver::Status&) {
    if (*failure) std::rethrow_exception(*failure);
  };
  e.coprocessor = &co;
  e.ticket = co.post([&r, state, failure, work = std::move(work)] {
    r.runtime().set_current(r);  // code of the program it calls (a user op) finds its rank
    try {
      work(r);
    } catch (...) {
      *failure = std::current_exception();
    }
    state->done = true;
  });
  *request = r.add_request(std::move(e));
}

void after_posted(Rank& r) {
  if (fw::Coprocessor* co = r.task().coprocessor()) co->drain();
}

void settle_posted(Rank& r) {
  after_posted(r);
  r.dcomm(MPI_COMM_WORLD).finish_started();  // and what it started on the DMA engines
}

}  // namespace collnet::mpi
