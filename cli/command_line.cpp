// SPDX-License-Identifier: Apache-2.0
// The command line of `collnet`: the CLI11 app with every subcommand, and the checks of
// what it was given, apart from running anything (cli/collnet_main.cpp runs what this
// returns; fuzz/fuzz_command_line.cpp parses arbitrary words with it).
#include "cli/command_line.hpp"
#include "cli/fault_options.hpp"
#include "cli/machine_file.hpp"
#include "cli/machine_options.hpp"

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/trace_nodes.hpp"
#include "driver/datatype.hpp"
#include "driver/error.hpp"
#include "driver/op.hpp"
#include "reference/collectives.hpp"
#include "reference/data_file.hpp"
#include "reference/member_sets.hpp"
#include "reference/number_list.hpp"
#include "systemc/machine_config.hpp"
#include "systemc/shape.hpp"

namespace collnet::cli {

namespace {

constexpr int kExitUsage = 2;

// The machine (--machine and the timing options), shape and tasks per node of a command
// that runs many machines (compare, tune): empty, or what is wrong, named after the
// command. The machine file's shape is taken unless --torus was given.
std::string set_machine(const std::string& command, const collnet::cli::MachineOptions& options,
                        const CLI::Option* torus_option, std::string torus, long long tasks,
                        collnet::sim::MachineConfig& machine) {
  try {
    collnet::cli::apply_machine_options(options, machine, &torus, torus_option->count() > 0);
  } catch (const std::invalid_argument& e) {
    return command + ": " + e.what();
  }
  try {
    machine.shape = collnet::sim::Shape::parse(torus);
  } catch (const std::invalid_argument& e) {
    return command + ": --torus: " + e.what();
  }
  if (machine.shape.nodes() > collnet::sim::MachineConfig::kMaxNodes)
    return command + ": --torus " + torus + " has more than " + std::to_string(collnet::sim::MachineConfig::kMaxNodes) +
           " nodes";
  if (tasks < 1 || tasks > collnet::sim::MachineConfig::kMaxTasksPerNode)
    return command + ": --tasks must be 1.." + std::to_string(collnet::sim::MachineConfig::kMaxTasksPerNode) + ", got " +
           std::to_string(tasks);
  machine.tasks_per_node = static_cast<unsigned>(tasks);
  return "";
}

}  // namespace

int usage_error(const std::string& msg, const std::string& command) {
  std::cerr << "collnet: error: " << msg << "\nRun 'collnet " << command << " --help' for usage.\n";
  return kExitUsage;
}

std::optional<int> parse_command_line(int argc, const char* const* argv, CommandLine& cl) {
  CLI::App app{"collnet: cycle-level model of in-network collective hardware"};
  app.require_subcommand(1);
  RunOptions& o = cl.run;

  CLI::App* run = app.add_subcommand("run", "run one collective on a simulated machine and verify it");
  std::string torus = "4x4x4";
  std::string op_text = "sum", type_text = "u64";
  long long count = static_cast<long long>(o.count);
  long long root = 0;
  long long tasks = 1;
  collnet::cli::MachineOptions machine_options;
  long long watchdog = static_cast<long long>(o.machine.watchdog_cycles);
  collnet::cli::FaultOptions faults;
  const std::string collectives = collnet::reference::collective_names();
  std::string ops;
  for (collnet::driver::Op op : collnet::driver::all_ops())
    ops += std::string(ops.empty() ? "" : " | ") + collnet::driver::to_string(op);
  std::string types;
  for (collnet::driver::Datatype t : collnet::driver::all_datatypes())
    types += std::string(types.empty() ? "" : " | ") + collnet::driver::to_string(t);
  run->add_option("collective", o.collective, collectives + " | pingpong (latency and bandwidth between --ranks A,B)")
      ->required();
  CLI::Option* torus_option =
      run->add_option("--torus", torus, "machine shape XxYxZ (default: --machine's, else 4x4x4)")->capture_default_str();
  run->add_option("--op", op_text, ops + " (reduce, allreduce, scan, exscan, reduce_scatter, reduce_scatter_block)")
      ->capture_default_str();
  run->add_option("--type", type_text, "element type: " + types)->capture_default_str();
  run->add_option("--count", count,
                  "elements per rank (>= 1); per pair of ranks for alltoall, scatter, reduce_scatter_block; the "
                  "vector forms draw their counts from 0..2*count")
      ->capture_default_str();
  std::string counts_path;
  run->add_option("--counts", counts_path,
                  "the vector forms' counts (alltoallv, scatterv, gatherv, allgatherv, reduce_scatter): a JSON array of "
                  "one count per rank, or of one array per rank of what it sends each rank (default: drawn from --seed)");
  run->add_option("--root", root, "root rank (bcast, reduce, gather, gatherv, scatter, scatterv)")->capture_default_str();
  run->add_option("--tasks", tasks, "tasks (ranks) per node, 1..64")->capture_default_str();
  run->add_option("--seed", o.seed, "seed of the input data")->capture_default_str();
  collnet::cli::add_machine_options(run, machine_options);
  run->add_option("--watchdog", watchdog, "cycles before an unfinished run is reported")->capture_default_str();
  std::string ranks_text;
  run->add_option("--ranks", ranks_text,
                  "run on a subset communicator: these ranks (e.g. 0,5,6,11,20), or every task of the nodes of a "
                  "file, random:P, plane-holes, checkerboard, l-shape or two-boxes (docs/neighbourhoods.md)");
  run->add_option("--input", o.input_path, "per-rank input data: a JSON array of one array per rank (replaces --count)");
  run->add_option("--output", o.output_path, "write per-rank results as JSON");
  run->add_flag("--check-args", o.check_arguments, "agree on the arguments before each collective");
  std::string idle_skip = "on";
  run->add_option("--idle-skip", idle_skip,
                  "on (skip a node side's clock edge when it is quiescent) | off (evaluate everything) | check "
                  "(evaluate everything, fail if a skip would have been wrong); same results")
      ->capture_default_str();
  collnet::cli::add_fault_options(run, faults);
  run->add_option("--trace", o.machine.trace_path, "write an FST waveform (and a .gtkw view beside it)");
  std::string trace_nodes;
  run->add_option("--trace-nodes", trace_nodes, "trace only these nodes, e.g. 0,1,5 (with --trace)");
  run->add_option("--json", o.json_path, "write the results as JSON");
  long long sample_every = 0;
  run->add_option("--sample-every", sample_every,
                  "record the tree's and torus's link utilisation every N cycles (--json's \"samples\")");
  std::string sizes_text;
  run->add_option("--sizes", sizes_text, "pingpong: message sizes in bytes, e.g. 0,8,4k,1M (default 0,8,64,512,4k,32k,256k,1M)");
  long long iterations = 4;
  run->add_option("--iterations", iterations, "pingpong: round trips per size, after one warm-up")->capture_default_str();
  long long eager_limit = static_cast<long long>(o.p2p.eager_limit);
  long long unexpected_limit = static_cast<long long>(o.p2p.unexpected_limit);
  run->add_option("--eager-limit", eager_limit, "point-to-point: bytes up to which a message goes eagerly")
      ->capture_default_str();
  run->add_option("--unexpected-limit", unexpected_limit,
                  "point-to-point: bytes of unexpected eager data a node may hold")
      ->capture_default_str();

  std::string algorithm_text = "auto";
  run->add_option("--algorithm", algorithm_text,
                  "the collective's algorithm: auto, tree or a torus algorithm ('collnet algorithms' lists which apply)")
      ->capture_default_str();
  long long piece_bytes = static_cast<long long>(o.segment.piece_bytes);
  run->add_option("--piece-bytes", piece_bytes, "alltoallv-segment: bytes sent to a destination per turn")
      ->capture_default_str();
  std::string order_text = "random";
  run->add_option("--order", order_text,
                  "alltoallv-segment: destination order, random (seeded per rank) | rank (0, 1, 2, ...) | shifted "
                  "(r+1, r+2, ...)")
      ->capture_default_str();

  std::string tuning_path;
  run->add_option("--tuning", tuning_path, "a table of what auto picks, from 'collnet tune' (default: the shipped one)");
  CLI::App* algorithms = app.add_subcommand("algorithms", "list the collectives' algorithms");
  CLI::App* machines = app.add_subcommand("machines", "list the machine presets --machine takes, or print one's file");
  machines->add_option("--show", cl.machines_show, "print this preset's machine file (to copy and edit)");

  CLI::App* compare = app.add_subcommand("compare", "run every algorithm of a collective across message sizes");
  CompareOptions& cmp = cl.compare;
  std::string cmp_torus = "4x4x4", cmp_type = "u64", cmp_op = "sum", cmp_sizes = "8,64,512,4k,32k", cmp_algs,
              cmp_order = "random";
  long long cmp_tasks = 1, cmp_root = 0, cmp_piece = static_cast<long long>(cmp.run.segment.piece_bytes);
  compare->add_option("collective", cmp.run.collective, "a collective 'collnet algorithms' lists")->required();
  CLI::Option* cmp_torus_option =
      compare->add_option("--torus", cmp_torus, "machine shape XxYxZ (default: --machine's, else 4x4x4)")->capture_default_str();
  collnet::cli::MachineOptions cmp_machine;
  collnet::cli::add_machine_options(compare, cmp_machine);
  compare->add_option("--sizes", cmp_sizes, "bytes per rank, e.g. 8,64,4k,1M (k and M binary)")->capture_default_str();
  compare->add_option("--type", cmp_type, "element type")->capture_default_str();
  compare->add_option("--op", cmp_op, "the reductions' op")->capture_default_str();
  compare->add_option("--root", cmp_root, "root rank")->capture_default_str();
  compare->add_option("--tasks", cmp_tasks, "tasks (ranks) per node")->capture_default_str();
  compare->add_option("--seed", cmp.run.seed, "seed of the input data")->capture_default_str();
  compare->add_option("--algorithms", cmp_algs, "only these, comma-separated (default: every one that applies)");
  compare->add_option("--piece-bytes", cmp_piece, "alltoallv-segment: bytes per piece")->capture_default_str();
  compare->add_option("--order", cmp_order, "alltoallv-segment: random | rank | shifted")->capture_default_str();
  compare->add_option("--json", cmp.json_path, "write the table as JSON");
  std::string cmp_tuning;
  compare->add_option("--tuning", cmp_tuning, "the table auto picks from (default: the shipped one)");

  CLI::App* tune = app.add_subcommand("tune", "measure every collective's algorithms and write the table auto picks from");
  TuneOptions& tn = cl.tune;
  std::string tn_torus = "4x4x4", tn_sizes = "8,512,4k,32k";
  long long tn_tasks = 1;
  CLI::Option* tn_torus_option =
      tune->add_option("--torus", tn_torus, "machine shape XxYxZ (default: --machine's, else 4x4x4)")->capture_default_str();
  collnet::cli::MachineOptions tn_machine;
  collnet::cli::add_machine_options(tune, tn_machine);
  tune->add_option("--tasks", tn_tasks, "tasks (ranks) per node")->capture_default_str();
  tune->add_option("--sizes", tn_sizes, "bytes per rank, e.g. 8,512,4k,32k")->capture_default_str();
  tune->add_option("--output", tn.output, "the table to write (JSON), for --tuning and scripts/tuning_to_cpp.py")
      ->required();
  tune->add_option("--from", tn.from, "take the rules from these 'collnet compare --json' tables instead of measuring");

  CLI::App* nbh = app.add_subcommand(
      "neighbourhoods", "seed 002: the regular neighbourhoods (gap-free planes) of a member set, their roots and trees");
  NeighbourhoodsOptions& nb = cl.neighbourhoods;
  std::string nb_torus = "4x4x4";
  long long nb_root = -1;
  nbh->add_option("--torus", nb_torus, "machine shape XxYxZ")->capture_default_str();
  nbh->add_option("--ranks", nb.ranks,
                  "the member nodes: a list (0,5,6), a file, random:P, plane-holes, checkerboard, l-shape or two-boxes")
      ->required();
  nbh->add_option("--root", nb_root, "the collective's root node (default: the lowest member)");
  nbh->add_option("--seed", nb.seed, "seed of random:P")->capture_default_str();
  nbh->add_option("--json", nb.json_path, "write the neighbourhoods, roots and trees as JSON");

  TrafficCommand& traffic_cmd = cl.traffic;
  CLI::App* traffic = collnet::cli::add_traffic_command(app, traffic_cmd);
  MpirunCommand& mpirun_cmd = cl.mpirun;
  CLI::App* mpirun = collnet::cli::add_mpirun_command(app, mpirun_cmd);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return usage_error(e.what());
  }

  if (traffic->parsed()) {  // run_traffic_command checks its options itself
    cl.command = CommandLine::Command::Traffic;
    return std::nullopt;
  }
  if (mpirun->parsed()) {
    cl.command = CommandLine::Command::Mpirun;
    sim::MachineConfig config;
    driver::P2pConfig p2p;
    return check_mpirun_command(mpirun_cmd, config, p2p);
  }
  if (nbh->parsed()) {
    cl.command = CommandLine::Command::Neighbourhoods;
    try {
      nb.dims = collnet::sim::Shape::parse(nb_torus).dims();
    } catch (const std::invalid_argument& e) {
      return usage_error(std::string("--torus: ") + e.what(), "neighbourhoods");
    }
    if (nb_root >= 0) nb.root = static_cast<unsigned>(nb_root);
    return std::nullopt;
  }
  if (algorithms->parsed()) {
    cl.command = CommandLine::Command::Algorithms;
    return std::nullopt;
  }
  if (machines->parsed()) {
    if (!cl.machines_show.empty()) {
      try {
        collnet::cli::machine_preset_text(cl.machines_show);
      } catch (const std::invalid_argument& e) {
        return usage_error(std::string("--show: ") + e.what(), "machines");
      }
    }
    cl.command = CommandLine::Command::Machines;
    return std::nullopt;
  }
  if (compare->parsed()) {
    const auto c = collnet::driver::collective_named(cmp.run.collective);
    if (!c) return usage_error("compare: '" + cmp.run.collective + "' is not a collective 'collnet algorithms' lists", "compare");
    if (const std::string bad = set_machine("compare", cmp_machine, cmp_torus_option, cmp_torus, cmp_tasks,
                                            cmp.run.machine); !bad.empty())
      return usage_error(bad, "compare");
    const char* option = "--type";
    try {
      cmp.run.type = collnet::driver::parse_datatype(cmp_type);
      option = "--op";
      cmp.run.op = collnet::driver::parse_op(cmp_op);
      option = "--sizes";
      cmp.sizes = collnet::reference::parse_sizes(cmp_sizes);
    } catch (const std::exception& e) {
      return usage_error(std::string("compare: ") + option + ": " + e.what(), "compare");
    }
    const long long ranks = static_cast<long long>(cmp.run.machine.shape.nodes()) * cmp_tasks;
    if (cmp_root < 0 || cmp_root >= ranks)
      return usage_error("compare: --root " + std::to_string(cmp_root) + " is not one of the " + std::to_string(ranks) +
                         " ranks", "compare");
    cmp.run.root = static_cast<unsigned>(cmp_root);
    if (!collnet::driver::accepts(cmp.run.op, cmp.run.type))
      return usage_error("compare: --op " + cmp_op + " cannot reduce " + cmp_type + " elements", "compare");
    if (cmp_piece < 1 || cmp_piece > (1LL << 30)) return usage_error("compare: --piece-bytes must be 1..2^30", "compare");
    cmp.run.segment.piece_bytes = static_cast<size_t>(cmp_piece);
    const auto cmp_ord = collnet::driver::segment_order_named(cmp_order);
    if (!cmp_ord) return usage_error("compare: --order must be random, rank or shifted, got '" + cmp_order + "'", "compare");
    cmp.run.segment.order = *cmp_ord;
    if (!cmp_algs.empty())
      for (const std::string& name : collnet::reference::split_list(cmp_algs)) {
        const auto a = collnet::driver::algorithm_named(name);
        if (!a || !collnet::driver::applies(*c, *a) || *a == collnet::driver::Algorithm::Auto)
          return usage_error("compare: --algorithms: '" + name + "' is not an algorithm of " + cmp.run.collective, "compare");
        cmp.algorithms.push_back(*a);
      }
    if (!cmp_tuning.empty()) {
      try {
        cmp.run.tuning = std::make_shared<const collnet::driver::Tuning>(collnet::cli::read_tuning_file(cmp_tuning));
      } catch (const std::invalid_argument& e) {
        return usage_error(std::string("compare: --tuning: ") + e.what(), "compare");
      }
    }
    cl.command = CommandLine::Command::Compare;
    return std::nullopt;
  }
  if (tune->parsed()) {
    if (const std::string bad = set_machine("tune", tn_machine, tn_torus_option, tn_torus, tn_tasks, tn.run.machine); !bad.empty())
      return usage_error(bad, "tune");
    try {
      tn.sizes = collnet::reference::parse_sizes(tn_sizes);
    } catch (const std::exception& e) {
      return usage_error(std::string("tune: --sizes: ") + e.what(), "tune");
    }
    cl.command = CommandLine::Command::Tune;
    return std::nullopt;
  }

  const bool pingpong = o.collective == "pingpong";
  const collnet::reference::Collective* spec = collnet::reference::find_collective(o.collective);
  if (spec == nullptr && !pingpong)
    return usage_error("unknown collective '" + o.collective + "' (known: " + collectives + " | pingpong)");
  try {
    collnet::cli::apply_machine_options(machine_options, o.machine, &torus, torus_option->count() > 0);
  } catch (const std::invalid_argument& e) {
    return usage_error(e.what());
  }
  try {
    o.machine.shape = collnet::sim::Shape::parse(torus);
  } catch (const std::invalid_argument& e) {
    return usage_error(std::string("--torus: ") + e.what());
  }
  if (eager_limit < 0 || eager_limit > 0xffffffffLL)
    return usage_error("--eager-limit: must be 0..4294967295 bytes, got " + std::to_string(eager_limit));
  if (unexpected_limit < 0 || unexpected_limit > (1LL << 40))
    return usage_error("--unexpected-limit: must be 0..2^40 bytes, got " + std::to_string(unexpected_limit));
  o.p2p.eager_limit = static_cast<size_t>(eager_limit);
  o.p2p.unexpected_limit = static_cast<size_t>(unexpected_limit);
  {
    const auto a = collnet::driver::algorithm_named(algorithm_text);
    if (!a) return usage_error("--algorithm: unknown algorithm '" + algorithm_text + "' (see 'collnet algorithms')");
    const auto c = collnet::driver::collective_named(o.collective);
    if (*a != collnet::driver::Algorithm::Auto) {
      if (!c) return usage_error("--algorithm: " + o.collective + " has one algorithm; only auto applies");
      if (!collnet::driver::applies(*c, *a)) {
        std::string names;
        for (auto x : collnet::driver::algorithms_for(*c))
          names += std::string(names.empty() ? "" : ", ") + collnet::driver::to_string(x);
        return usage_error("--algorithm: " + algorithm_text + " does not apply to " + o.collective + " (it takes " +
                           names + ")");
      }
    }
    o.algorithm = *a;
    if (piece_bytes < 1 || piece_bytes > (1LL << 30))
      return usage_error("--piece-bytes: must be 1.." + std::to_string(1LL << 30) + ", got " + std::to_string(piece_bytes));
    o.segment.piece_bytes = static_cast<size_t>(piece_bytes);
    const auto ord = collnet::driver::segment_order_named(order_text);
    if (!ord) return usage_error("--order: must be random, rank or shifted, got '" + order_text + "'");
    o.segment.order = *ord;
  }
  if (!tuning_path.empty()) {
    try {
      o.tuning = std::make_shared<const collnet::driver::Tuning>(collnet::cli::read_tuning_file(tuning_path));
    } catch (const std::invalid_argument& e) {
      return usage_error(std::string("--tuning: ") + e.what());
    }
  }
  if (!pingpong && (!sizes_text.empty() || iterations != 4))
    return usage_error("--sizes and --iterations are pingpong's");
  if (o.machine.shape.nodes() > collnet::sim::MachineConfig::kMaxNodes)
    return usage_error("--torus: " + torus + " has " + std::to_string(o.machine.shape.nodes()) + " nodes; at most " +
                       std::to_string(collnet::sim::MachineConfig::kMaxNodes) + " are supported");
  try {
    o.machine.idle_skip = collnet::sim::parse_idle_skip(idle_skip);
  } catch (const std::invalid_argument& e) {
    return usage_error(std::string("--idle-skip: ") + e.what());
  }
  if (tasks < 1 || tasks > collnet::sim::MachineConfig::kMaxTasksPerNode)
    return usage_error("--tasks: must be 1.." + std::to_string(collnet::sim::MachineConfig::kMaxTasksPerNode) +
                       ", got " + std::to_string(tasks));
  o.machine.tasks_per_node = static_cast<unsigned>(tasks);
  const unsigned world = o.machine.shape.nodes() * o.machine.tasks_per_node;
  try {
    o.op = collnet::driver::parse_op(op_text);
  } catch (const collnet::Error& e) {
    return usage_error(std::string("--op: ") + e.what());
  }
  try {
    o.type = collnet::driver::parse_datatype(type_text);
  } catch (const collnet::Error& e) {
    return usage_error(std::string("--type: ") + e.what());
  }
  if (spec && spec->takes_op && !collnet::driver::accepts(o.op, o.type))
    return usage_error("--op: " + op_text + " cannot reduce " + type_text +
                       " elements (bitwise and logical ops take integer types)");
  if (count < 1 || count > (1LL << 28))
    return usage_error("--count: must be 1.." + std::to_string(1LL << 28) + ", got " + std::to_string(count));
  o.count = static_cast<uint64_t>(count);
  if (!ranks_text.empty()) {
    try {
      if (ranks_text.find_first_not_of("0123456789,") == std::string::npos) {
        o.ranks = collnet::reference::parse_number_list(ranks_text, world, "rank");
      } else {  // a member set of nodes: every task of each
        for (unsigned n : collnet::reference::member_nodes(ranks_text, o.machine.shape.dims(), o.seed))
          for (unsigned t = 0; t < o.machine.tasks_per_node; ++t) o.ranks.push_back(n * o.machine.tasks_per_node + t);
      }
    } catch (const std::invalid_argument& e) {
      return usage_error(std::string("--ranks: ") + e.what());
    }
  }
  const unsigned members = o.ranks.empty() ? world : static_cast<unsigned>(o.ranks.size());
  // Inputs and results of every rank live in host memory; gather and scan move a
  // position per rank.
  const bool per_rank = spec && spec->grows_with_members;
  constexpr uint64_t kMaxElements = uint64_t{1} << 27;
  const uint64_t elements = o.count * members * (per_rank ? members : 1);
  if (o.input_path.empty() && elements > kMaxElements)
    return usage_error("--count: " + std::to_string(o.count) + " elements on each of " + std::to_string(members) +
                       " ranks makes " + std::to_string(elements) + " elements for " + o.collective +
                       ", more than the " + std::to_string(kMaxElements) + " a run may hold");
  if (root < 0 || root >= static_cast<long long>(members))
    return usage_error("--root: rank " + std::to_string(root) + " is not in a communicator of " +
                       std::to_string(members) + " ranks" + (o.ranks.empty() ? "" : " (--root counts within --ranks)"));
  o.root = static_cast<unsigned>(root);
  if (!counts_path.empty()) {
    if (!spec || !spec->takes_counts)
      return usage_error("--counts: " + o.collective + " takes no counts (only the vector forms do)");
    try {
      o.counts = collnet::reference::read_counts_file(counts_path, members);
    } catch (const std::invalid_argument& e) {
      return usage_error(std::string("--counts: ") + e.what());
    }
  }
  if (!o.input_path.empty() && (!spec || spec->lengths))
    return usage_error("--input: " + o.collective + " takes its inputs from --seed (and --counts)");
  if (!o.input_path.empty() && spec && spec->moves_data) {
    const bool pairs = spec->takes_op && collnet::driver::is_loc(o.op);
    try {
      o.input = collnet::reference::read_data_file(o.input_path, o.type, pairs, members);
    } catch (const std::invalid_argument& e) {
      return usage_error(std::string("--input: ") + e.what());
    }
    o.count = o.input[0].size() / (pairs ? 2 : 1);
  }
  if (watchdog < 1) return usage_error("--watchdog: must be at least 1 cycle, got " + std::to_string(watchdog));
  try {
    collnet::cli::apply_fault_options(faults, o.machine.shape.nodes(), o.machine);
  } catch (const std::invalid_argument& e) {
    return usage_error(e.what());
  }
  o.machine.watchdog_cycles = static_cast<uint64_t>(watchdog);
  if (!o.machine.trace_path.empty()) {
    const std::string& t = o.machine.trace_path;
    if (t.size() < 5 || t.substr(t.size() - 4) != ".fst")
      return usage_error("--trace: '" + t + "' must name an .fst file");
  }
  try {
    o.machine.trace_nodes = collnet::cli::parse_trace_nodes(trace_nodes, o.machine.trace_path, o.machine.shape.nodes());
  } catch (const std::invalid_argument& e) {
    return usage_error(e.what());
  }

  if (sample_every < 0 || sample_every > (1LL << 40))
    return usage_error("--sample-every: must be 0 (no samples) or a number of cycles, got " +
                       std::to_string(sample_every));
  o.sample_every = static_cast<uint64_t>(sample_every);
  if (pingpong && o.sample_every) return usage_error("--sample-every: not with pingpong");

  if (pingpong) {
    PingpongOptions& pp = cl.pingpong;
    pp.machine = o.machine;
    pp.p2p = o.p2p;
    pp.json_path = o.json_path;
    if (o.ranks.size() != 2) return usage_error("--ranks: pingpong takes two ranks, e.g. --ranks 0,7");
    pp.a = o.ranks[0];
    pp.b = o.ranks[1];
    if (!sizes_text.empty()) {
      try {
        pp.sizes = collnet::reference::parse_sizes(sizes_text);
      } catch (const std::invalid_argument& e) {
        return usage_error(std::string("--sizes: ") + e.what());
      }
    }
    if (iterations < 1 || iterations > 1000)
      return usage_error("--iterations: must be 1..1000, got " + std::to_string(iterations));
    pp.iterations = static_cast<unsigned>(iterations);
    cl.command = CommandLine::Command::Pingpong;
    return std::nullopt;
  }
  cl.command = CommandLine::Command::Run;
  return std::nullopt;
}

}  // namespace collnet::cli
