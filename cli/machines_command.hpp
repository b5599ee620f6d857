// SPDX-License-Identifier: Apache-2.0
// `collnet machines`: the machine presets --machine takes (cli/machine_file.hpp), each with
// its description, or with --show NAME one preset's file, to copy and edit. Its options,
// their checks and its run.
#pragma once

#include <string>

#include "cli/subcommand.hpp"

namespace collnet::cli {

// Adds `machines` to `app`; its check fills cl.machines_show.
Subcommand add_machines(CLI::App& app, CommandLine& cl);
// Prints the list, or the preset `show` names; returns the exit status.
int run_machines_command(const std::string& show);

}  // namespace collnet::cli
