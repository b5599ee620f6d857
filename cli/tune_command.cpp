// SPDX-License-Identifier: Apache-2.0
// `collnet tune`: its options, their checks, and the rules measured (or read) and written.
#include "cli/tune_command.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <memory>
#include <stdexcept>

#include <CLI/CLI.hpp>

#include "cli/command_line.hpp"
#include "cli/compare.hpp"
#include "cli/compare_command.hpp"
#include "cli/machine_options.hpp"
#include "cli/tuning_file.hpp"
#include "cli/usage_error.hpp"
#include "reference/number_list.hpp"

namespace collnet::cli {

namespace {

// What `tune` was given, as given; the check turns it into TuneOptions.
struct TuneArguments {
  TorusOption torus;
  MachineOptions machine;
  long long tasks = 1;
  std::string sizes = "4,8,16,32,64,128,256,512,1k,2k,4k,8k,16k,32k,64k", collectives;
};

void add_options(CLI::App* tune, TuneArguments& a, TuneOptions& o) {
  add_torus_option(tune, a.torus);
  add_machine_options(tune, a.machine);
  tune->add_option("--tasks", a.tasks, "tasks (ranks) per node")->capture_default_str();
  tune->add_option("--sizes", a.sizes, "bytes per rank (per pair for alltoall and scatter), e.g. 8,512,4k,32k")
      ->capture_default_str();
  tune->add_option("--collectives", a.collectives, "only these, comma-separated (default: every one)");
  add_prune_option(tune, o.prune);
  tune->add_option("--output", o.output, "the table to write (JSON), for --tuning and scripts/tuning_to_cpp.py")
      ->required();
  tune->add_option("--from", o.from, "take the rules from these 'collnet compare --json' tables instead of measuring");
}

// What is wrong with what `tune` was given, or nothing.
std::string check_tune(const TuneArguments& a, TuneOptions& o) {
  if (const std::string bad = set_machine("tune", a.machine, a.torus, a.tasks, o.run.machine); !bad.empty()) return bad;
  try {
    o.sizes = reference::parse_sizes(a.sizes);
  } catch (const std::exception& e) {
    return std::string("tune: --sizes: ") + e.what();
  }
  for (const std::string& name : a.collectives.empty() ? std::vector<std::string>{} : reference::split_list(a.collectives)) {
    const auto c = driver::collective_named(name);
    if (!c) return "tune: --collectives: '" + name + "' is not a collective 'collnet algorithms' lists";
    o.collectives.push_back(*c);
  }
  return check_prune("tune", o.prune);
}

// The rules a measured table gives: per size the fastest, held up to the geometric middle
// of the next size; for a reduction, for the class of the type it was measured with.
std::vector<driver::TuningRule> rules_from(const CompareTable& t, unsigned ranks) {
  const driver::TypeClass types =
      driver::per_type_class(t.collective) ? driver::type_class(t.type) : driver::TypeClass::Any;
  std::vector<driver::TuningRule> rules;
  for (size_t k = 0; k < t.rows.size(); ++k) {
    if (!t.rows[k].fastest) continue;
    const driver::Algorithm a = t.algorithms[*t.rows[k].fastest];
    size_t up_to = SIZE_MAX;
    if (k + 1 < t.rows.size())
      up_to = static_cast<size_t>(std::sqrt(static_cast<double>(std::max<size_t>(1, t.rows[k].bytes)) *
                                            static_cast<double>(t.rows[k + 1].bytes)));
    if (!rules.empty() && rules.back().algorithm == a)
      rules.back().up_to_bytes = up_to;  // the same winner: one rule
    else
      rules.push_back({t.collective, ranks, up_to, a, types});
  }
  return rules;
}

// Writes the table to `path`; false, with why on stderr, if it cannot.
bool write_table(const std::string& path, const std::vector<driver::TuningRule>& rules,
                 const std::string& measured_on) {
  try {
    write_tuning_file(path, rules, measured_on);
  } catch (const std::invalid_argument& e) {
    std::cerr << "collnet: tune: " << e.what() << "\n";
    return false;
  }
  return true;
}

}  // namespace

Subcommand add_tune(CLI::App& app, CommandLine& cl) {
  CLI::App* tune =
      app.add_subcommand("tune", "measure every collective's algorithms and write the table auto picks from");
  auto given = std::make_shared<TuneArguments>();
  add_options(tune, *given, cl.tune);
  return {tune, [given, &cl]() -> std::optional<int> {
            if (const std::string bad = check_tune(*given, cl.tune); !bad.empty()) return usage_error(bad, "tune");
            cl.command = CommandLine::Command::Tune;
            return std::nullopt;
          }};
}

int run_tune_command(const TuneOptions& o) {
  unsigned ranks = o.run.machine.world_ranks();
  std::vector<driver::TuningRule> rules;
  if (!o.from.empty()) {
    std::string where;
    for (const std::string& path : o.from) {
      CompareTable t;
      try {
        t = read_compare_file(path, &ranks);
      } catch (const std::invalid_argument& e) {
        std::cerr << "collnet: tune: --from: " << e.what() << "\n";
        return 2;
      }
      for (const driver::TuningRule& r : rules_from(t, ranks)) rules.push_back(r);
      where += (where.empty() ? "" : ", ") + path;
    }
    if (!write_table(o.output, rules, where)) return 1;
    std::cout << "tuning table: " << o.output << " (" << rules.size() << " rules from " << where << ")\n";
    return 0;
  }
  std::vector<driver::Collective> collectives = o.collectives;
  if (collectives.empty())
    for (unsigned i = 0; i < driver::kNumCollectives; ++i) collectives.push_back(static_cast<driver::Collective>(i));
  bool ok = true;
  for (driver::Collective collective : collectives) {
    // A reduction at each type class's type; the others' cost does not depend on it.
    std::vector<driver::Datatype> types{o.run.type};
    if (driver::per_type_class(collective))
      types = {driver::measured_type(driver::TypeClass::Int), driver::measured_type(driver::TypeClass::Int64),
               driver::measured_type(driver::TypeClass::Float)};
    for (driver::Datatype type : types) {
      CompareOptions c;
      c.run = o.run;
      c.run.collective = to_string(collective);
      c.run.type = type;
      c.sizes = o.sizes;
      c.prune = o.prune;
      const CompareTable t = compare_algorithms(c);
      ok = ok && t.all_verified;
      for (const driver::TuningRule& r : rules_from(t, ranks)) rules.push_back(r);
      std::cout << "\n";
    }
  }
  if (!write_table(o.output, rules, o.run.machine.shape.str())) return 1;
  std::cout << "tuning table: " << o.output << " (" << rules.size() << " rules for " << ranks << " ranks)\n";
  return ok ? 0 : 1;
}

}  // namespace collnet::cli
