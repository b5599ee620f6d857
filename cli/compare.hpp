// SPDX-License-Identifier: Apache-2.0
// `collnet compare COLLECTIVE --torus XxYxZ --sizes 8,64,...,1M`: every algorithm that
// applies to the collective (driver/algorithm.hpp), and auto, at every message size, each
// on a fresh machine and verified, as a table of cycles with the fastest of each size
// marked. `collnet tune --torus XxYxZ` measures every collective so and writes the table
// auto picks from (driver/tuning.hpp) as JSON; `--tuning FILE` hands such a table to run
// and compare.
#pragma once

#include <istream>
#include <optional>
#include <string>
#include <vector>

#include "driver/tuning.hpp"
#include "cli/run_options.hpp"

namespace collnet::cli {

struct CompareOptions {
  RunOptions run;                  // the machine, type, op, root, seed, tuning; count set per size
  std::vector<size_t> sizes;       // bytes per rank (count = bytes / element size, at least 1)
  std::vector<driver::Algorithm> algorithms;  // empty: every one that applies
  std::string json_path;
};

struct CompareRow {
  size_t bytes = 0;
  std::vector<std::optional<uint64_t>> cycles, busiest;  // per algorithm; empty: the run failed
  std::optional<uint64_t> auto_cycles;
  std::string auto_algorithm;  // what auto ran
  std::optional<size_t> fastest;  // index into the algorithms
};
struct CompareTable {
  driver::Collective collective = driver::Collective::Barrier;
  std::vector<driver::Algorithm> algorithms;
  std::vector<CompareRow> rows;
  bool all_verified = true;
};

// Runs the grid (one child process per run), printing the table to stdout as it goes.
CompareTable compare_algorithms(const CompareOptions& options);
// Returns the process exit status: 0 when every run verified.
int run_compare(const CompareOptions& options);

// The rules a measured table gives: per size the fastest, held up to the geometric middle
// of the next size.
std::vector<driver::TuningRule> rules_from(const CompareTable& table, unsigned ranks);
// A tuning table file: {"rules": [{"collective", "ranks", "up_to_bytes", "algorithm"}, ...]}.
// Throws std::invalid_argument naming the file and what is wrong.
driver::Tuning read_tuning_file(const std::string& path);  // cli/tuning_file.cpp
// The same from a stream; `path` names it in the errors.
driver::Tuning read_tuning(std::istream& in, const std::string& path);
void write_tuning_file(const std::string& path, const std::vector<driver::TuningRule>& rules, const std::string& torus);

// A table `collnet compare --json` wrote. Throws std::invalid_argument naming the file and
// what is wrong.
CompareTable read_compare_file(const std::string& path, unsigned* ranks);

struct TuneOptions {
  RunOptions run;
  std::vector<size_t> sizes;
  std::vector<std::string> from;  // compare tables to take the rules from instead of measuring
  std::string output;             // the table (JSON)
};
int run_tune(const TuneOptions& options);

}  // namespace collnet::cli
