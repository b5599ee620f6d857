// SPDX-License-Identifier: Apache-2.0
// The command line of `collnet`: the CLI11 app with every subcommand, each registered by
// its own file, and the dispatch to the one given, to check it and then to run it
// (cli/collnet_main.cpp; fuzz/fuzz_command_line.cpp parses arbitrary words with it).
#include "cli/command_line.hpp"

#include <CLI/CLI.hpp>

#include "cli/algorithms_command.hpp"
#include "cli/compare_command.hpp"
#include "cli/machines_command.hpp"
#include "cli/mpirun_command.hpp"
#include "cli/neighbourhoods_command.hpp"
#include "cli/run_command.hpp"
#include "cli/subcommand.hpp"
#include "cli/sweep_command.hpp"
#include "cli/traffic_command.hpp"
#include "cli/tune_command.hpp"
#include "cli/usage_error.hpp"

namespace collnet::cli {

std::optional<int> parse_command_line(int argc, const char* const* argv, CommandLine& cl) {
  CLI::App app{"collnet: cycle-level model of in-network collective hardware"};
  app.require_subcommand(1);
  // In the order the help lists them.
  const Subcommand commands[] = {add_run(app, cl),     add_algorithms(app, cl), add_machines(app, cl),
                                 add_compare(app, cl), add_tune(app, cl),       add_neighbourhoods(app, cl),
                                 add_traffic(app, cl), add_mpirun(app, cl),     add_sweep(app, cl)};
  // mpirun's words as its options parse them (Open MPI's -np); the others as given.
  std::vector<std::string> words(argv, argv + argc);
  words = mpirun_words(*app.get_subcommand("mpirun"), std::move(words));
  std::vector<const char*> args;
  for (const std::string& w : words) args.push_back(w.c_str());
  try {
    app.parse(static_cast<int>(args.size()), args.data());
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return usage_error(e.what());
  }
  for (const Subcommand& c : commands)
    if (c.app->parsed()) return c.check();
  return usage_error("a command is required");  // CLI11 already refuses that (require_subcommand)
}

int run_command_line(const CommandLine& cl, sim::Transport* transport) {
  switch (cl.command) {
    case CommandLine::Command::Run:
    case CommandLine::Command::Pingpong:
      return run_run_command(cl, transport);
    case CommandLine::Command::Algorithms:
      return run_algorithms_command();
    case CommandLine::Command::Machines:
      return run_machines_command(cl.machines_show);
    case CommandLine::Command::Compare:
      return run_compare_command(cl.compare);
    case CommandLine::Command::Tune:
      return run_tune_command(cl.tune);
    case CommandLine::Command::Neighbourhoods:
      return run_neighbourhoods_command(cl.neighbourhoods);
    case CommandLine::Command::Traffic:
      return run_traffic_command(cl.traffic, transport);
    case CommandLine::Command::Mpirun:
      return run_mpirun_command(cl.mpirun, transport);
    case CommandLine::Command::Sweep:
      return run_sweep_command(cl.sweep);
  }
  return usage_error("no command to run");
}

}  // namespace collnet::cli
