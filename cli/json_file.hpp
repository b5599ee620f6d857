// SPDX-License-Identifier: Apache-2.0
// The --json file every command writes: the JSON, indented, or an error on stderr naming
// the file. Returns false when it cannot be written.
#pragma once

#include <fstream>
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

namespace collnet::cli {

inline bool write_json_file(const std::string& path, const nlohmann::json& j) {
  std::ofstream f(path);
  if (!f) {
    std::cerr << "collnet: cannot write --json file '" << path << "'\n";
    return false;
  }
  f << j.dump(2) << "\n";
  return true;
}

}  // namespace collnet::cli
