// SPDX-License-Identifier: Apache-2.0
// `collnet compare`: its options, their checks, and the grid's run and --json.
#include "cli/compare_command.hpp"

#include <memory>
#include <stdexcept>
#include <string>

#include <CLI/CLI.hpp>

#include "cli/command_line.hpp"
#include "cli/json_file.hpp"
#include "cli/machine_options.hpp"
#include "cli/run_collective.hpp"
#include "cli/run_command.hpp"
#include "cli/tuning_file.hpp"
#include "cli/usage_error.hpp"
#include "reference/number_list.hpp"

namespace collnet::cli {

namespace {

// What `compare` was given, as given; the check turns it into CompareOptions.
struct CompareArguments {
  explicit CompareArguments(const CompareOptions& o) : piece_bytes(static_cast<long long>(o.run.segment.piece_bytes)) {}

  TorusOption torus;
  MachineOptions machine;
  std::string sizes = "8,64,512,4k,32k", type = "u64", op = "sum", algorithms, order = "random", tuning_path;
  long long tasks = 1, root = 0, piece_bytes;
};

void add_options(CLI::App* compare, CompareArguments& a, CompareOptions& o) {
  compare->add_option("collective", o.run.collective, "a collective 'collnet algorithms' lists")->required();
  add_torus_option(compare, a.torus);
  add_machine_options(compare, a.machine);
  compare->add_option("--sizes", a.sizes, "bytes per rank, e.g. 8,64,4k,1M (k and M binary)")->capture_default_str();
  compare->add_option("--type", a.type, "element type")->capture_default_str();
  compare->add_option("--op", a.op, "the reductions' op")->capture_default_str();
  compare->add_option("--root", a.root, "root rank")->capture_default_str();
  compare->add_option("--tasks", a.tasks, "tasks (ranks) per node")->capture_default_str();
  compare->add_option("--seed", o.run.seed, "seed of the input data")->capture_default_str();
  compare->add_option("--algorithms", a.algorithms, "only these, comma-separated (default: every one that applies)");
  compare->add_option("--piece-bytes", a.piece_bytes, "alltoallv-segment: bytes per piece")->capture_default_str();
  compare->add_option("--order", a.order, "alltoallv-segment: random | rank | shifted")->capture_default_str();
  add_prune_option(compare, o.prune);
  compare->add_option("--json", o.json_path, "write the table as JSON");
  compare->add_option("--tuning", a.tuning_path, "the table auto picks from (default: the shipped one)");
}

// What is wrong with what `compare` was given, or nothing.
std::string check_compare(const CompareArguments& a, CompareOptions& o) {
  const auto c = driver::collective_named(o.run.collective);
  if (!c) return "compare: '" + o.run.collective + "' is not a collective 'collnet algorithms' lists";
  if (const std::string bad = set_machine("compare", a.machine, a.torus, a.tasks, o.run.machine); !bad.empty())
    return bad;
  const char* option = "--type";
  try {
    o.run.type = driver::parse_datatype(a.type);
    option = "--op";
    o.run.op = driver::parse_op(a.op);
    option = "--sizes";
    o.sizes = reference::parse_sizes(a.sizes);
  } catch (const std::exception& e) {
    return std::string("compare: ") + option + ": " + e.what();
  }
  const long long ranks = static_cast<long long>(o.run.machine.shape.nodes()) * a.tasks;
  if (a.root < 0 || a.root >= ranks)
    return "compare: --root " + std::to_string(a.root) + " is not one of the " + std::to_string(ranks) + " ranks";
  o.run.root = static_cast<unsigned>(a.root);
  if (!driver::accepts(o.run.op, o.run.type)) return "compare: --op " + a.op + " cannot reduce " + a.type + " elements";
  if (const std::string bad = check_prune("compare", o.prune); !bad.empty()) return bad;
  if (a.piece_bytes < 1 || a.piece_bytes > (1LL << 30)) return "compare: --piece-bytes must be 1..2^30";
  o.run.segment.piece_bytes = static_cast<size_t>(a.piece_bytes);
  const auto order = driver::segment_order_named(a.order);
  if (!order) return "compare: --order must be random, rank or shifted, got '" + a.order + "'";
  o.run.segment.order = *order;
  if (!a.algorithms.empty())
    for (const std::string& name : reference::split_list(a.algorithms)) {
      const auto algorithm = driver::algorithm_named(name);
      if (!algorithm || !driver::applies(*c, *algorithm) || *algorithm == driver::Algorithm::Auto)
        return "compare: --algorithms: '" + name + "' is not an algorithm of " + o.run.collective;
      if (const std::string why = unavailable(o.run, *algorithm); !why.empty())
        return "compare: --algorithms: " + name + ": " + why;
      o.algorithms.push_back(*algorithm);
    }
  if (!a.tuning_path.empty()) {
    try {
      o.run.tuning = std::make_shared<const driver::Tuning>(read_tuning_file(a.tuning_path));
    } catch (const std::invalid_argument& e) {
      return std::string("compare: --tuning: ") + e.what();
    }
  }
  return "";
}

}  // namespace

Subcommand add_compare(CLI::App& app, CommandLine& cl) {
  CLI::App* compare = app.add_subcommand("compare", "run every algorithm of a collective across message sizes");
  auto given = std::make_shared<CompareArguments>(cl.compare);
  add_options(compare, *given, cl.compare);
  return {compare, [given, &cl]() -> std::optional<int> {
            if (const std::string bad = check_compare(*given, cl.compare); !bad.empty())
              return usage_error(bad, "compare");
            cl.command = CommandLine::Command::Compare;
            return std::nullopt;
          }};
}

void add_prune_option(CLI::App* app, double& prune) {
  app->add_option("--prune", prune,
                  "from 512 bytes, skip an algorithm at larger sizes once it is more than this many times the "
                  "fastest and, extrapolated from its last two sizes, would still be at the largest (0: run every one)")
      ->capture_default_str();
}

std::string check_prune(const char* command, double prune) {
  if (prune == 0 || (prune >= 1 && prune <= 1e6)) return "";
  return std::string(command) + ": --prune must be 0 (off) or a factor from 1 to 10^6, got " + std::to_string(prune);
}

int run_compare_command(const CompareOptions& o) {
  const CompareTable t = compare_algorithms(o);
  if (!o.json_path.empty() && !write_json_file(o.json_path, compare_table_json(t, o.run))) return 1;
  return t.all_verified ? 0 : 1;
}

}  // namespace collnet::cli
