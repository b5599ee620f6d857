// SPDX-License-Identifier: Apache-2.0
// `collnet algorithms`: its registration and the list it prints.
#include "cli/algorithms_command.hpp"

#include <iostream>
#include <string>

#include <CLI/CLI.hpp>

#include "cli/command_line.hpp"
#include "driver/algorithm.hpp"

namespace collnet::cli {

Subcommand add_algorithms(CLI::App& app, CommandLine& cl) {
  CLI::App* algorithms = app.add_subcommand("algorithms", "list the collectives' algorithms");
  return {algorithms, [&cl]() -> std::optional<int> {
            cl.command = CommandLine::Command::Algorithms;
            return std::nullopt;
          }};
}

int run_algorithms_command() {
  using namespace driver;
  std::ostream& out = std::cout;
  out << "collective   algorithms (--algorithm; auto picks one per call)\n";
  for (unsigned i = 0; i < kNumCollectives; ++i) {
    const driver::Collective c = static_cast<driver::Collective>(i);
    std::string names;
    for (Algorithm a : algorithms_for(c)) names += std::string(names.empty() ? "" : ", ") + to_string(a);
    out << "  " << to_string(c) << std::string(11 - std::string(to_string(c)).size(), ' ') << names << "\n";
  }
  out << "\nalgorithms\n";
  for (unsigned i = 0; i < kNumAlgorithms; ++i) {
    const Algorithm a = static_cast<Algorithm>(i);
    out << "  " << to_string(a) << std::string(26 - std::string(to_string(a)).size(), ' ') << describe(a) << "\n";
  }
  out << "\nThe other collectives (alltoallv, scatterv, gatherv, reduce_scatter, reduce_scatter_block) have one "
         "each.\n";
  return 0;
}

}  // namespace collnet::cli
