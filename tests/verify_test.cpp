// SPDX-License-Identifier: Apache-2.0
// The checker behind `collnet run`'s "verified": it must catch a single wrong element, and
// its reference must hold for each collective's definition.
#include <gtest/gtest.h>

#include "reference/verify.hpp"

namespace collnet::reference {
namespace {

using driver::Datatype;
using driver::Op;

std::vector<std::vector<uint64_t>> want_of(const std::vector<std::optional<std::vector<uint64_t>>>& w) {
  std::vector<std::vector<uint64_t>> out;
  for (const auto& r : w) out.push_back(r ? *r : std::vector<uint64_t>{});
  return out;
}

TEST(Verify, ReferenceReducesEveryRanksInput) {
  const std::vector<std::vector<uint64_t>> in = {{1, 5, ~0ull}, {2, 3, 1}, {4, 9, 1}};
  EXPECT_EQ(*reference({"allreduce", Datatype::U64, Op::Sum, 0}, in)[2], (std::vector<uint64_t>{7, 17, 1}));
  EXPECT_EQ(*reference({"allreduce", Datatype::U64, Op::Max, 0}, in)[0], (std::vector<uint64_t>{4, 9, ~0ull}));
  EXPECT_EQ(*reference({"allreduce", Datatype::U64, Op::Bxor, 0}, in)[1], (std::vector<uint64_t>{7, 15, ~0ull}));
  // As i64, ~0 is -1: the max is 1.
  EXPECT_EQ(*reference({"allreduce", Datatype::I64, Op::Max, 0}, in)[0], (std::vector<uint64_t>{4, 9, 1}));
}

TEST(Verify, PrefixesGathersAndRoots) {
  const std::vector<std::vector<uint64_t>> in = {{1}, {2}, {4}};
  EXPECT_EQ(want_of(reference({"scan", Datatype::U8, Op::Sum, 0}, in)),
            (std::vector<std::vector<uint64_t>>{{1}, {3}, {7}}));
  const auto ex = reference({"exscan", Datatype::U8, Op::Sum, 0}, in);
  EXPECT_FALSE(ex[0]);
  EXPECT_EQ(*ex[2], std::vector<uint64_t>{3});
  const auto g = reference({"gather", Datatype::U8, Op::Bor, 1}, in);
  EXPECT_FALSE(g[0]);
  EXPECT_EQ(*g[1], (std::vector<uint64_t>{1, 2, 4}));
  EXPECT_EQ(*reference({"bcast", Datatype::U8, Op::Bor, 2}, in)[0], std::vector<uint64_t>{4});
}

TEST(Verify, LocOpsPreferTheSmallerIndexOnTies) {
  const std::vector<std::vector<uint64_t>> in = {{5, 0}, {7, 1}, {7, 2}, {3, 3}};
  EXPECT_EQ(*reference({"allreduce", Datatype::I32, Op::Maxloc, 0}, in)[0], (std::vector<uint64_t>{7, 1}));
  EXPECT_EQ(*reference({"allreduce", Datatype::I32, Op::Minloc, 0}, in)[0], (std::vector<uint64_t>{3, 3}));
}

TEST(Verify, AcceptsIdenticalResults) {
  const std::vector<uint64_t> want = {1, 2, 3};
  EXPECT_EQ(compare({want, want}, {want, want}).count, 0u);
}

TEST(Verify, NamesTheFirstWrongElementAndCountsAll) {
  const std::vector<uint64_t> want = {1, 2, 3};
  const Mismatch m = compare({want, {1, 2, 4}, {0, 2, 3}}, {want, want, want});
  EXPECT_EQ(m.count, 2u);
  EXPECT_EQ(m.rank, 1u);
  EXPECT_EQ(m.index, 2u);
  EXPECT_EQ(m.expected, 3u);
  EXPECT_EQ(m.got, 4u);
}

TEST(Verify, AShortResultIsWrongAndUndefinedBuffersAreSkipped) {
  EXPECT_EQ(compare({{1}}, {std::vector<uint64_t>{1, 2}}).count, 1u);
  EXPECT_EQ(compare({{9}, {1}}, {std::nullopt, std::vector<uint64_t>{1}}).count, 0u);
}

}  // namespace
}  // namespace collnet::reference
