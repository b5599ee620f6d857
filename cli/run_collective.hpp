// SPDX-License-Identifier: Apache-2.0
// `collnet run COLLECTIVE`'s run, in stages that fill one RunResult (cli/run_result.hpp):
// prepare (the members, their inputs and buffers), run (on a fresh simulated machine),
// verify (against the reference model) and report (cli/run_report.hpp).
#pragma once

#include <iostream>

#include "cli/run_options.hpp"
#include "cli/run_result.hpp"
#include "systemc/transport.hpp"

namespace collnet::cli {

// Runs the collective, checks it against the reference, writes --output, prints a report
// line to `text` (errors to stderr), writes --json, and hands the result to `result` if
// given. Returns the process exit status: 0 verified, 1 wrong result or hardware error.
// With `transport`, this process runs its partition of options.machine (partitions > 1):
// partition 0 verifies and reports, and every partition returns the same status.
int run_collective(const RunOptions& options, std::ostream& text = std::cout, RunResult* result = nullptr,
                   sim::Transport* transport = nullptr);

}  // namespace collnet::cli
