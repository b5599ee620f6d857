// SPDX-License-Identifier: Apache-2.0
// A subcommand of `collnet` as the command line's dispatcher (cli/command_line.cpp) sees it:
// its CLI11 app, where its options are registered, and its check.
#pragma once

#include <functional>
#include <optional>

namespace CLI {
class App;
}

namespace collnet::cli {

struct CommandLine;  // cli/command_line.hpp: what every command's check fills

struct Subcommand {
  CLI::App* app = nullptr;
  // Run after the parse when this subcommand was given: turns what was given into the
  // options the command runs with and says which command to run (cli/command_line.hpp),
  // returning nothing; or reports a usage error and returns the exit status.
  std::function<std::optional<int>()> check;
};

}  // namespace collnet::cli
