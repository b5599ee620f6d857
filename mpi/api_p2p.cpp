// SPDX-License-Identifier: Apache-2.0
// mpi.h: point-to-point. Messages go through the driver's engine (driver/p2p_engine.hpp:
// eager and rendezvous protocols over the torus, node memory between tasks of a node) as
// the packed bytes of their elements; a derived type is packed before a send and
// unpacked when its receive completes.
#include <algorithm>
#include <climits>
#include <functional>
#include <string>

#include "mpi/api_support.hpp"
#include "mpi/coprocessor_work.hpp"

using namespace collnet::mpi;
namespace drv = collnet::driver;

namespace {

constexpr drv::Datatype kBytes = drv::Datatype::U8;

// The driver rank of `rank` of communicator `c` (MPI_COMM_SELF: this rank in its world dup;
// an intercommunicator: the remote group's rank), and back (a received message's source).
unsigned peer(Rank& r, CommEntry& c, int rank) {
  if (rank == MPI_ANY_SOURCE) return drv::kAnySource;
  if (c.inter) return c.inter->remote_offset + static_cast<unsigned>(rank);
  return c.self ? r.world_rank() : static_cast<unsigned>(rank);
}
int source_of(const CommEntry& c, unsigned driver_source) {
  return c.self ? 0 : static_cast<int>(driver_source - (c.inter ? c.inter->remote_offset : 0));
}
unsigned tag_of(int tag) { return tag == MPI_ANY_TAG ? drv::kAnyTag : static_cast<unsigned>(tag); }

// A status's MPI_ERROR is left as it is: only the calls that complete several requests set
// it (MPI-3.1 3.2.5; InStatus).
void set_status(MPI_Status* s, int source, int tag, size_t bytes) {
  if (s == MPI_STATUS_IGNORE) return;
  s->MPI_SOURCE = source;
  s->MPI_TAG = tag;
  s->collnet_cancelled = 0;
  s->collnet_bytes = bytes;
}
// The empty status (MPI-3.1 3.7.3): what a null request or MPI_PROC_NULL gives.
void empty_status(MPI_Status* s, int source = MPI_ANY_SOURCE) {
  set_status(s, source, MPI_ANY_TAG, 0);
  if (s != MPI_STATUS_IGNORE) s->MPI_ERROR = MPI_SUCCESS;
}

// The basic elements of one element of `t`, walking its type signature in type-map order:
// `walk(basic, n)` for each run of n of one basic type, until it returns false. A pair is
// one element where it is the type itself and two inside a derived type, as Open MPI
// counts them (its value field, `pair_value`, the first).
template <class F>
void for_each_basic(Rank& r, const TypeDesc& t, F&& walk) {
  for (const TypeDesc::Basic& b : t.signature)
    if (!walk(r.type(b.type), b.count)) return;
}
size_t elements_of(const TypeDesc& t, const TypeDesc& basic) { return basic.pairs && !t.predefined ? 2 : 1; }
size_t pair_value(const TypeDesc& pair) { return pair.size - sizeof(int); }
size_t elements_in(Rank& r, const TypeDesc& t) {
  size_t per = 0;
  for_each_basic(r, t, [&](const TypeDesc& b, size_t n) {
    per += n * elements_of(t, b);
    return true;
  });
  return per;
}

// The basic elements a status's bytes of packed `t` hold (MPI_Get_elements): MPI_UNDEFINED
// if they end inside one.
MPI_Count elements(Rank& r, const MPI_Status& s, const TypeDesc& t) {
  if (t.packed == 0) return 0;
  size_t count = s.collnet_bytes / t.packed * elements_in(r, t), rest = s.collnet_bytes % t.packed;
  for_each_basic(r, t, [&](const TypeDesc& b, size_t n) {
    const size_t whole = b.packed ? std::min(n, rest / b.packed) : n;
    rest -= whole * b.packed;
    count += whole * elements_of(t, b);
    if (whole < n && elements_of(t, b) == 2 && rest == pair_value(b)) rest = 0, ++count;  // a pair's value
    return whole == n && rest > 0;
  });
  return rest == 0 ? static_cast<MPI_Count>(count) : MPI_UNDEFINED;
}

// The bytes `count` basic elements of `t` take (MPI_Status_set_elements).
size_t element_bytes(Rank& r, size_t count, const TypeDesc& t) {
  const size_t per = elements_in(r, t);
  if (per == 0) return 0;
  size_t bytes = count / per * t.packed, rest = count % per;
  for_each_basic(r, t, [&](const TypeDesc& b, size_t n) {
    const size_t whole = std::min(n, rest / elements_of(t, b));
    bytes += whole * b.packed;
    rest -= whole * elements_of(t, b);
    if (whole < n && rest == 1 && elements_of(t, b) == 2) rest = 0, bytes += pair_value(b);
    return whole == n && rest > 0;
  });
  return bytes;
}

// A probe's communicator, its source and tag checked (MPI_ANY_SOURCE, MPI_ANY_TAG and
// MPI_PROC_NULL allowed).
CommEntry& probed_comm(Rank& r, MPI_Comm comm, int source, int tag) {
  CommEntry& c = r.comm(comm);
  check_tag(tag, true);
  check_rank(source, peer_count(c), "source", true);
  return c;
}

enum class Mode { Standard, Synchronous, Buffered };

// A send's and a receive's arguments, checked (when they start, and when a persistent
// request is made).
void check_send(Rank& r, MPI_Comm comm, const void* buf, int count, MPI_Datatype type, int dest, int tag) {
  CommEntry& c = r.comm(comm);
  check_count(count);
  const TypeDesc& t = r.type(type);
  check_tag(tag, false);
  check_rank(dest, peer_count(c), "destination");
  check_buffer(buf, as_size(count), t);
}
void check_recv(Rank& r, MPI_Comm comm, const void* buf, int count, MPI_Datatype type, int source, int tag) {
  CommEntry& c = r.comm(comm);
  check_count(count);
  const TypeDesc& t = r.type(type);
  check_tag(tag, true);
  check_rank(source, peer_count(c), "source", true);
  check_buffer(buf, as_size(count), t);
}

// Starts a send; the entry owns the packed copy the message is sent from.
RequestEntry start_send(Rank& r, MPI_Comm comm, const void* buf, int count, MPI_Datatype type, int dest, int tag,
                        Mode mode) {
  check_send(r, comm, buf, count, type, dest, tag);
  CommEntry& c = r.comm(comm);
  const TypeDesc& t = r.type(type);
  r.call_detail = "dest " + std::to_string(dest) + ", tag " + std::to_string(tag) + ", comm " + std::to_string(comm);
  RequestEntry e;
  e.comm = comm;
  e.dcomm = c.comm;
  e.keep = c.owned;
  e.self = c.self;
  e.shift = c.inter ? c.inter->remote_offset : 0;
  if (dest == MPI_PROC_NULL) {
    e.proc_null = true;
    return e;
  }
  auto packed = std::make_shared<Packed>(t, buf, as_size(count));
  const void* data = packed->data;
  size_t bytes = packed->bytes;
  if (mode == Mode::Buffered) {
    // The message is copied out of the program's buffer into the attached one's room.
    if (r.bsend_used + bytes + MPI_BSEND_OVERHEAD > r.bsend_size)
      fail(MPI_ERR_BUFFER, "the attached buffer (" + std::to_string(r.bsend_size) + " bytes, " +
                               std::to_string(r.bsend_used) + " in use) has no room for " + std::to_string(bytes) +
                               " bytes + MPI_BSEND_OVERHEAD (MPI_Buffer_attach)");
    if (packed->copy.empty()) packed->copy.assign(packed->data, packed->data + bytes);
    packed->data = packed->copy.data();
    data = packed->data;
    r.bsend_used += bytes + MPI_BSEND_OVERHEAD;
  }
  e.buffer = std::shared_ptr<std::vector<uint8_t>>(packed, &packed->copy);
  e.req = mode == Mode::Synchronous ? c.comm->issend(data, bytes, kBytes, peer(r, c, dest), tag_of(tag))
                                    : c.comm->isend(data, bytes, kBytes, peer(r, c, dest), tag_of(tag));
  if (mode == Mode::Buffered) {
    const size_t held = bytes + MPI_BSEND_OVERHEAD;
    e.on_done = [&r, held](const drv::Status&) { r.bsend_used -= std::min(r.bsend_used, held); };
  }
  r.bytes_sent += bytes;
  return e;
}

RequestEntry start_recv(Rank& r, MPI_Comm comm, void* buf, int count, MPI_Datatype type, int source, int tag) {
  check_recv(r, comm, buf, count, type, source, tag);
  CommEntry& c = r.comm(comm);
  const TypeDesc& t = r.type(type);
  r.call_detail = "source " + (source == MPI_ANY_SOURCE ? std::string("MPI_ANY_SOURCE") : std::to_string(source)) +
                  ", tag " + (tag == MPI_ANY_TAG ? std::string("MPI_ANY_TAG") : std::to_string(tag)) + ", comm " +
                  std::to_string(comm);
  RequestEntry e;
  e.comm = comm;
  e.dcomm = c.comm;
  e.keep = c.owned;
  e.self = c.self;
  e.shift = c.inter ? c.inter->remote_offset : 0;
  e.is_recv = true;
  if (source == MPI_PROC_NULL) {
    e.proc_null = true;
    return e;
  }
  // A derived type's copy: the program may free its handle before the receive completes.
  auto kept = t.contiguous() ? nullptr : std::make_shared<const TypeDesc>(t);
  auto room = std::make_shared<Unpacked>(kept ? *kept : t, buf, as_size(count));
  e.req = c.comm->irecv(room->data, room->bytes, kBytes, peer(r, c, source), tag_of(tag));
  e.on_done = [room, kept, &r](const drv::Status& st) {
    room->finish(st.bytes);
    r.bytes_received += st.bytes;
  };
  return e;
}

// A generalized request's `which` function returned `rc`: an error of that class if it is
// one of MPI's, MPI_ERR_OTHER otherwise.
void check_callback(int rc, const char* which) {
  if (rc != MPI_SUCCESS)
    fail(rc > 0 && rc <= MPI_ERR_LASTCODE ? rc : MPI_ERR_OTHER,
         std::string("the generalized request's ") + which + " function returned " + std::to_string(rc));
}

// A generalized request's status: what its query function fills in (MPI-3.1 12.2).
void query(const RequestEntry::Generalized& g, MPI_Status* status) {
  MPI_Status s{};
  empty_status(&s);
  const int rc = g.query ? g.query(g.extra_state, &s) : MPI_SUCCESS;
  if (status != MPI_STATUS_IGNORE) *status = s;
  check_callback(rc, "query");
}

// Completes entry `e` (already done, or waits): its status, and what follows completion.
void complete(RequestEntry& e, MPI_Status* status) {
  if (e.completed) {  // by MPI_Request_get_status
    if (status != MPI_STATUS_IGNORE) *status = *e.completed;
    return;
  }
  if (e.generalized) {  // the program's own: its query function, then its free function
    const RequestEntry::Generalized& g = *e.generalized;
    if (!g.complete)
      fail(MPI_ERR_REQUEST, "waiting for a generalized request the program has not completed "
                            "(MPI_Grequest_complete): a rank has one thread, so nothing else can complete it");
    query(g, status);
    const int rc = g.free ? g.free(g.extra_state) : MPI_SUCCESS;
    check_callback(rc, "free");
    return;
  }
  if (e.proc_null) {
    if (e.is_recv)
      empty_status(status, MPI_PROC_NULL);
    else
      empty_status(status);
    return;
  }
  if (e.pending) {  // a collective on the DMA engines: its counters, its errors, its copies
    e.pending->finish();
    empty_status(status);
    return;
  }
  if (e.req.null()) {  // a collective that completed when it started
    empty_status(status);
    return;
  }
  if (e.coprocessor) e.coprocessor->wait_for(e.ticket);  // then done: the wait below returns at once
  drv::Status st;
  try {
    st = e.dcomm->wait(e.req);
  } catch (const collnet::TruncatedError& t) {  // the status still names the message
    if (e.is_recv && t.has_envelope)
      set_status(status, e.self ? 0 : static_cast<int>(t.source - e.shift), static_cast<int>(t.tag), 0);
    throw;
  }
  if (st.cancelled) {  // MPI_Cancel withdrew it: nothing arrived (a send's buffer is free again)
    if (!e.is_recv && e.on_done) e.on_done(st);
    empty_status(status);
    if (status != MPI_STATUS_IGNORE) status->collnet_cancelled = 1;
    return;
  }
  if (e.on_done) e.on_done(st);
  if (e.is_recv)
    set_status(status, e.self ? 0 : static_cast<int>(st.source - e.shift), static_cast<int>(st.tag), st.bytes);
  else
    empty_status(status);
}

bool inactive(const RequestEntry& e) { return e.start && !e.active; }
bool done(const RequestEntry& e) {
  if (e.generalized) return e.generalized->complete;
  return inactive(e) || e.proc_null || (e.pending ? e.pending->test() : e.req.done());
}

// Whether request `q` takes part in a Wait/Test family call: not null, and if persistent,
// started (an inactive one counts as null there).
bool live(Rank& r, MPI_Request q) { return q != MPI_REQUEST_NULL && !inactive(r.request(q)); }
bool none_live(Rank& r, int n, const MPI_Request* qs) {
  return std::none_of(qs, qs + n, [&](MPI_Request q) { return live(r, q); });
}

// Completes request `q` if it is done (or `block`), freeing it; false if not done yet.
bool finish(Rank& r, MPI_Request& q, MPI_Status* status, bool block) {
  if (q == MPI_REQUEST_NULL) {
    empty_status(status);
    return true;
  }
  RequestEntry& e = r.request(q);
  if (inactive(e)) {
    empty_status(status);
    return true;
  }
  if (!block && !done(e)) {
    progress(r);
    if (!done(e)) return false;
  }
  // Completed with an error too (a truncated receive): the request is done with.
  const auto retire = [&r, &q] {
    RequestEntry& d = r.request(q);
    if (d.start) {  // a persistent request stays, inactive, for the next MPI_Start
      RequestEntry idle;
      idle.used = true;
      idle.start = std::move(d.start);
      idle.active = false;
      d = std::move(idle);
    } else {
      r.drop_request(q);
    }
  };
  try {
    complete(e, status);
  } catch (...) {
    retire();
    throw;
  }
  retire();
  return true;
}

// The communicator whose error handler an error in completing `q` goes to.
MPI_Comm comm_of(Rank& r, MPI_Request q) {
  if (q == MPI_REQUEST_NULL) return MPI_COMM_WORLD;
  const MPI_Comm c = r.request(q).comm;
  return c == MPI_COMM_NULL ? MPI_COMM_WORLD : c;
}

// The frame of a call that completes requests: its errors go to the handler of the
// communicator of the request that raised them (`body` names it as it goes).
template <class F>
int completion(const char* name, F&& body) {
  MPI_Comm comm = MPI_COMM_WORLD;
  return api_raising(
      name, [&](Rank& r, int cls, const std::string& what) { return r.raise(comm, name, cls, what); },
      [&](Rank& r) { body(r, comm); });
}

// A call that completes several requests (Waitall, Testall, Waitsome, Testsome): every
// status it fills has its request's code in MPI_ERROR (MPI_SUCCESS where it completed
// without error, as Open MPI sets); a request that completes with an error does not end
// the call, which ends in MPI_ERR_IN_STATUS (MPI-3.1 3.7.5).
class InStatus {
 public:
  InStatus(Rank& r, const char* call) : r_(r), call_(call) {}
  // Completes `q`, its status `status`.
  void finish(MPI_Request& q, MPI_Status* status) {
    const MPI_Comm c = comm_of(r_, q);
    const MpiError e = caught([&] { ::finish(r_, q, status, true); });
    codes_.emplace_back(status, e.cls == MPI_SUCCESS ? MPI_SUCCESS : r_.error_code(call_, e.cls, e.what));
    if (e.cls != MPI_SUCCESS && failed_ == MPI_COMM_NULL) failed_ = c, what_ = e.what;
  }
  // After the last: MPI_ERR_IN_STATUS on the first failed request's communicator.
  void end(MPI_Comm& comm) {
    for (auto [status, code] : codes_)
      if (status != MPI_STATUS_IGNORE) status->MPI_ERROR = code;
    if (failed_ == MPI_COMM_NULL) return;
    comm = failed_;
    fail(MPI_ERR_IN_STATUS, "a request completed with an error: " + what_ + " (each status's MPI_ERROR says which)");
  }

 private:
  Rank& r_;
  const char* call_;
  std::vector<std::pair<MPI_Status*, int>> codes_;
  MPI_Comm failed_ = MPI_COMM_NULL;
  std::string what_;
};

MPI_Status* status_at(MPI_Status* statuses, int i) {
  return statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : statuses + i;
}

int send(const char* name, const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
         Mode mode) {
  return api(name, comm, [&](Rank& r) {
    RequestEntry e = start_send(r, comm, buf, count, type, dest, tag, mode);
    if (mode == Mode::Buffered) {  // done locally: the engine finishes it later
      r.bsends.push_back(r.add_request(std::move(e)));
      return;
    }
    complete(e, MPI_STATUS_IGNORE);
  });
}

int isend(const char* name, const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
          MPI_Request* request, Mode mode) {
  return api(name, comm, [&](Rank& r) {
    if (!request) fail(MPI_ERR_ARG, "request is null");
    *request = r.add_request(start_send(r, comm, buf, count, type, dest, tag, mode));
  });
}

// A persistent request, inactive, whose MPI_Start runs `start`.
// A persistent request, inactive: MPI_Start runs `start` for the operation it begins.
MPI_Request make_persistent(Rank& r, std::function<RequestEntry(Rank&)> start) {
  RequestEntry e;
  e.start = std::move(start);
  e.active = false;
  return r.add_request(std::move(e));
}

int persistent(const char* name, MPI_Comm comm, MPI_Request* request, std::function<RequestEntry(Rank&)> start,
               const std::function<void(Rank&)>& check) {
  return api(name, comm, [&](Rank& r) {
    if (!request) fail(MPI_ERR_ARG, "request is null");
    check(r);  // the arguments, now, as the standard's calls do
    *request = make_persistent(r, std::move(start));
  });
}

int send_init(const char* name, const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
              MPI_Request* request, Mode mode) {
  const auto check = [=](Rank& r) { check_send(r, comm, buf, count, type, dest, tag); };
  return persistent(name, comm, request, [=](Rank& r) {
    RequestEntry e = start_send(r, comm, buf, count, type, dest, tag, mode);
    if (mode != Mode::Buffered) return e;
    // Buffered: done once copied; the copy's send goes on with the other buffered sends.
    r.bsends.push_back(r.add_request(std::move(e)));
    return RequestEntry{};
  }, check);
}

// Starts persistent request `q`.
void start(Rank& r, MPI_Request q) {
  RequestEntry& e = r.request(q);
  if (!e.start) fail(MPI_ERR_REQUEST, "request " + std::to_string(q) + " is not a persistent request");
  if (e.active) fail(MPI_ERR_REQUEST, "request " + std::to_string(q) + " is already started (wait for it first)");
  std::function<RequestEntry(Rank&)> how = std::move(e.start);
  RequestEntry fresh = how(r);  // may add requests: `e` is not used after this
  fresh.used = true;
  fresh.start = std::move(how);
  fresh.active = true;
  r.request(q) = std::move(fresh);
}

}  // namespace

int collnet::mpi::persistent_collective(const char* name, MPI_Comm comm, MPI_Info info, MPI_Request* request,
                                        std::function<void(Rank&)> collective, std::function<void(Rank&)> check) {
  return persistent(
      name, comm, request,
      [comm, collective = std::move(collective)](Rank& r) { return started_entry(r, comm, collective); },
      [=](Rank& r) {
        r.comm(comm);
        if (info != MPI_INFO_NULL) r.info(info);
        if (check) check(r);
      });
}

void collnet::mpi::progress(Rank& r) {
  if (!r.dcomm(MPI_COMM_WORLD).progress()) r.task().cpu().idle(1);
}

void collnet::mpi::finish_pending_sends(Rank& r) {
  for (MPI_Request& q : r.bsends) finish(r, q, MPI_STATUS_IGNORE, true);
  r.bsends.clear();
  // Freed receives whose messages came are put where they belong (a derived type's); an
  // error of theirs has no one to go to (MPI-3.1 3.7.3).
  std::vector<MPI_Request> waiting;
  for (MPI_Request q : r.freed_recvs) {
    if (!done(r.request(q))) {
      waiting.push_back(q);
      continue;
    }
    caught([&] { finish(r, q, MPI_STATUS_IGNORE, true); });
  }
  r.freed_recvs = std::move(waiting);
}

extern "C" {

int MPI_Send(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  return send("MPI_Send", buf, count, datatype, dest, tag, comm, Mode::Standard);
}
int MPI_Ssend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  return send("MPI_Ssend", buf, count, datatype, dest, tag, comm, Mode::Synchronous);
}
// Ready mode needs no protocol of its own: a standard send is a correct one.
int MPI_Rsend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  return send("MPI_Rsend", buf, count, datatype, dest, tag, comm, Mode::Standard);
}
int MPI_Bsend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  return send("MPI_Bsend", buf, count, datatype, dest, tag, comm, Mode::Buffered);
}

int MPI_Buffer_attach(void* buffer, int size) {
  return api("MPI_Buffer_attach", MPI_COMM_WORLD, [&](Rank& r) {
    if (r.bsend_buffer) fail(MPI_ERR_BUFFER, "a buffer is already attached (MPI_Buffer_detach it first)");
    check_count(size, "size");
    r.bsend_buffer = buffer;
    r.bsend_size = as_size(size);
  });
}

int MPI_Buffer_detach(void* buffer_addr, int* size) {
  return api("MPI_Buffer_detach", MPI_COMM_WORLD, [&](Rank& r) {
    finish_pending_sends(r);  // the buffered sends still going, as MPI requires
    *static_cast<void**>(buffer_addr) = r.bsend_buffer;
    *size = static_cast<int>(r.bsend_size);
    r.bsend_buffer = nullptr;
    r.bsend_size = r.bsend_used = 0;
  });
}

int MPI_Recv(void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Status* status) {
  return api("MPI_Recv", comm, [&](Rank& r) {
    RequestEntry e = start_recv(r, comm, buf, count, datatype, source, tag);
    complete(e, status);
  });
}

int MPI_Isend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
              MPI_Request* request) {
  return isend("MPI_Isend", buf, count, datatype, dest, tag, comm, request, Mode::Standard);
}
int MPI_Issend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
               MPI_Request* request) {
  return isend("MPI_Issend", buf, count, datatype, dest, tag, comm, request, Mode::Synchronous);
}
int MPI_Irsend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
               MPI_Request* request) {
  return isend("MPI_Irsend", buf, count, datatype, dest, tag, comm, request, Mode::Standard);
}
int MPI_Ibsend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
               MPI_Request* request) {
  return isend("MPI_Ibsend", buf, count, datatype, dest, tag, comm, request, Mode::Buffered);
}

int MPI_Irecv(void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request* request) {
  return api("MPI_Irecv", comm, [&](Rank& r) {
    if (!request) fail(MPI_ERR_ARG, "request is null");
    *request = r.add_request(start_recv(r, comm, buf, count, datatype, source, tag));
  });
}

int MPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status* status) {
  return api("MPI_Sendrecv", comm, [&](Rank& r) {
    RequestEntry rx = start_recv(r, comm, recvbuf, recvcount, recvtype, source, recvtag);
    RequestEntry tx = start_send(r, comm, sendbuf, sendcount, sendtype, dest, sendtag, Mode::Standard);
    complete(tx, MPI_STATUS_IGNORE);
    complete(rx, status);
  });
}

int MPI_Sendrecv_replace(void* buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag,
                         MPI_Comm comm, MPI_Status* status) {
  return api("MPI_Sendrecv_replace", comm, [&](Rank& r) {
    // The send goes from a packed copy (start_send packs a derived type; a contiguous one
    // is copied here), so the receive may land in the buffer at once.
    const TypeDesc& t = r.type(datatype);
    check_count(count);
    std::vector<uint8_t> copy(as_size(count) * t.packed);
    pack(t, buf, as_size(count), copy.data());
    RequestEntry tx = start_send(r, comm, copy.data(), count * static_cast<int>(t.packed), MPI_BYTE, dest, sendtag,
                                 Mode::Standard);
    RequestEntry rx = start_recv(r, comm, buf, count, datatype, source, recvtag);
    complete(tx, MPI_STATUS_IGNORE);
    complete(rx, status);
  });
}

int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status* status) {
  return api("MPI_Probe", comm, [&](Rank& r) {
    CommEntry& c = probed_comm(r, comm, source, tag);
    if (source == MPI_PROC_NULL) return empty_status(status, MPI_PROC_NULL);
    const drv::Status st = c.comm->probe(peer(r, c, source), tag_of(tag));
    set_status(status, source_of(c, st.source), static_cast<int>(st.tag), st.bytes);
  });
}

int MPI_Iprobe(int source, int tag, MPI_Comm comm, int* flag, MPI_Status* status) {
  return api("MPI_Iprobe", comm, [&](Rank& r) {
    CommEntry& c = probed_comm(r, comm, source, tag);
    if (source == MPI_PROC_NULL) {
      *flag = 1;
      return empty_status(status, MPI_PROC_NULL);
    }
    const std::optional<drv::Status> st = c.comm->iprobe(peer(r, c, source), tag_of(tag));
    *flag = st.has_value();
    if (st) set_status(status, source_of(c, st->source), static_cast<int>(st->tag), st->bytes);
  });
}

}  // extern "C"

namespace {

// A matched probe found message `st` on `c`: receive it now, taking it from matching, and
// keep it under a new message handle. The receive names the message's source and tag, so
// it takes the first such message, the one found (messages from one source do not
// overtake each other, and the probe saw the earliest that matched).
void take_matched(Rank& r, MPI_Comm comm, CommEntry& c, const drv::Status& st, MPI_Message* message,
                  MPI_Status* status) {
  if (st.bytes > static_cast<size_t>(INT_MAX)) fail(MPI_ERR_COUNT, "a message of " + std::to_string(st.bytes) + " bytes");
  Rank::Matched m;
  m.bytes.resize(st.bytes);
  m.source = source_of(c, st.source);
  m.tag = static_cast<int>(st.tag);
  RequestEntry rx = start_recv(r, comm, m.bytes.data(), static_cast<int>(st.bytes), MPI_BYTE, m.source, m.tag);
  complete(rx, MPI_STATUS_IGNORE);
  set_status(status, m.source, m.tag, st.bytes);
  *message = r.next_message++;
  r.matched.emplace(*message, std::move(m));
}

// MPI_Mrecv's work: matched message `*message` into `buf` (MPI_MESSAGE_NULL after).
void receive_matched(Rank& r, void* buf, int count, MPI_Datatype type, MPI_Message* message, MPI_Status* status) {
  if (!message) fail(MPI_ERR_ARG, "message is null");
  check_count(count);
  const TypeDesc& t = r.type(type);
  if (*message == MPI_MESSAGE_NO_PROC) {  // a matched probe of MPI_PROC_NULL
    *message = MPI_MESSAGE_NULL;
    return empty_status(status, MPI_PROC_NULL);
  }
  const auto it = r.matched.find(*message);
  if (it == r.matched.end())
    fail(MPI_ERR_ARG, "message " + std::to_string(*message) + " is not a message a matched probe of this rank " +
                          "took (MPI_Mprobe, MPI_Improbe), or was received already");
  const size_t room = as_size(count) * t.packed;
  if (it->second.bytes.size() > room)
    fail(MPI_ERR_TRUNCATE, "the message's " + std::to_string(it->second.bytes.size()) + " bytes do not fit " +
                               std::to_string(count) + " elements of " + t.name + " (" + std::to_string(room) +
                               " bytes); it stays matched");
  check_buffer(buf, as_size(count), t);
  const Rank::Matched m = std::move(it->second);
  r.matched.erase(it);
  *message = MPI_MESSAGE_NULL;
  Unpacked into(t, buf, as_size(count));
  std::copy(m.bytes.begin(), m.bytes.end(), into.data);
  into.finish(m.bytes.size());
  set_status(status, m.source, m.tag, m.bytes.size());
}

}  // namespace

extern "C" {

int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message* message, MPI_Status* status) {
  return api("MPI_Mprobe", comm, [&](Rank& r) {
    CommEntry& c = probed_comm(r, comm, source, tag);
    if (!message) fail(MPI_ERR_ARG, "message is null");
    if (source == MPI_PROC_NULL) {
      *message = MPI_MESSAGE_NO_PROC;
      return empty_status(status, MPI_PROC_NULL);
    }
    take_matched(r, comm, c, c.comm->probe(peer(r, c, source), tag_of(tag)), message, status);
  });
}

int MPI_Improbe(int source, int tag, MPI_Comm comm, int* flag, MPI_Message* message, MPI_Status* status) {
  return api("MPI_Improbe", comm, [&](Rank& r) {
    CommEntry& c = probed_comm(r, comm, source, tag);
    if (!message || !flag) fail(MPI_ERR_ARG, std::string(flag ? "message" : "flag") + " is null");
    *flag = 1;
    if (source == MPI_PROC_NULL) {
      *message = MPI_MESSAGE_NO_PROC;
      return empty_status(status, MPI_PROC_NULL);
    }
    const std::optional<drv::Status> st = c.comm->iprobe(peer(r, c, source), tag_of(tag));
    *flag = st.has_value();
    if (st) take_matched(r, comm, c, *st, message, status);
  });
}

int MPI_Mrecv(void* buf, int count, MPI_Datatype datatype, MPI_Message* message, MPI_Status* status) {
  return api("MPI_Mrecv", MPI_COMM_WORLD,
             [&](Rank& r) { receive_matched(r, buf, count, datatype, message, status); });
}

int MPI_Imrecv(void* buf, int count, MPI_Datatype datatype, MPI_Message* message, MPI_Request* request) {
  // The message is here already (the matched probe received it): done when it returns,
  // its status kept for the wait.
  return api("MPI_Imrecv", MPI_COMM_WORLD, [&](Rank& r) {
    if (!request) fail(MPI_ERR_ARG, "request is null");
    MPI_Status s{};
    receive_matched(r, buf, count, datatype, message, &s);
    RequestEntry e;
    e.is_recv = true;
    e.completed = s;
    *request = r.add_request(std::move(e));
  });
}

int MPI_Wait(MPI_Request* request, MPI_Status* status) {
  return completion("MPI_Wait", [&](Rank& r, MPI_Comm& comm) {
    comm = comm_of(r, *request);
    finish(r, *request, status, true);
  });
}

int MPI_Test(MPI_Request* request, int* flag, MPI_Status* status) {
  return completion("MPI_Test", [&](Rank& r, MPI_Comm& comm) {
    comm = comm_of(r, *request);
    *flag = finish(r, *request, status, false);
  });
}

int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]) {
  return completion("MPI_Waitall", [&](Rank& r, MPI_Comm& comm) {
    check_count(count);
    r.call_detail = std::to_string(count) + " requests";
    // Waiting in order is waiting for all: every wait moves every message of the node.
    InStatus all(r, "MPI_Waitall");
    for (int i = 0; i < count; ++i) all.finish(requests[i], status_at(statuses, i));
    all.end(comm);
  });
}

int MPI_Testall(int count, MPI_Request requests[], int* flag, MPI_Status statuses[]) {
  return completion("MPI_Testall", [&](Rank& r, MPI_Comm& comm) {
    check_count(count);
    progress(r);
    bool all = true;
    for (int i = 0; i < count; ++i)
      if (live(r, requests[i]) && !done(r.request(requests[i]))) all = false;
    *flag = all;
    if (!all) return;
    InStatus each(r, "MPI_Testall");
    for (int i = 0; i < count; ++i) each.finish(requests[i], status_at(statuses, i));
    each.end(comm);
  });
}

int MPI_Waitany(int count, MPI_Request requests[], int* index, MPI_Status* status) {
  return completion("MPI_Waitany", [&](Rank& r, MPI_Comm& comm) {
    check_count(count);
    *index = MPI_UNDEFINED;
    if (none_live(r, count, requests)) return empty_status(status);
    for (;;) {
      for (int i = 0; i < count; ++i)
        if (live(r, requests[i]) && done(r.request(requests[i]))) {
          comm = comm_of(r, requests[i]);
          *index = i;
          finish(r, requests[i], status, true);
          return;
        }
      progress(r);
    }
  });
}

int MPI_Testany(int count, MPI_Request requests[], int* index, int* flag, MPI_Status* status) {
  return completion("MPI_Testany", [&](Rank& r, MPI_Comm& comm) {
    check_count(count);
    *index = MPI_UNDEFINED;
    *flag = 0;
    if (none_live(r, count, requests)) {
      *flag = 1;
      return empty_status(status);
    }
    progress(r);
    for (int i = 0; i < count; ++i)
      if (live(r, requests[i]) && done(r.request(requests[i]))) {
        comm = comm_of(r, requests[i]);
        *index = i;
        *flag = 1;
        finish(r, requests[i], status, true);
        return;
      }
  });
}

}  // extern "C"

namespace {

// Waitsome's and Testsome's work: completes those of `requests` that are done; how many.
int complete_done(Rank& r, const char* call, MPI_Comm& comm, int incount, MPI_Request requests[], int* outcount,
                  int indices[], MPI_Status statuses[]) {
  InStatus each(r, call);
  int n = 0;
  for (int i = 0; i < incount; ++i)
    if (live(r, requests[i]) && done(r.request(requests[i]))) {
      indices[n] = i;
      each.finish(requests[i], status_at(statuses, n));
      ++n;
    }
  *outcount = n;
  each.end(comm);
  return n;
}

}  // namespace

extern "C" {

int MPI_Waitsome(int incount, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[]) {
  return completion("MPI_Waitsome", [&](Rank& r, MPI_Comm& comm) {
    check_count(incount);
    *outcount = MPI_UNDEFINED;
    if (none_live(r, incount, requests)) return;
    while (complete_done(r, "MPI_Waitsome", comm, incount, requests, outcount, indices, statuses) == 0) progress(r);
  });
}

int MPI_Testsome(int incount, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[]) {
  return completion("MPI_Testsome", [&](Rank& r, MPI_Comm& comm) {
    check_count(incount);
    *outcount = MPI_UNDEFINED;
    if (none_live(r, incount, requests)) return;
    progress(r);
    complete_done(r, "MPI_Testsome", comm, incount, requests, outcount, indices, statuses);
  });
}

int MPI_Request_free(MPI_Request* request) {
  return api("MPI_Request_free", MPI_COMM_WORLD, [&](Rank& r) {
    RequestEntry& e = r.request(*request);
    if (inactive(e)) {
      r.drop_request(*request);
      return;
    }
    e.start = nullptr;  // a started persistent request is freed once it completes
    // It goes on: a send is kept with the buffered sends, which MPI_Finalize completes; a
    // receive completes when its message comes (MPI_Finalize does not wait for one).
    (e.is_recv ? r.freed_recvs : r.bsends).push_back(*request);
    *request = MPI_REQUEST_NULL;
  });
}

int MPI_Send_init(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                  MPI_Request* request) {
  return send_init("MPI_Send_init", buf, count, datatype, dest, tag, comm, request, Mode::Standard);
}
int MPI_Ssend_init(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                   MPI_Request* request) {
  return send_init("MPI_Ssend_init", buf, count, datatype, dest, tag, comm, request, Mode::Synchronous);
}
int MPI_Rsend_init(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                   MPI_Request* request) {
  return send_init("MPI_Rsend_init", buf, count, datatype, dest, tag, comm, request, Mode::Standard);
}
int MPI_Bsend_init(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                   MPI_Request* request) {
  return send_init("MPI_Bsend_init", buf, count, datatype, dest, tag, comm, request, Mode::Buffered);
}

int MPI_Recv_init(void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                  MPI_Request* request) {
  const auto check = [=](Rank& r) { check_recv(r, comm, buf, count, datatype, source, tag); };
  return persistent(
      "MPI_Recv_init", comm, request,
      [=](Rank& r) { return start_recv(r, comm, buf, count, datatype, source, tag); }, check);
}

int MPI_Cancel(MPI_Request* request) {
  return api("MPI_Cancel", MPI_COMM_WORLD, [&](Rank& r) {
    if (!request) fail(MPI_ERR_ARG, "request is null");
    RequestEntry& e = r.request(*request);
    if (e.generalized) {  // the program's cancel function says what happens
      const RequestEntry::Generalized& g = *e.generalized;
      const int rc = g.cancel ? g.cancel(g.extra_state, g.complete) : MPI_SUCCESS;
      check_callback(rc, "cancel");
      return;
    }
    // A receive nothing has matched yet is withdrawn, and so is a send no receive has
    // matched (asked back from the receiving node: its wait completes once the answer is
    // in). One already matched completes as it would have (MPI_Test_cancelled then says
    // false); so do a non-blocking collective's and an inactive persistent request.
    if (e.proc_null || e.req.null() || e.coprocessor || e.pending || inactive(e)) return;
    if (!e.is_recv || !e.req.done()) e.dcomm->cancel(e.req);
  });
}

int MPI_Test_cancelled(const MPI_Status* status, int* flag) {
  return api("MPI_Test_cancelled", MPI_COMM_WORLD, [&](Rank&) {
    if (!status) fail(MPI_ERR_ARG, "status is null");
    *flag = status->collnet_cancelled != 0;
  });
}

int MPI_Start(MPI_Request* request) {
  return api("MPI_Start", MPI_COMM_WORLD, [&](Rank& r) {
    if (!request) fail(MPI_ERR_ARG, "request is null");
    start(r, *request);
  });
}

int MPI_Startall(int count, MPI_Request requests[]) {
  return api("MPI_Startall", MPI_COMM_WORLD, [&](Rank& r) {
    check_count(count);
    for (int i = 0; i < count; ++i) start(r, requests[i]);
  });
}

int MPI_Request_get_status(MPI_Request request, int* flag, MPI_Status* status) {
  return api("MPI_Request_get_status", MPI_COMM_WORLD, [&](Rank& r) {
    if (!flag) fail(MPI_ERR_ARG, "flag is null");
    *flag = 1;
    if (request == MPI_REQUEST_NULL || inactive(r.request(request))) return empty_status(status);
    RequestEntry& e = r.request(request);
    if (!done(e)) progress(r);
    if (!done(e)) {
      *flag = 0;
      return;
    }
    // A generalized request: its query function (its free function runs when it is freed).
    if (e.generalized) return query(*e.generalized, status);
    // Complete it now (a receive's data lands), keep the status, and leave the request for
    // the wait or test that frees it.
    if (!e.completed) {
      MPI_Status s{};
      complete(e, &s);
      e.completed = s;
    }
    if (status != MPI_STATUS_IGNORE) *status = *e.completed;
  });
}

int MPI_Grequest_start(MPI_Grequest_query_function* query_fn, MPI_Grequest_free_function* free_fn,
                       MPI_Grequest_cancel_function* cancel_fn, void* extra_state, MPI_Request* request) {
  return api("MPI_Grequest_start", MPI_COMM_WORLD, [&](Rank& r) {
    if (!request) fail(MPI_ERR_ARG, "request is null");
    RequestEntry e;
    e.generalized = std::make_shared<RequestEntry::Generalized>();
    *e.generalized = {query_fn, free_fn, cancel_fn, extra_state, false};
    *request = r.add_request(std::move(e));
  });
}

int MPI_Grequest_complete(MPI_Request request) {
  return api("MPI_Grequest_complete", MPI_COMM_WORLD, [&](Rank& r) {
    RequestEntry& e = r.request(request);
    if (!e.generalized)
      fail(MPI_ERR_REQUEST, "request " + std::to_string(request) + " is not a generalized request (MPI_Grequest_start)");
    e.generalized->complete = true;
  });
}

int MPI_Get_count(const MPI_Status* status, MPI_Datatype datatype, int* count) {
  return api("MPI_Get_count", MPI_COMM_WORLD, [&](Rank& r) {
    const TypeDesc& t = r.type(datatype);
    if (t.packed == 0) {
      *count = status->collnet_bytes == 0 ? 0 : MPI_UNDEFINED;
      return;
    }
    const size_t n = status->collnet_bytes / t.packed;
    *count = status->collnet_bytes % t.packed == 0 && n <= INT_MAX ? static_cast<int>(n) : MPI_UNDEFINED;
  });
}

int MPI_Get_elements(const MPI_Status* status, MPI_Datatype datatype, int* count) {
  return api("MPI_Get_elements", MPI_COMM_WORLD, [&](Rank& r) {
    if (!status) fail(MPI_ERR_ARG, "status is null");
    const MPI_Count n = elements(r, *status, r.type(datatype));
    *count = n > INT_MAX ? MPI_UNDEFINED : static_cast<int>(n);  // MPI_Get_elements_x has them
  });
}

int MPI_Get_elements_x(const MPI_Status* status, MPI_Datatype datatype, MPI_Count* count) {
  return api("MPI_Get_elements_x", MPI_COMM_WORLD, [&](Rank& r) {
    if (!status) fail(MPI_ERR_ARG, "status is null");
    *count = elements(r, *status, r.type(datatype));
  });
}

}  // extern "C"

namespace {

// MPI_Status_set_elements(_x), as mpi.h calls `name`: `count` basic elements of `datatype`.
int set_elements(const char* name, MPI_Status* status, MPI_Datatype datatype, MPI_Count count) {
  return api(name, MPI_COMM_WORLD, [&](Rank& r) {
    if (!status) fail(MPI_ERR_ARG, "status is null");
    if (count < 0) fail(MPI_ERR_COUNT, "count " + std::to_string(count) + " is negative");
    status->collnet_bytes = element_bytes(r, static_cast<size_t>(count), r.type(datatype));
  });
}

}  // namespace

extern "C" {

int MPI_Status_set_elements_x(MPI_Status* status, MPI_Datatype datatype, MPI_Count count) {
  return set_elements("MPI_Status_set_elements_x", status, datatype, count);
}

int MPI_Status_set_elements(MPI_Status* status, MPI_Datatype datatype, int count) {
  return set_elements("MPI_Status_set_elements", status, datatype, count);
}

int MPI_Status_set_cancelled(MPI_Status* status, int flag) {
  return api("MPI_Status_set_cancelled", MPI_COMM_WORLD, [&](Rank&) {
    if (!status) fail(MPI_ERR_ARG, "status is null");
    status->collnet_cancelled = flag != 0;
  });
}

}  // extern "C"
