// SPDX-License-Identifier: Apache-2.0
// One-sided communication (MPI_Win) over the torus. Blue Gene/L's torus has no remote
// memory access: a processor moves every packet. So an RMA operation is a message, and
// the target's processor carries it out, as the machine's message layer did:
//
// - The origin queues its operations (put, get, accumulate, ...) and sends them at the
//   next synchronisation that needs them done (fence, complete, unlock, flush), one
//   message per target holding the operations' data, to the window's own communicator
//   (a duplicate of the one it was made on). The target applies them in order and
//   answers with one message holding what the gets fetched; the origin's call returns
//   when every answer is in. An operation on the origin's own memory is a local copy.
// - The target serves those messages whenever its processor runs the message layer: in
//   every MPI call while the call waits (the point-to-point engine's handler,
//   P2pEngine::set_handler), and while it computes between calls, interrupted by the
//   packets' arrival (Call charges the compute time in slices and serves between them,
//   adding the time it took). So a passive-target epoch completes while the target
//   computes, at the cost of the target's cycles.
// - Locks are the target's: an exclusive lock is taken at MPI_Win_lock (a message and its
//   grant); a shared one with the first message that carries operations. A message that
//   needs a lock the target cannot grant yet waits at the target until it can.
// - What the message's header holds (each operation's kind, displacement, count, target
//   datatype and op) the simulator keeps beside the message as RmaBatch; the message's
//   length counts it (kHeaderBytes per operation) so it costs its cycles.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "mpi/runtime.hpp"

namespace collnet::mpi {

// One RMA operation as its origin issued it.
struct RmaOp {
  enum class Kind { Put, Get, Accumulate, GetAccumulate, CompareAndSwap };
  Kind kind = Kind::Put;
  uint64_t disp = 0;                     // target displacement, in the target's units (an address: dynamic)
  size_t count = 0;                      // target elements
  std::shared_ptr<const TypeDesc> type;  // the target datatype, as the origin knows it
  MPI_Op op = MPI_REPLACE;               // accumulates
  std::vector<uint8_t> data;             // packed origin data (compare-and-swap: the value, then the compare)
  // Where the origin wants what the target sends back (get, get-accumulate, fetch-and-op,
  // compare-and-swap): `result_count` elements of `result_type` at `result`.
  void* result = nullptr;
  size_t result_count = 0;
  std::shared_ptr<const TypeDesc> result_type;
  bool fetches() const { return kind != Kind::Put && kind != Kind::Accumulate; }
  size_t fetched_bytes() const { return fetches() ? count * type->packed : 0; }
};

// What one message from an origin to a target carries: operations and synchronisation.
struct RmaBatch {
  static constexpr size_t kHeaderBytes = 32;  // per operation, and one for the message
  unsigned origin = 0;                        // its window rank
  std::vector<RmaOp> ops;
  int lock = 0;          // a lock to take before applying (MPI_LOCK_SHARED, MPI_LOCK_EXCLUSIVE)
  bool unlock = false;   // release the origin's lock after applying
  bool complete = false; // ends the origin's access epoch of post/start/complete/wait
  int error_class = MPI_SUCCESS;  // set by the target when it refused an operation
  std::string error;
  size_t wire_bytes() const;
  size_t reply_bytes() const;
};

// A window as all its members see it (one host process): each member's memory, and the
// target side's state, which only that member's processor changes.
struct WindowShared {
  uint64_t serial = 0;  // its key in Runtime::windows
  int flavor = 0;  // MPI_WIN_FLAVOR_*
  std::vector<unsigned> world_ranks;  // the members, by window rank
  struct Member {
    uint8_t* base = nullptr;
    size_t size = 0;
    int disp_unit = 1;
    // As a target: who holds its lock, what waits for it, what it was sent.
    int exclusive = -1;  // the window rank holding the exclusive lock
    unsigned shared = 0; // shared locks held
    std::deque<std::shared_ptr<RmaBatch>> waiting;  // batches whose lock is not free yet
    std::map<unsigned, std::deque<std::shared_ptr<RmaBatch>>> mailbox;  // by origin, in sent order
    unsigned completed = 0;  // access epochs ended here since the exposure epoch began
    std::vector<std::pair<uintptr_t, size_t>> attached;  // dynamic: regions attached
  };
  std::vector<Member> members;
  std::vector<uint8_t> shared_memory;  // MPI_Win_allocate_shared: every member's part, in order
};

// One rank's window (an MPI_Win handle).
struct WinEntry {
  std::shared_ptr<WindowShared> shared;
  MPI_Comm comm = MPI_COMM_NULL;  // its communicator: a duplicate (its transport and error handler); NULL for one rank
  unsigned me = 0;                // this rank's window rank
  std::vector<uint8_t> allocated; // MPI_Win_allocate's memory
  std::map<unsigned, std::vector<RmaOp>> pending;  // by target: issued, not yet sent
  // Epochs.
  bool fence = false;               // a fence opened an epoch
  std::vector<unsigned> access;     // MPI_Win_start's group, until complete
  bool accessing = false;           // an access epoch is open (its group may be empty)
  std::vector<unsigned> exposure;   // MPI_Win_post's group, until wait
  bool exposed = false;
  struct Lock {
    int type = 0;
    bool held = false;  // granted by the target (a shared lock is taken with its first message)
  };
  std::map<unsigned, Lock> locks;  // by target
  bool lock_all = false;
  std::string name;
  std::map<int, void*> attributes;  // the program's, by keyval (api_attributes.cpp)
  // MPI_Win_get_attr's values (pointers to them are what it returns).
  void* attr_base = nullptr;
  MPI_Aint attr_size = 0;
  int attr_disp_unit = 1, attr_flavor = 0, attr_model = 0;
};

// The rank's window `w`: MPI_ERR_WIN if it is not one.
WinEntry& window(Rank& r, MPI_Win w);

// Collective over `comm`: a window of each member's `size` bytes at `base` (allocated here
// when `allocate`, in one block for all members when `shared`), or dynamic.
MPI_Win create_window(Rank& r, MPI_Comm comm, void* base, MPI_Aint size, int disp_unit, int flavor);
// Collective: frees it (every epoch must be over).
void free_window(Rank& r, MPI_Win& w);

// Issues `op` to window rank `target`: checks that an epoch allows it, then queues it (an
// operation on this rank's own memory is done at once).
void issue(Rank& r, WinEntry& w, unsigned target, RmaOp op);

// Synchronisation (window.cpp): each sends what the epoch needs sent and waits for it.
void fence(Rank& r, WinEntry& w, int assert_flags);
void post(Rank& r, WinEntry& w, std::vector<unsigned> group, int assert_flags);
void start(Rank& r, WinEntry& w, std::vector<unsigned> group, int assert_flags);
void complete(Rank& r, WinEntry& w);
bool wait_exposure(Rank& r, WinEntry& w, bool block);  // MPI_Win_wait (block) and MPI_Win_test
void lock(Rank& r, WinEntry& w, int type, unsigned target);
void unlock(Rank& r, WinEntry& w, unsigned target);
void flush(Rank& r, WinEntry& w, unsigned target);
void flush_all(Rank& r, WinEntry& w);
// MPI_Win_lock_all's part on this rank's own memory: a shared lock, taken at once.
void lock_self_shared(Rank& r, WinEntry& w);

// The handler: serves the messages that have arrived for the rank's windows.
void serve_windows(Rank& r);

}  // namespace collnet::mpi
