// SPDX-License-Identifier: Apache-2.0
// The report of one run of a collective, written from its RunResult (cli/run_result.hpp):
// the line `collnet run` prints, what went wrong on stderr, and --json.
#pragma once

#include <ostream>

#include "cli/run_options.hpp"
#include "cli/run_result.hpp"

namespace collnet::cli {

// Prints the run's line (and the samples' and the links' when there are any) to `text`,
// what went wrong to stderr, and writes --json. Returns the exit status: 0 verified, 1 a
// wrong result, a failed run or a --json file that cannot be written.
int report_run(const RunOptions& o, const RunResult& r, std::ostream& text);

}  // namespace collnet::cli
