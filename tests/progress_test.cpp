// SPDX-License-Identifier: Apache-2.0
// The progress line (cli/progress.hpp) with a clock the test turns: when it appears, how
// often it is redrawn, what it says, and that it leaves nothing behind.
#include <gtest/gtest.h>

#include <sstream>

#include "cli/progress.hpp"

namespace collnet::cli {
namespace {

struct Fixture {
  std::ostringstream out;
  double now = 100.0;
  Progress make(bool shown, double delay = 2.0) {
    return Progress(out, shown, "traffic", delay, [this] { return now; });
  }
};

TEST(Progress, AppearsOnlyAfterItsDelayAndIsRedrawnAtMostTenTimesASecond) {
  Fixture f;
  Progress p = f.make(true);
  p.set_total(10000);
  p.update(0);
  f.now += 1.9;
  p.update(1900);
  EXPECT_EQ(f.out.str(), "") << "nothing before two seconds";
  f.now += 0.2;
  p.update(2100);
  const std::string first = f.out.str();
  ASSERT_NE(first, "");
  EXPECT_EQ(first.front(), '\r');
  EXPECT_NE(first.find(" 21%"), std::string::npos) << first;
  f.now += 0.05;
  p.update(2150);
  EXPECT_EQ(f.out.str(), first) << "redrawn within a tenth of a second";
  f.now += 0.06;
  p.update(2210);
  EXPECT_NE(f.out.str(), first);
}

TEST(Progress, FinishErasesTheLineAndOnlyIfOneWasDrawn) {
  Fixture f;
  {
    Progress p = f.make(true);
    p.update(5);
    p.finish();
  }
  EXPECT_EQ(f.out.str(), "") << "a run shorter than the delay leaves no trace";
  {
    Progress p = f.make(true, 0.0);
    p.update(5);
  }  // the destructor finishes
  const std::string s = f.out.str();
  ASSERT_GE(s.size(), 4u);
  EXPECT_EQ(s.substr(s.size() - 4), "\r\x1b[K");
}

TEST(Progress, WritesNothingWhenNotShown) {
  Fixture f;
  Progress p = f.make(false, 0.0);
  p.set_total(10);
  for (int i = 0; i < 10; ++i) {
    f.now += 1;
    p.update(static_cast<uint64_t>(i));
  }
  p.finish();
  EXPECT_EQ(f.out.str(), "");
}

TEST(Progress, TheTimeLeftFollowsTheRateSinceTheFirstUpdate) {
  Fixture f;
  Progress p = f.make(true);
  p.set_total(100000);
  p.update(10000);  // the run had done some before the line started
  f.now += 4;
  p.update(30000);  // 20,000 in 4 s: 5,000/s, 70,000 to go: 14 s
  const std::string s = f.out.str();
  EXPECT_NE(s.find("30,000/100,000 cycles"), std::string::npos) << s;
  EXPECT_NE(s.find("5k/s"), std::string::npos) << s;
  EXPECT_NE(s.find("0:14 left"), std::string::npos) << s;
  EXPECT_NE(s.find("[######..............]"), std::string::npos) << s;
}

TEST(Progress, ALineWithoutATotalShowsTheCountRateAndTimeSoFar) {
  const std::string s = Progress::line("allreduce", "cycles", 1234567, 0, 75.4, 215300, "");
  EXPECT_EQ(s, "allreduce  1,234,567 cycles  215k/s  1:15");
  const std::string d = Progress::line("traffic", "cycles", 12000, 11000, 3725, 2.5e6, "draining");
  EXPECT_EQ(d, "traffic [####################] 100%  12,000/11,000 cycles  2.5M/s  draining");
}

TEST(Progress, ALineFitsEightyColumns) {
  const std::string s = Progress::line("a very long collective name", "cycles", ~0ull, ~0ull, 1e9, 1e12, "draining");
  EXPECT_LE(s.size(), 79u);
}

}  // namespace
}  // namespace collnet::cli
