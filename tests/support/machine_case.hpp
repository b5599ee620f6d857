// The name of a parameterised machine test from its case (a shape such as "4x4x4", tasks
// per node, and an optional subset of ranks): "4_4_4_tasks1", "3_3_3_tasks1_subset5".
#pragma once

#include <string>

#include <gtest/gtest.h>

namespace collnet::test {

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
