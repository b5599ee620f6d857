// SPDX-License-Identifier: Apache-2.0
// The driver on a machine model that is not the simulator: one node with one task whose
// processor is a fake (a register file that answers the boot's reads, and a cycle counter
// that the driver's charges advance). Whatever the driver does here it does through
// fw::MachineModel and fw::Processor alone; nothing of SystemC runs.
#include <map>
#include <vector>

#include <gtest/gtest.h>

#include "driver/error.hpp"
#include "driver/job.hpp"
#include "firmware/regmap.hpp"

namespace {

using namespace collnet;
namespace rm = fw::regmap;

class FakeProcessor : public fw::Processor {
 public:
  uint64_t read(uint32_t addr, bool) override {
    ++accesses;
    cycles += 1;
    if (addr == rm::kRegId) return rm::kRegIdValue;
    const auto it = regs.find(addr);
    return it == regs.end() ? 0 : it->second;
  }
  void write(uint32_t addr, uint64_t data, bool) override {
    ++accesses;
    cycles += 1;
    regs[addr] = data;
  }
  void write_vector(uint32_t addr, const Vector& v, bool p) override { write(addr, v[0], p); }
  Vector read_vector(uint32_t addr, bool p) override { return {read(addr, p), 0, 0, 0}; }
  uint64_t cycle() const override { return cycles; }
  void idle(uint64_t n) override { cycles += n; }
  void memory_access() override { cycles += 1; }
  bool torus_pending() const override { return false; }  // one node: nothing comes over the torus

  std::map<uint32_t, uint64_t> regs;  // what was written, by address
  uint64_t cycles = 0;
  uint64_t accesses = 0;
};

// One node, one task, run in the calling thread.
class OneNodeModel : public fw::MachineModel {
 public:
  OneNodeModel()
      : tree_(cpu, personality_),
        tree_system_(cpu, personality_, fw::Vc::System),
        barrier_(cpu, personality_),
        torus_(cpu, personality_),
        context_{0, 0, 1, cpu, tree_, tree_system_, barrier_, torus_, personality_} {}

  unsigned nodes() const override { return 1; }
  unsigned tasks_per_node() const override { return 1; }
  Result run(TaskFn fn) override {
    Result r;
    const uint64_t start = cpu.cycles;
    try {
      fn(context_);
    } catch (...) {
      r.failures.emplace_back(0, std::current_exception());
    }
    r.finished = r.failures.empty();
    r.cycles = cpu.cycles - start;
    return r;
  }
  void align() override { ++aligned; }
  bool node_error(unsigned) const override { return false; }
  void mark_done() override { ++done_; }
  unsigned done() const override { return done_; }

  FakeProcessor cpu;
  unsigned aligned = 0;

 private:
  fw::Personality personality_;  // rank 0 of a 1x1x1 machine: the root, no links
  fw::TreeFirmware tree_, tree_system_;
  fw::BarrierFirmware barrier_;
  fw::TorusFirmware torus_;
  unsigned done_ = 0;
  fw::TaskContext context_;
};

TEST(DriverOnAFakeProcessor, BootsTheNodeAndStartsTheTaskWithItsWorld) {
  OneNodeModel model;
  driver::Job job(model);
  unsigned rank = 99, size = 0, node = 99;
  const driver::RunReport report = job.run([&](driver::Task& t) {
    rank = t.rank();
    size = t.size();
    node = t.node();
  });
  ASSERT_TRUE(report.ok) << report.error;
  EXPECT_EQ(rank, 0u);
  EXPECT_EQ(size, 1u);
  EXPECT_EQ(node, 0u);
  EXPECT_EQ(model.aligned, 1u) << "every task aligns once before the user's function";
  // The boot programmed the world class route and barrier channel as the root of a
  // one-node tree: no up link, no down links, the node contributes and receives.
  fw::ClassRoute root;
  root.up_link = fw::ClassRoute::kNoUpLink;
  root.local_source = root.local_destination = true;
  EXPECT_EQ(model.cpu.regs.at(rm::reg_route_base(driver::Communicator::kWorldClass)), root.encode());
  ASSERT_TRUE(model.cpu.regs.count(rm::reg_gi_route_base(driver::Communicator::kWorldChannel)));
  EXPECT_GT(report.cycles, 0u) << "the boot's register accesses cost cycles";
}

TEST(DriverOnAFakeProcessor, SendsToItselfThroughTheMailboxAndPaysForTheCopy) {
  OneNodeModel model;
  driver::Job job(model);
  std::vector<uint64_t> got(100);
  uint64_t spent = 0;
  const uint64_t bus_before = model.cpu.accesses;
  uint64_t bus_during = 0;
  const driver::RunReport report = job.run([&](driver::Task& t) {
    std::vector<uint64_t> out(100);
    for (size_t i = 0; i < out.size(); ++i) out[i] = 0xc0ffee00 + i;
    const uint64_t before = t.cycle();
    const uint64_t bus = model.cpu.accesses;
    t.world().send(out, 0, /*tag=*/5);
    t.world().recv(got, 0, /*tag=*/5);
    spent = t.cycle() - before;
    bus_during = model.cpu.accesses - bus;
  });
  ASSERT_TRUE(report.ok) << report.error;
  for (size_t i = 0; i < got.size(); ++i) ASSERT_EQ(got[i], 0xc0ffee00 + i) << "word " << i;
  EXPECT_GT(model.cpu.accesses, bus_before);
  EXPECT_EQ(bus_during, 0u) << "a message to the same node never touches the registers";
  EXPECT_GE(spent, 2 * 25u) << "copying 100 words in and out costs at least 25 cycles each way";
}

TEST(DriverOnAFakeProcessor, MisuseIsReportedNamingTheArgument) {
  OneNodeModel model;
  driver::Job job(model);
  const driver::RunReport report = job.run([&](driver::Task& t) {
    std::vector<uint64_t> buf(4);
    t.world().send(buf, 3);  // a world of one rank has no rank 3
  });
  EXPECT_FALSE(report.ok);
  EXPECT_NE(report.error.find("send: destination rank 3 is not a rank"), std::string::npos) << report.error;
}

}  // namespace
