// SPDX-License-Identifier: Apache-2.0
// A machine cut into partitions runs cycle for cycle as in one process:
//   partition_check SHAPE [BER]            one process
//   mpirun -np P partition_check SHAPE [BER]   P partitions (Open MPI's launcher)
// (BER: each bit on every link flips with that probability; the link layer recovers.)
// Every task runs collectives on the tree and on the torus (an allreduce each way, an
// alltoall, a broadcast, a barrier), checks what it received, and partition 0 prints one
// line per task with the cycles each collective started and ended in, and the run's
// cycles; the test compares the output of 1, 2, 3 and 4 partitions.
#include <cstdio>
#include <cstring>
#include <sstream>
#include <string>

#include "driver/job.hpp"
#include "systemc/machine.hpp"
#include "systemc/transport.hpp"

using namespace collnet;

int main(int argc, char** argv) {
  if (argc != 2 && argc != 3) {
    std::fprintf(stderr, "usage: partition_check SHAPE [BER]\n");
    return 2;
  }
  std::unique_ptr<sim::Transport> transport;
  sim::MachineConfig config;
  config.shape = sim::Shape::parse(argv[1]);
  if (argc == 3) {
    config.link_ber = std::stod(argv[2]);
    config.fault_seed = 11;
  }
  if (sim::Transport::launched_processes() > 1) {
    transport = sim::Transport::join();
    config.partitions = transport->size();
  }
  sim::Machine machine(config, transport.get());
  driver::Job job(machine);
  const unsigned n = machine.nodes();
  std::vector<std::string> lines(n);
  const driver::RunReport rep = job.run([&](driver::Task& t) {
    const unsigned r = t.rank();
    std::ostringstream s;
    auto timed = [&](const char* name, const std::function<bool()>& body) {
      const uint64_t start = t.cycle();
      const bool ok = body();
      s << ' ' << name << ' ' << start << '-' << t.cycle() << (ok ? "" : " WRONG");
    };
    for (driver::Algorithm a : {driver::Algorithm::Tree, driver::Algorithm::TorusRecursiveDoubling}) {
      t.world().set_algorithm(driver::Collective::Allreduce, a);
      timed(a == driver::Algorithm::Tree ? "allreduce-tree" : "allreduce-torus", [&] {
        std::vector<uint64_t> in(64), out(64);
        for (unsigned i = 0; i < 64; ++i) in[i] = r * 1000 + i;
        t.world().allreduce(in, out, driver::Op::Sum);
        for (unsigned i = 0; i < 64; ++i)
          if (out[i] != uint64_t{n} * (n - 1) / 2 * 1000 + uint64_t{n} * i) return false;
        return true;
      });
    }
    timed("alltoall", [&] {
      std::vector<uint64_t> in(16 * n), out(16 * n);
      for (unsigned i = 0; i < in.size(); ++i) in[i] = r * 100000 + i;
      t.world().alltoall(in.data(), out.data(), 16, driver::Datatype::U64);
      for (unsigned q = 0; q < n; ++q)
        for (unsigned i = 0; i < 16; ++i)
          if (out[q * 16 + i] != q * 100000 + r * 16 + i) return false;
      return true;
    });
    timed("bcast", [&] {
      std::vector<uint64_t> b(100, r == 3 % n ? 7 : 0);
      t.world().bcast(b, 3 % n);
      for (uint64_t v : b)
        if (v != 7) return false;
      return true;
    });
    timed("barrier", [&] {
      t.world().barrier();
      return true;
    });
    lines[r] = "task " + std::to_string(r) + ":" + s.str();
  });
  // Partition 0 prints every task's line, in task order.
  std::string mine;
  for (unsigned r = 0; r < n; ++r)
    if (machine.local(r)) mine += lines[r] + "\n";
  std::string all = mine;
  if (transport) {
    const auto parts = transport->gather(sim::Transport::Bytes(mine.begin(), mine.end()));
    all.clear();
    for (const auto& p : parts) all.append(p.begin(), p.end());
  }
  uint64_t flipped = machine.bits_flipped();
  if (transport) flipped = transport->allreduce(flipped, sim::Transport::Op::Sum);
  if (machine.partition() == 0) {
    std::fprintf(stderr, "%s\n", machine.partition_plan().describe().c_str());
    std::istringstream in(all);
    std::vector<std::string> sorted(n);
    for (std::string line; std::getline(in, line);) sorted.at(std::stoul(line.substr(5))) = line;
    for (const std::string& line : sorted) std::printf("%s\n", line.c_str());
    std::printf("run: %s, %llu cycles, %llu bits flipped\n", rep.ok ? "ok" : rep.error.c_str(),
                static_cast<unsigned long long>(rep.cycles), static_cast<unsigned long long>(flipped));
    std::fflush(stdout);
  }
  return rep.ok ? 0 : 1;
}
