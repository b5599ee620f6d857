// The clang fuzz build compiles the command line's sources (cli/command_line.cpp and
// cli/traffic_command.cpp) but not the simulated machine (Verilated models, SystemC).
// cli/traffic_command.cpp's run_traffic_command refers to these three functions of
// systemc/traffic_run.cpp, which needs the machine; the fuzz harness never calls
// run_traffic_command (it parses the command line, it runs nothing), so they are here only
// for the linker and abort if anything ever calls them. The gcc build of the same harness
// (the `fuzz` tests) links the real ones.
#include <cstdio>
#include <cstdlib>

#include "systemc/traffic_run.hpp"

namespace collnet::sim {

namespace {
[[noreturn]] void not_in_the_fuzz_build(const char* what) {
  std::fprintf(stderr, "%s: not in the fuzz build (fuzz/link_stubs.cpp)\n", what);
  std::abort();
}
}  // namespace

Engine parse_engine(const std::string&) { not_in_the_fuzz_build("sim::parse_engine"); }
void TrafficOptions::validate() const { not_in_the_fuzz_build("sim::TrafficOptions::validate"); }
workload::TrafficResult run_traffic(const TrafficOptions&) { not_in_the_fuzz_build("sim::run_traffic"); }

}  // namespace collnet::sim
