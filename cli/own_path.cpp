// SPDX-License-Identifier: Apache-2.0
#include "cli/own_path.hpp"

#include <filesystem>
#include <system_error>

namespace collnet::cli {

std::string own_path() {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("collnet") : self.string();
}

}  // namespace collnet::cli
