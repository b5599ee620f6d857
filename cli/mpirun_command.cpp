#include "mpirun_command.hpp"

#include <algorithm>
#include <csignal>
#include <cstring>
#include <unistd.h>
#include <cstdio>
#include <map>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "driver/job.hpp"
#include "json_file.hpp"
#include "mpi/program.hpp"
#include "mpi/runtime.hpp"
#include "systemc/machine.hpp"
#include "systemc/shape.hpp"

namespace collnet::cli {

namespace {

constexpr int kExitUsage = 2;

int usage(const std::string& msg) {
  std::cerr << "collnet: error: mpirun: " << msg << "\nRun 'collnet mpirun --help' for usage.\n";
  return kExitUsage;
}

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

// Flits moved on every link of the machine so far: grows while anything moves.
uint64_t traffic(const sim::Machine& m) {
  uint64_t t = 0;
  for (unsigned r = 0; r < m.nodes(); ++r) {
    for (unsigned d = 0; d < 6; ++d) t += m.torus_link_flits(r, d);
    for (unsigned l = 0; l < 3; ++l) t += m.link_flits(r, l);
  }
  return t;
}

// A rank that crashes takes the simulator with it (the ranks share its process): say
// which rank was running, and end with the status a shell gives a process the signal
// killed. The handler runs on a stack of its own, so that a rank's stack overflow is
// reported too.
void on_crash(int sig) {
  char msg[256];
  const mpi::Rank* r = mpi::Runtime::current_or_null();
  const int n = r ? snprintf(msg, sizeof msg,
                             "\ncollnet mpirun: rank %u crashed with signal %d (%s) while running its program; the run "
                             "ends\n",
                             r->world_rank(), sig, strsignal(sig))
                  : snprintf(msg, sizeof msg, "\ncollnet mpirun: signal %d (%s) outside any rank's program\n", sig,
                             strsignal(sig));
  fflush(stdout);
  if (n > 0) (void)!write(2, msg, static_cast<size_t>(std::min<int>(n, sizeof msg - 1)));
  _exit(128 + sig);
}

// `alt`: the handler's stack, which must outlive the run.
void install_crash_report(std::vector<char>& alt) {
  alt.resize(1 << 16);
  stack_t ss{};
  ss.ss_sp = alt.data();
  ss.ss_size = alt.size();
  sigaltstack(&ss, nullptr);
  struct sigaction sa {};
  sa.sa_handler = on_crash;
  sa.sa_flags = SA_ONSTACK;
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) sigaction(sig, &sa, nullptr);
}

}  // namespace

CLI::App* add_mpirun_command(CLI::App& app, MpirunCommand& c) {
  CLI::App* m = app.add_subcommand("mpirun", "run an MPI program (built with collnet-mpicc) on the simulated machine");
  m->add_option("-n,--np", c.ranks, "ranks (= nodes x tasks per node)")->required();
  m->add_option("--torus", c.torus, "machine shape XxYxZ (default: the most cubic one for -n / --tasks nodes)");
  m->add_option("--tasks", c.tasks, "tasks (ranks) per node, 1..64")->capture_default_str();
  m->add_option("--trace", c.trace_path, "write an FST waveform of the run (and a .gtkw view beside it)");
  m->add_option("--json", c.json_path, "write the per-rank report as JSON");
  m->add_flag("--tag-output", c.tag_output, "prefix every line a rank prints with [1,RANK]<stdout>: (as Open MPI)");
  m->add_option("--compute-scale", c.compute_scale,
                "simulated time for the host time a rank computes between MPI calls, scaled by this (0: none)")
      ->capture_default_str();
  m->add_option("--deadlock-cycles", c.deadlock_cycles,
                "report a deadlock when every rank has waited in MPI this long with no packet moving")
      ->capture_default_str();
  m->add_option("--watchdog", c.watchdog, "cycles after which an unfinished run is ended")->capture_default_str();
  m->add_option("--stack", c.stack_kib, "KiB of stack per rank")->capture_default_str();
  m->add_option("--eager-limit", c.eager_limit, "point-to-point: bytes up to which a message goes eagerly");
  m->add_option("--unexpected-limit", c.unexpected_limit, "point-to-point: bytes of unexpected eager data a node holds");
  m->add_option("--clock-mhz", c.clock_mhz, "the clock MPI_Wtime and the report count in")->capture_default_str();
  m->add_option("command", c.command, "the program and its arguments, after --")->required();
  return m;
}

int run_mpirun_command(const MpirunCommand& c) {
  if (c.ranks < 1) return usage("-n must be at least 1, got " + std::to_string(c.ranks));
  if (c.tasks < 1 || c.tasks > sim::MachineConfig::kMaxTasksPerNode)
    return usage("--tasks must be 1.." + std::to_string(sim::MachineConfig::kMaxTasksPerNode) + ", got " +
                 std::to_string(c.tasks));
  if (c.ranks % c.tasks)
    return usage("-n " + std::to_string(c.ranks) + " is not a multiple of --tasks " + std::to_string(c.tasks));
  if (c.compute_scale < 0) return usage("--compute-scale must not be negative");
  if (c.deadlock_cycles < 2) return usage("--deadlock-cycles must be at least 2");
  if (c.stack_kib < 64) return usage("--stack must be at least 64 KiB");
  if (c.clock_mhz <= 0) return usage("--clock-mhz must be positive");
  const auto nodes = static_cast<unsigned>(c.ranks / c.tasks);
  sim::MachineConfig config;
  try {
    config.shape = sim::Shape::parse(c.torus.empty() ? cubic_shape(nodes) : c.torus);
  } catch (const std::invalid_argument& e) {
    return usage(std::string("--torus: ") + e.what());
  }
  if (config.shape.nodes() != nodes)
    return usage("--torus " + c.torus + " has " + std::to_string(config.shape.nodes()) + " nodes; -n " +
                 std::to_string(c.ranks) + " with --tasks " + std::to_string(c.tasks) + " needs " + std::to_string(nodes));
  config.tasks_per_node = static_cast<unsigned>(c.tasks);
  config.trace_path = c.trace_path;
  config.watchdog_cycles = static_cast<uint64_t>(c.watchdog);
  config.stack_bytes = static_cast<size_t>(c.stack_kib) * 1024;
  config.clock_mhz = c.clock_mhz;
  driver::P2pConfig p2p;
  if (c.eager_limit >= 0) p2p.eager_limit = static_cast<size_t>(c.eager_limit);
  if (c.unexpected_limit >= 0) p2p.unexpected_limit = static_cast<size_t>(c.unexpected_limit);

  const std::string& program = c.command.front();
  std::unique_ptr<mpi::ProgramCopies> copies;
  try {
    copies = std::make_unique<mpi::ProgramCopies>(program, static_cast<unsigned>(c.ranks));
  } catch (const std::exception& e) {
    std::cerr << "collnet: error: mpirun: " << e.what() << "\n";
    return kExitUsage;
  }

  std::unique_ptr<sim::Machine> machine;
  try {
    config.validate();
    machine = std::make_unique<sim::Machine>(config);
  } catch (const std::exception& e) {
    return usage(e.what());
  }
  mpi::Runtime::Options o;
  o.clock_mhz = c.clock_mhz;
  o.compute_scale = c.compute_scale;
  o.tag_output = c.tag_output;
  o.deadlock_cycles = static_cast<uint64_t>(c.deadlock_cycles);
  o.stop = [&machine] { machine->stop(); };
  mpi::Runtime runtime(static_cast<unsigned>(c.ranks), o);
  machine->watch(std::max<uint64_t>(o.deadlock_cycles / 2, 1),
                 [&] { runtime.check_deadlock(machine->cycle(), traffic(*machine)); });

  std::vector<char> crash_stack;
  install_crash_report(crash_stack);
  driver::Job job(*machine, p2p);
  const driver::RunReport report = job.run([&](driver::Task& t) {
    const mpi::ProgramCopies::Main main = copies->main(t.rank());
    runtime.run_rank(t, [main](int argc, char** argv) { return main(argc, argv); }, c.command);
  });
  std::cout.flush();
  fflush(stdout);

  int code = runtime.exit_code();
  std::string ending;
  if (runtime.aborted() || runtime.deadlocked()) {
    ending = runtime.end_message();
  } else if (!report.ok) {
    ending = report.error;
    if (code == 0) code = 1;
  }
  const double us = static_cast<double>(report.cycles) / c.clock_mhz;

  // The report: on stderr, so that the program's own output stays as it wrote it.
  std::ostringstream s;
  s << "collnet mpirun: " << c.ranks << " ranks on " << config.shape.str() << " (" << c.tasks
    << " per node), " << report.cycles << " cycles (" << us << " us at " << c.clock_mhz << " MHz), wall "
    << report.wall_seconds << " s";
  if (c.compute_scale > 0) s << ", compute time scaled by " << c.compute_scale;
  else s << ", compute time not modelled (--compute-scale 0)";
  s << "\n";
  uint64_t min_mpi = ~0ull, max_mpi = 0, sum_mpi = 0, sent = 0;
  std::map<std::string, uint64_t> calls;
  for (unsigned r = 0; r < runtime.size(); ++r) {
    const mpi::Rank& k = runtime.rank(r);
    min_mpi = std::min(min_mpi, k.mpi_cycles);
    max_mpi = std::max(max_mpi, k.mpi_cycles);
    sum_mpi += k.mpi_cycles;
    sent += k.bytes_sent;
    for (const auto& [name, n] : k.calls) calls[name] += n;
  }
  s << "  cycles in MPI per rank: min " << min_mpi << ", mean " << sum_mpi / runtime.size() << ", max " << max_mpi
    << "; bytes sent in all " << sent << "\n  calls:";
  for (const auto& [name, n] : calls) s << " " << name << " " << n;
  s << "\n";
  if (!ending.empty()) s << "collnet mpirun: " << ending << "\n";
  if (code != 0) s << "collnet mpirun: exit status " << code << "\n";
  std::cerr << s.str();

  if (!c.json_path.empty()) {
    nlohmann::json j;
    j["command"] = "mpirun";
    j["program"] = program;
    j["arguments"] = std::vector<std::string>(c.command.begin() + 1, c.command.end());
    j["ranks"] = c.ranks;
    j["torus"] = config.shape.str();
    j["tasks_per_node"] = c.tasks;
    j["cycles"] = report.cycles;
    j["microseconds"] = us;
    j["clock_mhz"] = c.clock_mhz;
    j["wall_seconds"] = report.wall_seconds;
    j["compute_scale"] = c.compute_scale;
    j["exit_status"] = code;
    j["aborted"] = runtime.aborted();
    j["deadlock"] = runtime.deadlocked();
    j["message"] = ending;
    nlohmann::json per = nlohmann::json::array();
    for (unsigned r = 0; r < runtime.size(); ++r) {
      const mpi::Rank& k = runtime.rank(r);
      per.push_back({{"rank", r},
                     {"node", r / c.tasks},
                     {"mpi_cycles", k.mpi_cycles},
                     {"compute_cycles", k.compute_cycles},
                     {"calls", k.calls},
                     {"bytes_sent", k.bytes_sent},
                     {"bytes_received", k.bytes_received},
                     {"exit_status", k.exit_code},
                     {"finished", k.done}});
    }
    j["per_rank"] = per;
    if (!write_json_file(c.json_path, j)) return 1;
  }
  return code;
}

}  // namespace collnet::cli
