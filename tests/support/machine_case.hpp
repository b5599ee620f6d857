// SPDX-License-Identifier: Apache-2.0
// A case of the parameterised machine suites: a shape such as "4x4x4", tasks per node, and
// an optional subset of world ranks to run on; its members and its test name
// ("4_4_4_tasks1", "3_3_3_tasks1_subset5").
#pragma once

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace collnet::test {

struct MachineCase {
  const char* shape;
  unsigned tasks;
  std::vector<unsigned> subset;  // world ranks; empty: the world

  // The world ranks that take part, sorted as the communicator numbers them.
  std::vector<unsigned> members(unsigned world) const {
    if (!subset.empty()) return subset;
    std::vector<unsigned> all(world);
    for (unsigned r = 0; r < world; ++r) all[r] = r;
    return all;
  }
};

template <class Case>
std::string machine_case_name(const ::testing::TestParamInfo<Case>& p) {
  std::string s = p.param.shape;
  for (char& ch : s)
    if (ch == 'x') ch = '_';
  s += "_tasks" + std::to_string(p.param.tasks);
  if (!p.param.subset.empty()) s += "_subset" + std::to_string(p.param.subset.size());
  return s;
}

}  // namespace collnet::test
