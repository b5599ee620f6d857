// SPDX-License-Identifier: Apache-2.0
// An MPI program run on the simulated machine, one rank per task, and its report per rank.
#include "cli/mpi_program_run.hpp"

#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/fault_options.hpp"
#include "cli/json_file.hpp"
#include "cli/link_report.hpp"
#include "cli/machine_file.hpp"
#include "cli/partitions.hpp"
#include "cli/usage_error.hpp"
#include "driver/job.hpp"
#include "firmware/down_nodes.hpp"
#include "mpi/compute_time.hpp"
#include "mpi/program.hpp"
#include "mpi/runtime.hpp"
#include "systemc/machine.hpp"
#include "systemc/partition_plan.hpp"

namespace collnet::cli {

namespace {

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
// reported too: a segmentation fault at an address within kStackReach of the stack
// pointer is named as one, with the stack each rank has (--stack).
constexpr uintptr_t kStackReach = 256 * 1024;

// The ranks' stack in KiB, for the handler (a signal handler reaches only static state).
long long& crash_stack_kib() {
  static long long kib = 0;
  return kib;
}

void on_crash(int sig, siginfo_t* info, void* context) {
  char msg[512];
  const mpi::Rank* r = mpi::Runtime::current_or_null();
  bool overflow = false;
#if defined(__x86_64__)
  if (sig == SIGSEGV && info && context) {
    const auto sp = static_cast<uintptr_t>(static_cast<ucontext_t*>(context)->uc_mcontext.gregs[REG_RSP]);
    const auto at = reinterpret_cast<uintptr_t>(info->si_addr);
    overflow = at + kStackReach >= sp && at <= sp + kStackReach;
  }
#endif
  const int n = !r ? snprintf(msg, sizeof msg, "\ncollnet mpirun: signal %d (%s) outside any rank's program\n", sig,
                              strsignal(sig))
                : overflow
                    ? snprintf(msg, sizeof msg,
                               "\ncollnet mpirun: rank %u overflowed its stack (signal %d, %s, next to its stack "
                               "pointer): each rank has %lld KiB; give more with --stack KiB. The run ends\n",
                               r->world_rank(), sig, strsignal(sig), crash_stack_kib())
                    : snprintf(msg, sizeof msg,
                               "\ncollnet mpirun: rank %u crashed with signal %d (%s) while running its program; the "
                               "run ends\n",
                               r->world_rank(), sig, strsignal(sig));
  fflush(stdout);
  if (n > 0) (void)!write(2, msg, static_cast<size_t>(std::min<int>(n, sizeof msg - 1)));
  _exit(128 + sig);
}

// `alt`: the handler's stack, which must outlive the run; `stack_kib`: each rank's stack.
void install_crash_report(std::vector<char>& alt, long long stack_kib) {
  crash_stack_kib() = stack_kib;
  alt.resize(1 << 16);
  stack_t ss{};
  ss.ss_sp = alt.data();
  ss.ss_size = alt.size();
  sigaltstack(&ss, nullptr);
  struct sigaction sa {};
  sa.sa_sigaction = on_crash;
  sa.sa_flags = SA_ONSTACK | SA_SIGINFO;
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) sigaction(sig, &sa, nullptr);
}

// How the run ended, and what the report says of the links and the partitions.
struct Ending {
  int code = 0;         // the exit status
  std::string message;  // why the run ended early (empty: it did not)
  std::optional<LinkReport> links;
  std::optional<PartitionsReport> partitions;
};

// In a partitioned run, by rank: whether its node is this process's (the machine's own
// cut, sim::PartitionPlan, known before the machine is built). Empty in one process.
std::vector<bool> ranks_here(const sim::MachineConfig& config, unsigned ranks, sim::Transport* transport) {
  std::vector<bool> here;
  if (!transport) return here;
  const sim::PartitionPlan plan = sim::PartitionPlan::cut(config, config.partitions);
  const fw::DownNodes down = config.down();
  const unsigned tasks = config.tasks_per_node;
  for (unsigned r = 0; r < ranks; ++r)
    here.push_back(plan.owner.at(down.task_of_world(r, tasks) / tasks) == transport->rank());
  return here;
}

// How the partitions' runtimes pool what the deadlock check needs (mpi::Runtime::Options::parts).
mpi::Runtime::Options::Parts parts_of(sim::Transport* t, std::vector<bool> here) {
  mpi::Runtime::Options::Parts parts;
  parts.local = [here = std::move(here)](unsigned rank) { return here.at(rank); };
  parts.sum = [t](std::vector<uint64_t>& values) { t->allreduce(values, sim::Transport::Op::Sum); };
  parts.gather_text = [t](const std::string& mine) {
    sim::Message m;
    m.put(mine);
    std::vector<std::string> all;
    for (const sim::Transport::Bytes& b : t->allgather(m.bytes())) all.push_back(sim::Message(b).text());
    return all;
  };
  return parts;
}

// A partitioned run's ranks ran where their nodes are: partition 0 receives every rank's
// statistics and exit status, the mappings the ranks noted, and the ending a partition
// saw (an MPI_Abort is seen by its rank's partition; a deadlock, alike by all).
void gather_ranks(const sim::Machine& m, mpi::Runtime& runtime) {
  sim::Transport* t = m.transport();
  if (!t) return;
  sim::Message mine;
  const mpi::Runtime::Ending e = runtime.ending();
  mine.put(uint64_t{e.aborted}), mine.put(uint64_t{e.deadlocked});
  mine.put(static_cast<uint64_t>(static_cast<int64_t>(e.abort_code))), mine.put(e.message);
  mine.put(e.cycle), mine.put(e.rank);
  mine.put(runtime.mappings().size());
  for (const auto& [what, times] : runtime.mappings()) mine.put(what), mine.put(times);
  for (unsigned r = 0; r < runtime.size(); ++r) {
    if (!runtime.local(r)) continue;
    const mpi::Rank& k = runtime.rank(r);
    mine.put(r);
    for (uint64_t v : {k.mpi_cycles, k.compute_cycles, k.bytes_sent, k.bytes_received}) mine.put(v);
    mine.put(static_cast<uint64_t>(static_cast<int64_t>(k.exit_code))), mine.put(uint64_t{k.done});
    mine.put(k.calls.size());
    for (const auto& [name, n] : k.calls) mine.put(name), mine.put(n);
  }
  const std::vector<sim::Transport::Bytes> parts = t->gather(mine.bytes());
  for (unsigned p = 1; p < parts.size(); ++p) {
    sim::Message theirs(parts[p]);
    mpi::Runtime::Ending e;
    e.aborted = theirs.get(), e.deadlocked = theirs.get();
    e.abort_code = static_cast<int>(static_cast<int64_t>(theirs.get()));
    e.message = theirs.text();
    e.cycle = theirs.get(), e.rank = static_cast<unsigned>(theirs.get());
    runtime.merge_ending(e);
    for (uint64_t n = theirs.get(); n > 0; --n) {
      std::string what = theirs.text();
      runtime.note_mapping(what, static_cast<unsigned>(theirs.get()));
    }
    while (theirs.left()) {
      const uint64_t r = theirs.get();
      if (r >= runtime.size())
        throw std::runtime_error("partitions: partition " + std::to_string(p) + " sent rank " + std::to_string(r));
      mpi::Rank& k = runtime.rank(static_cast<unsigned>(r));
      for (uint64_t* v : {&k.mpi_cycles, &k.compute_cycles, &k.bytes_sent, &k.bytes_received}) *v = theirs.get();
      k.exit_code = static_cast<int>(static_cast<int64_t>(theirs.get()));
      k.done = theirs.get() != 0;
      k.calls.clear();
      for (uint64_t n = theirs.get(); n > 0; --n) {
        std::string name = theirs.text();
        k.calls[name] = theirs.get();
      }
    }
  }
}

// The report: on stderr, so that the program's own output stays as it wrote it.
std::string report_text(const MpirunCommand& c, const sim::MachineConfig& config, mpi::Runtime& runtime,
                        const driver::RunReport& report, const Ending& end) {
  const double us = static_cast<double>(report.cycles) / config.clock_mhz;
  std::ostringstream s;
  const std::vector<unsigned> down = config.down().list();
  std::string down_text;
  for (size_t k = 0; k < down.size(); ++k) down_text += (k ? "," : down.size() > 1 ? "; nodes " : "; node ") + std::to_string(down[k]);
  if (!down.empty()) down_text += " down";
  s << "collnet mpirun: " << c.ranks << " ranks on " << config.shape.str() << " (" << c.tasks << " per node" << down_text << "), "
    << report.cycles << " cycles (" << us << " us at " << config.clock_mhz << " MHz), wall " << report.wall_seconds
    << " s";
  uint64_t min_mpi = ~0ull, max_mpi = 0, sum_mpi = 0, sent = 0;
  uint64_t min_cpu = ~0ull, max_cpu = 0, sum_cpu = 0;
  std::map<std::string, uint64_t> calls;
  for (unsigned r = 0; r < runtime.size(); ++r) {
    const mpi::Rank& k = runtime.rank(r);
    min_mpi = std::min(min_mpi, k.mpi_cycles);
    max_mpi = std::max(max_mpi, k.mpi_cycles);
    sum_mpi += k.mpi_cycles;
    min_cpu = std::min(min_cpu, k.compute_cycles);
    max_cpu = std::max(max_cpu, k.compute_cycles);
    sum_cpu += k.compute_cycles;
    sent += k.bytes_sent;
    for (const auto& [name, n] : k.calls) calls[name] += n;
  }
  const double scale = runtime.options().compute_scale;
  if (c.compute_scale == "auto")
    s << ", compute time auto (scale " << scale << ": the host's " << mpi::host_instructions_per_second() / 1e9
      << "e9 instructions/s over the processor's " << config.clock_mhz << " MHz x " << config.instructions_per_cycle
      << ")";
  else if (scale > 0)
    s << ", compute time scaled by " << scale;
  else if (sum_cpu > 0)
    s << ", compute time only MPIX_Compute_cycles's (--compute-scale 0)";
  else
    s << ", compute time not modelled (--compute-scale 0)";
  s << "\n";
  s << "  cycles in MPI per rank: min " << min_mpi << ", mean " << sum_mpi / runtime.size() << ", max " << max_mpi
    << "; bytes sent in all " << sent << "\n";
  if (scale > 0 || sum_cpu > 0) {
    const double share = sum_cpu + sum_mpi ? 100.0 * static_cast<double>(sum_cpu) / static_cast<double>(sum_cpu + sum_mpi) : 0;
    s << "  cycles computing per rank: min " << min_cpu << ", mean " << sum_cpu / runtime.size() << ", max "
      << max_cpu << " (" << std::fixed << std::setprecision(1) << share << std::defaultfloat
      << "% of the ranks' time computing, the rest in MPI)\n";
  }
  s << "  calls:";
  for (const auto& [name, n] : calls) s << " " << name << " " << n;
  s << "\n";
  for (const auto& [what, times] : runtime.mappings()) s << "  mapping: " << what << " (" << times << "x)\n";
  if (end.links && (end.links->bits_flipped || !end.links->down.empty())) s << "  " << end.links->text() << "\n";
  if (end.partitions) s << end.partitions->text() << "\n";
  // MPI has no fault tolerance: a rank cut off from the others waits until the deadlock
  // report, which should say what cut it.
  if (config.any_cut()) s << "  faults: " << describe_cuts(config) << "\n";
  if (!end.message.empty()) s << "collnet mpirun: " << end.message << "\n";
  if (end.code != 0) s << "collnet mpirun: exit status " << end.code << "\n";
  return s.str();
}

// --json: the run, and per rank its cycles in MPI, calls and bytes.
nlohmann::json report_json(const MpirunCommand& c, const sim::MachineConfig& config, mpi::Runtime& runtime,
                           const driver::RunReport& report, const Ending& end) {
  nlohmann::json j;
  j["command"] = "mpirun";
  j["program"] = c.command.front();
  j["arguments"] = std::vector<std::string>(c.command.begin() + 1, c.command.end());
  j["ranks"] = c.ranks;
  j["torus"] = config.shape.str();
  j["tasks_per_node"] = c.tasks;
  j["cycles"] = report.cycles;
  j["microseconds"] = static_cast<double>(report.cycles) / config.clock_mhz;
  j["clock_mhz"] = config.clock_mhz;
  j["machine"] = machine_json(config);
  j["wall_seconds"] = report.wall_seconds;
  j["links"] = end.links->json();
  j["compute_scale"] = runtime.options().compute_scale;
  j["compute_scale_auto"] = c.compute_scale == "auto";
  j["exit_status"] = end.code;
  j["aborted"] = runtime.aborted();
  j["deadlock"] = runtime.deadlocked();
  j["message"] = end.message;
  const fw::DownNodes down = config.down();
  j["down_nodes"] = down.list();
  nlohmann::json per = nlohmann::json::array();
  for (unsigned r = 0; r < runtime.size(); ++r) {
    const mpi::Rank& k = runtime.rank(r);
    per.push_back({{"rank", r},
                   {"node", down.task_of_world(r, static_cast<unsigned>(c.tasks)) / c.tasks},
                   {"mpi_cycles", k.mpi_cycles},
                   {"compute_cycles", k.compute_cycles},
                   {"calls", k.calls},
                   {"bytes_sent", k.bytes_sent},
                   {"bytes_received", k.bytes_received},
                   {"exit_status", k.exit_code},
                   {"finished", k.done}});
  }
  j["per_rank"] = per;
  nlohmann::json maps = nlohmann::json::array();
  for (const auto& [what, times] : runtime.mappings()) maps.push_back({{"mapping", what}, {"times", times}});
  j["mappings"] = maps;
  if (end.partitions) j["partitions"] = end.partitions->json();
  return j;
}

}  // namespace

int run_mpi_program(const MpirunCommand& c, const sim::MachineConfig& config, const driver::P2pConfig& p2p,
                    sim::Transport* transport) {
  // In partitions, only the copies of the ranks whose nodes this process simulates.
  const std::vector<bool> here = ranks_here(config, static_cast<unsigned>(c.ranks), transport);
  std::unique_ptr<mpi::ProgramCopies> copies;
  try {
    copies = std::make_unique<mpi::ProgramCopies>(
        c.command.front(), static_cast<unsigned>(c.ranks),
        [&c](unsigned rank) {
          return mpi::rank_environment(rank, static_cast<unsigned>(c.ranks), static_cast<unsigned>(c.tasks), c.exports);
        },
        here);
  } catch (const std::exception& e) {
    std::cerr << "collnet: error: mpirun: " + std::string(e.what()) + "\n";
    return fail_partitions(transport, kExitUsage);
  }

  std::unique_ptr<sim::Machine> machine;
  try {
    config.validate();
    machine = std::make_unique<sim::Machine>(config, transport);
  } catch (const std::exception& e) {
    return fail_partitions(transport, mpirun_usage(e.what()));
  }
  mpi::Runtime::Options o;
  o.clock_mhz = config.clock_mhz;
  o.compute_scale = c.compute_scale == "auto"
                        ? mpi::auto_compute_scale(config.clock_mhz, config.instructions_per_cycle)
                        : std::stod(c.compute_scale);
  if (sim::Transport* t = machine->transport()) {  // partition 0's measure of the host, in every partition
    sim::Message m;
    m.put(std::vector<double>{o.compute_scale});
    o.compute_scale = sim::Message(t->broadcast(m.bytes())).values<double>().at(0);
  }
  o.tag_output = c.tag_output;
  o.deadlock_cycles = static_cast<uint64_t>(c.deadlock_cycles);
  o.stop = [&machine] { machine->stop(); };
  if (machine->transport()) o.parts = parts_of(machine->transport(), here);
  mpi::Runtime runtime(static_cast<unsigned>(c.ranks), o);
  machine->watch(std::max<uint64_t>(o.deadlock_cycles / 2, 1),
                 [&] { runtime.check_deadlock(machine->cycle(), traffic(*machine)); });

  std::vector<char> crash_stack;
  install_crash_report(crash_stack, c.stack_kib);
  driver::Job job(*machine, p2p);
  std::optional<mpi::RankStreams> streams(std::in_place, runtime);  // std::cout per rank while they run
  const driver::RunReport report = job.run([&](driver::Task& t) {
    const unsigned rank = t.rank();
    runtime.run_rank(
        t, [&copies, rank](int argc, char** argv) { return copies->run(rank, argc, argv); }, c.command);
  });
  runtime.flush_all_output();
  streams.reset();
  std::cout.flush();
  fflush(stdout);

  gather_ranks(*machine, runtime);
  Ending end;
  end.code = runtime.exit_code();
  if (runtime.aborted() || runtime.deadlocked()) {
    end.message = runtime.end_message();
  } else if (!report.ok) {
    end.message = report.error;
    if (end.code == 0) end.code = 1;
  }
  if (LinkReport::wanted(config, !c.json_path.empty())) end.links = LinkReport::of(*machine);
  end.partitions = PartitionsReport::of(*machine, report.wall_seconds);
  sim::Transport* t = machine->transport();
  if (!t || t->rank() == 0) {
    if (!c.quiet) {
      std::cerr << report_text(c, config, runtime, report, end);
    } else {  // why the run ended, if early, and how; not the statistics
      if (!end.message.empty()) std::cerr << "collnet mpirun: " << end.message << "\n";
      if (end.code != 0) std::cerr << "collnet mpirun: exit status " << end.code << "\n";
    }
    if (!c.json_path.empty() && !write_json_file(c.json_path, report_json(c, config, runtime, report, end)))
      end.code = 1;
  }
  return partition0_status(t, end.code);
}

}  // namespace collnet::cli
