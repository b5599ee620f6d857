// SPDX-License-Identifier: Apache-2.0
// What the mpi.h functions share: the frame every call runs in (api), argument checks
// that raise the MPI error class, and the views that let a buffer of any datatype travel
// as packed bytes (the driver moves native elements; a derived type is packed first and
// unpacked after).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "driver/error.hpp"
#include "driver/p2p_envelope.hpp"
#include "mpi/runtime.hpp"

namespace collnet::mpi {

// The rank calling `call`; a program run outside collnet mpirun stops here, saying so.
inline Rank& rank_or_die(const char* call) {
  Rank* r = Runtime::current_or_null();
  if (!r) {
    std::fprintf(stderr, "collnet: %s called outside a run of collnet mpirun\n", call);
    std::abort();
  }
  if (!r->runtime().on_ranks_thread()) {
    std::fprintf(stderr,
                 "collnet mpirun: %s called from a thread of the program's own (not a rank's main thread): collnet "
                 "provides MPI_THREAD_FUNNELED at most\n",
                 call);
    std::abort();
  }
  return *r;
}

// Runs `body`: the MPI error it raised (its class and text), or {MPI_SUCCESS, ""}. What the
// library throws maps to a class here, for every call.
template <class F>
MpiError caught(F&& body) {
  try {
    body();
    return {MPI_SUCCESS, {}};
  } catch (const MpiError& e) {
    return e;
  } catch (const collnet::TruncatedError& e) {
    return {MPI_ERR_TRUNCATE, e.what()};
  } catch (const collnet::Error& e) {
    return {MPI_ERR_OTHER, e.what()};
  } catch (const std::bad_alloc&) {
    return {MPI_ERR_NO_MEM, "out of host memory"};
  }
}

// Runs `body` as the mpi.h call `name` on the current rank; an error it raises (class,
// text) goes to `raise(rank, class, text)`, which returns the call's code. `initialized`:
// the call needs MPI_Init before it and MPI_Finalize not yet (all but MPI_Init's own).
template <class F, class Raise>
int api_raising(const char* name, Raise&& raise, F&& body, bool initialized = true) {
  rank_or_die(name);
  Call call(name);
  Rank& r = call.rank();
  const MpiError e = caught([&] {
    if (initialized && (!r.initialized || r.finalized))
      fail(MPI_ERR_OTHER, r.finalized ? "called after MPI_Finalize" : "called before MPI_Init");
    body(r);
  });
  return e.cls == MPI_SUCCESS ? MPI_SUCCESS : raise(r, e.cls, e.what);
}

// The same, its errors going to `comm`'s handler.
template <class F>
int api(const char* name, MPI_Comm comm, F&& body, bool initialized = true) {
  return api_raising(
      name, [&](Rank& r, int cls, const std::string& what) { return r.raise(comm, name, cls, what); },
      std::forward<F>(body), initialized);
}

inline void check_count(int count, const char* what = "count") {
  if (count < 0) fail(MPI_ERR_COUNT, std::string(what) + " " + std::to_string(count) + " is negative");
}
// A null buffer is MPI_BOTTOM: data at absolute addresses, which only a derived type whose
// data do not start at its origin (one built from MPI_Get_address's) can name.
inline void check_buffer(const void* buf, size_t count, const TypeDesc& t, const char* what = "buffer") {
  const bool absolute = !t.predefined && !t.runs.empty() && t.runs.front().offset != 0;
  if (!buf && count > 0 && t.size > 0 && !absolute)
    fail(MPI_ERR_BUFFER, std::string(what) + " is null with a count of " + std::to_string(count));
}
inline void check_tag(int tag, bool wildcard) {
  if (wildcard && tag == MPI_ANY_TAG) return;
  constexpr int kTagUb = static_cast<int>(driver::p2p::kFirstReservedTag) - 1;
  if (tag < 0 || tag > kTagUb)
    fail(MPI_ERR_TAG, "tag " + std::to_string(tag) + " is outside 0.." + std::to_string(kTagUb) + " (MPI_TAG_UB)");
}
inline void check_rank(int rank, int size, const char* what, bool any_source = false) {
  if (rank == MPI_PROC_NULL || (any_source && rank == MPI_ANY_SOURCE)) return;
  if (rank < 0 || rank >= size)
    fail(MPI_ERR_RANK, std::string(what) + " " + std::to_string(rank) + " is not a rank of the communicator (size " +
                           std::to_string(size) + ")");
}
inline void check_root(int root, int size) {
  if (root < 0 || root >= size)
    fail(MPI_ERR_ROOT, "root " + std::to_string(root) + " is not a rank of the communicator (size " +
                           std::to_string(size) + ")");
}
inline size_t as_size(int v) { return static_cast<size_t>(v); }

// MPI_Comm_split's work (api_comm.cpp): a communicator of the ranks of `parent` that are
// `member`s, those of one `color` together, ordered by `key`; MPI_COMM_NULL on a rank that
// is not a member. It inherits the parent's error handler. Collective over `parent`.
MPI_Comm split_comm(Rank& r, MPI_Comm parent, bool member, int color, int key);

// `in` combined into `inout` by `op` (inout = in op inout), both `count` packed elements of
// `t`, whose handle a user op's function is given (api_coll.cpp): MPI_Reduce_local's work,
// an accumulate's at its target, an intercommunicator's reductions. MPI_ERR_OP /
// MPI_ERR_TYPE when the op cannot reduce the type.
void combine_packed(Rank& r, MPI_Op op, const TypeDesc& t, MPI_Datatype handle, const uint8_t* in, uint8_t* inout,
                    size_t count);

// A request that is complete already: a non-blocking call done when it returns.
inline void complete_request(Rank& r, MPI_Request* request) {
  if (!request) fail(MPI_ERR_ARG, "request is null");
  *request = r.add_request(RequestEntry{});
}

// MPI_Bcast_init and the other persistent collectives (MPI-4), as mpi.h call `name`: checks
// the communicator, the info and (`check`) what else must hold now, and makes an inactive
// request each MPI_Start of which runs `collective` (the blocking one; api_p2p.cpp, beside
// the persistent sends and receives).
int persistent_collective(const char* name, MPI_Comm comm, MPI_Info info, MPI_Request* request,
                          std::function<void(Rank&)> collective, std::function<void(Rank&)> check = nullptr);

// Completes the rank's buffered and freed sends still going (MPI_Buffer_detach,
// MPI_Finalize); api_p2p.cpp.
void finish_pending_sends(Rank& r);
// Moves the node's packets once; lets a cycle pass when nothing moved (another task of the
// node holds them, or nothing is there): what a call that polls does each time round, so
// that the other ranks run meanwhile. api_p2p.cpp.
void progress(Rank& r);

// The communicator's size and this rank's place in it (the local group's, on an
// intercommunicator).
inline int comm_size(CommEntry& c) {
  return c.self ? 1 : c.inter ? static_cast<int>(c.inter->local_size) : static_cast<int>(c.comm->size());
}
inline int comm_rank(CommEntry& c) {
  return c.self ? 0 : static_cast<int>(c.comm->rank() - (c.inter ? c.inter->local_offset : 0));
}
// The world ranks of its (local) group, in rank order (api_comm.cpp).
std::vector<unsigned> members(Rank& r, CommEntry& c);
// The ranks a message on it can address: the remote group's on an intercommunicator.
inline int peer_count(CommEntry& c) { return c.inter ? static_cast<int>(c.inter->remote_size) : comm_size(c); }

// `count` elements of `t` at `buf`, packed: the buffer itself when `t` is contiguous.
struct Packed {
  std::vector<uint8_t> copy;
  const uint8_t* data = nullptr;
  size_t bytes = 0;
  // `copy_always`: a copy even of a contiguous buffer (one the call will overwrite).
  Packed(const TypeDesc& t, const void* buf, size_t count, bool copy_always = false) : bytes(count * t.packed) {
    if ((t.contiguous() && !copy_always) || bytes == 0) {
      data = static_cast<const uint8_t*>(buf);
      return;
    }
    copy.resize(bytes);
    pack(t, buf, count, copy.data());
    data = copy.data();
  }
};

// Room for `count` elements of `t` at `buf`, packed: the buffer itself when contiguous,
// else a scratch area that finish() unpacks into it.
struct Unpacked {
  std::vector<uint8_t> copy;
  uint8_t* data = nullptr;
  size_t bytes = 0;
  const TypeDesc& t;
  void* buf;
  Unpacked(const TypeDesc& type, void* b, size_t count) : bytes(count * type.packed), t(type), buf(b) {
    if (t.contiguous() || bytes == 0) {
      data = static_cast<uint8_t*>(buf);
      return;
    }
    copy.resize(bytes);
    data = copy.data();
  }
  // Unpacks the first `arrived` bytes (whole elements).
  void finish(size_t arrived) {
    if (copy.empty() || t.packed == 0) return;
    unpack(t, copy.data(), arrived / t.packed, buf);
  }
  void finish() { finish(bytes); }
};

// The widest driver element that divides `bytes`: what a block of that many bytes moves as.
inline driver::Datatype unit_for(size_t bytes) {
  if (bytes % 8 == 0) return driver::Datatype::U64;
  if (bytes % 4 == 0) return driver::Datatype::U32;
  if (bytes % 2 == 0) return driver::Datatype::U16;
  return driver::Datatype::U8;
}

}  // namespace collnet::mpi
