// SPDX-License-Identifier: Apache-2.0
// A communicator of some of the ranks: every rank calls create() with the same list, the
// members get a communicator (a class route of the combining network spanning them), the
// others get nothing. The members take the maximum of their contributions (an allreduce) and meet in a barrier.
//
//   subset [SHAPE]        SHAPE: the torus, XxYxZ (default 3x3x3)
#include <cstdio>
#include <exception>
#include <vector>

#include "driver/job.hpp"
#include "systemc/machine.hpp"

namespace {

int run(int argc, char** argv) {
  using namespace collnet;
  sim::MachineConfig cfg;
  cfg.shape = sim::Shape::parse(argc > 1 ? argv[1] : "3x3x3");
  sim::Machine model(cfg);         // the simulated machine; one per process (SystemC cannot restart)
  driver::Job job(model);          // the collectives library: one task per rank, on the model

  const std::vector<unsigned> members = {0, 5, 6, 11, 20};
  bool all_right = true;
  const driver::RunReport report = job.run([&](driver::Task& t) {
    auto sub = t.world().create(members);  // collective over the world
    if (!sub) return;                      // not a member: nothing more to do
    std::vector<uint64_t> in(16, 100 + t.rank()), out(16);
    sub->allreduce(in, out, driver::Op::Max);
    for (uint64_t v : out) all_right = all_right && v == 100 + members.back();
    sub->barrier();
  });
  if (!report.ok) {
    std::fprintf(stderr, "subset: the run failed: %s\n", report.error.c_str());
    return 1;
  }
  std::printf("subset of %zu ranks: max allreduce and barrier %s in %llu cycles\n", members.size(),
              all_right ? "verified" : "WRONG", static_cast<unsigned long long>(report.cycles));
  return all_right ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {  // a bad shape, a misused call, a hardware error
    std::fprintf(stderr, "subset: %s\n", e.what());
    return 2;
  }
}
