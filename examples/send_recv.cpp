// SPDX-License-Identifier: Apache-2.0
// Point-to-point over the torus: every rank sends a message to the next rank of a ring
// and receives one from the previous, MPI standard mode (matched on source and tag).
//
//   send_recv [SHAPE]     SHAPE: the torus, XxYxZ (default 2x2x2)
#include <cstdio>
#include <exception>
#include <vector>

#include "driver/job.hpp"
#include "systemc/machine.hpp"

namespace {

int run(int argc, char** argv) {
  using namespace collnet;
  sim::MachineConfig cfg;
  cfg.shape = sim::Shape::parse(argc > 1 ? argv[1] : "2x2x2");
  sim::Machine model(cfg);         // the simulated machine; one per process (SystemC cannot restart)
  driver::Job job(model);          // the collectives library: one task per rank, on the model

  bool all_right = true;
  const driver::RunReport report = job.run([&](driver::Task& t) {
    auto& w = t.world();
    const unsigned n = w.size(), next = (w.rank() + 1) % n, prev = (w.rank() + n - 1) % n;
    std::vector<uint64_t> out(500), in(500);
    for (size_t i = 0; i < out.size(); ++i) out[i] = uint64_t{w.rank()} << 32 | i;
    w.send(out, next, /*tag=*/7);  // eager: returns once the message is on its way
    w.recv(in, prev, /*tag=*/7);   // exactly in.size() elements from rank prev
    for (size_t i = 0; i < in.size(); ++i) all_right = all_right && in[i] == (uint64_t{prev} << 32 | i);
  });
  if (!report.ok) {
    std::fprintf(stderr, "send_recv: the run failed: %s\n", report.error.c_str());
    return 1;
  }
  std::printf("ring of %u ranks: 500 words each, %s in %llu cycles\n", cfg.shape.nodes(),
              all_right ? "verified" : "WRONG", static_cast<unsigned long long>(report.cycles));
  return all_right ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {  // a bad shape, a misused call, a hardware error
    std::fprintf(stderr, "send_recv: %s\n", e.what());
    return 2;
  }
}
