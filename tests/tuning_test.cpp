// SPDX-License-Identifier: Apache-2.0
// The table auto picks from (driver/tuning.hpp): the nearest measured communicator size,
// the first rule whose size holds the message, the reductions' rules per type class, rules
// that cannot run refused by name; and which algorithms tuning's compare prunes.
#include <gtest/gtest.h>

#include "cli/compare_table.hpp"
#include "driver/error.hpp"
#include "driver/tuning.hpp"

namespace collnet {
namespace {

using driver::Algorithm;
using driver::Collective;
using driver::Datatype;
using driver::Tuning;
using driver::TypeClass;
constexpr Datatype U64 = Datatype::U64;

const Tuning& table() {
  static const Tuning t({{Collective::Allreduce, 8, 100, Algorithm::TorusRecursiveDoubling},
                         {Collective::Allreduce, 8, SIZE_MAX, Algorithm::Tree},
                         {Collective::Allreduce, 512, 5000, Algorithm::Tree},
                         {Collective::Allreduce, 512, SIZE_MAX, Algorithm::TorusRing},
                         {Collective::Alltoall, 64, 1000, Algorithm::TorusBruck}});
  return t;
}

TEST(Tuning, PicksTheRuleOfTheNearestMeasuredSizeThatHoldsTheMessage) {
  EXPECT_EQ(table().pick(Collective::Allreduce, 8, 8, U64), Algorithm::TorusRecursiveDoubling);
  EXPECT_EQ(table().pick(Collective::Allreduce, 8, 100, U64), Algorithm::TorusRecursiveDoubling);
  EXPECT_EQ(table().pick(Collective::Allreduce, 8, 101, U64), Algorithm::Tree);
  EXPECT_EQ(table().pick(Collective::Allreduce, 6, 8, U64), Algorithm::TorusRecursiveDoubling);   // 8 is nearest
  EXPECT_EQ(table().pick(Collective::Allreduce, 1000, 8, U64), Algorithm::Tree);                  // 512 is nearest
  EXPECT_EQ(table().pick(Collective::Allreduce, 1000, 1 << 20, U64), Algorithm::TorusRing);
  EXPECT_EQ(table().pick(Collective::Allreduce, 64, 8, U64), Algorithm::TorusRecursiveDoubling);  // a tie: the smaller
  // Past the last rule's size: the last rule.
  EXPECT_EQ(table().pick(Collective::Alltoall, 64, 1 << 20, U64), Algorithm::TorusBruck);
  EXPECT_FALSE(table().pick(Collective::Bcast, 64, 8, U64).has_value());
  EXPECT_FALSE(Tuning().pick(Collective::Allreduce, 64, 8, U64).has_value());
}

TEST(Tuning, TheReductionsPickTheRulesOfTheirTypeClass) {
  const Tuning t({{Collective::Allreduce, 8, 100, Algorithm::TorusRecursiveDoubling},
                  {Collective::Allreduce, 8, SIZE_MAX, Algorithm::Tree},
                  {Collective::Allreduce, 8, 8, Algorithm::TorusRecursiveDoubling, TypeClass::Float},
                  {Collective::Allreduce, 8, SIZE_MAX, Algorithm::Tree, TypeClass::Float},
                  {Collective::Allreduce, 64, SIZE_MAX, Algorithm::TorusRing},
                  {Collective::Allreduce, 512, SIZE_MAX, Algorithm::TorusRabenseifner, TypeClass::Int}});
  EXPECT_EQ(t.pick(Collective::Allreduce, 8, 16, Datatype::U64), Algorithm::TorusRecursiveDoubling);  // no int64 rules
  EXPECT_EQ(t.pick(Collective::Allreduce, 8, 16, Datatype::F32), Algorithm::Tree);
  EXPECT_EQ(t.pick(Collective::Allreduce, 8, 8, Datatype::F64), Algorithm::TorusRecursiveDoubling);
  // The nearest size among the class's and the class-free rules; at 64 there are only class-free ones.
  EXPECT_EQ(t.pick(Collective::Allreduce, 64, 16, Datatype::F32), Algorithm::TorusRing);
  EXPECT_EQ(t.pick(Collective::Allreduce, 400, 16, Datatype::I16), Algorithm::TorusRabenseifner);
  EXPECT_EQ(t.pick(Collective::Allreduce, 400, 16, Datatype::U64), Algorithm::TorusRing);
  EXPECT_EQ(driver::type_class(Datatype::U8), TypeClass::Int);
  EXPECT_EQ(driver::type_class(Datatype::I32), TypeClass::Int);
  EXPECT_EQ(driver::type_class(Datatype::U64), TypeClass::Int64);
  EXPECT_EQ(driver::type_class(Datatype::F64), TypeClass::Float);
  for (TypeClass k : {TypeClass::Int, TypeClass::Int64, TypeClass::Float})
    EXPECT_EQ(driver::type_class(driver::measured_type(k)), k);
  // Moving bytes costs the same whatever they hold: no class there.
  try {
    Tuning({{Collective::Bcast, 8, 100, Algorithm::Tree, TypeClass::Float}});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("a rule for bcast names type class float"), std::string::npos) << e.what();
  }
}

// From 512 bytes, an algorithm is pruned once it is more than the factor behind the fastest and, each
// extrapolated from its last two sizes, would still be at the grid's largest size; never
// with a factor of 0; and it stays pruned.
TEST(Tuning, CompareStopsRunningAnAlgorithmThatIsFarBehindAndNotCatchingUp) {
  cli::CompareTable t;
  t.algorithms = {Algorithm::Tree, Algorithm::TorusBinomial, Algorithm::TorusRing};
  auto row = [&](size_t bytes, std::vector<std::optional<uint64_t>> cycles) {
    cli::CompareRow r;
    r.bytes = bytes;
    r.pruned = std::vector<bool>(cycles.size(), false);
    r.cycles = std::move(cycles);
    r.fastest = cli::fastest_of(r.cycles);
    t.rows.push_back(r);
  };
  row(1000, {100, 250, 900});
  EXPECT_FALSE(cli::pruned_next(t, 1, 2, 8000));  // one row only
  row(2000, {200, 600, 1000});
  // Binomial: 3 times the tree, and on the lines 2700 against 800 at 8000 bytes.
  EXPECT_TRUE(cli::pruned_next(t, 1, 2, 8000));
  // The ring: 5 times now and growing as fast as the tree: 1200 against 400 at 4000 bytes
  // (pruned), 1600 against 800 at 8000 (not more than twice), 2400 against 1600 at 16000.
  EXPECT_TRUE(cli::pruned_next(t, 2, 2, 4000));
  EXPECT_FALSE(cli::pruned_next(t, 2, 2, 8000));
  EXPECT_FALSE(cli::pruned_next(t, 2, 2, 16000));
  EXPECT_FALSE(cli::pruned_next(t, 0, 2, 8000));  // the fastest
  EXPECT_FALSE(cli::pruned_next(t, 1, 0, 8000));
  EXPECT_FALSE(cli::pruned_next(t, 1, 4, 8000));  // not 4 times behind
  row(4000, {400, std::nullopt, 1200});
  t.rows.back().pruned[1] = true;
  EXPECT_TRUE(cli::pruned_next(t, 1, 2, 8000));  // stays pruned
  row(8000, {800, 2000, std::nullopt});          // a failed run is no evidence
  EXPECT_FALSE(cli::pruned_next(t, 2, 2, 8000));
  // Below 512 bytes every algorithm runs.
  cli::CompareTable small = t;
  small.rows = {t.rows[0], t.rows[1]};
  small.rows[0].bytes = 256;
  small.rows[1].bytes = 512;
  EXPECT_FALSE(cli::pruned_next(small, 1, 2, 8000));
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
