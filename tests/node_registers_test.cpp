// SPDX-License-Identifier: Apache-2.0
// The node's register bus end to end: a processor reads and writes every register of the
// generated register table (firmware/regmap_table.hpp) through the SystemC machine's Node,
// whose decode sends each access to the side and the block its address window names. Each
// register reads its reset value, ignores a write if read-only and reads zero if write-only,
// setting the bad-access bit of the error register the table names (which shows that the
// access reached the block it belongs to), and refuses an access without the privileged bit
// where it needs one (tb/register_table_checks.hpp).
#include <cstdlib>
#include <functional>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "firmware/hardware_sizes.hpp"
#include "systemc/machine.hpp"
#include "tb/register_table_checks.hpp"
#include "tests/support/test_machine.hpp"

namespace collnet {
namespace {

using test::machine_config;
using test::run_isolated;

// Runs `check` on node 0 of a 2x1x1 machine in a child process: "ok", or the faults it
// wrote, or why the run did not end cleanly. With `dma`, the nodes' torus sides have the DMA
// engine with two FIFOs each way (a model library built at -O0, in the cache the DMA
// machine tests use).
std::string faults_on_node0(const std::function<void(fw::TaskContext&, std::ostringstream& faults)>& check,
                            bool dma = false) {
  const auto res = run_isolated([&check, dma] {
    sim::MachineConfig c = machine_config("2x1x1");
    if (dma) {
      setenv("COLLNET_MODEL_CACHE", COLLNET_TEST_TMP "/model-cache-dma", 1);
      setenv("COLLNET_MODEL_OPT_FAST", "-O0", 1);
      c.sizes.set("torus.dma", 2);
    }
    sim::Machine m(c);
    std::ostringstream faults;
    const auto run = m.run([&](fw::TaskContext& t) {
      if (t.node == 0) check(t, faults);
    });
    if (!run.finished || !run.failures.empty()) return std::string("the run did not finish cleanly");
    return faults.str().empty() ? std::string("ok") : faults.str();
  });
  return res.exited ? res.report : "the machine did not exit: " + res.report;
}

// The DMA engine's window only on a node with the engine (the next test).
TEST(NodeRegisters, EveryRegisterOfTheTableAnswersThroughTheNodesDecode) {
  EXPECT_EQ(faults_on_node0([](fw::TaskContext& t, std::ostringstream& faults) {
              tb::RegisterTableChecks check(t.cpu, tb::register_rows([](uint32_t a) { return !fw::regmap::in_win_dma(a); }));
              for (const std::string& f : check.all()) faults << f << "\n";
            }),
            "ok");
}

// On a node whose torus side has the DMA engine, every register answers, the engine's
// window included: the node's decode sends it to the torus side, which sends it on to the
// engine. RegTrSizes says so (its Dma field, the engine's two FIFOs each way; the table's
// reset value is the default sizes').
TEST(NodeRegisters, EveryRegisterOfTheTableAnswersOnANodeWithTheDmaEngine) {
  EXPECT_EQ(faults_on_node0(
                [](fw::TaskContext& t, std::ostringstream& faults) {
                  tb::RegisterRows rows = tb::register_rows([](uint32_t) { return true; });
                  for (auto& r : rows)
                    if (r.addr == fw::regmap::kRegTrSizes) r.reset |= uint64_t{2} << fw::regmap::kTrSizesDmaLsb;
                  tb::RegisterTableChecks check(t.cpu, rows);
                  for (const std::string& f : check.all()) faults << f << "\n";
                },
                true),
            "ok");
}

// A node without the DMA engine answers in its window as at any unmapped address: a read
// returns zero, a write changes nothing, and both set the tree side's ErrBadAddr.
TEST(NodeRegisters, TheDmaWindowIsUnmappedOnANodeWithoutTheEngine) {
  EXPECT_EQ(faults_on_node0([](fw::TaskContext& t, std::ostringstream& faults) {
              using namespace fw::regmap;
              const uint64_t bad_addr = uint64_t{1} << kErrBadAddr;
              for (uint32_t a : {kRegDmStatus, kRegDmDesc, reg_dm_ctr_count(15), kWinDmaBase + kWinDmaSize - 8}) {
                const uint64_t v = t.cpu.read(a);
                const uint64_t after_read = t.cpu.read(kRegErr);
                t.cpu.write(kRegErrClear, ~0ull);
                t.cpu.write(a, ~0ull);
                const uint64_t after_write = t.cpu.read(kRegErr);
                t.cpu.write(kRegErrClear, ~0ull);
                if (v != 0 || after_read != bad_addr || after_write != bad_addr)
                  faults << std::hex << "0x" << a << ": read 0x" << v << ", RegErr after the read 0x" << after_read
                         << " and after the write 0x" << after_write << "\n";
              }
            }),
            "ok");
}

// Software reads the sizes the node was built with (RegSizes, RegTrSizes) instead of
// assuming them: the built-in models report the defaults, and a model library built for
// other sizes (at -O0, in a cache of this test's own) reports those.
std::string sizes_read(const sim::NodeSizes& sizes) {
  const auto res = run_isolated([sizes] {
    setenv("COLLNET_MODEL_CACHE", COLLNET_TEST_TMP "/model-cache-registers", 1);
    setenv("COLLNET_MODEL_OPT_FAST", "-O0", 1);
    sim::MachineConfig c = machine_config("2x1x1");
    c.sizes = sizes;
    sim::Machine m(c);
    std::string read[2];
    const auto run = m.run([&](fw::TaskContext& t) {
      const fw::HardwareSizes h = fw::HardwareSizes::read(t.cpu);
      for (std::size_t i = 0; i < h.values.size(); ++i)
        read[t.node] += std::string(fw::regmap::kSizes[i].key) + "=" + std::to_string(h.values[i]) + " ";
    });
    if (!run.finished || !run.failures.empty()) return std::string("the run did not finish cleanly");
    return read[0] == read[1] ? read[0] : "the nodes differ: " + read[0] + "/ " + read[1];
  });
  return res.exited ? res.report : "the machine did not exit: " + res.report;
}

std::string expected(const sim::NodeSizes& s) {
  std::string e;
  for (std::size_t i = 0; i < sim::NodeSizes::kCount; ++i)
    e += std::string(fw::regmap::kSizes[i].key) + "=" + std::to_string(s.value(i)) + " ";
  return e;
}

TEST(NodeRegisters, TheHardwareReportsTheSizesItWasBuiltWith) {
  const sim::NodeSizes defaults;
  EXPECT_EQ(sizes_read(defaults), expected(defaults));
  sim::NodeSizes variant;
  variant.set("tree.reception_fifo_packets", 16);
  variant.set("torus.vc_buffer_flits", 40);
  variant.set("torus.reception_fifo_flits", 1024);
  EXPECT_EQ(sizes_read(variant), expected(variant));
}

}  // namespace
}  // namespace collnet
