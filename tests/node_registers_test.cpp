// SPDX-License-Identifier: Apache-2.0
// The node's register bus end to end: a processor reads and writes every register of the
// generated register table (firmware/regmap_table.hpp) through the SystemC machine's Node,
// whose decode sends each access to the side and the block its address window names. Each
// register reads its reset value, ignores a write if read-only and reads zero if write-only,
// setting the bad-access bit of the error register the table names (which shows that the
// access reached the block it belongs to), and refuses an access without the privileged bit
// where it needs one (tb/register_table_checks.hpp).
#include <string>

#include <gtest/gtest.h>

#include "systemc/machine.hpp"
#include "tb/register_table_checks.hpp"
#include "tests/support/test_machine.hpp"

namespace collnet {
namespace {

using test::machine_config;
using test::run_isolated;

TEST(NodeRegisters, EveryRegisterOfTheTableAnswersThroughTheNodesDecode) {
  const auto res = run_isolated([] {
    sim::Machine m(machine_config("2x1x1"));
    std::string faults;
    const auto run = m.run([&](fw::TaskContext& t) {
      if (t.node != 0) return;
      tb::RegisterTableChecks check(t.cpu, tb::register_rows([](uint32_t) { return true; }));
      for (const std::string& f : check.all()) faults += f + "\n";
    });
    if (!run.finished || !run.failures.empty()) return std::string("the run did not finish cleanly");
    return faults.empty() ? std::string("ok") : faults;
  });
  ASSERT_TRUE(res.exited) << res.report;
  EXPECT_EQ(res.report, "ok");
}

}  // namespace
}  // namespace collnet
