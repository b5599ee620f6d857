// SPDX-License-Identifier: Apache-2.0
// One-sided communication: windows, the operations' messages and the target's service
// (window.hpp says how it works).
#include "mpi/window.hpp"

#include <algorithm>
#include <cstring>

#include "mpi/api_support.hpp"

namespace collnet::mpi {

namespace {

constexpr unsigned kRmaTag = 1;    // origin -> target: a batch
constexpr unsigned kReplyTag = 2;  // target -> origin: what the gets fetched
constexpr unsigned kPostTag = 3;   // target -> origin: MPI_Win_post
using driver::Datatype;

bool multi_member(const WinEntry& w) { return w.shared->members.size() > 1; }
driver::Communicator& transport(Rank& r, WinEntry& w) { return r.dcomm(w.comm); }

// Where operation `op` lands in target `m`'s memory (its first element's start), after
// checking that every byte it touches lies in the window.
uint8_t* target_address(const WindowShared& s, const WindowShared::Member& m, const RmaOp& op) {
  const TypeDesc& t = *op.type;
  if (op.count == 0 || t.runs.empty()) return m.base;
  ptrdiff_t lo = t.runs.front().offset, hi = 0;
  for (const TypeDesc::Run& run : t.runs) {
    lo = std::min(lo, run.offset);
    hi = std::max(hi, run.offset + static_cast<ptrdiff_t>(run.bytes));
  }
  hi += static_cast<ptrdiff_t>(op.count - 1) * t.extent;
  if (s.flavor == MPI_WIN_FLAVOR_DYNAMIC) {
    const uintptr_t a = static_cast<uintptr_t>(op.disp);
    for (const auto& [start, bytes] : m.attached)
      if (static_cast<intptr_t>(a) + lo >= static_cast<intptr_t>(start) &&
          static_cast<intptr_t>(a) + hi <= static_cast<intptr_t>(start + bytes))
        return reinterpret_cast<uint8_t*>(a);
    fail(MPI_ERR_RMA_RANGE, "address " + std::to_string(a) + " (" + std::to_string(hi - lo) +
                                " bytes) is in no region attached to the dynamic window at the target");
  }
  const ptrdiff_t at = static_cast<ptrdiff_t>(op.disp) * m.disp_unit;
  if (at + lo < 0 || at + hi > static_cast<ptrdiff_t>(m.size))
    fail(MPI_ERR_RMA_RANGE, "bytes " + std::to_string(at + lo) + ".." + std::to_string(at + hi) +
                                " of the target's window are outside its " + std::to_string(m.size) + " bytes");
  return m.base + at;
}

// Carries out `op` on target `m`'s memory; what it fetches goes to `out`.
void apply(Rank& r, const WindowShared& s, const WindowShared::Member& m, const RmaOp& op, uint8_t* out) {
  uint8_t* at = target_address(s, m, op);
  const TypeDesc& t = *op.type;
  if (op.fetches()) pack(t, at, op.count, out);
  switch (op.kind) {
    case RmaOp::Kind::Put: unpack(t, op.data.data(), op.count, at); return;
    case RmaOp::Kind::Get: return;
    case RmaOp::Kind::CompareAndSwap:
      if (std::memcmp(out, op.data.data() + t.packed, t.packed) == 0) unpack(t, op.data.data(), 1, at);
      return;
    case RmaOp::Kind::Accumulate:
    case RmaOp::Kind::GetAccumulate: {
      if (op.op == MPI_NO_OP) return;
      if (op.op == MPI_REPLACE) return unpack(t, op.data.data(), op.count, at);
      std::vector<uint8_t> now(op.count * t.packed);
      pack(t, at, op.count, now.data());
      combine_packed(r, op.op, t, MPI_DATATYPE_NULL, op.data.data(), now.data(), op.count);
      unpack(t, now.data(), op.count, at);
      return;
    }
  }
}

// Applies a batch's operations in order into `reply`; the first refused one stops it.
std::vector<uint8_t> apply_batch(Rank& r, WinEntry& w, RmaBatch& b) {
  std::vector<uint8_t> reply(b.reply_bytes());
  WindowShared::Member& m = w.shared->members[w.me];
  size_t at = 0;
  try {
    for (const RmaOp& op : b.ops) {
      apply(r, *w.shared, m, op, reply.data() + at);
      at += op.fetched_bytes();
    }
  } catch (const MpiError& e) {
    b.error_class = e.cls;
    b.error = e.what;
  }
  if (b.complete) ++m.completed;
  return reply;
}

bool grantable(const WindowShared::Member& m, int type) {
  return m.exclusive < 0 && (type == MPI_LOCK_SHARED || m.shared == 0);
}
void grant(WindowShared::Member& m, int type, unsigned origin) {
  if (type == MPI_LOCK_EXCLUSIVE)
    m.exclusive = static_cast<int>(origin);
  else
    ++m.shared;
}
void release(WindowShared::Member& m, unsigned origin) {
  if (m.exclusive == static_cast<int>(origin))
    m.exclusive = -1;
  else if (m.shared > 0)
    --m.shared;
}

// The target's side: every waiting batch whose lock can be granted now, in arrival order,
// applied and answered (a release may let others go).
void run_waiting(Rank& r, WinEntry& w) {
  WindowShared::Member& m = w.shared->members[w.me];
  for (bool moved = true; moved;) {
    moved = false;
    for (auto it = m.waiting.begin(); it != m.waiting.end(); ++it) {
      std::shared_ptr<RmaBatch> next = *it;
      if (next->lock && !grantable(m, next->lock)) continue;
      m.waiting.erase(it);
      if (next->lock) grant(m, next->lock, next->origin);
      std::vector<uint8_t> reply = apply_batch(r, w, *next);
      if (next->unlock) release(m, next->origin);
      transport(r, w).send(reply.data(), reply.size(), Datatype::U8, next->origin, kReplyTag);
      moved = true;
      break;
    }
  }
}

// Sends each (target, batch) and waits for every answer; unpacks what the gets fetched.
void exchange(Rank& r, WinEntry& w, std::vector<std::pair<unsigned, std::shared_ptr<RmaBatch>>> batches) {
  if (batches.empty()) return;
  driver::Communicator& c = transport(r, w);
  struct Out {
    std::vector<uint8_t> wire, reply;
    driver::Request send, recv;
  };
  std::vector<Out> outs(batches.size());
  for (size_t i = 0; i < batches.size(); ++i) {
    const auto& [target, b] = batches[i];
    Out& o = outs[i];
    o.reply.resize(b->reply_bytes());
    o.recv = c.irecv(o.reply.data(), o.reply.size(), Datatype::U8, target, kReplyTag);
    o.wire.assign(b->wire_bytes(), 0);
    size_t at = RmaBatch::kHeaderBytes * (1 + b->ops.size());
    for (const RmaOp& op : b->ops) {
      if (!op.data.empty()) std::memcpy(o.wire.data() + at, op.data.data(), op.data.size());
      at += op.data.size();
    }
    w.shared->members[target].mailbox[w.me].push_back(b);
    o.send = c.isend(o.wire.data(), o.wire.size(), Datatype::U8, target, kRmaTag);
    r.bytes_sent += o.wire.size();
  }
  for (Out& o : outs) {
    c.wait(o.send);
    c.wait(o.recv);
    r.bytes_received += o.reply.size();
  }
  for (size_t i = 0; i < batches.size(); ++i) {
    const RmaBatch& b = *batches[i].second;
    if (b.error_class != MPI_SUCCESS)
      fail(b.error_class, "at target " + std::to_string(batches[i].first) + ": " + b.error);
    size_t at = 0;
    for (const RmaOp& op : b.ops) {
      if (op.result) unpack(*op.result_type, outs[i].reply.data() + at, op.result_count, op.result);
      at += op.fetched_bytes();
    }
  }
}

std::shared_ptr<RmaBatch> batch_for(WinEntry& w, unsigned target) {
  auto b = std::make_shared<RmaBatch>();
  b->origin = w.me;
  auto it = w.pending.find(target);
  if (it != w.pending.end()) {
    b->ops = std::move(it->second);
    w.pending.erase(it);
  }
  return b;
}

// A lock on this rank's own memory: taken here, waiting while another origin holds it. It
// and the unlock and flush of this rank's own memory poll once (progress) even when
// nothing stands in the way: a rank that polls its own window for a flag another rank puts
// (under a lock of its own, or by a get or an atomic on itself and a flush) must let the
// other ranks run.
void lock_self(Rank& r, WinEntry& w, int type) {
  WindowShared::Member& m = w.shared->members[w.me];
  progress(r);
  while (!grantable(m, type)) transport(r, w).progress();
  grant(m, type, w.me);
}

// Sends `target` what is pending for it with `unlock`, taking its lock first if it is not
// held yet; nothing when there is nothing to send.
void send_locked(Rank& r, WinEntry& w, unsigned target, bool unlock) {
  WinEntry::Lock& l = w.locks.at(target);
  if (target == w.me) {
    if (unlock && l.held) {
      release(w.shared->members[w.me], w.me);
      run_waiting(r, w);  // origins that waited for this rank's lock
    }
    progress(r);
    return;
  }
  std::shared_ptr<RmaBatch> b = batch_for(w, target);
  if (b->ops.empty() && !(unlock && l.held)) return;
  if (!l.held) b->lock = l.type;
  b->unlock = unlock;
  exchange(r, w, {{target, b}});
  l.held = !unlock;
}

void check_no_epoch(const WinEntry& w, const char* what) {
  if (w.accessing || w.exposed || !w.locks.empty() || w.lock_all)
    fail(MPI_ERR_RMA_SYNC, std::string(what) + " while a post/start or lock epoch is open");
}

}  // namespace

size_t RmaBatch::wire_bytes() const {
  size_t n = kHeaderBytes * (1 + ops.size());
  for (const RmaOp& op : ops) n += op.data.size();
  return n;
}

size_t RmaBatch::reply_bytes() const {
  size_t n = 0;
  for (const RmaOp& op : ops) n += op.fetched_bytes();
  return n;
}

WinEntry& window(Rank& r, MPI_Win w) {
  if (w == MPI_WIN_NULL) fail(MPI_ERR_WIN, "window is MPI_WIN_NULL");
  if (w < 1 || static_cast<size_t>(w) > r.windows.size() || !r.windows[static_cast<size_t>(w) - 1])
    fail(MPI_ERR_WIN, "window " + std::to_string(w) + " is not a window of this rank");
  return *r.windows[static_cast<size_t>(w) - 1];
}

MPI_Win create_window(Rank& r, MPI_Comm comm, void* base, MPI_Aint size, int disp_unit, int flavor) {
  CommEntry& c = r.comm(comm);
  if (size < 0) fail(MPI_ERR_SIZE, "size " + std::to_string(size) + " is negative");
  if (disp_unit <= 0) fail(MPI_ERR_DISP, "disp_unit " + std::to_string(disp_unit) + " is not positive");
  if (c.inter) fail(MPI_ERR_COMM, "a window is made on an intracommunicator");
  const unsigned n = static_cast<unsigned>(comm_size(c));
  const bool self = c.self;
  // Members share the window's state in this process's memory (WindowShared): a machine in
  // partitions has no such memory between its processes.
  if (!self)
    for (unsigned i = 0; i < n; ++i)
      if (!r.runtime().local(c.comm->world_rank(i)))
        fail(MPI_ERR_OTHER, "a window whose members run in different partitions (world rank " +
                                std::to_string(c.comm->world_rank(i)) +
                                " runs in another process): one-sided communication needs the machine in one "
                                "process (no --partitions)");
  auto w = std::make_shared<WinEntry>();
  w->me = static_cast<unsigned>(comm_rank(c));
  // The window's own transport (a duplicate; collective), which also holds its error
  // handler: MPI_ERRORS_ARE_FATAL, a window's default whatever the communicator's.
  const MPI_Comm wc = r.add_comm(self ? *c.comm : c.comm->dup());  // `c` may move
  r.comm_slot(wc).self = self;
  w->comm = wc;
  r.comm(wc).name = "a window's communicator";
  // Every member's base, size and unit, as the creation's allgather gives them.
  if (flavor == MPI_WIN_FLAVOR_ALLOCATE) {
    w->allocated.assign(static_cast<size_t>(size), 0);
    base = w->allocated.data();
  }
  // The members' shared view: window rank 0 makes it, and its serial number travels in the
  // creation's allgather with every member's base, size and unit.
  Runtime& rt = r.runtime();
  uint64_t serial = 0;
  if (w->me == 0) {
    serial = ++rt.window_serial;
    rt.windows[serial] = std::make_shared<WindowShared>();
  }
  uint64_t mine[4] = {reinterpret_cast<uintptr_t>(base), static_cast<uint64_t>(size), static_cast<uint64_t>(disp_unit),
                      serial};
  std::vector<uint64_t> all(4 * n);
  if (n > 1)
    r.dcomm(wc).allgather(mine, all.data(), 4, Datatype::U64);
  else
    std::copy(mine, mine + 4, all.begin());
  std::shared_ptr<WindowShared> s = rt.windows.at(all[3]);
  if (!s) fail(MPI_ERR_INTERN, "the window's shared state is gone");
  if (s->members.empty()) {  // the first member here fills it in
    s->flavor = flavor;
    s->members.resize(n);
    s->world_ranks.resize(n);
    uint64_t total = 0;
    for (unsigned i = 0; i < n; ++i) total += all[4 * i + 1];
    if (flavor == MPI_WIN_FLAVOR_SHARED) s->shared_memory.assign(std::max<uint64_t>(total, 1), 0);
    uint64_t offset = 0;
    for (unsigned i = 0; i < n; ++i) {
      s->members[i].size = all[4 * i + 1];
      s->members[i].disp_unit = static_cast<int>(all[4 * i + 2]);
      s->members[i].base = flavor == MPI_WIN_FLAVOR_SHARED ? s->shared_memory.data() + offset
                                                           : reinterpret_cast<uint8_t*>(all[4 * i]);
      offset += all[4 * i + 1];
    }
  }
  s->serial = all[3];
  for (unsigned i = 0; i < n; ++i) s->world_ranks[i] = n > 1 ? r.dcomm(wc).world_rank(i) : r.world_rank();
  w->shared = s;
  WindowShared::Member& m = s->members[w->me];
  w->attr_base = flavor == MPI_WIN_FLAVOR_DYNAMIC ? nullptr : m.base;
  w->attr_size = static_cast<MPI_Aint>(m.size);
  w->attr_disp_unit = m.disp_unit;
  w->attr_flavor = flavor;
  w->attr_model = MPI_WIN_UNIFIED;
  if (n > 1) {
    r.dcomm(wc).watch(true);
    r.task().world().set_handler([&r] { serve_windows(r); });
    r.serving_windows = true;
  }
  for (size_t i = 0; i < r.windows.size(); ++i)
    if (!r.windows[i]) {
      r.windows[i] = std::move(w);
      r.comm(wc).win = static_cast<MPI_Win>(i + 1);
      return static_cast<MPI_Win>(i + 1);
    }
  r.windows.push_back(std::move(w));
  r.comm(wc).win = static_cast<MPI_Win>(r.windows.size());
  return static_cast<MPI_Win>(r.windows.size());
}

void free_window(Rank& r, MPI_Win& handle) {
  WinEntry& w = window(r, handle);
  check_no_epoch(w, "MPI_Win_free");
  for (const auto& [target, ops] : w.pending)
    if (!ops.empty())
      fail(MPI_ERR_RMA_SYNC, std::to_string(ops.size()) + " operations to target " + std::to_string(target) +
                                 " were never completed (MPI_Win_fence, _complete, _unlock or _flush)");
  if (multi_member(w)) {
    driver::Communicator& c = transport(r, w);
    c.barrier();
    c.watch(false);
  }
  const MPI_Comm wc = w.comm;
  if (w.me == 0) r.runtime().windows.erase(w.shared->serial);
  r.windows[static_cast<size_t>(handle) - 1].reset();
  CommEntry& c = r.comm(wc);
  if (!c.self) c.comm->free();
  r.comm_slot(wc) = CommEntry{};
  handle = MPI_WIN_NULL;
  // The last window with other members gone: no handler, and compute time in one piece again.
  r.serving_windows = std::any_of(r.windows.begin(), r.windows.end(),
                                  [](const std::shared_ptr<WinEntry>& e) { return e && multi_member(*e); });
  if (!r.serving_windows) r.task().world().set_handler(nullptr);
}

void issue(Rank& r, WinEntry& w, unsigned target, RmaOp op) {
  const bool open = w.fence || w.lock_all || w.locks.count(target) ||
                    std::find(w.access.begin(), w.access.end(), target) != w.access.end();
  if (!open)
    fail(MPI_ERR_RMA_SYNC, "no access epoch to target " + std::to_string(target) +
                               " is open (MPI_Win_fence, _start, _lock or _lock_all first)");
  // Outside the target's window (its size and displacement unit are every member's from
  // the window's creation): refused here, before anything is queued, so the epoch stays
  // whole (a dynamic window's attachments are the target's to check when it applies it).
  if (w.shared->flavor != MPI_WIN_FLAVOR_DYNAMIC) target_address(*w.shared, w.shared->members[target], op);
  if (w.lock_all && !w.locks.count(target)) w.locks[target] = WinEntry::Lock{MPI_LOCK_SHARED, false};
  if (target != w.me) {
    w.pending[target].push_back(std::move(op));
    return;
  }
  // This rank's own memory: a local copy (the epoch's lock, if any, is held: lock()).
  WindowShared::Member& m = w.shared->members[w.me];
  std::vector<uint8_t> out(op.fetched_bytes());
  apply(r, *w.shared, m, op, out.data());
  if (op.result) unpack(*op.result_type, out.data(), op.result_count, op.result);
}

void fence(Rank& r, WinEntry& w, int assert_flags) {
  check_no_epoch(w, "MPI_Win_fence");
  std::vector<std::pair<unsigned, std::shared_ptr<RmaBatch>>> batches;
  while (!w.pending.empty()) {
    const unsigned target = w.pending.begin()->first;
    batches.emplace_back(target, batch_for(w, target));
  }
  exchange(r, w, std::move(batches));
  if (multi_member(w)) transport(r, w).barrier();
  w.fence = !(assert_flags & MPI_MODE_NOSUCCEED);
}

void post(Rank& r, WinEntry& w, std::vector<unsigned> group, int assert_flags) {
  if (w.exposed) fail(MPI_ERR_RMA_SYNC, "an exposure epoch (MPI_Win_post) is open already");
  w.exposure = std::move(group);
  w.exposed = true;
  w.shared->members[w.me].completed = 0;
  if (assert_flags & MPI_MODE_NOCHECK) return;
  for (unsigned origin : w.exposure)
    if (origin != w.me) transport(r, w).send(nullptr, 0, Datatype::U8, origin, kPostTag);
}

void start(Rank& r, WinEntry& w, std::vector<unsigned> group, int assert_flags) {
  if (w.accessing) fail(MPI_ERR_RMA_SYNC, "an access epoch (MPI_Win_start) is open already");
  if (w.fence && !w.pending.empty()) fail(MPI_ERR_RMA_SYNC, "operations of a fence epoch are not completed");
  w.fence = false;
  if (!(assert_flags & MPI_MODE_NOCHECK))
    for (unsigned target : group)
      if (target != w.me) transport(r, w).recv(static_cast<uint8_t*>(nullptr), 0, Datatype::U8, target, kPostTag);
  w.access = std::move(group);
  w.accessing = true;
}

void complete(Rank& r, WinEntry& w) {
  if (!w.accessing) fail(MPI_ERR_RMA_SYNC, "no access epoch (MPI_Win_start) is open");
  std::vector<std::pair<unsigned, std::shared_ptr<RmaBatch>>> batches;
  for (unsigned target : w.access) {
    if (target == w.me) {
      ++w.shared->members[w.me].completed;
      continue;
    }
    std::shared_ptr<RmaBatch> b = batch_for(w, target);
    b->complete = true;
    batches.emplace_back(target, std::move(b));
  }
  w.access.clear();
  w.accessing = false;
  exchange(r, w, std::move(batches));
}

bool wait_exposure(Rank& r, WinEntry& w, bool block) {
  if (!w.exposed) fail(MPI_ERR_RMA_SYNC, "no exposure epoch (MPI_Win_post) is open");
  const WindowShared::Member& m = w.shared->members[w.me];
  while (m.completed < w.exposure.size()) {
    if (!block) {
      transport(r, w).progress();
      if (m.completed < w.exposure.size()) return false;
      break;
    }
    transport(r, w).progress();
  }
  w.exposed = false;
  w.exposure.clear();
  return true;
}

void lock(Rank& r, WinEntry& w, int type, unsigned target) {
  if (type != MPI_LOCK_SHARED && type != MPI_LOCK_EXCLUSIVE)
    fail(MPI_ERR_LOCKTYPE, "lock type " + std::to_string(type) + " is not MPI_LOCK_SHARED or MPI_LOCK_EXCLUSIVE");
  if (w.locks.count(target) || w.lock_all)
    fail(MPI_ERR_RMA_SYNC, "target " + std::to_string(target) + " is locked already by this rank");
  if (w.accessing || w.exposed) fail(MPI_ERR_RMA_SYNC, "MPI_Win_lock inside a post/start epoch");
  WinEntry::Lock& l = w.locks[target] = WinEntry::Lock{type, false};
  if (target == w.me) {
    lock_self(r, w, type);
    l.held = true;
  } else if (type == MPI_LOCK_EXCLUSIVE) {
    std::shared_ptr<RmaBatch> b = batch_for(w, target);
    b->lock = type;
    exchange(r, w, {{target, b}});
    l.held = true;
  }
}

void unlock(Rank& r, WinEntry& w, unsigned target) {
  if (!w.locks.count(target)) fail(MPI_ERR_RMA_SYNC, "target " + std::to_string(target) + " is not locked by this rank");
  send_locked(r, w, target, true);
  w.locks.erase(target);
}

void flush(Rank& r, WinEntry& w, unsigned target) {
  if (!w.locks.count(target)) {
    if (!w.lock_all) fail(MPI_ERR_RMA_SYNC, "target " + std::to_string(target) + " is not locked by this rank");
    return;  // nothing was issued to it
  }
  send_locked(r, w, target, false);
}

void flush_all(Rank& r, WinEntry& w) {
  if (w.locks.empty() && !w.lock_all) fail(MPI_ERR_RMA_SYNC, "no passive-target epoch is open (MPI_Win_lock)");
  std::vector<unsigned> targets;
  for (const auto& [target, l] : w.locks) targets.push_back(target);
  for (unsigned target : targets) send_locked(r, w, target, false);
}

void lock_self_shared(Rank& r, WinEntry& w) {
  lock_self(r, w, MPI_LOCK_SHARED);
  w.locks[w.me] = WinEntry::Lock{MPI_LOCK_SHARED, true};
}

void serve_windows(Rank& r) {
  for (const std::shared_ptr<WinEntry>& wp : r.windows) {
    if (!wp || !multi_member(*wp)) continue;
    WinEntry& w = *wp;
    driver::Communicator& c = transport(r, w);
    while (std::optional<driver::Status> st = c.iprobe(driver::kAnySource, kRmaTag)) {
      std::vector<uint8_t> wire(st->bytes);
      c.recv(wire.data(), wire.size(), Datatype::U8, st->source, kRmaTag);
      auto& box = w.shared->members[w.me].mailbox[st->source];
      w.shared->members[w.me].waiting.push_back(std::move(box.front()));
      box.pop_front();
      run_waiting(r, w);
    }
  }
}

}  // namespace collnet::mpi
