// SPDX-License-Identifier: Apache-2.0
// The collectives `collnet run` knows, as one table that the command line (names, help,
// option checks), the run (how to call one) and the verifier (what every rank must hold)
// share: adding a collective is adding one entry to collectives().
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <istream>
#include <ostream>
#include <optional>
#include <string>
#include <vector>

#include "driver/communicator.hpp"
#include "driver/datatype.hpp"
#include "driver/op.hpp"

namespace collnet::cli {

// Element counts of the vector forms: member[j], one count per member (scatterv, gatherv,
// allgatherv, reduce_scatter), and pair[i][j], what member i sends member j (alltoallv).
// Receive buffers are packed: member j's block follows those of members 0..j-1.
struct Counts {
  std::vector<size_t> member;
  std::vector<std::vector<size_t>> pair;
};
// Counts drawn from the seed alone: 0 .. 2*count each, a zero about one time in six.
Counts seeded_counts(uint64_t seed, size_t members, size_t count);
// A --counts file: a JSON array of `members` counts (pair[i][j] = member[j]) or of
// `members` arrays of `members` counts (member[j] = pair[j][j]). Throws
// std::invalid_argument naming the file and the entry at fault.
Counts read_counts_file(const std::string& path, size_t members);
// The same from a stream; `path` names it in the errors.
Counts read_counts(std::istream& in, const std::string& path, size_t members);

// One rank's call. The command line keeps elements in raw form, one per uint64_t (pairs
// of value and index words for maxloc/minloc), which the reference model works on; the
// call lays them out natively, as a program holds them, runs the collective on those
// buffers and reads the result back. `recv` holds `recv_count` elements.
struct Call {
  driver::Datatype type;
  driver::Op op;
  unsigned root;
  size_t count;
  const uint64_t* send;
  uint64_t* recv;
  size_t recv_count;
  const Counts* counts = nullptr;  // the vector and personalised forms
};

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

struct Collective {
  const char* name;
  bool takes_op;         // reduces with --op (the others move data and ignore it)
  bool takes_root;       // has a --root
  bool recv_per_member;  // the result holds count elements per member (gather, allgather)
  bool grows_with_members;  // its reference holds a position per member per element
  bool moves_data;       // false for barrier, which the run times instead of checking data
  std::function<void(driver::Communicator&, const Call&)> run;
  std::function<Expected(const ReferenceInputs&)> expect;  // empty for barrier
  // The personalised and vector forms, whose buffers are not --count long: member k's
  // lengths for --count `count` among `members` (empty for the others: count, and
  // count per member for the receive buffer if recv_per_member).
  std::function<Lengths(size_t count, const Counts& counts, unsigned root, size_t members, size_t k)> lengths;
  bool takes_counts = false;  // the vector forms: --counts
};

// Every collective, in the order the help lists them.
const std::vector<Collective>& collectives();
// The collective called `name`, or nullptr.
const Collective* find_collective(const std::string& name);
// The counts a call of `c` reads, drawn from the seed (seeded_counts): the vector forms'
// only; the others get none (a table of every pair of ranks is n^2 words, 32 GiB on
// 65,536 ranks).
Counts seeded_counts_for(const Collective& c, uint64_t seed, size_t members, size_t count);
// "barrier | bcast | ...": the names, for the help and for errors.
std::string collective_names();
// `collnet algorithms`: every collective with the algorithms that apply to it.
void print_algorithms(std::ostream& out);

}  // namespace collnet::cli
