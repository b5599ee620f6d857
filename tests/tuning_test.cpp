// SPDX-License-Identifier: Apache-2.0
// The table auto picks from (driver/tuning.hpp): the nearest measured communicator size,
// the first rule whose size holds the message, and rules that cannot run refused by name.
#include <gtest/gtest.h>

#include "driver/error.hpp"
#include "driver/tuning.hpp"

namespace collnet {
namespace {

using driver::Algorithm;
using driver::Collective;
using driver::Tuning;

const Tuning& table() {
  static const Tuning t({{Collective::Allreduce, 8, 100, Algorithm::TorusRecursiveDoubling},
                         {Collective::Allreduce, 8, SIZE_MAX, Algorithm::Tree},
                         {Collective::Allreduce, 512, 5000, Algorithm::Tree},
                         {Collective::Allreduce, 512, SIZE_MAX, Algorithm::TorusRing},
                         {Collective::Alltoall, 64, 1000, Algorithm::TorusBruck}});
  return t;
}

TEST(Tuning, PicksTheRuleOfTheNearestMeasuredSizeThatHoldsTheMessage) {
  EXPECT_EQ(table().pick(Collective::Allreduce, 8, 8), Algorithm::TorusRecursiveDoubling);
  EXPECT_EQ(table().pick(Collective::Allreduce, 8, 100), Algorithm::TorusRecursiveDoubling);
  EXPECT_EQ(table().pick(Collective::Allreduce, 8, 101), Algorithm::Tree);
  EXPECT_EQ(table().pick(Collective::Allreduce, 6, 8), Algorithm::TorusRecursiveDoubling);   // 8 is nearest
  EXPECT_EQ(table().pick(Collective::Allreduce, 1000, 8), Algorithm::Tree);                  // 512 is nearest
  EXPECT_EQ(table().pick(Collective::Allreduce, 1000, 1 << 20), Algorithm::TorusRing);
  EXPECT_EQ(table().pick(Collective::Allreduce, 64, 8), Algorithm::TorusRecursiveDoubling);  // a tie: the smaller
  // Past the last rule's size: the last rule.
  EXPECT_EQ(table().pick(Collective::Alltoall, 64, 1 << 20), Algorithm::TorusBruck);
  EXPECT_FALSE(table().pick(Collective::Bcast, 64, 8).has_value());
  EXPECT_FALSE(Tuning().pick(Collective::Allreduce, 64, 8).has_value());
}

TEST(Tuning, ARuleThatCannotRunIsRefusedByName) {
  try {
    Tuning({{Collective::Bcast, 8, 100, Algorithm::TorusRing}});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "tuning: torus-ring is not an algorithm of bcast");
  }
  EXPECT_THROW(Tuning({{Collective::Bcast, 8, 100, Algorithm::Auto}}), Error);
  EXPECT_THROW(Tuning({{Collective::Bcast, 0, 100, Algorithm::Tree}}), Error);
}

// Every rule of the shipped table can run.
TEST(Tuning, TheShippedTableNamesOnlyAlgorithmsThatApply) {
  for (const driver::TuningRule& r : Tuning::shipped().rules()) EXPECT_TRUE(driver::applies(r.collective, r.algorithm));
}

}  // namespace
}  // namespace collnet
