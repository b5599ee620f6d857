// SPDX-License-Identifier: Apache-2.0
// An allreduce over every rank of a simulated machine: each rank contributes its rank
// number in every element, and every rank receives the sum. Prints the cycles it took.
//
//   allreduce [SHAPE]     SHAPE: the torus, XxYxZ (default 2x2x2)
#include <cstdio>
#include <exception>
#include <vector>

#include "driver/job.hpp"
#include "systemc/machine.hpp"

namespace {

int run(int argc, char** argv) {
  using namespace collnet;
  sim::MachineConfig cfg;
  const char* shape = argc > 1 ? argv[1] : "2x2x2";
  cfg.shape = sim::Shape::parse(shape);  // throws naming a bad shape
  sim::Machine model(cfg);         // the simulated machine; one per process (SystemC cannot restart)
  driver::Job job(model);          // the collectives library: one task per rank, on the model

  const size_t count = 1000;
  bool all_right = true;
  uint64_t cycles = 0;
  const driver::RunReport report = job.run([&](driver::Task& t) {
    // This function runs once per rank, on that rank's simulated processor.
    std::vector<uint64_t> in(count, t.rank()), out(count);
    const uint64_t start = t.cycle();
    t.world().allreduce(in, out, driver::Op::Sum);
    const uint64_t n = t.size(), expected = n * (n - 1) / 2;  // 0 + 1 + ... + n-1
    for (uint64_t v : out) all_right = all_right && v == expected;
    if (t.rank() == 0) cycles = t.cycle() - start;
  });
  if (!report.ok) {
    std::fprintf(stderr, "allreduce: the run failed: %s\n", report.error.c_str());
    return 1;
  }
  std::printf("allreduce of %zu u64 on %s (%u ranks): %llu cycles, %s\n", count, shape,
              cfg.shape.nodes(), static_cast<unsigned long long>(cycles), all_right ? "verified" : "WRONG");
  return all_right ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {  // a bad shape, a misused call, a hardware error
    std::fprintf(stderr, "allreduce: %s\n", e.what());
    return 2;
  }
}
