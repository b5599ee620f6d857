// SPDX-License-Identifier: Apache-2.0
// mpi.h: one-sided communication. Windows, operations and synchronisation are
// window.hpp's; here the C functions check their arguments and turn them into RmaOps.
// Errors go to the window's error handler.
#include <algorithm>
#include <cstring>
#include <optional>

#include "mpi/api_support.hpp"
#include "mpi/attributes.hpp"
#include "mpi/window.hpp"

using namespace collnet::mpi;

namespace {

// The communicator whose handler a window's errors go to (the world's if it is not one).
MPI_Comm errors_of(MPI_Win win) {
  Rank* r = Runtime::current_or_null();
  if (!r || win < 1 || static_cast<size_t>(win) > r->windows.size() || !r->windows[static_cast<size_t>(win) - 1])
    return MPI_COMM_WORLD;
  return r->windows[static_cast<size_t>(win) - 1]->comm;
}

template <class F>
int win_api(const char* name, MPI_Win win, F&& body) {
  return api(name, errors_of(win), [&](Rank& r) { body(r, window(r, win)); });
}

unsigned target_of(WinEntry& w, int rank) {
  check_rank(rank, static_cast<int>(w.shared->members.size()), "target_rank");
  return static_cast<unsigned>(rank);
}

// An operation on `count` elements of `type` at displacement `disp` of the target.
RmaOp target_part(Rank& r, RmaOp::Kind kind, MPI_Aint disp, int count, MPI_Datatype type) {
  check_count(count, "target_count");
  if (disp < 0) fail(MPI_ERR_DISP, "target_disp " + std::to_string(disp) + " is negative");
  RmaOp op;
  op.kind = kind;
  op.disp = static_cast<uint64_t>(disp);
  op.count = as_size(count);
  op.type = std::make_shared<const TypeDesc>(r.type(type, "target_datatype"));
  return op;
}

// A buffer of the origin's (`what`), `count` of `type`, checked to hold the target part's bytes.
const TypeDesc& matching(Rank& r, const RmaOp& op, const void* buf, int count, MPI_Datatype type, const char* what) {
  check_count(count, (std::string(what) + " count").c_str());
  const TypeDesc& t = r.type(type, (std::string(what) + " datatype").c_str());
  const size_t bytes = as_size(count) * t.packed;
  if (bytes != op.count * op.type->packed)
    fail(MPI_ERR_TYPE, std::string(what) + ": " + std::to_string(count) + " of " + t.name + " (" +
                           std::to_string(bytes) + " bytes) do not match the target's " + std::to_string(op.count) +
                           " of " + op.type->name + " (" + std::to_string(op.count * op.type->packed) + " bytes)");
  check_buffer(buf, as_size(count), t, what);
  return t;
}

// The data the operation carries: the origin buffer, packed.
void add_origin(Rank& r, RmaOp& op, const void* origin, int count, MPI_Datatype type) {
  const TypeDesc& t = matching(r, op, origin, count, type, "origin");
  op.data.resize(as_size(count) * t.packed);
  if (!op.data.empty()) pack(t, origin, as_size(count), op.data.data());
}

// Where what the target sends back goes.
void add_result(Rank& r, RmaOp& op, void* result, int count, MPI_Datatype type) {
  const TypeDesc& t = matching(r, op, result, count, type, "result");
  op.result = result;
  op.result_count = as_size(count);
  op.result_type = std::make_shared<const TypeDesc>(t);
}

void check_accumulate_op(Rank& r, MPI_Op op, const TypeDesc& t, bool fetching) {
  if (op == MPI_REPLACE || (op == MPI_NO_OP && fetching)) return;
  if (op == MPI_NO_OP) fail(MPI_ERR_OP, "MPI_NO_OP is for MPI_Get_accumulate and MPI_Fetch_and_op only");
  if (op < MPI_MAX || op > MPI_MINLOC)
    fail(MPI_ERR_OP, "an accumulate takes a predefined op or MPI_REPLACE, not op " + std::to_string(op));
  std::vector<uint8_t> a(t.packed), b(t.packed);
  combine_packed(r, op, t, MPI_DATATYPE_NULL, a.data(), b.data(), 0);  // refuses an op the type cannot take
}

RmaOp accumulate_op(Rank& r, const void* origin, int origin_count, MPI_Datatype origin_type, MPI_Aint disp,
                    int target_count, MPI_Datatype target_type, MPI_Op op) {
  RmaOp o = target_part(r, RmaOp::Kind::Accumulate, disp, target_count, target_type);
  check_accumulate_op(r, op, *o.type, false);
  o.op = op;
  add_origin(r, o, origin, origin_count, origin_type);
  return o;
}

// With MPI_NO_OP the origin buffer is not read (it may be null): nothing travels.
RmaOp get_accumulate_op(Rank& r, const void* origin, int origin_count, MPI_Datatype origin_type, void* result,
                        int result_count, MPI_Datatype result_type, MPI_Aint disp, int target_count,
                        MPI_Datatype target_type, MPI_Op op) {
  RmaOp o = target_part(r, RmaOp::Kind::GetAccumulate, disp, target_count, target_type);
  check_accumulate_op(r, op, *o.type, true);
  o.op = op;
  if (op != MPI_NO_OP) add_origin(r, o, origin, origin_count, origin_type);
  add_result(r, o, result, result_count, result_type);
  return o;
}

std::vector<unsigned> window_ranks(Rank& r, WinEntry& w, MPI_Group group) {
  std::vector<unsigned> out;
  for (unsigned world : r.group(group)) {
    auto it = std::find(w.shared->world_ranks.begin(), w.shared->world_ranks.end(), world);
    if (it == w.shared->world_ranks.end())
      fail(MPI_ERR_GROUP, "world rank " + std::to_string(world) + " of the group is not a member of the window");
    out.push_back(static_cast<unsigned>(it - w.shared->world_ranks.begin()));
  }
  return out;
}

// Issues `op` to `target_rank` (nothing for MPI_PROC_NULL). With a `request` (the
// request-based forms, whose request may not be null) it is flushed to the target too, so
// complete when this returns.
void send_op(Rank& r, WinEntry& w, int target_rank, RmaOp op, std::optional<MPI_Request*> request = std::nullopt) {
  if (request && !*request) fail(MPI_ERR_ARG, "request is null");
  if (target_rank == MPI_PROC_NULL) {
    if (request) complete_request(r, *request);
    return;
  }
  const unsigned target = target_of(w, target_rank);
  if (request && !w.lock_all && !w.locks.count(target))
    fail(MPI_ERR_RMA_SYNC, "request-based operations need a passive-target epoch (MPI_Win_lock or _lock_all)");
  issue(r, w, target, std::move(op));
  if (!request) return;
  flush(r, w, target);
  complete_request(r, *request);
}

// The operations, as MPI call `name`; with a `request` (MPI_Rput, ...) flushed to the
// target as well.
using OptionalRequest = std::optional<MPI_Request*>;

int put(const char* name, const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
        MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win,
        OptionalRequest request = std::nullopt) {
  return win_api(name, win, [&](Rank& r, WinEntry& w) {
    RmaOp op = target_part(r, RmaOp::Kind::Put, target_disp, target_count, target_datatype);
    add_origin(r, op, origin_addr, origin_count, origin_datatype);
    send_op(r, w, target_rank, std::move(op), request);
  });
}

int get(const char* name, void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
        MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win,
        OptionalRequest request = std::nullopt) {
  return win_api(name, win, [&](Rank& r, WinEntry& w) {
    RmaOp op = target_part(r, RmaOp::Kind::Get, target_disp, target_count, target_datatype);
    add_result(r, op, origin_addr, origin_count, origin_datatype);
    send_op(r, w, target_rank, std::move(op), request);
  });
}

int accumulate(const char* name, const void* origin_addr, int origin_count, MPI_Datatype origin_datatype,
               int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op,
               MPI_Win win, OptionalRequest request = std::nullopt) {
  return win_api(name, win, [&](Rank& r, WinEntry& w) {
    send_op(
        r, w, target_rank,
        accumulate_op(r, origin_addr, origin_count, origin_datatype, target_disp, target_count, target_datatype, op),
        request);
  });
}

int get_accumulate(const char* name, const void* origin_addr, int origin_count, MPI_Datatype origin_datatype,
                   void* result_addr, int result_count, MPI_Datatype result_datatype, int target_rank,
                   MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                   OptionalRequest request = std::nullopt) {
  return win_api(name, win, [&](Rank& r, WinEntry& w) {
    send_op(r, w, target_rank,
            get_accumulate_op(r, origin_addr, origin_count, origin_datatype, result_addr, result_count, result_datatype,
                              target_disp, target_count, target_datatype, op),
            request);
  });
}

}  // namespace

extern "C" {

int MPI_Win_create(void* base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win* win) {
  return api("MPI_Win_create", comm, [&](Rank& r) {
    if (info != MPI_INFO_NULL) r.info(info);
    if (!base && size > 0) fail(MPI_ERR_BASE, "base is null with a size of " + std::to_string(size));
    *win = create_window(r, comm, base, size, disp_unit, MPI_WIN_FLAVOR_CREATE);
  });
}

int MPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void* baseptr, MPI_Win* win) {
  return api("MPI_Win_allocate", comm, [&](Rank& r) {
    if (info != MPI_INFO_NULL) r.info(info);
    *win = create_window(r, comm, nullptr, size, disp_unit, MPI_WIN_FLAVOR_ALLOCATE);
    *static_cast<void**>(baseptr) = window(r, *win).attr_base;
  });
}

int MPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void* baseptr, MPI_Win* win) {
  return api("MPI_Win_allocate_shared", comm, [&](Rank& r) {
    if (info != MPI_INFO_NULL) r.info(info);
    CommEntry& c = r.comm(comm);
    if (!c.self)
      for (unsigned i = 0; i < c.comm->size(); ++i)
        if (c.comm->node_of(i) != r.task().node())
          fail(MPI_ERR_RMA_SHARED, "rank " + std::to_string(i) + " of the communicator is on another node: " +
                                       "shared memory is a node's (MPI_Comm_split_type with MPI_COMM_TYPE_SHARED)");
    *win = create_window(r, comm, nullptr, size, disp_unit, MPI_WIN_FLAVOR_SHARED);
    *static_cast<void**>(baseptr) = window(r, *win).attr_base;
  });
}

int MPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint* size, int* disp_unit, void* baseptr) {
  return win_api("MPI_Win_shared_query", win, [&](Rank&, WinEntry& w) {
    if (w.shared->flavor != MPI_WIN_FLAVOR_SHARED)
      fail(MPI_ERR_RMA_FLAVOR, "the window was not made by MPI_Win_allocate_shared");
    const int n = static_cast<int>(w.shared->members.size());
    int at = rank;
    if (rank == MPI_PROC_NULL) {  // the first member with memory
      at = 0;
      while (at < n - 1 && w.shared->members[static_cast<size_t>(at)].size == 0) ++at;
    } else {
      check_rank(rank, n, "rank");
    }
    const WindowShared::Member& m = w.shared->members[static_cast<size_t>(at)];
    *size = static_cast<MPI_Aint>(m.size);
    *disp_unit = m.disp_unit;
    *static_cast<void**>(baseptr) = m.base;
  });
}

int MPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win* win) {
  return api("MPI_Win_create_dynamic", comm, [&](Rank& r) {
    if (info != MPI_INFO_NULL) r.info(info);
    *win = create_window(r, comm, nullptr, 0, 1, MPI_WIN_FLAVOR_DYNAMIC);
  });
}

int MPI_Win_attach(MPI_Win win, void* base, MPI_Aint size) {
  return win_api("MPI_Win_attach", win, [&](Rank&, WinEntry& w) {
    if (w.shared->flavor != MPI_WIN_FLAVOR_DYNAMIC)
      fail(MPI_ERR_RMA_FLAVOR, "only a window of MPI_Win_create_dynamic takes attached memory");
    if (size < 0) fail(MPI_ERR_SIZE, "size " + std::to_string(size) + " is negative");
    if (!base && size > 0) fail(MPI_ERR_RMA_ATTACH, "base is null");
    w.shared->members[w.me].attached.emplace_back(reinterpret_cast<uintptr_t>(base), static_cast<size_t>(size));
  });
}

int MPI_Win_detach(MPI_Win win, const void* base) {
  return win_api("MPI_Win_detach", win, [&](Rank&, WinEntry& w) {
    auto& regions = w.shared->members[w.me].attached;
    auto it = std::find_if(regions.begin(), regions.end(),
                           [&](const auto& reg) { return reg.first == reinterpret_cast<uintptr_t>(base); });
    if (it == regions.end()) fail(MPI_ERR_RMA_ATTACH, "no region attached at that address");
    regions.erase(it);
  });
}

int MPI_Win_free(MPI_Win* win) {
  return api("MPI_Win_free", win ? errors_of(*win) : MPI_COMM_WORLD, [&](Rank& r) {
    if (!win) fail(MPI_ERR_ARG, "win is null");
    delete_win_attributes(r, *win);
    free_window(r, *win);
  });
}

int MPI_Win_get_group(MPI_Win win, MPI_Group* group) {
  return win_api("MPI_Win_get_group", win, [&](Rank& r, WinEntry& w) { *group = r.add_group(w.shared->world_ranks); });
}

int MPI_Win_set_name(MPI_Win win, const char* win_name) {
  return win_api("MPI_Win_set_name", win, [&](Rank&, WinEntry& w) {
    if (!win_name) fail(MPI_ERR_ARG, "win_name is null");
    w.name.assign(win_name, strnlen(win_name, MPI_MAX_OBJECT_NAME - 1));
  });
}

int MPI_Win_get_name(MPI_Win win, char* win_name, int* resultlen) {
  return win_api("MPI_Win_get_name", win, [&](Rank&, WinEntry& w) {
    std::memcpy(win_name, w.name.c_str(), w.name.size() + 1);
    *resultlen = static_cast<int>(w.name.size());
  });
}

int MPI_Win_set_info(MPI_Win win, MPI_Info info) {
  return win_api("MPI_Win_set_info", win, [&](Rank& r, WinEntry&) {
    if (info != MPI_INFO_NULL) r.info(info);
  });
}

int MPI_Win_get_info(MPI_Win win, MPI_Info* info_used) {
  return win_api("MPI_Win_get_info", win, [&](Rank& r, WinEntry&) { *info_used = r.add_info({}); });
}

int MPI_Put(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
            MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win) {
  return put("MPI_Put", origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
             target_datatype, win);
}

int MPI_Get(void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
            int target_count, MPI_Datatype target_datatype, MPI_Win win) {
  return get("MPI_Get", origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
             target_datatype, win);
}

int MPI_Accumulate(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                   MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win) {
  return accumulate("MPI_Accumulate", origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                    target_count, target_datatype, op, win);
}

int MPI_Get_accumulate(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, void* result_addr,
                       int result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
                       int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win) {
  return get_accumulate("MPI_Get_accumulate", origin_addr, origin_count, origin_datatype, result_addr, result_count,
                        result_datatype, target_rank, target_disp, target_count, target_datatype, op, win);
}

int MPI_Fetch_and_op(const void* origin_addr, void* result_addr, MPI_Datatype datatype, int target_rank,
                     MPI_Aint target_disp, MPI_Op op, MPI_Win win) {
  return win_api("MPI_Fetch_and_op", win, [&](Rank& r, WinEntry& w) {
    send_op(r, w, target_rank,
            get_accumulate_op(r, origin_addr, 1, datatype, result_addr, 1, datatype, target_disp, 1, datatype, op));
  });
}

int MPI_Compare_and_swap(const void* origin_addr, const void* compare_addr, void* result_addr, MPI_Datatype datatype,
                         int target_rank, MPI_Aint target_disp, MPI_Win win) {
  return win_api("MPI_Compare_and_swap", win, [&](Rank& r, WinEntry& w) {
    const TypeDesc& t = r.type(datatype);
    if (!t.predefined || !t.elem || t.pairs)
      fail(MPI_ERR_TYPE, "MPI_Compare_and_swap takes a predefined integer, byte or logical type, not " + t.name);
    RmaOp o = target_part(r, RmaOp::Kind::CompareAndSwap, target_disp, 1, datatype);
    add_origin(r, o, origin_addr, 1, datatype);
    check_buffer(compare_addr, 1, t, "compare_addr");
    o.data.insert(o.data.end(), static_cast<const uint8_t*>(compare_addr),
                  static_cast<const uint8_t*>(compare_addr) + t.packed);
    add_result(r, o, result_addr, 1, datatype);
    send_op(r, w, target_rank, std::move(o));
  });
}

int MPI_Rput(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
             MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win, MPI_Request* request) {
  return put("MPI_Rput", origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
             target_datatype, win, request);
}

int MPI_Rget(void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
             int target_count, MPI_Datatype target_datatype, MPI_Win win, MPI_Request* request) {
  return get("MPI_Rget", origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
             target_datatype, win, request);
}

int MPI_Raccumulate(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                    MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                    MPI_Request* request) {
  return accumulate("MPI_Raccumulate", origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                    target_count, target_datatype, op, win, request);
}

int MPI_Rget_accumulate(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, void* result_addr,
                        int result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
                        int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request* request) {
  return get_accumulate("MPI_Rget_accumulate", origin_addr, origin_count, origin_datatype, result_addr, result_count,
                        result_datatype, target_rank, target_disp, target_count, target_datatype, op, win, request);
}

int MPI_Win_fence(int assert, MPI_Win win) {
  return win_api("MPI_Win_fence", win, [&](Rank& r, WinEntry& w) { fence(r, w, assert); });
}

int MPI_Win_post(MPI_Group group, int assert, MPI_Win win) {
  return win_api("MPI_Win_post", win, [&](Rank& r, WinEntry& w) { post(r, w, window_ranks(r, w, group), assert); });
}

int MPI_Win_start(MPI_Group group, int assert, MPI_Win win) {
  return win_api("MPI_Win_start", win, [&](Rank& r, WinEntry& w) { start(r, w, window_ranks(r, w, group), assert); });
}

int MPI_Win_complete(MPI_Win win) {
  return win_api("MPI_Win_complete", win, [&](Rank& r, WinEntry& w) { complete(r, w); });
}

int MPI_Win_wait(MPI_Win win) {
  return win_api("MPI_Win_wait", win, [&](Rank& r, WinEntry& w) { wait_exposure(r, w, true); });
}

int MPI_Win_test(MPI_Win win, int* flag) {
  return win_api("MPI_Win_test", win, [&](Rank& r, WinEntry& w) { *flag = wait_exposure(r, w, false); });
}

int MPI_Win_lock(int lock_type, int rank, int, MPI_Win win) {
  return win_api("MPI_Win_lock", win, [&](Rank& r, WinEntry& w) {
    if (rank == MPI_PROC_NULL) return;
    lock(r, w, lock_type, target_of(w, rank));
  });
}

int MPI_Win_unlock(int rank, MPI_Win win) {
  return win_api("MPI_Win_unlock", win, [&](Rank& r, WinEntry& w) {
    if (rank == MPI_PROC_NULL) return;
    unlock(r, w, target_of(w, rank));
  });
}

int MPI_Win_lock_all(int, MPI_Win win) {
  return win_api("MPI_Win_lock_all", win, [&](Rank& r, WinEntry& w) {
    if (w.lock_all || !w.locks.empty()) fail(MPI_ERR_RMA_SYNC, "the window is locked already by this rank");
    w.lock_all = true;
    lock_self_shared(r, w);
  });
}

int MPI_Win_unlock_all(MPI_Win win) {
  return win_api("MPI_Win_unlock_all", win, [&](Rank& r, WinEntry& w) {
    if (!w.lock_all) fail(MPI_ERR_RMA_SYNC, "the window is not locked by MPI_Win_lock_all");
    std::vector<unsigned> targets;
    for (const auto& [target, l] : w.locks) targets.push_back(target);
    for (unsigned target : targets) unlock(r, w, target);
    w.lock_all = false;
  });
}

int MPI_Win_flush(int rank, MPI_Win win) {
  return win_api("MPI_Win_flush", win, [&](Rank& r, WinEntry& w) {
    if (rank != MPI_PROC_NULL) flush(r, w, target_of(w, rank));
  });
}

int MPI_Win_flush_local(int rank, MPI_Win win) {
  return win_api("MPI_Win_flush_local", win, [&](Rank& r, WinEntry& w) {
    if (rank != MPI_PROC_NULL) flush(r, w, target_of(w, rank));
  });
}

int MPI_Win_flush_all(MPI_Win win) {
  return win_api("MPI_Win_flush_all", win, [&](Rank& r, WinEntry& w) { flush_all(r, w); });
}

int MPI_Win_flush_local_all(MPI_Win win) {
  return win_api("MPI_Win_flush_local_all", win, [&](Rank& r, WinEntry& w) { flush_all(r, w); });
}

int MPI_Win_sync(MPI_Win win) {
  // The memory is unified (MPI_WIN_UNIFIED): there is nothing to make consistent, but the
  // rank may be polling its memory for another's store.
  return win_api("MPI_Win_sync", win, [&](Rank& r, WinEntry&) { progress(r); });
}

int MPI_Win_create_errhandler(MPI_Win_errhandler_function* function, MPI_Errhandler* errhandler) {
  return api("MPI_Win_create_errhandler", MPI_COMM_WORLD, [&](Rank& r) {
    if (!function) fail(MPI_ERR_ARG, "function is null");
    *errhandler = r.add_errhandler(reinterpret_cast<MPI_Comm_errhandler_function*>(function));
  });
}

int MPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler) {
  return win_api("MPI_Win_set_errhandler", win, [&](Rank& r, WinEntry& w) {
    r.user_errhandler(errhandler);  // MPI_ERR_ARG unless predefined or the program's
    r.comm(w.comm).errhandler = errhandler;
  });
}

int MPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler* errhandler) {
  return win_api("MPI_Win_get_errhandler", win, [&](Rank& r, WinEntry& w) { *errhandler = r.comm(w.comm).errhandler; });
}

int MPI_Win_call_errhandler(MPI_Win win, int errorcode) {
  return win_api("MPI_Win_call_errhandler", win, [&](Rank& r, WinEntry& w) {
    r.call_errhandler(w.comm, errorcode, "MPI_Win_call_errhandler: " + r.error_string(errorcode));
  });
}

}  // extern "C"
