// SPDX-License-Identifier: Apache-2.0
// The command-line tests' way to run the collnet binary (COLLNET_BINARY, set by CMake) and
// read the JSON it writes.
#pragma once

#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/support/command.hpp"

namespace collnet::test {

inline nlohmann::json read_json(const std::string& path) {
  std::ifstream f(path);
  EXPECT_TRUE(f) << "no JSON at " << path;
  nlohmann::json j;
  if (f) f >> j;
  return j;
}

inline CommandResult collnet(std::vector<std::string> args, const CommandSetup& setup = {}) {
  args.insert(args.begin(), COLLNET_BINARY);
  return run_command(args, setup);
}

}  // namespace collnet::test
