// SPDX-License-Identifier: Apache-2.0
// The usage error every command reports.
#include "cli/usage_error.hpp"

#include <iostream>

namespace collnet::cli {

int usage_error(const std::string& msg, const std::string& command) {
  std::cerr << "collnet: error: " << msg << "\nRun 'collnet " << command << " --help' for usage.\n";
  return kExitUsage;
}

}  // namespace collnet::cli
