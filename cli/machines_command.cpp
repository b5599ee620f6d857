// SPDX-License-Identifier: Apache-2.0
// `collnet machines`: its --show check, and the presets' list or one preset's file.
#include "cli/machines_command.hpp"

#include <iostream>
#include <stdexcept>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "cli/command_line.hpp"
#include "cli/machine_file.hpp"
#include "cli/usage_error.hpp"

namespace collnet::cli {

Subcommand add_machines(CLI::App& app, CommandLine& cl) {
  CLI::App* machines = app.add_subcommand("machines", "list the machine presets --machine takes, or print one's file");
  machines->add_option("--show", cl.machines_show, "print this preset's machine file (to copy and edit)");
  return {machines, [&cl]() -> std::optional<int> {
            if (!cl.machines_show.empty()) {
              try {
                machine_preset_text(cl.machines_show);
              } catch (const std::invalid_argument& e) {
                return usage_error(std::string("--show: ") + e.what(), "machines");
              }
            }
            cl.command = CommandLine::Command::Machines;
            return std::nullopt;
          }};
}

int run_machines_command(const std::string& show) {
  if (!show.empty()) {
    std::cout << machine_preset_text(show);
    return 0;
  }
  for (const std::string& name : machine_presets()) {
    const nlohmann::json j = nlohmann::json::parse(machine_preset_text(name));
    std::cout << name << "\n  " << j.value("description", std::string()) << "\n";
  }
  std::cout << "Print one with 'collnet machines --show NAME', save it, edit it and pass the file to --machine.\n";
  return 0;
}

}  // namespace collnet::cli
