// SPDX-License-Identifier: Apache-2.0
// `collnet compare COLLECTIVE --torus XxYxZ --sizes 8,64,...,1M`: every algorithm that
// applies to the collective, and auto, at every message size, each on a fresh machine and
// verified, as a table of cycles with the fastest of each size marked (cli/compare.hpp);
// --json writes the table (cli/compare_table.hpp). Its options, their checks and its run.
#pragma once

#include <string>

#include "cli/compare.hpp"
#include "cli/subcommand.hpp"

namespace collnet::cli {

// Adds `compare` to `app`; its check fills cl.compare.
Subcommand add_compare(CLI::App& app, CommandLine& cl);
// Runs the grid and writes --json; returns the exit status: 0 when every run verified.
int run_compare_command(const CompareOptions& options);

// --prune (CompareOptions::prune), on compare and tune; and what is wrong with its value
// (`command` names the subcommand), or nothing.
void add_prune_option(CLI::App* app, double& prune);
std::string check_prune(const char* command, double prune);

}  // namespace collnet::cli
