// SPDX-License-Identifier: Apache-2.0
// The collectives as the reference model sees them, one entry each: what a collective
// takes (an op, a root, counts), how long each member's buffers are, and what every member
// must hold afterwards. How a command calls one on a communicator: cli/collective_calls.hpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "driver/datatype.hpp"
#include "reference/counts.hpp"

namespace collnet::reference {

// What each member's receive buffer must hold afterwards; nothing for members whose buffer
// the collective leaves undefined (non-roots of reduce and gather, rank 0 of exscan).
using Expected = std::vector<std::optional<std::vector<uint64_t>>>;

// What a reference is computed from: the members' inputs and the op over a prefix of them.
struct ReferenceInputs {
  driver::Datatype type;
  unsigned root;
  size_t members;
  // Member k's input, each element masked to the type's bits.
  std::function<std::vector<uint64_t>(size_t k)> input;
  // The op over members [0, upto) at every element.
  std::function<std::vector<uint64_t>(size_t upto)> reduce_over;
  size_t count = 0;                // --count (the personalised and vector forms)
  const Counts* counts = nullptr;  // the vector forms
  bool pairs = false;              // elements are (value, index) pairs
};

// Member k's send and receive buffer lengths in elements.
struct Lengths {
  size_t send, recv;
};

// One collective. Elements are raw bit patterns, one per uint64_t (pairs of value and
// index words for maxloc/minloc).
struct Collective {
  const char* name = "";
  bool takes_op = false;            // reduces with an op (the others move data and ignore it)
  bool takes_root = false;          // has a root
  bool takes_counts = false;        // the vector forms: counts per member (or per pair of members)
  bool recv_per_member = false;     // the result holds count elements per member (gather, allgather)
  bool grows_with_members = false;  // its reference holds a position per member per element
  bool moves_data = true;           // false for barrier, which is timed instead of checked
  std::function<Expected(const ReferenceInputs&)> expect;  // empty for barrier
  // The personalised and vector forms, whose buffers are not `count` long: member k's
  // lengths for `count` among `members` (empty for the others; see member_lengths).
  std::function<Lengths(size_t count, const Counts& counts, unsigned root, size_t members, size_t k)> lengths;
};

// Every collective, in the order the help lists them.
const std::vector<Collective>& collectives();
// The collective called `name`, or nullptr.
const Collective* find_collective(const std::string& name);
// Member k's buffer lengths for `count` among `members`: c.lengths's, or else `count`
// elements in, and `count` out (per member if recv_per_member).
Lengths member_lengths(const Collective& c, size_t count, const Counts& counts, unsigned root, size_t members,
                       size_t k);
// The counts a call of `c` reads, drawn from the seed (seeded_counts): the vector forms'
// only; the others get none (a table of every pair of ranks is n^2 words, 32 GiB on
// 65,536 ranks).
Counts seeded_counts_for(const Collective& c, uint64_t seed, size_t members, size_t count);
// "barrier | bcast | ...": the names, for the help and for errors.
std::string collective_names();

}  // namespace collnet::reference
