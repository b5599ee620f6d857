// SPDX-License-Identifier: Apache-2.0
// Argument checks the vector and personalised collectives share: each names the call and
// the argument, as every collnet::Error does.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "driver/error.hpp"

namespace collnet::driver {

// A per-rank array (counts, displacements) holds one entry per rank of the communicator.
inline void need_size(const char* call, const char* name, const std::vector<size_t>& v, unsigned size) {
  if (v.size() != size)
    throw Error(std::string(call) + ": " + name + " holds " + std::to_string(v.size()) +
                " entries; the communicator has " + std::to_string(size) + " ranks");
}

// A buffer of `count` elements is not null unless it holds none: "<call>: <which> buffer is
// null for <count> elements" (need_buffer: "the <which> buffer").
inline void check_buffer(const char* call, const std::string& which, const void* p, size_t count) {
  if (p == nullptr && count > 0)
    throw Error(std::string(call) + ": " + which + " buffer is null for " + std::to_string(count) + " elements");
}
inline void need_buffer(const char* call, const char* which, const void* p, size_t count) {
  if (p == nullptr && count > 0) check_buffer(call, std::string("the ") + which, p, count);
}

// Blocks [displs[j], displs[j] + counts[j]) of a buffer, in elements: none overflows, and
// with `disjoint` (a receive buffer) no two nonempty ones overlap (MPI forbids writing an
// element twice). The names are the arguments', for the message.
void check_blocks(const char* call, const char* counts_name, const char* displs_name, const std::vector<size_t>& counts,
                  const std::vector<size_t>& displs, bool disjoint);
// The elements a buffer needs to hold every nonempty block.
size_t extent(const std::vector<size_t>& counts, const std::vector<size_t>& displs);
// One side ("send" or "receive") of a v-collective: a count and a displacement per rank,
// blocks that fit (and on the receive side do not overlap), a buffer that holds them.
void check_layout(const char* call, const char* side, const char* counts_name, const char* displs_name,
                  const std::vector<size_t>& counts, const std::vector<size_t>& displs, const void* buf, unsigned size);

}  // namespace collnet::driver
