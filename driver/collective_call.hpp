// SPDX-License-Identifier: Apache-2.0
// One collective call's arguments as the program passed them (native buffers), checked by
// the Communicator, and the descriptor they fold into for its tree packets' tags.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "driver/datatype.hpp"
#include "driver/op.hpp"

namespace collnet::driver {

// Collective identifiers folded into the tags, so that ranks in different collectives
// never combine.
enum CallId : uint64_t {
  kAllreduce = 1,
  kReduce,
  kBcast,
  kGather,
  kAllgather,
  kScan,
  kExscan,
  kBarrier,
  kAgree,
  kGathervCounts = 0x21,
  kGatherv,
  kAllgatherv,
  kReduceScatter,
  kAgreeCounts,
};

inline uint64_t describe(CallId call, size_t count, Datatype type, Op op, unsigned root) {
  return (static_cast<uint64_t>(call) << 56) ^ (static_cast<uint64_t>(count) << 16) ^
         (static_cast<uint64_t>(type) << 8) ^ (static_cast<uint64_t>(op) << 4) ^ (static_cast<uint64_t>(root) << 32);
}

// MPI_IN_PLACE: Communicator::kInPlace.
inline void* const kInPlace = reinterpret_cast<void*>(uintptr_t{1});

struct CollectiveCall {
  const char* name = "";  // "allreduce": errors name the call
  const void* send = nullptr;
  void* recv = nullptr;  // bcast: the buffer
  size_t count = 0;
  Datatype type = Datatype::U64;
  Op op = Op::Bor;
  unsigned root = 0;
  // The v-collectives: per rank counts and displacements (elements), and whether this
  // rank's block is already in place in recv.
  const std::vector<size_t>* counts = nullptr;
  const std::vector<size_t>* displs = nullptr;
  bool in_place = false;

  uint64_t descriptor(CallId id) const { return describe(id, count, type, op, root); }
  // Bytes of one element in the program's buffers.
  size_t element_bytes() const { return native_bytes(type, is_loc(op)); }
};

}  // namespace collnet::driver
