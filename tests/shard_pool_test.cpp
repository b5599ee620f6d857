// SPDX-License-Identifier: Apache-2.0
// The host-thread pool behind Machine::advance's threads: how it splits the ranks, that
// every shard runs exactly once per job with its writes visible afterwards, and that a
// failing shard's exception reaches the caller without breaking the pool.
#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "systemc/shard_pool.hpp"

namespace collnet {
namespace {

using sim::ShardPool;

TEST(ShardPool, RangesCoverEveryIndexOnceAndDifferByAtMostOne) {
  for (unsigned n : {1u, 2u, 7u, 24u, 512u, 1000u}) {
    for (unsigned shards = 1; shards <= 9 && shards <= n; ++shards) {
      unsigned next = 0, smallest = n, largest = 0;
      for (unsigned s = 0; s < shards; ++s) {
        const auto [begin, end] = ShardPool::range(n, shards, s);
        EXPECT_EQ(begin, next) << n << " over " << shards << ", shard " << s;
        next = end;
        smallest = std::min(smallest, end - begin);
        largest = std::max(largest, end - begin);
      }
      EXPECT_EQ(next, n) << n << " over " << shards;
      EXPECT_LE(largest - smallest, 1u) << n << " over " << shards;
    }
  }
}

TEST(ShardPool, EveryShardRunsOncePerJobAndItsWritesAreSeenAfterwards) {
  ShardPool pool(3);
  ASSERT_EQ(pool.shards(), 3u);
  std::vector<uint64_t> cells(3 * 1000, 0);
  std::vector<std::thread::id> ran_on(3);
  for (uint64_t job = 1; job <= 2000; ++job) {
    pool.run([&](unsigned s) {
      ran_on[s] = std::this_thread::get_id();
      for (unsigned i = 0; i < 1000; ++i) cells[s * 1000 + i] += job;  // plain writes, no atomics
    });
  }
  const uint64_t expect = 2000 * 2001 / 2;
  for (uint64_t c : cells) ASSERT_EQ(c, expect);
  EXPECT_EQ(ran_on[0], std::this_thread::get_id());  // the caller takes shard 0
  EXPECT_NE(ran_on[1], ran_on[0]);
  EXPECT_NE(ran_on[2], ran_on[1]);
}

TEST(ShardPool, AShardsExceptionReachesTheCallerAndThePoolGoesOn) {
  ShardPool pool(2);
  std::atomic<unsigned> ran{0};
  EXPECT_THROW(pool.run([&](unsigned s) {
    ++ran;
    if (s == 1) throw std::runtime_error("shard 1 failed");
  }),
               std::runtime_error);
  EXPECT_EQ(ran.load(), 2u);  // the other shard still finished its part
  ran = 0;
  EXPECT_NO_THROW(pool.run([&](unsigned) { ++ran; }));
  EXPECT_EQ(ran.load(), 2u);
  EXPECT_THROW(ShardPool(0), std::invalid_argument);
}

TEST(ShardPool, OneShardRunsOnTheCaller) {
  ShardPool pool(1);
  std::thread::id where;
  pool.run([&](unsigned s) {
    EXPECT_EQ(s, 0u);
    where = std::this_thread::get_id();
  });
  EXPECT_EQ(where, std::this_thread::get_id());
}

}  // namespace
}  // namespace collnet
