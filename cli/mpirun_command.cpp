// SPDX-License-Identifier: Apache-2.0
// `collnet mpirun`: its options, their checks (the shape from -n and --tasks) and its run.
#include "cli/mpirun_command.hpp"

#include <cstdlib>
#include <stdexcept>

#include <CLI/CLI.hpp>

#include "cli/command_line.hpp"
#include "cli/mpi_program_run.hpp"
#include "cli/trace_options.hpp"
#include "cli/usage_error.hpp"
#include "driver/p2p_engine.hpp"
#include "reference/number_list.hpp"
#include "systemc/machine_config.hpp"
#include "systemc/shape.hpp"

namespace collnet::cli {

namespace {

// The most cubic XxYxZ with X*Y*Z = n (X >= Y >= Z).
std::string cubic_shape(unsigned n) {
  unsigned best[3] = {n, 1, 1};
  for (unsigned z = 1; z * z * z <= n; ++z) {
    if (n % z) continue;
    for (unsigned y = z; y * y <= n / z; ++y) {
      if ((n / z) % y) continue;
      const unsigned x = n / z / y;
      if (x - z < best[0] - best[2]) best[0] = x, best[1] = y, best[2] = z;
    }
  }
  return std::to_string(best[0]) + "x" + std::to_string(best[1]) + "x" + std::to_string(best[2]);
}

}  // namespace

int mpirun_usage(const std::string& msg) { return usage_error("mpirun: " + msg, "mpirun"); }

std::vector<std::string> mpirun_words(const CLI::App& mpirun, std::vector<std::string> words) {
  // From the word after `mpirun` to the program: `-np` is Open MPI's spelling of -n (CLI11
  // would read it as -n with the value "p"), and a `--` before the program goes (the parse
  // takes the first word that is not an option as the program anyway); an option's value
  // is skipped, not examined.
  size_t i = 0;
  while (i < words.size() && words[i] != "mpirun") ++i;
  for (++i; i < words.size(); ++i) {
    std::string& w = words[i];
    if (w == "--") {  // the marker before the program: the program's words follow as they are
      words.erase(words.begin() + static_cast<std::ptrdiff_t>(i));
      break;
    }
    if (w.empty() || w[0] != '-') break;  // the program
    if (w == "-np") w = "--np";
    const std::string name = w.substr(0, w.find('='));
    const CLI::Option* o = mpirun.get_option_no_throw(name);
    if (o && o->get_expected_min() > 0 && name.size() == w.size()) ++i;  // its value is the next word
  }
  return words;
}

Subcommand add_mpirun(CLI::App& app, CommandLine& cl) {
  MpirunCommand& c = cl.mpirun;
  CLI::App* m = app.add_subcommand("mpirun", "run an MPI program (built with collnet-mpicc) on the simulated machine");
  m->add_option("-n,--np", c.ranks, "ranks (= nodes x tasks per node)")->required();
  m->add_option("--torus", c.torus, "machine shape XxYxZ (default: the most cubic one for -n / --tasks nodes)");
  m->add_option("--tasks", c.tasks, "tasks (ranks) per node, 1..64")->capture_default_str();
  m->add_option("--trace", c.trace_path, "write an FST waveform of the run (and a .gtkw view beside it)");
  m->add_option("--trace-nodes", c.trace_nodes, "trace only these nodes, e.g. 0,1,5 (with --trace)");
  m->add_option("--json", c.json_path, "write the per-rank report as JSON");
  m->add_flag("--tag-output", c.tag_output, "prefix every line a rank prints with [1,RANK]<stdout>: (as Open MPI)");
  m->add_option("-x", c.exports,
                "NAME=VALUE sets an environment variable for every rank (as Open MPI's -x; a bare NAME, which every "
                "rank has already, must be set)")
      ->allow_extra_args(false);  // one word each time, so that the program after it is not taken
  m->add_flag("-q,--quiet", c.quiet,
              "no report on standard error (as Open MPI's -q): only why a run ended early, and its exit status");
  m->add_flag("--oversubscribe", c.oversubscribe,
              "accepted for Open MPI's command lines: any -n runs, each rank on a simulated processor");
  m->add_option("--compute-scale", c.compute_scale,
                "time a rank computes between MPI calls: auto (the host CPU time it took, scaled by the host's speed over "
                "the machine's processor's), a scale S >= 0 (S simulated seconds per host CPU second), or 0 (none)")
      ->capture_default_str();
  m->add_option("--deadlock-cycles", c.deadlock_cycles,
                "report a deadlock when every rank has waited in MPI this long with no packet moving "
                "(a processor copying or folding a message is not waiting)")
      ->capture_default_str();
  m->add_option("--watchdog", c.watchdog, "cycles after which an unfinished run is ended")->capture_default_str();
  m->add_option("--idle-skip", c.idle_skip,
                "on (skip a quiescent node side's clock edges, and leap over cycles in which nothing on the "
                "machine acts) | off (evaluate everything) | check (evaluate everything, fail if a skip would "
                "have been wrong); same results")
      ->capture_default_str();
  m->add_option("--stack", c.stack_kib, "KiB of stack per rank")->capture_default_str();
  m->add_option("--eager-limit", c.eager_limit, "point-to-point: bytes up to which a message goes eagerly");
  m->add_option("--unexpected-limit", c.unexpected_limit,
                "point-to-point: bytes of unexpected eager data a node holds");
  add_machine_options(m, c.machine);
  add_fault_options(m, c.faults);
  add_partitions_option(m, c.partitions);
  // As Open MPI's mpirun: the first word that is not an option (or `--`) is the program,
  // and every word after it is the program's own, options too.
  m->prefix_command();
  m->footer("PROGRAM [ARGS...]: the MPI program (built with collnet-mpicc) and its arguments, after the options "
            "(or after --)");
  return {m, [&cl, m]() -> std::optional<int> {
            cl.command = CommandLine::Command::Mpirun;
            cl.mpirun.command = m->remaining();
            if (!cl.mpirun.command.empty() && cl.mpirun.command.front().rfind('-', 0) == 0)
              return mpirun_usage(cl.mpirun.command.front() +
                                  " is not an option of mpirun (--help lists them); the program follows the options");
            if (cl.mpirun.command.empty())
              return mpirun_usage("name the program to run: collnet mpirun -n N [options] PROGRAM [ARGS...]");
            sim::MachineConfig config;
            driver::P2pConfig p2p;
            if (const std::optional<int> bad = check_mpirun_command(cl.mpirun, config, p2p)) return bad;
            cl.mpirun.partition_count = config.partitions;
            return std::nullopt;
          }};
}

std::optional<int> check_mpirun_command(const MpirunCommand& c, sim::MachineConfig& config, driver::P2pConfig& p2p) {
  if (c.ranks < 1) return mpirun_usage("-n must be at least 1, got " + std::to_string(c.ranks));
  for (const std::string& x : c.exports) {
    const std::string name = x.substr(0, x.find('='));
    if (name.empty() || name.find_first_of(" \t") != std::string::npos)
      return mpirun_usage("-x " + x + ": not NAME or NAME=VALUE");
    if (name.size() == x.size() && !std::getenv(name.c_str()))
      return mpirun_usage("-x " + name + ": " + name + " is not set here (give -x " + name + "=VALUE)");
  }
  if (c.tasks < 1 || c.tasks > sim::MachineConfig::kMaxTasksPerNode)
    return mpirun_usage("--tasks must be 1.." + std::to_string(sim::MachineConfig::kMaxTasksPerNode) + ", got " +
                        std::to_string(c.tasks));
  if (c.ranks % c.tasks)
    return mpirun_usage("-n " + std::to_string(c.ranks) + " is not a multiple of --tasks " + std::to_string(c.tasks));
  // Before the node count is narrowed to unsigned (-n 4294967304 would wrap to 8 nodes)
  // and handed to cubic_shape (whose search never ends near 2^32).
  if (c.ranks / c.tasks > sim::MachineConfig::kMaxNodes)
    return mpirun_usage("-n " + std::to_string(c.ranks) + " with --tasks " + std::to_string(c.tasks) + " makes " +
                        std::to_string(c.ranks / c.tasks) + " nodes; at most " +
                        std::to_string(sim::MachineConfig::kMaxNodes) + " are supported");
  if (c.compute_scale != "auto") {
    size_t used = 0;
    double v = -1;
    try {
      v = std::stod(c.compute_scale, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != c.compute_scale.size() || !(v >= 0))
      return mpirun_usage("--compute-scale " + c.compute_scale + " is neither auto nor a number >= 0");
  }
  if (c.deadlock_cycles < 2) return mpirun_usage("--deadlock-cycles must be at least 2");
  if (c.stack_kib < 64) return mpirun_usage("--stack must be at least 64 KiB");
  try {
    apply_machine_options(c.machine, config);  // its shape, if it names one, is not mpirun's
  } catch (const std::invalid_argument& e) {
    return mpirun_usage(e.what());
  }
  // The ranks run on the live nodes: the machine has the down ones too.
  const size_t down = c.machine.down_nodes ? reference::split_list(*c.machine.down_nodes).size() : config.down_nodes.size();
  const auto nodes = static_cast<unsigned>(c.ranks / c.tasks + static_cast<long long>(down));
  const std::string with_down = down ? " and " + std::to_string(down) + " node" + (down > 1 ? "s" : "") + " down" : "";
  try {
    config.shape = sim::Shape::parse(c.torus.empty() ? cubic_shape(nodes) : c.torus);
  } catch (const std::invalid_argument& e) {
    return mpirun_usage(std::string("--torus: ") + e.what());
  }
  if (config.shape.nodes() != nodes)
    return mpirun_usage("--torus " + c.torus + " has " + std::to_string(config.shape.nodes()) + " nodes; -n " +
                        std::to_string(c.ranks) + " with --tasks " + std::to_string(c.tasks) + with_down + " needs " +
                        std::to_string(nodes));
  try {
    apply_down_nodes(c.machine, config);
  } catch (const std::invalid_argument& e) {
    return mpirun_usage(e.what());
  }
  config.tasks_per_node = static_cast<unsigned>(c.tasks);
  config.trace_path = c.trace_path;
  try {
    config.trace_nodes = parse_trace_nodes(c.trace_nodes, c.trace_path, nodes);
  } catch (const std::invalid_argument& e) {
    return mpirun_usage(e.what());
  }
  config.watchdog_cycles = static_cast<uint64_t>(c.watchdog);
  try {
    config.idle_skip = sim::parse_idle_skip(c.idle_skip);
  } catch (const std::invalid_argument& e) {
    return mpirun_usage(std::string("--idle-skip: ") + e.what());
  }
  config.stack_bytes = static_cast<size_t>(c.stack_kib) * 1024;
  try {
    apply_fault_options(c.faults, nodes, config);
  } catch (const std::invalid_argument& e) {
    return mpirun_usage(e.what());
  }
  if (c.eager_limit >= 0) p2p.eager_limit = static_cast<size_t>(c.eager_limit);
  if (c.unexpected_limit >= 0) p2p.unexpected_limit = static_cast<size_t>(c.unexpected_limit);
  if (const std::string bad = apply_partitions(c.partitions, config); !bad.empty()) return mpirun_usage(bad);
  return std::nullopt;
}

int run_mpirun_command(const MpirunCommand& c, sim::Transport* transport) {
  sim::MachineConfig config;
  driver::P2pConfig p2p;
  if (const std::optional<int> bad = check_mpirun_command(c, config, p2p)) return *bad;
  return run_mpi_program(c, config, p2p, transport);
}

}  // namespace collnet::cli
