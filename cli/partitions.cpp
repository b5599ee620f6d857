// SPDX-License-Identifier: Apache-2.0
#include "cli/partitions.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <stdexcept>
#include <vector>

#include "cli/own_path.hpp"
#include "systemc/partition_plan.hpp"

namespace collnet::cli {

void add_partitions_option(CLI::App* app, PartitionsOption& o) {
  app->add_option_function<long long>(
      "--partitions", [&o](long long v) { o.count = v; },
      "simulate the machine in this many processes, each a block of the torus, cycle for cycle as in one "
      "(1..nodes; started through Open MPI's mpirun; docs/partitions.md)");
}

std::string apply_partitions(const PartitionsOption& o, sim::MachineConfig& m) {
  const unsigned launched = sim::Transport::launched_processes();
  if (o.count && (*o.count < 1 || *o.count > sim::MachineConfig::kMaxNodes))
    return "--partitions: must be 1.." + std::to_string(m.shape.nodes()) + " (at most one per node), got " +
           std::to_string(*o.count);
  if (o.count && launched > 0 && *o.count != static_cast<long long>(launched))
    return "--partitions: " + std::to_string(*o.count) + ", but Open MPI's launcher started " +
           std::to_string(launched) + " process" + (launched == 1 ? "" : "es") + " of this run (give mpirun -np " +
           std::to_string(*o.count) + ", or leave --partitions out under mpirun)";
  const unsigned p = o.count ? static_cast<unsigned>(*o.count) : launched > 0 ? launched : 1;
  try {
    (void)sim::PartitionPlan::cut(m, p);
  } catch (const std::invalid_argument& e) {  // "--partitions P: why"
    if (o.count) return e.what();
    const std::string why = e.what();
    return "Open MPI's launcher started " + std::to_string(p) + " processes (one per partition), but" +
           why.substr(why.find(':') + 1);
  }
  m.partitions = p;
  return "";
}

namespace {
// The launcher a waiting collnet passes a termination on to (see launch_partitions).
volatile sig_atomic_t launcher_pid = 0;
extern "C" void forward_to_launcher(int sig) {
  if (launcher_pid > 0) kill(launcher_pid, sig);
}

// Runs mpirun (`args`) in this process, or says why it cannot; returns only if it cannot.
int exec_launcher(unsigned partitions, std::vector<char*>& args) {
  execvp(args[0], args.data());  // looks along PATH; returns only if it failed
  if (errno == ENOENT) {
    std::cerr << "collnet: --partitions " << partitions
              << ": needs Open MPI's launcher, mpirun (Debian package openmpi-bin), which is not on PATH\n";
    return 2;
  }
  std::cerr << "collnet: --partitions: cannot run mpirun: " << std::strerror(errno) << "\n";
  return 1;
}
}  // namespace

std::optional<int> launch_partitions(unsigned partitions, int argc, char** argv) {
  if (partitions < 2 || sim::Transport::launched_processes() > 0) return std::nullopt;
  // Every partition on this host, however many cores it has; quiet about statuses other
  // than 0 (every partition exits with the run's); nothing read from standard input (the
  // command reads none); the shared-memory transport between local processes and Open
  // MPI's own point-to-point layer (ob1: starting the UCX one costs each run 0.2 s) unless
  // the user chose others.
  std::vector<std::string> words{"mpirun", "-q", "-np", std::to_string(partitions), "--oversubscribe", "--bind-to",
                                 "none", "--stdin", "none", own_path()};
  for (int i = 1; i < argc; ++i) words.emplace_back(argv[i]);
  if (geteuid() == 0) {  // Open MPI refuses root unless told it is meant
    setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 0);
    setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 0);
  }
  setenv("OMPI_MCA_btl", "self,vader", 0);
  setenv("OMPI_MCA_pml", "ob1", 0);
  std::vector<char*> args;
  for (std::string& w : words) args.push_back(w.data());
  args.push_back(nullptr);
  std::cout.flush();
  // Open MPI 4.1's launchers share a session directory in the temporary directory, and two
  // that start in the same instant race to create it (the loser stops: "A call to mkdir was
  // unable to create the desired directory ... File exists"). Unless the user chose one
  // (OMPI_MCA_orte_tmpdir_base), this run gets a directory of its own, which collnet waits
  // for the launcher to finish with and removes.
  if (const char* chosen = std::getenv("OMPI_MCA_orte_tmpdir_base"); chosen && *chosen)
    return exec_launcher(partitions, args);
  const char* tmp = std::getenv("TMPDIR");
  std::string session = std::string(tmp && *tmp ? tmp : "/tmp") + "/collnet-ompi-XXXXXX";
  if (!mkdtemp(session.data())) return exec_launcher(partitions, args);  // the shared one, as before
  setenv("OMPI_MCA_orte_tmpdir_base", session.c_str(), 1);
  const pid_t child = fork();
  if (child < 0) {
    std::cerr << "collnet: --partitions: cannot start mpirun: " << std::strerror(errno) << "\n";
    std::error_code ec;
    std::filesystem::remove_all(session, ec);
    return 1;
  }
  if (child == 0) std::_Exit(exec_launcher(partitions, args));
  // The terminal's interrupt reaches the launcher too, which ends the run; a termination
  // sent to collnet alone is passed on.
  launcher_pid = child;
  struct sigaction ignore {}, forward {};
  ignore.sa_handler = SIG_IGN;
  forward.sa_handler = forward_to_launcher;
  for (int sig : {SIGINT, SIGQUIT}) sigaction(sig, &ignore, nullptr);
  for (int sig : {SIGTERM, SIGHUP}) sigaction(sig, &forward, nullptr);
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  std::error_code ec;
  std::filesystem::remove_all(session, ec);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::unique_ptr<sim::Transport> join_partitions(unsigned partitions) {
  if (partitions < 2) return nullptr;
  return sim::Transport::join();
}

int partition0_status(sim::Transport* transport, int status) {
  if (!transport) return status;
  sim::Message m;
  m.put(static_cast<uint64_t>(status));
  return static_cast<int>(sim::Message(transport->broadcast(m.bytes())).get());
}

int fail_partitions(sim::Transport* transport, int status) {
  if (!transport || transport->size() < 2) return status;
  std::cerr.flush();
  std::cout.flush();
  transport->abort(status);
}

}  // namespace collnet::cli
