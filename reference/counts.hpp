// SPDX-License-Identifier: Apache-2.0
// The element counts of the vector forms (alltoallv, scatterv, gatherv, allgatherv,
// reduce_scatter): drawn from a seed, or read from a --counts file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <istream>
#include <string>
#include <vector>

namespace collnet::reference {

// member[j], one count per member (scatterv, gatherv, allgatherv, reduce_scatter), and
// pair[i][j], what member i sends member j (alltoallv). Receive buffers are packed: member
// j's block follows those of members 0..j-1.
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

// The sum of `counts`.
size_t total(const std::vector<size_t>& counts);
// Where blocks of `counts` elements start when packed one after another.
std::vector<size_t> packed(const std::vector<size_t>& counts);
// What every member sends member j: column j of the pair counts.
std::vector<size_t> sent_to(const Counts& c, size_t j);

}  // namespace collnet::reference
