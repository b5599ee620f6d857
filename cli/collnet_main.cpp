// collnet: the command line. `collnet run <collective> ...` runs one collective on a
// simulated machine and checks it. Exit status: 0 verified, 1 wrong result or hardware
// error, 2 bad usage.
#include <cstdlib>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <systemc>

#include "driver/error.hpp"
#include "driver/op.hpp"
#include "run_options.hpp"
#include "systemc/machine_config.hpp"
#include "systemc/shape.hpp"

namespace {

constexpr int kExitUsage = 2;

// "0,5,6,11,20" -> {0, 5, 6, 11, 20}: distinct ranks below `nodes`.
std::vector<unsigned> parse_rank_list(const std::string& text, unsigned nodes) {
  std::vector<unsigned> out;
  size_t pos = 0;
  while (pos <= text.size()) {
    const size_t comma = text.find(',', pos);
    const std::string item = text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    if (item.empty() || item.size() > 9 || item.find_first_not_of("0123456789") != std::string::npos)
      throw std::invalid_argument("'" + item + "' in '" + text + "' is not a rank");
    const unsigned r = static_cast<unsigned>(std::stoul(item));
    if (r >= nodes)
      throw std::invalid_argument("rank " + std::to_string(r) + " is not on a machine of " + std::to_string(nodes) +
                                  " nodes");
    for (unsigned seen : out)
      if (seen == r) throw std::invalid_argument("rank " + std::to_string(r) + " is listed twice");
    out.push_back(r);
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return out;
}

int usage_error(const std::string& msg) {
  std::cerr << "collnet: error: " << msg << "\nRun 'collnet run --help' for usage.\n";
  return kExitUsage;
}

int collnet_main(int argc, char** argv) {
  CLI::App app{"collnet: cycle-level model of in-network collective hardware"};
  app.require_subcommand(1);
  collnet::cli::RunOptions o;

  CLI::App* run = app.add_subcommand("run", "run one collective on a simulated machine and verify it");
  std::string torus = "4x4x4";
  long long count = static_cast<long long>(o.count);
  long long root = 0;
  long long latency = o.machine.link_latency;
  long long access = o.machine.access_cycles;
  long long watchdog = static_cast<long long>(o.machine.watchdog_cycles);
  run->add_option("collective", o.collective, "allreduce | bcast | barrier")->required();
  run->add_option("--torus", torus, "machine shape XxYxZ")->capture_default_str();
  run->add_option("--op", o.op, "sum | max | min | band | bor | bxor (allreduce)")->capture_default_str();
  run->add_option("--type", o.type, "element type: u64")->capture_default_str();
  run->add_option("--count", count, "elements per rank (>= 1)")->capture_default_str();
  run->add_option("--root", root, "root rank (bcast)")->capture_default_str();
  run->add_option("--seed", o.seed, "seed of the input data")->capture_default_str();
  run->add_option("--link-latency", latency, "cycles per tree link (>= 1)")->capture_default_str();
  run->add_option("--access-cycles", access, "cycles per register access (>= 1)")->capture_default_str();
  run->add_option("--watchdog", watchdog, "cycles before an unfinished run is reported")->capture_default_str();
  std::string ranks_text;
  run->add_option("--ranks", ranks_text, "run on a subset communicator of these ranks, e.g. 0,5,6,11,20");
  run->add_option("--trace", o.machine.trace_path, "write an FST waveform (and a .gtkw view beside it)");
  run->add_option("--json", o.json_path, "write the results as JSON");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return usage_error(e.what());
  }

  if (o.collective != "allreduce" && o.collective != "bcast" && o.collective != "barrier")
    return usage_error("unknown collective '" + o.collective + "' (known: allreduce, bcast, barrier)");
  try {
    o.machine.shape = collnet::sim::Shape::parse(torus);
  } catch (const std::invalid_argument& e) {
    return usage_error(std::string("--torus: ") + e.what());
  }
  if (o.machine.shape.nodes() > collnet::sim::MachineConfig::kMaxNodes)
    return usage_error("--torus: " + torus + " has " + std::to_string(o.machine.shape.nodes()) + " nodes; at most " +
                       std::to_string(collnet::sim::MachineConfig::kMaxNodes) + " are supported");
  try {
    collnet::driver::parse_op(o.op);
  } catch (const collnet::Error& e) {
    return usage_error(std::string("--op: ") + e.what());
  }
  if (o.type != "u64") return usage_error("--type: unsupported type '" + o.type + "' (supported: u64)");
  if (count < 1 || count > (1LL << 28))
    return usage_error("--count: must be 1.." + std::to_string(1LL << 28) + ", got " + std::to_string(count));
  o.count = static_cast<uint64_t>(count);
  // Inputs and results of every rank live in host memory: 16 bytes per element per rank.
  constexpr uint64_t kMaxElements = uint64_t{1} << 27;
  if (o.count * o.machine.shape.nodes() > kMaxElements)
    return usage_error("--count: " + std::to_string(o.count) + " elements on each of " +
                       std::to_string(o.machine.shape.nodes()) + " ranks is more than the " +
                       std::to_string(kMaxElements) + " elements in all that a run may hold");
  if (root < 0 || root >= static_cast<long long>(o.machine.shape.nodes()))
    return usage_error("--root: rank " + std::to_string(root) + " is not on a machine of " +
                       std::to_string(o.machine.shape.nodes()) + " nodes");
  if (!ranks_text.empty()) {
    try {
      o.ranks = parse_rank_list(ranks_text, o.machine.shape.nodes());
    } catch (const std::invalid_argument& e) {
      return usage_error(std::string("--ranks: ") + e.what());
    }
    if (root >= static_cast<long long>(o.ranks.size()))
      return usage_error("--root: rank " + std::to_string(root) + " is not in a communicator of " +
                         std::to_string(o.ranks.size()) + " ranks (--root counts within --ranks)");
  }
  o.root = static_cast<unsigned>(root);
  if (latency < 1 || latency > 1000)
    return usage_error("--link-latency: must be 1..1000 cycles, got " + std::to_string(latency));
  o.machine.link_latency = static_cast<unsigned>(latency);
  if (access < 1 || access > 1000)
    return usage_error("--access-cycles: must be 1..1000 cycles, got " + std::to_string(access));
  o.machine.access_cycles = static_cast<unsigned>(access);
  if (watchdog < 1) return usage_error("--watchdog: must be at least 1 cycle, got " + std::to_string(watchdog));
  o.machine.watchdog_cycles = static_cast<uint64_t>(watchdog);
  if (!o.machine.trace_path.empty()) {
    const std::string& t = o.machine.trace_path;
    if (t.size() < 5 || t.substr(t.size() - 4) != ".fst")
      return usage_error("--trace: '" + t + "' must name an .fst file");
  }

  try {
    return collnet::cli::run_collective(o);
  } catch (const std::exception& e) {
    std::cerr << "collnet: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace

int sc_main(int argc, char** argv) { return collnet_main(argc, argv); }

// SystemC's own main() prints a banner before sc_main runs; this one asks it not to.
int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
