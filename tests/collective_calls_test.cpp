// SPDX-License-Identifier: Apache-2.0
// The two halves of the collectives table: every collective of the reference model has a
// call the command line runs it with, and a name that is not a collective has none.
#include <stdexcept>

#include <gtest/gtest.h>

#include "cli/collective_calls.hpp"
#include "reference/collectives.hpp"

namespace collnet {
namespace {

TEST(CollectiveCalls, EveryCollectiveOfTheReferenceHasACall) {
  for (const reference::Collective& c : reference::collectives())
    EXPECT_NO_THROW(cli::collective_call(c.name)) << c.name << " has no call (cli/collective_calls.cpp)";
}

TEST(CollectiveCalls, ANameThatIsNoCollectiveHasNoCall) {
  try {
    cli::collective_call("pingpong");
    FAIL() << "pingpong, which is no collective, has a call";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("'pingpong'"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace collnet
