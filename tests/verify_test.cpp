// The checker behind `collnet run`'s "verified": it must catch a single wrong element.
#include <gtest/gtest.h>

#include "cli/verify.hpp"

namespace collnet::cli {
namespace {

TEST(Verify, ReferenceReducesEveryRanksInput) {
  const std::vector<std::vector<uint64_t>> in = {{1, 5, ~0ull}, {2, 3, 1}, {4, 9, 1}};
  EXPECT_EQ(reference_allreduce(in, driver::Op::Sum), (std::vector<uint64_t>{7, 17, 1}));
  EXPECT_EQ(reference_allreduce(in, driver::Op::Max), (std::vector<uint64_t>{4, 9, ~0ull}));
  EXPECT_EQ(reference_allreduce(in, driver::Op::Bxor), (std::vector<uint64_t>{7, 15, ~0ull}));
}

TEST(Verify, AcceptsIdenticalResults) {
  const std::vector<uint64_t> want = {1, 2, 3};
  EXPECT_EQ(compare({want, want}, want).count, 0u);
}

TEST(Verify, NamesTheFirstWrongElementAndCountsAll) {
  const std::vector<uint64_t> want = {1, 2, 3};
  const Mismatch m = compare({want, {1, 2, 4}, {0, 2, 3}}, want);
  EXPECT_EQ(m.count, 2u);
  EXPECT_EQ(m.rank, 1u);
  EXPECT_EQ(m.index, 2u);
  EXPECT_EQ(m.expected, 3u);
  EXPECT_EQ(m.got, 4u);
}

TEST(Verify, AShortResultIsWrong) {
  EXPECT_EQ(compare({{1}}, {1, 2}).count, 1u);
}

}  // namespace
}  // namespace collnet::cli
