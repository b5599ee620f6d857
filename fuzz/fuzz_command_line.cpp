// SPDX-License-Identifier: Apache-2.0
// Fuzz harness: the command line of `collnet` (cli/command_line.hpp). The input is split
// into words (one per line; fuzz_util.hpp), which go to parse_command_line as argv after
// "collnet": CLI11's parse of every subcommand and the option checks each command makes
// before it runs (the files --input, --counts, --tuning and --ranks FILE name are read
// from a scratch directory the harness fills; a word with a '/' is skipped). Nothing runs.
//
// Refusing bad input with help or a usage error (exit status 0 or 2) is what is expected;
// a crash, undefined behaviour, a leak, an exception that escapes (collnet_main would
// report it as a failed run, not as bad usage) or an accepted command line that the
// command would then refuse is not.
#include <algorithm>
#include <exception>
#include <string>
#include <typeinfo>
#include <vector>

#include "cli/command_line.hpp"
#include "fuzz/fuzz_util.hpp"
#include "reference/collectives.hpp"
#include "systemc/machine_config.hpp"

using collnet::cli::CommandLine;

namespace {

void check_machine(const collnet::sim::MachineConfig& m) {
  try {
    m.validate();
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "accepted a machine the run refuses: %s\n", e.what());
    FUZZ_CHECK(!"the command line accepted a machine that MachineConfig::validate refuses");
  }
}

// What a command that was accepted will run with.
void check_accepted(const CommandLine& cl) {
  switch (cl.command) {
    case CommandLine::Command::Run: {
      const collnet::cli::RunOptions& o = cl.run;
      check_machine(o.machine);
      const unsigned world = o.machine.shape.nodes() * o.machine.tasks_per_node;
      FUZZ_CHECK(o.count >= 1);
      std::vector<unsigned> ranks = o.ranks;
      for (unsigned r : ranks) FUZZ_CHECK(r < world);
      std::sort(ranks.begin(), ranks.end());
      FUZZ_CHECK(std::adjacent_find(ranks.begin(), ranks.end()) == ranks.end());
      const size_t members = o.ranks.empty() ? world : o.ranks.size();
      FUZZ_CHECK(o.root < members);
      FUZZ_CHECK(collnet::reference::find_collective(o.collective) != nullptr);
      if (!o.input.empty()) {
        FUZZ_CHECK(o.input.size() == members);
        for (const auto& r : o.input) FUZZ_CHECK(r.size() == o.input[0].size() && !r.empty());
      }
      if (o.counts) {
        FUZZ_CHECK(o.counts->member.size() == members);
        FUZZ_CHECK(o.counts->pair.size() == members);
      }
      FUZZ_CHECK(o.segment.piece_bytes >= 1);
      break;
    }
    case CommandLine::Command::Pingpong: {
      const collnet::cli::PingpongOptions& p = cl.pingpong;
      check_machine(p.machine);
      const unsigned world = p.machine.shape.nodes() * p.machine.tasks_per_node;
      FUZZ_CHECK(p.a < world && p.b < world && p.a != p.b);
      FUZZ_CHECK(!p.sizes.empty());
      for (size_t s : p.sizes) FUZZ_CHECK(s <= (size_t{64} << 20));
      FUZZ_CHECK(p.iterations >= 1 && p.iterations <= 1000);
      break;
    }
    case CommandLine::Command::Compare: {
      const collnet::cli::CompareOptions& c = cl.compare;
      check_machine(c.run.machine);
      FUZZ_CHECK(!c.sizes.empty());
      for (size_t s : c.sizes) FUZZ_CHECK(s <= (size_t{64} << 20));
      FUZZ_CHECK(c.run.root < c.run.machine.shape.nodes() * c.run.machine.tasks_per_node);
      break;
    }
    case CommandLine::Command::Tune:
      check_machine(cl.tune.run.machine);
      FUZZ_CHECK(!cl.tune.sizes.empty());
      for (size_t s : cl.tune.sizes) FUZZ_CHECK(s <= (size_t{64} << 20));
      break;
    case CommandLine::Command::Mpirun: {
      collnet::sim::MachineConfig config;
      collnet::driver::P2pConfig p2p;
      FUZZ_CHECK(!collnet::cli::check_mpirun_command(cl.mpirun, config, p2p));
      FUZZ_CHECK(config.shape.nodes() * config.tasks_per_node == static_cast<unsigned long long>(cl.mpirun.ranks));
      FUZZ_CHECK(!cl.mpirun.command.empty());
      break;
    }
    case CommandLine::Command::Neighbourhoods:
      for (unsigned d : cl.neighbourhoods.dims) FUZZ_CHECK(d >= 1 && d <= 64);
      break;
    case CommandLine::Command::Algorithms:
    case CommandLine::Command::Machines:
    case CommandLine::Command::Traffic:
      break;
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  collnet::fuzz::absolute_arguments(argc, argv);
  collnet::fuzz::enter_scratch_dir();
  // What the options that name files can find: data of 2 ranks of 3 elements, counts of 2
  // ranks, a tuning table, a node list, and a file that is not JSON.
  collnet::fuzz::write_scratch_file("in.json", "[[1,2,3],[4,5,6]]\n");
  collnet::fuzz::write_scratch_file("pairs.json", "[[[1.5,0],[2,1]],[[3,0],[-4,7]]]\n");
  collnet::fuzz::write_scratch_file("counts.json", "[3,0]\n");
  collnet::fuzz::write_scratch_file(
      "tuning.json",
      "{\"rules\":[{\"collective\":\"allreduce\",\"ranks\":8,\"up_to_bytes\":64,\"algorithm\":\"tree\"},"
      "{\"collective\":\"allreduce\",\"ranks\":8,\"up_to_bytes\":null,\"algorithm\":\"torus-ring\"}]}\n");
  collnet::fuzz::write_scratch_file("nodes.txt", "0 1\n5, 7\n");
  collnet::fuzz::write_scratch_file("bad.json", "[[1,");
  collnet::fuzz::quiet();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::vector<std::string> words = collnet::fuzz::split_words(data, size);
  if (words.size() > 64) return 0;
  for (const std::string& w : words)
    if (w.find('/') != std::string::npos) return 0;  // a path outside the scratch directory
  std::vector<const char*> argv{"collnet"};
  for (const std::string& w : words) argv.push_back(w.c_str());
  CommandLine cl;
  std::optional<int> status;
  try {
    status = collnet::cli::parse_command_line(static_cast<int>(argv.size()), argv.data(), cl);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "an exception escaped parse_command_line: %s: %s\n", typeid(e).name(), e.what());
    FUZZ_CHECK(!"an exception escaped parse_command_line");
  }
  if (status) {
    FUZZ_CHECK(*status == 0 || *status == 2);
    return 0;
  }
  check_accepted(cl);
  return 0;
}
