// Argument checks the vector and personalised collectives share: each names the call and
// the argument, as every collnet::Error does.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "error.hpp"

namespace collnet::driver {

// A per-rank array (counts, displacements) holds one entry per rank of the communicator.
inline void need_size(const char* call, const char* name, const std::vector<size_t>& v, unsigned size) {
  if (v.size() != size)
    throw Error(std::string(call) + ": " + name + " holds " + std::to_string(v.size()) +
                " entries; the communicator has " + std::to_string(size) + " ranks");
}

// A buffer of `count` elements is not null unless it holds none.
inline void need_buffer(const char* call, const char* which, const void* p, size_t count) {
  if (p == nullptr && count > 0)
    throw Error(std::string(call) + ": the " + which + " buffer is null for " + std::to_string(count) + " elements");
}

}  // namespace collnet::driver
