// SPDX-License-Identifier: Apache-2.0
// A usage error, as every command reports one: "collnet: error: MSG" and where to find the
// command's usage, on stderr, and the exit status for bad usage.
#pragma once

#include <string>

namespace collnet::cli {

constexpr int kExitUsage = 2;

// Prints "collnet: error: MSG" and where to find `command`'s usage; returns kExitUsage.
int usage_error(const std::string& msg, const std::string& command = "run");

}  // namespace collnet::cli
