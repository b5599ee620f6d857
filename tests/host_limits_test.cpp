// SPDX-License-Identifier: Apache-2.0
// The memory-mapping budget that decides, before a machine is built, whether the host can
// hold all of its processors' SystemC threads.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "systemc/host_limits.hpp"

namespace collnet::sim {
namespace {

TEST(MapBudget, AMachineThatFitsPassesAndOneThatDoesNotIsRefusedWithWhatToDo) {
  MapBudget b{16384, 200, 65530};
  EXPECT_NO_THROW(b.check());
  b.processors = 32768;  // two mappings each: over the default limit
  try {
    b.check();
    FAIL() << "32768 processors fit in 65530 mappings?";
  } catch (const std::runtime_error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("32768 simulated processors"), std::string::npos) << m;
    EXPECT_NE(m.find("vm.max_map_count"), std::string::npos) << m;
    EXPECT_NE(m.find("sysctl -w vm.max_map_count=131072"), std::string::npos) << m;
  }
  b.limit = 262144;
  EXPECT_NO_THROW(b.check());
}

TEST(MapBudget, ReadsThisProcessAndHost) {
  const auto b = MapBudget::of_this_process(10);
  ASSERT_TRUE(b.has_value()) << "/proc tells a Linux process its maps and the limit";
  EXPECT_GT(b->in_use, 0u);
  EXPECT_GT(b->limit, 0u);
  EXPECT_EQ(b->needed(), b->in_use + 20 + MapBudget::kSlack);
}

}  // namespace
}  // namespace collnet::sim
