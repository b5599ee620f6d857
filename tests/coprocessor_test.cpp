// SPDX-License-Identifier: Apache-2.0
// Coprocessor mode (docs/coprocessor.md): a second processor per node runs the work its
// task posts while the task computes, and moves the task's point-to-point packets while
// nothing is posted. The task's own cycles show what it paid; the collective's results
// and the time to the end show that the two ran side by side.
#include <gtest/gtest.h>

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "cli/machine_file.hpp"
#include "driver/job.hpp"
#include "systemc/machine.hpp"
#include "tests/support/test_machine.hpp"

namespace collnet {
namespace {

sim::MachineConfig coprocessor_machine(const std::string& shape, bool coprocessor = true) {
  sim::MachineConfig c = test::machine_config(shape, 1, 5'000'000);
  c.coprocessor = coprocessor;
  return c;
}

constexpr size_t kWords = 4096;  // allreduce: 32 KiB of 64-bit integers
constexpr size_t kBlock = 512;   // alltoall: 4 KiB to each rank

enum class Kind { Allreduce, Alltoall };

// Every rank's allreduce of kWords words (rank r's word i is r * kWords + i) or alltoall of
// kBlock words to each rank (word i of the block for rank d: r * 1e6 + d * kBlock + i), posted
// to the coprocessor, then `compute` cycles on the task's processor, then the wait. Returns
// the slowest rank's cycles from the post to the end of the wait and, in `task_cycles`, rank
// 0's processor's between the post and the end of its computation; what went wrong in `faults`.
struct Overlap {
  uint64_t total = 0, task_cycles = 0;
  std::string faults;
};
Overlap collective_while_computing(const sim::MachineConfig& config, Kind kind, uint64_t compute) {
  Overlap out;
  sim::Machine model(config);
  driver::Job job(model);
  std::vector<uint64_t> took(model.nodes());
  std::ostringstream faults;
  const driver::RunReport rep = job.run([&](driver::Task& t) {
    const unsigned n = t.size();
    const size_t words = kind == Kind::Allreduce ? kWords : kBlock * n;
    std::vector<uint64_t> in(words), res(words);
    for (size_t i = 0; i < words; ++i) in[i] = kind == Kind::Allreduce ? t.rank() * kWords + i : t.rank() * 1'000'000 + i;
    t.world().barrier();
    const uint64_t start = t.cycle();
    const uint64_t ticket = t.coprocessor()->post([&] {
      if (kind == Kind::Allreduce)
        t.world().allreduce(in.data(), res.data(), kWords, driver::Datatype::U64, driver::Op::Sum);
      else
        t.world().alltoall(in.data(), res.data(), kBlock, driver::Datatype::U64);
    });
    t.cpu().idle(compute);
    if (t.rank() == 0) out.task_cycles = t.cycle() - start;
    t.coprocessor()->wait_for(ticket);
    took[t.rank()] = t.cycle() - start;
    for (size_t i = 0; i < words; ++i) {
      const uint64_t want = kind == Kind::Allreduce ? uint64_t{n} * (n - 1) / 2 * kWords + uint64_t{n} * i
                                                    : (i / kBlock) * 1'000'000 + t.rank() * kBlock + i % kBlock;
      if (res[i] != want) {
        faults << "rank " << t.rank() << " word " << i << " is " << res[i] << ", not " << want << "\n";
        break;
      }
    }
  });
  out.faults = rep.ok ? faults.str() : rep.error;
  for (uint64_t c : took) out.total = std::max(out.total, c);
  return out;
}

// A collective posted to the coprocessor, alone and then beside as long a computation on the
// task's processor: the two end within 1.2x the longer (not their sum), and the task's
// computation is not slowed by a cycle (posting is one store to node memory).
void expect_overlap(Kind kind, const char* what) {
  const auto r = test::run_isolated([kind]() -> std::string {
    const Overlap alone = collective_while_computing(coprocessor_machine("2x2x2"), kind, 0);
    return alone.faults.empty() ? std::to_string(alone.total) : "alone: " + alone.faults;
  });
  ASSERT_TRUE(r.exited) << r.report;
  ASSERT_EQ(r.report.find_first_not_of("0123456789"), std::string::npos) << r.report;
  const uint64_t alone = std::stoull(r.report);
  const auto o = test::run_isolated([kind, alone]() -> std::string {
    const Overlap both = collective_while_computing(coprocessor_machine("2x2x2"), kind, alone);
    if (!both.faults.empty()) return "both: " + both.faults;
    return std::to_string(both.total) + " " + std::to_string(both.task_cycles);
  });
  ASSERT_TRUE(o.exited) << o.report;
  std::istringstream in(o.report);
  uint64_t total = 0, task = 0;
  ASSERT_TRUE(in >> total >> task) << o.report;
  std::printf("%s on 2x2x2 posted to the coprocessors: %llu cycles alone, %llu beside %llu cycles of computation\n",
              what, static_cast<unsigned long long>(alone), static_cast<unsigned long long>(total),
              static_cast<unsigned long long>(alone));
  EXPECT_LE(total, alone * 12 / 10) << "overlapped: " << total << " cycles, alone " << alone;
  EXPECT_GE(total, alone);
  EXPECT_EQ(task, alone + 1);
}

TEST(Coprocessor, PostedAllreduceOverlapsTheTasksComputation) { expect_overlap(Kind::Allreduce, "allreduce of 32 KiB"); }
TEST(Coprocessor, PostedAlltoallOverlapsTheTasksComputation) { expect_overlap(Kind::Alltoall, "alltoall of 4 KiB a pair"); }

// Rank 0 sends rank 1 a message long enough for the rendezvous protocol and both compute;
// in coprocessor mode the coprocessors move it meanwhile, so the receive's wait after the
// computation returns at once, where without them the transfer starts only in the wait.
uint64_t wait_after_computing(bool coprocessor) {
  const auto r = test::run_isolated([coprocessor]() -> std::string {
    sim::Machine model(coprocessor_machine("2x1x1", coprocessor));
    driver::Job job(model);
    uint64_t waited = 0;
    std::string fault;
    const driver::RunReport rep = job.run([&](driver::Task& t) {
      std::vector<uint64_t> buf(8192);
      if (t.rank() == 0) {
        for (size_t i = 0; i < buf.size(); ++i) buf[i] = i * 3;
        driver::Request q = t.world().isend(buf.data(), buf.size(), driver::Datatype::U64, 1, 7);
        t.cpu().idle(40'000);
        t.world().wait(q);
      } else {
        driver::Request q = t.world().irecv(buf.data(), buf.size(), driver::Datatype::U64, 0, 7);
        t.cpu().idle(40'000);
        const uint64_t start = t.cycle();
        t.world().wait(q);
        waited = t.cycle() - start;
        for (size_t i = 0; i < buf.size(); ++i)
          if (buf[i] != i * 3) {
            fault = "word " + std::to_string(i) + " is " + std::to_string(buf[i]);
            break;
          }
      }
    });
    if (!rep.ok) return rep.error;
    return fault.empty() ? std::to_string(waited) : fault;
  });
  EXPECT_TRUE(r.exited) << r.report;
  try {
    return std::stoull(r.report);
  } catch (const std::exception&) {
    ADD_FAILURE() << r.report;
    return 0;
  }
}

TEST(Coprocessor, PointToPointMovesWhileTheTasksCompute) {
  const uint64_t with = wait_after_computing(true), without = wait_after_computing(false);
  std::printf("64 KiB by rendezvous between two nodes, waited for after 40,000 cycles of computation: %llu cycles "
              "of wait with the coprocessors, %llu without\n",
              static_cast<unsigned long long>(with), static_cast<unsigned long long>(without));
  EXPECT_GT(without, 8192u);  // a word a cycle at best: the whole transfer is in the wait
  EXPECT_LT(with, 100u);      // it arrived during the computation
}

// Several collectives posted at once, and one the task runs itself behind them, all run in
// the order called; their results are right.
TEST(Coprocessor, CollectivesRunInTheOrderCalled) {
  const auto r = test::run_isolated([]() -> std::string {
    sim::Machine model(coprocessor_machine("2x2x1"));
    driver::Job job(model);
    std::ostringstream faults;
    const driver::RunReport rep = job.run([&](driver::Task& t) {
      uint64_t a = t.rank() + 1, sum = 0, b = t.rank() == 2 ? 77 : 0, mx = 0;
      t.coprocessor()->post([&] { t.world().allreduce(&a, &sum, 1, driver::Datatype::U64, driver::Op::Sum); });
      t.coprocessor()->post([&] { t.world().bcast(&b, 1, driver::Datatype::U64, 2); });
      t.world().allreduce(&a, &mx, 1, driver::Datatype::U64, driver::Op::Max);  // waits for the two posted
      if (t.coprocessor()->finished() != t.coprocessor()->posted())
        faults << "rank " << t.rank() << ": a collective ran before the posted ones ended\n";
      if (sum != 10 || b != 77 || mx != 4)
        faults << "rank " << t.rank() << ": sum " << sum << ", bcast " << b << ", max " << mx << "\n";
    });
    return rep.ok ? faults.str() : rep.error;
  });
  ASSERT_TRUE(r.exited) << r.report;
  EXPECT_EQ(r.report, "");
}

TEST(Coprocessor, NeedsOneTaskPerNodeAndABooleanInTheMachineFile) {
  sim::MachineConfig c = test::machine_config("2x1x1", 2);
  c.coprocessor = true;
  try {
    c.validate();
    ADD_FAILURE() << "two tasks per node with a coprocessor was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("coprocessor mode runs one task per node"), std::string::npos) << e.what();
  }
  sim::MachineConfig m;
  cli::apply_machine_json(nlohmann::json::parse(R"({"processor": {"coprocessor": true}})"), m, "test");
  EXPECT_TRUE(m.coprocessor);
  try {
    cli::apply_machine_json(nlohmann::json::parse(R"({"processor": {"coprocessor": "yes"}})"), m, "test");
    ADD_FAILURE() << "a string was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("processor.coprocessor"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace collnet
