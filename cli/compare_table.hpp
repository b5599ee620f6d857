// SPDX-License-Identifier: Apache-2.0
// What `collnet compare` measures: cycles per algorithm and message size, the fastest of
// each size, auto's pick; and the JSON file --json writes, which `collnet tune --from`
// reads back.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/run_options.hpp"
#include "driver/algorithm.hpp"
#include "driver/datatype.hpp"

namespace collnet::cli {

struct CompareRow {
  size_t bytes = 0;
  std::vector<std::optional<uint64_t>> cycles, busiest;  // per algorithm; empty: failed or pruned
  std::vector<bool> pruned;                              // per algorithm: not run (CompareOptions::prune)
  std::optional<uint64_t> auto_cycles;
  std::string auto_algorithm;     // what auto ran
  std::optional<size_t> fastest;  // index into the algorithms
};

struct CompareTable {
  driver::Collective collective = driver::Collective::Barrier;
  std::vector<driver::Algorithm> algorithms;
  driver::Datatype type = driver::Datatype::U64;  // the element type it was measured with
  std::vector<CompareRow> rows;
  bool all_verified = true;
};

// The index of the fewest cycles (the first of equals), none if every run failed.
std::optional<size_t> fastest_of(const std::vector<std::optional<uint64_t>>& cycles);
// Whether algorithm `i` is not run at the sizes after the table's last row: it was pruned
// there, or (the last two rows at 512 bytes or more) it took more than `factor` times the
// fastest at the last row and, each
// extrapolated along the line through its last two rows, would still at `top_bytes` (the
// grid's largest size): it is behind and not catching up (CompareOptions::prune; a factor
// of 0 never prunes).
bool pruned_next(const CompareTable& table, size_t i, double factor, size_t top_bytes);
// The table as --json writes it, with the machine and the runs' common options `run`.
nlohmann::json compare_table_json(const CompareTable& table, const RunOptions& run);
// A table `collnet compare --json` wrote, and in `ranks` the ranks it was measured on.
// Throws std::invalid_argument naming the file and what is wrong.
CompareTable read_compare_file(const std::string& path, unsigned* ranks);

}  // namespace collnet::cli
