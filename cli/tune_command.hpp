// SPDX-License-Identifier: Apache-2.0
// `collnet tune --torus XxYxZ --output FILE`: every collective measured as compare
// measures it (cli/compare.hpp), and the rules auto picks from (driver/tuning.hpp) written
// as a tuning table (cli/tuning_file.hpp), which --tuning hands to run and compare; or the
// rules taken from compare's --json tables (--from). Its options, their checks and its run.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "cli/run_options.hpp"
#include "cli/subcommand.hpp"

namespace collnet::cli {

struct TuneOptions {
  RunOptions run;
  std::vector<size_t> sizes;
  std::vector<driver::Collective> collectives;  // the ones to measure (empty: every one)
  double prune = 2;                              // CompareOptions::prune
  std::vector<std::string> from;  // compare tables to take the rules from instead of measuring
  std::string output;             // the table (JSON)
};

// Adds `tune` to `app`; its check fills cl.tune.
Subcommand add_tune(CLI::App& app, CommandLine& cl);
// Measures (or reads) and writes the table; returns the exit status: 0 when every run
// verified, 1 when one did not or the table could not be written, 2 for a --from table it
// cannot read.
int run_tune_command(const TuneOptions& options);

}  // namespace collnet::cli
