// SPDX-License-Identifier: Apache-2.0
// `collnet algorithms`: every collective with the algorithms that apply to it, and what
// each algorithm does. Its registration and its run.
#pragma once

#include "cli/subcommand.hpp"

namespace collnet::cli {

// Adds `algorithms` to `app`.
Subcommand add_algorithms(CLI::App& app, CommandLine& cl);
// Prints the list; returns the exit status.
int run_algorithms_command();

}  // namespace collnet::cli
