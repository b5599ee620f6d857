// SPDX-License-Identifier: Apache-2.0
// Communicator's point-to-point calls: argument checks, rank translation and waiting, on
// the node's engine (p2p_engine.hpp), which does the matching and the protocols.
#include <algorithm>
#include <string>
#include <vector>

#include "driver/collective_args.hpp"
#include "driver/communicator.hpp"
#include "driver/error.hpp"

namespace collnet::driver {

P2pEngine& Communicator::engine() {
  node_.p2p.attach(task_, node_.p2p_config);
  return node_.p2p;
}

unsigned Communicator::rank_of_task(unsigned t) const {
  const std::vector<unsigned>& m = group_.members;
  if (m.empty()) return group_.world_of_task(t);
  const auto it = std::find(m.begin(), m.end(), t);
  if (it == m.end())
    throw Error("point-to-point: task " + std::to_string(t) + " is not a member of the communicator");
  return static_cast<unsigned>(it - m.begin());
}

size_t Communicator::check_p2p(const char* call, const char* which, unsigned peer, unsigned tag, size_t count,
                               size_t size, const void* buf) const {
  check_live(call);
  if (peer >= this->size())
    throw Error(std::string(call) + ": " + which + " rank " + std::to_string(peer) +
                " is not a rank of a communicator of size " + std::to_string(this->size()));
  if (tag > kMaxTag)
    throw Error(std::string(call) + ": tag " + std::to_string(tag) + " is outside 0.." + std::to_string(kMaxTag));
  if (count > p2p::kMaxBytes / size)
    throw Error(std::string(call) + ": " + std::to_string(count) + " elements of " + std::to_string(size) +
                " bytes are more than a message holds (" + std::to_string(p2p::kMaxBytes) + " bytes)");
  check_buffer(call, "the", buf, count);
  return count * size;
}

Request Communicator::isend(const void* buf, size_t count, Datatype type, unsigned dest, unsigned tag) {
  return isend_bytes(buf, count, bytes(type), dest, tag);
}

Request Communicator::issend(const void* buf, size_t count, Datatype type, unsigned dest, unsigned tag) {
  return isend_bytes(buf, count, bytes(type), dest, tag, std::nullopt, true);
}

Request Communicator::irecv(void* buf, size_t count, Datatype type, unsigned source, unsigned tag) {
  return irecv_bytes(buf, count, bytes(type), source, tag);
}

void Communicator::send(const void* buf, size_t count, Datatype type, unsigned dest, unsigned tag) {
  send_bytes(buf, count, bytes(type), dest, tag);
}

Status Communicator::recv(void* buf, size_t count, Datatype type, unsigned source, unsigned tag) {
  return recv_bytes(buf, count, bytes(type), source, tag);
}

Request Communicator::isend_bytes(const void* buf, size_t count, size_t size, unsigned dest, unsigned tag,
                                  std::optional<size_t> eager_limit, bool synchronous) {
  const size_t length = check_p2p(synchronous ? "ssend" : "send", "destination", dest, tag, count, size, buf);
  Request r = engine().isend(task_, context(), buf, length, group_.task_id(dest), tag, eager_limit, synchronous);
  if (task_.coprocessor) task_.coprocessor->kick();  // its packets are the coprocessor's to move
  return r;
}

Request Communicator::irecv_bytes(void* buf, size_t count, size_t size, unsigned source, unsigned tag) {
  const size_t length = check_p2p("recv", "source", source == kAnySource ? 0 : source, tag == kAnyTag ? 0 : tag,
                                  count, size, buf);
  Request r = engine().irecv(task_, context(), buf, length, source == kAnySource ? kAnySource : group_.task_id(source), tag);
  if (task_.coprocessor) task_.coprocessor->kick();  // a clear to send may be due
  return r;
}

void Communicator::send_bytes(const void* buf, size_t count, size_t size, unsigned dest, unsigned tag) {
  Request r = isend_bytes(buf, count, size, dest, tag);
  wait(r);
}

Status Communicator::recv_bytes(void* buf, size_t count, size_t size, unsigned source, unsigned tag) {
  Request r = irecv_bytes(buf, count, size, source, tag);
  return wait(r);
}

Status Communicator::sendrecv(const void* send_buf, size_t send_count, Datatype send_type, unsigned dest,
                              unsigned send_tag, void* recv_buf, size_t recv_count, Datatype recv_type,
                              unsigned source, unsigned recv_tag) {
  Request rr = irecv(recv_buf, recv_count, recv_type, source, recv_tag);
  Request sr = isend(send_buf, send_count, send_type, dest, send_tag);
  wait(sr);
  return wait(rr);
}

bool Communicator::progress() { return engine().progress(task_); }
bool Communicator::cancel(const Request& r) { return !r.null() && engine().cancel(task_, r); }
bool Communicator::wants_progress() { return engine().wants_progress(task_); }

void Communicator::enable_interrupts() { engine().enable_interrupts(task_); }

bool Communicator::interrupt_pending() { return engine().interrupt_pending(task_); }

bool Communicator::serve_interrupt() { return engine().serve_interrupt(task_); }
void Communicator::set_handler(std::function<void()> fn) { engine().set_handler(task_.task, std::move(fn)); }
void Communicator::watch(bool on) { engine().watch(task_.task, context(), on); }

Status Communicator::finish(Request& r) {
  Status st;
  RequestState* s = r.state();
  if (s == nullptr) return st;
  if (s->cancelled) {
    st.cancelled = true;
    r.reset();
    return st;
  }
  if (!s->is_send) {
    st.source = rank_of_task(s->source_world);
    st.tag = s->tag;
    st.bytes = s->bytes;
  }
  const std::exception_ptr error = s->error;
  r.reset();
  if (error) {
    // Named after the sender; a truncation stays a TruncatedError (MPI_ERR_TRUNCATE).
    const std::string from = "recv from rank " + std::to_string(st.source) + ": ";
    try {
      std::rethrow_exception(error);
    } catch (const TruncatedError& e) {
      throw TruncatedError(from + e.what(), st.source, st.tag);
    } catch (const std::exception& e) {
      throw Error(from + e.what());
    }
  }
  return st;
}

void Communicator::check_request(const char* call, const Request& r) const {
  if (!r.null() && r.state()->context != context())
    throw Error(std::string(call) + ": the request belongs to the communicator with context id " +
                std::to_string(r.state()->context) + ", not this one (" + std::to_string(context()) + ")");
}

Status Communicator::wait(Request& r) {
  check_request("wait", r);
  if (r.null()) return Status{};
  P2pEngine& e = engine();
  while (!r.done()) e.progress(task_);
  return finish(r);
}

bool Communicator::test(Request& r, Status* status) {
  check_request("test", r);
  if (r.null()) return true;
  P2pEngine& e = engine();
  if (!r.done()) e.progress(task_);
  if (!r.done()) return false;
  const Status st = finish(r);
  if (status) *status = st;
  return true;
}

std::vector<Status> Communicator::waitall(std::vector<Request>& rs) {
  for (const Request& r : rs) check_request("waitall", r);
  std::vector<Status> out(rs.size());
  P2pEngine& e = engine();
  // A request stays done once it is: only those from the first one not yet done on are
  // looked at again (an alltoall on 512 ranks waits on 1,022 of them).
  for (size_t next = 0;;) {
    while (next < rs.size() && rs[next].done()) ++next;
    if (next == rs.size()) break;
    e.progress(task_);
  }
  // Every request is finished (and nulled) even when one failed; the first failure is
  // thrown once all are.
  std::exception_ptr first;
  for (size_t i = 0; i < rs.size(); ++i) {
    try {
      out[i] = finish(rs[i]);
    } catch (...) {
      if (!first) first = std::current_exception();
    }
  }
  if (first) std::rethrow_exception(first);
  return out;
}

bool Communicator::testall(std::vector<Request>& rs, std::vector<Status>* statuses) {
  for (const Request& r : rs) check_request("testall", r);
  P2pEngine& e = engine();
  bool all = true;
  for (const Request& r : rs) all = all && r.done();
  if (!all) {
    e.progress(task_);
    all = true;
    for (const Request& r : rs) all = all && r.done();
  }
  if (!all) return false;
  std::vector<Status> out = waitall(rs);
  if (statuses) *statuses = std::move(out);
  return true;
}

size_t Communicator::waitany(std::vector<Request>& rs, Status* status) {
  for (const Request& r : rs) check_request("waitany", r);
  if (std::all_of(rs.begin(), rs.end(), [](const Request& r) { return r.null(); })) return kNoRequest;
  P2pEngine& e = engine();
  for (;;) {
    for (size_t i = 0; i < rs.size(); ++i) {
      if (rs[i].null() || !rs[i].done()) continue;
      const Status st = finish(rs[i]);
      if (status) *status = st;
      return i;
    }
    e.progress(task_);
  }
}

std::optional<Status> Communicator::iprobe(unsigned source, unsigned tag) {
  check_p2p("probe", "source", source == kAnySource ? 0 : source, tag == kAnyTag ? 0 : tag, 0, 1, nullptr);
  P2pEngine& e = engine();
  e.progress(task_);
  const auto f = e.probe(task_, context(), source == kAnySource ? kAnySource : group_.task_id(source), tag);
  if (!f) return std::nullopt;
  Status st;
  st.source = rank_of_task(f->source_world);
  st.tag = f->tag;
  st.bytes = f->bytes;
  return st;
}

Status Communicator::probe(unsigned source, unsigned tag) {
  for (;;) {
    if (std::optional<Status> st = iprobe(source, tag)) return *st;
  }
}

}  // namespace collnet::driver
