// SPDX-License-Identifier: Apache-2.0
// `collnet run`: its options, their checks in the order they are made, and its run.
#include "cli/run_command.hpp"

#include <algorithm>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/command_line.hpp"
#include "cli/fault_options.hpp"
#include "cli/machine_options.hpp"
#include "cli/partitions.hpp"
#include "cli/run_collective.hpp"
#include "cli/trace_options.hpp"
#include "cli/tuning_file.hpp"
#include "cli/usage_error.hpp"
#include "driver/algorithm.hpp"
#include "driver/class_routes.hpp"
#include "driver/error.hpp"
#include "reference/collectives.hpp"
#include "reference/data_file.hpp"
#include "reference/member_sets.hpp"
#include "reference/number_list.hpp"
#include "systemc/shape.hpp"

namespace collnet::cli {

std::string unavailable(const RunOptions& o, driver::Algorithm a) {
  if (o.machine.down_nodes.empty()) return "";
  const fw::DownNodes down = o.machine.down();
  const std::optional<driver::Collective> c = driver::collective_named(o.collective);
  if (c && driver::broadcasts_along_lines(*c, a))
    return "it broadcasts along torus lines, which cannot go around node " + std::to_string(down.list().front()) +
           ", which is down";
  if (a != driver::Algorithm::Tree) return "";
  // The route a class for these members would take (the members' nodes, sorted; with no
  // --ranks, every live node): its first node is where the members' paths meet.
  const unsigned tasks = o.machine.tasks_per_node;
  std::vector<unsigned> nodes;
  if (o.ranks.empty())
    for (unsigned i = 0; i < down.live_count(); ++i) nodes.push_back(down.live_node(i));
  for (unsigned r : o.ranks) nodes.push_back(r / tasks);
  std::sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  const std::vector<unsigned> route = driver::route_nodes(nodes);
  for (unsigned n : route)
    if (down.contains(n))
      return "the members' route on the tree " +
             std::string(n == route.front() ? "meets at node " : "passes node ") + std::to_string(n) +
             ", which is down; auto runs them on the torus";
  return "";
}

namespace {

// What `run` was given, as given; the checks turn it into RunOptions (or PingpongOptions).
// The options that need no checking are bound to RunOptions directly.
struct RunArguments {
  explicit RunArguments(const RunOptions& o)
      : count(static_cast<long long>(o.count)),
        watchdog(static_cast<long long>(o.machine.watchdog_cycles)),
        eager_limit(static_cast<long long>(o.p2p.eager_limit)),
        unexpected_limit(static_cast<long long>(o.p2p.unexpected_limit)),
        piece_bytes(static_cast<long long>(o.segment.piece_bytes)) {}

  TorusOption torus;
  std::string op = "sum", type = "u64";
  long long count;
  std::string counts_path;
  long long root = 0;
  long long tasks = 1;
  MachineOptions machine;
  PartitionsOption partitions;
  long long watchdog;
  std::string ranks;
  std::string idle_skip = "on";
  FaultOptions faults;
  std::string trace_nodes;
  long long sample_every = 0;
  std::string sizes;         // pingpong's
  long long iterations = 4;  // pingpong's
  long long eager_limit, unexpected_limit;
  std::string algorithm = "auto";
  long long piece_bytes;
  std::string order = "random";
  std::string tuning_path;
};

// The names `name_of` gives the items of `items`, `separator` between them.
template <class Items, class Name>
std::string joined(const Items& items, const char* separator, Name name_of) {
  std::string s;
  for (const auto& item : items) s += std::string(s.empty() ? "" : separator) + name_of(item);
  return s;
}

void add_options(CLI::App* run, RunArguments& a, RunOptions& o) {
  const std::string ops = joined(driver::all_ops(), " | ", [](driver::Op op) { return driver::to_string(op); });
  const std::string types =
      joined(driver::all_datatypes(), " | ", [](driver::Datatype t) { return driver::to_string(t); });
  run->add_option("collective", o.collective,
                  reference::collective_names() + " | pingpong (latency and bandwidth between --ranks A,B)")
      ->required();
  add_torus_option(run, a.torus);
  run->add_option("--op", a.op, ops + " (reduce, allreduce, scan, exscan, reduce_scatter, reduce_scatter_block)")
      ->capture_default_str();
  run->add_option("--type", a.type, "element type: " + types)->capture_default_str();
  run->add_option("--count", a.count,
                  "elements per rank (>= 1); per pair of ranks for alltoall, scatter, reduce_scatter_block; the "
                  "vector forms draw their counts from 0..2*count")
      ->capture_default_str();
  run->add_option(
      "--counts", a.counts_path,
      "the vector forms' counts (alltoallv, scatterv, gatherv, allgatherv, reduce_scatter): a JSON array of "
      "one count per rank, or of one array per rank of what it sends each rank (default: drawn from --seed)");
  run->add_option("--root", a.root, "root rank (bcast, reduce, gather, gatherv, scatter, scatterv)")
      ->capture_default_str();
  run->add_option("--tasks", a.tasks, "tasks (ranks) per node, 1..64")->capture_default_str();
  run->add_option("--seed", o.seed, "seed of the input data")->capture_default_str();
  add_machine_options(run, a.machine);
  add_partitions_option(run, a.partitions);
  run->add_option("--watchdog", a.watchdog, "cycles before an unfinished run is reported")->capture_default_str();
  run->add_option("--ranks", a.ranks,
                  "run on a subset communicator: these ranks (e.g. 0,5,6,11,20), or every task of the nodes of a "
                  "file, random:P, plane-holes, checkerboard, l-shape or two-boxes (docs/neighbourhoods.md)");
  run->add_option("--input", o.input_path,
                  "per-rank input data: a JSON array of one array per rank (replaces --count)");
  run->add_option("--output", o.output_path, "write per-rank results as JSON");
  run->add_flag("--check-args", o.check_arguments, "agree on the arguments before each collective");
  run->add_option("--idle-skip", a.idle_skip,
                  "on (skip a quiescent node side's clock edges, leap over cycles in which nothing acts) | "
                  "off (evaluate everything) | check (evaluate everything, fail if a skip would have been "
                  "wrong); same results")
      ->capture_default_str();
  add_fault_options(run, a.faults);
  run->add_option("--trace", o.machine.trace_path, "write an FST waveform (and a .gtkw view beside it)");
  run->add_option("--trace-nodes", a.trace_nodes, "trace only these nodes, e.g. 0,1,5 (with --trace)");
  run->add_option("--json", o.json_path, "write the results as JSON");
  run->add_option("--sample-every", a.sample_every,
                  "record the tree's and torus's link utilisation every N cycles (--json's \"samples\")");
  run->add_option("--sizes", a.sizes,
                  "pingpong: message sizes in bytes, e.g. 0,8,4k,1M (default 0,8,64,512,4k,32k,256k,1M)");
  run->add_option("--iterations", a.iterations, "pingpong: round trips per size, after one warm-up")
      ->capture_default_str();
  run->add_option("--eager-limit", a.eager_limit, "point-to-point: bytes up to which a message goes eagerly")
      ->capture_default_str();
  run->add_option("--unexpected-limit", a.unexpected_limit,
                  "point-to-point: bytes of unexpected eager data a node may hold")
      ->capture_default_str();
  run->add_option(
         "--algorithm", a.algorithm,
         "the collective's algorithm: auto, tree or a torus algorithm ('collnet algorithms' lists which apply)")
      ->capture_default_str();
  run->add_option("--piece-bytes", a.piece_bytes, "alltoallv-segment: bytes sent to a destination per turn")
      ->capture_default_str();
  run->add_option("--order", a.order,
                  "alltoallv-segment: destination order, random (seeded per rank) | rank (0, 1, 2, ...) | shifted "
                  "(r+1, r+2, ...)")
      ->capture_default_str();
  run->add_option("--tuning", a.tuning_path,
                  "a table of what auto picks, from 'collnet tune' (default: the shipped one)");
}

// The checks, in the order they are made: each returns what is wrong, or nothing.

bool is_pingpong(const RunOptions& o) { return o.collective == "pingpong"; }

// The ranks the collective runs on: the --ranks subset, or every rank of the machine's
// live nodes.
unsigned members(const RunOptions& o) {
  return o.ranks.empty() ? o.machine.world_ranks() : static_cast<unsigned>(o.ranks.size());
}

std::string check_collective(const RunOptions& o) {
  if (reference::find_collective(o.collective) == nullptr && !is_pingpong(o))
    return "unknown collective '" + o.collective + "' (known: " + reference::collective_names() + " | pingpong)";
  return "";
}

// The machine file and timing options, and the shape (--torus, else the file's).
std::string set_machine_and_shape(RunArguments& a, RunOptions& o) {
  try {
    apply_machine_options(a.machine, o.machine, &a.torus.text, a.torus.given());
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  try {
    o.machine.shape = sim::Shape::parse(a.torus.text);
  } catch (const std::invalid_argument& e) {
    return std::string("--torus: ") + e.what();
  }
  try {
    apply_down_nodes(a.machine, o.machine);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

std::string set_point_to_point(const RunArguments& a, RunOptions& o) {
  if (a.eager_limit < 0 || a.eager_limit > 0xffffffffLL)
    return "--eager-limit: must be 0..4294967295 bytes, got " + std::to_string(a.eager_limit);
  if (a.unexpected_limit < 0 || a.unexpected_limit > (1LL << 40))
    return "--unexpected-limit: must be 0..2^40 bytes, got " + std::to_string(a.unexpected_limit);
  o.p2p.eager_limit = static_cast<size_t>(a.eager_limit);
  o.p2p.unexpected_limit = static_cast<size_t>(a.unexpected_limit);
  return "";
}

// --algorithm, and alltoallv-segment's --piece-bytes and --order.
std::string set_algorithm(const RunArguments& a, RunOptions& o) {
  const auto algorithm = driver::algorithm_named(a.algorithm);
  if (!algorithm) return "--algorithm: unknown algorithm '" + a.algorithm + "' (see 'collnet algorithms')";
  const auto c = driver::collective_named(o.collective);
  if (*algorithm != driver::Algorithm::Auto) {
    if (!c) return "--algorithm: " + o.collective + " has one algorithm; only auto applies";
    if (!driver::applies(*c, *algorithm))
      return "--algorithm: " + a.algorithm + " does not apply to " + o.collective + " (it takes " +
             joined(driver::algorithms_for(*c), ", ", [](driver::Algorithm x) { return driver::to_string(x); }) + ")";
  }
  o.algorithm = *algorithm;
  if (a.piece_bytes < 1 || a.piece_bytes > (1LL << 30))
    return "--piece-bytes: must be 1.." + std::to_string(1LL << 30) + ", got " + std::to_string(a.piece_bytes);
  o.segment.piece_bytes = static_cast<size_t>(a.piece_bytes);
  const auto order = driver::segment_order_named(a.order);
  if (!order) return "--order: must be random, rank or shifted, got '" + a.order + "'";
  o.segment.order = *order;
  return "";
}

std::string set_tuning(const RunArguments& a, RunOptions& o) {
  if (a.tuning_path.empty()) return "";
  try {
    o.tuning = std::make_shared<const driver::Tuning>(read_tuning_file(a.tuning_path));
  } catch (const std::invalid_argument& e) {
    return std::string("--tuning: ") + e.what();
  }
  return "";
}

// The machine's size, idle skipping and tasks per node.
std::string set_nodes_and_tasks(const RunArguments& a, RunOptions& o) {
  if (!is_pingpong(o) && (!a.sizes.empty() || a.iterations != 4)) return "--sizes and --iterations are pingpong's";
  if (o.machine.shape.nodes() > sim::MachineConfig::kMaxNodes)
    return "--torus: " + a.torus.text + " has " + std::to_string(o.machine.shape.nodes()) + " nodes; at most " +
           std::to_string(sim::MachineConfig::kMaxNodes) + " are supported";
  try {
    o.machine.idle_skip = sim::parse_idle_skip(a.idle_skip);
  } catch (const std::invalid_argument& e) {
    return std::string("--idle-skip: ") + e.what();
  }
  if (a.tasks < 1 || a.tasks > sim::MachineConfig::kMaxTasksPerNode)
    return "--tasks: must be 1.." + std::to_string(sim::MachineConfig::kMaxTasksPerNode) + ", got " +
           std::to_string(a.tasks);
  o.machine.tasks_per_node = static_cast<unsigned>(a.tasks);
  return "";
}

// --op, --type and --count.
std::string set_elements(const RunArguments& a, RunOptions& o) {
  try {
    o.op = driver::parse_op(a.op);
  } catch (const Error& e) {
    return std::string("--op: ") + e.what();
  }
  try {
    o.type = driver::parse_datatype(a.type);
  } catch (const Error& e) {
    return std::string("--type: ") + e.what();
  }
  const reference::Collective* spec = reference::find_collective(o.collective);
  if (spec && spec->takes_op && !driver::accepts(o.op, o.type))
    return "--op: " + a.op + " cannot reduce " + a.type + " elements (bitwise and logical ops take integer types)";
  if (a.count < 1 || a.count > (1LL << 28))
    return "--count: must be 1.." + std::to_string(1LL << 28) + ", got " + std::to_string(a.count);
  o.count = static_cast<uint64_t>(a.count);
  return "";
}

// --ranks: a list of ranks, or a member set of nodes (every task of each).
std::string set_ranks(const RunArguments& a, RunOptions& o) {
  if (a.ranks.empty()) return "";
  const unsigned tasks = o.machine.tasks_per_node;
  try {
    if (a.ranks.find_first_not_of("0123456789,") == std::string::npos) {
      o.ranks = reference::parse_number_list(a.ranks, o.machine.shape.nodes() * tasks, "rank");
    } else {
      for (unsigned n : reference::member_nodes(a.ranks, o.machine.shape.dims(), o.seed))
        for (unsigned t = 0; t < tasks; ++t) o.ranks.push_back(n * tasks + t);
    }
  } catch (const std::invalid_argument& e) {
    return std::string("--ranks: ") + e.what();
  }
  // A down node runs no rank.
  for (unsigned r : o.ranks)
    if (o.machine.node_down(r / tasks))
      return "--ranks: rank " + std::to_string(r) + " is on node " + std::to_string(r / tasks) +
             ", which is down (--down-nodes): a down node runs no rank";
  return "";
}

// An --algorithm that cannot run with the nodes that are down: refused, naming the node.
std::string check_algorithm_with_down_nodes(const RunOptions& o) {
  const std::string why = unavailable(o, o.algorithm);
  return why.empty() ? "" : "--algorithm " + std::string(driver::to_string(o.algorithm)) + ": " + why;
}

// What the run holds in host memory, and --root.
std::string set_root(const RunArguments& a, RunOptions& o) {
  const unsigned n = members(o);
  // Inputs and results of every rank live in host memory; gather and scan move a
  // position per rank.
  const reference::Collective* spec = reference::find_collective(o.collective);
  const bool per_rank = spec && spec->grows_with_members;
  constexpr uint64_t kMaxElements = uint64_t{1} << 27;
  const uint64_t elements = o.count * n * (per_rank ? n : 1);
  if (o.input_path.empty() && elements > kMaxElements)
    return "--count: " + std::to_string(o.count) + " elements on each of " + std::to_string(n) + " ranks makes " +
           std::to_string(elements) + " elements for " + o.collective + ", more than the " +
           std::to_string(kMaxElements) + " a run may hold";
  if (a.root < 0 || a.root >= static_cast<long long>(n))
    return "--root: rank " + std::to_string(a.root) + " is not in a communicator of " + std::to_string(n) + " ranks" +
           (o.ranks.empty() ? "" : " (--root counts within --ranks)");
  o.root = static_cast<unsigned>(a.root);
  return "";
}

// --counts and --input, read now.
std::string read_files(const RunArguments& a, RunOptions& o) {
  const reference::Collective* spec = reference::find_collective(o.collective);
  if (!a.counts_path.empty()) {
    if (!spec || !spec->takes_counts)
      return "--counts: " + o.collective + " takes no counts (only the vector forms do)";
    try {
      o.counts = reference::read_counts_file(a.counts_path, members(o));
    } catch (const std::invalid_argument& e) {
      return std::string("--counts: ") + e.what();
    }
  }
  if (!o.input_path.empty() && (!spec || spec->lengths))
    return "--input: " + o.collective + " takes its inputs from --seed (and --counts)";
  if (!o.input_path.empty() && spec && spec->moves_data) {
    const bool pairs = spec->takes_op && driver::is_loc(o.op);
    try {
      o.input = reference::read_data_file(o.input_path, o.type, pairs, members(o));
    } catch (const std::invalid_argument& e) {
      return std::string("--input: ") + e.what();
    }
    o.count = o.input[0].size() / (pairs ? 2 : 1);
  }
  return "";
}

// --watchdog, the faults, --trace and --trace-nodes.
std::string set_watchdog_faults_and_trace(const RunArguments& a, RunOptions& o) {
  if (a.watchdog < 1) return "--watchdog: must be at least 1 cycle, got " + std::to_string(a.watchdog);
  try {
    apply_fault_options(a.faults, o.machine.shape.nodes(), o.machine);
    o.machine.watchdog_cycles = static_cast<uint64_t>(a.watchdog);
    if (!o.machine.trace_path.empty()) check_trace_path(o.machine.trace_path);
    o.machine.trace_nodes = parse_trace_nodes(a.trace_nodes, o.machine.trace_path, o.machine.shape.nodes());
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

std::string set_samples(const RunArguments& a, RunOptions& o) {
  if (a.sample_every < 0 || a.sample_every > (1LL << 40))
    return "--sample-every: must be 0 (no samples) or a number of cycles, got " + std::to_string(a.sample_every);
  o.sample_every = static_cast<uint64_t>(a.sample_every);
  if (is_pingpong(o) && o.sample_every) return "--sample-every: not with pingpong";
  return "";
}

// pingpong's two ranks, --sizes and --iterations; the machine and limits are run's.
std::string set_pingpong(const RunArguments& a, const RunOptions& o, PingpongOptions& pp) {
  pp.machine = o.machine;
  pp.p2p = o.p2p;
  pp.json_path = o.json_path;
  if (o.ranks.size() != 2) return "--ranks: pingpong takes two ranks, e.g. --ranks 0,7";
  pp.a = o.ranks[0];
  pp.b = o.ranks[1];
  if (!a.sizes.empty()) {
    try {
      pp.sizes = reference::parse_sizes(a.sizes);
    } catch (const std::invalid_argument& e) {
      return std::string("--sizes: ") + e.what();
    }
  }
  if (a.iterations < 1 || a.iterations > 1000)
    return "--iterations: must be 1..1000, got " + std::to_string(a.iterations);
  pp.iterations = static_cast<unsigned>(a.iterations);
  return "";
}

// --partitions (or the processes Open MPI's launcher started), once the machine is known.
std::string set_partitions(const RunArguments& a, RunOptions& o) {
  if (const std::string bad = apply_partitions(a.partitions, o.machine); !bad.empty()) return bad;
  if (o.machine.partitions == 1) return "";
  if (is_pingpong(o)) return "--partitions: pingpong runs in one process";
  return "";
}

std::optional<int> check_run(RunArguments& a, CommandLine& cl) {
  RunOptions& o = cl.run;
  const std::function<std::string()> checks[] = {
      [&] { return check_collective(o); },
      [&] { return set_machine_and_shape(a, o); },
      [&] { return set_point_to_point(a, o); },
      [&] { return set_algorithm(a, o); },
      [&] { return set_tuning(a, o); },
      [&] { return set_nodes_and_tasks(a, o); },
      [&] { return set_elements(a, o); },
      [&] { return set_ranks(a, o); },
      [&] { return check_algorithm_with_down_nodes(o); },
      [&] { return set_root(a, o); },
      [&] { return read_files(a, o); },
      [&] { return set_watchdog_faults_and_trace(a, o); },
      [&] { return set_samples(a, o); },
      [&] { return set_partitions(a, o); },
      [&] { return is_pingpong(o) ? set_pingpong(a, o, cl.pingpong) : std::string(); },
  };
  for (const auto& check : checks)
    if (const std::string bad = check(); !bad.empty()) return usage_error(bad);
  cl.command = is_pingpong(o) ? CommandLine::Command::Pingpong : CommandLine::Command::Run;
  return std::nullopt;
}

}  // namespace

Subcommand add_run(CLI::App& app, CommandLine& cl) {
  CLI::App* run = app.add_subcommand("run", "run one collective on a simulated machine and verify it");
  auto given = std::make_shared<RunArguments>(cl.run);
  add_options(run, *given, cl.run);
  return {run, [given, &cl] { return check_run(*given, cl); }};
}

int run_run_command(const CommandLine& cl, sim::Transport* transport) {
  try {
    return cl.command == CommandLine::Command::Pingpong ? run_pingpong(cl.pingpong)
                                                        : run_collective(cl.run, std::cout, nullptr, transport);
  } catch (const std::exception& e) {
    std::cerr << "collnet: " + std::string(e.what()) + "\n";  // one write: partitions' lines stay whole
    return fail_partitions(transport, 1);
  }
}

}  // namespace collnet::cli
