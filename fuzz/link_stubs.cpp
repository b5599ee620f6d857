// SPDX-License-Identifier: Apache-2.0
// The clang fuzz build compiles the command line's sources (cli/command_line.cpp and every
// command's file, cli/<command>_command.cpp) but not the simulated machine (Verilated
// models, SystemC modules). The commands' runs refer to the functions below, of
// systemc/traffic_run.cpp, cli/link_report.cpp, cli/link_samples.cpp, cli/run_collective.cpp,
// cli/pingpong.cpp, cli/compare.cpp, cli/mpi_program_run.cpp and cli/partitions_report.cpp,
// which need the machine;
// the fuzz harness never runs a command (it parses the command line, it runs nothing), so
// they are here only for the linker and abort if anything ever calls them. The same files
// include the machine's header and so SystemC's, whose version check links libsystemc
// (fuzz/CMakeLists.txt), which asks for an sc_main: here too, never called. The gcc build
// of the same harness (the `fuzz` tests) links the real ones.
#include <cstdio>
#include <cstdlib>

#include "cli/compare.hpp"
#include "cli/link_report.hpp"
#include "cli/link_samples.hpp"
#include "cli/mpi_program_run.hpp"
#include "cli/partitions.hpp"
#include "cli/pingpong.hpp"
#include "cli/run_collective.hpp"
#include "systemc/traffic_run.hpp"

namespace {
[[noreturn]] void not_in_the_fuzz_build(const char* what) {
  std::fprintf(stderr, "%s: not in the fuzz build (fuzz/link_stubs.cpp)\n", what);
  std::abort();
}
}  // namespace

namespace collnet::sim {

workload::TrafficResult run_traffic(const TrafficOptions&) { not_in_the_fuzz_build("sim::run_traffic"); }

}  // namespace collnet::sim

namespace collnet::cli {

LinkReport LinkReport::of(sim::Machine&) { not_in_the_fuzz_build("cli::LinkReport::of"); }
nlohmann::json LinkReport::json() const { not_in_the_fuzz_build("cli::LinkReport::json"); }
std::string LinkReport::text() const { not_in_the_fuzz_build("cli::LinkReport::text"); }
LinkSamples::LinkSamples(const fw::TorusLayout& layout, uint64_t) : layout_(layout) {
  not_in_the_fuzz_build("cli::LinkSamples");
}
void LinkSamples::take(sim::Machine&, uint64_t) { not_in_the_fuzz_build("cli::LinkSamples::take"); }
double LinkSamples::peak() const { not_in_the_fuzz_build("cli::LinkSamples::peak"); }
nlohmann::json LinkSamples::json() const { not_in_the_fuzz_build("cli::LinkSamples::json"); }
void LinkSamples::combine(sim::Machine&) { not_in_the_fuzz_build("cli::LinkSamples::combine"); }
std::optional<PartitionsReport> PartitionsReport::of(const sim::Machine&, double) {
  not_in_the_fuzz_build("cli::PartitionsReport::of");
}
std::string PartitionsReport::text() const { not_in_the_fuzz_build("cli::PartitionsReport::text"); }
nlohmann::json PartitionsReport::json() const { not_in_the_fuzz_build("cli::PartitionsReport::json"); }
int run_collective(const RunOptions&, std::ostream&, RunResult*, sim::Transport*) {
  not_in_the_fuzz_build("cli::run_collective");
}
int run_pingpong(const PingpongOptions&) { not_in_the_fuzz_build("cli::run_pingpong"); }
CompareTable compare_algorithms(const CompareOptions&) { not_in_the_fuzz_build("cli::compare_algorithms"); }
int run_mpi_program(const MpirunCommand&, const sim::MachineConfig&, const driver::P2pConfig&, sim::Transport*) {
  not_in_the_fuzz_build("cli::run_mpi_program");
}

}  // namespace collnet::cli

int sc_main(int, char**) { not_in_the_fuzz_build("sc_main"); }
