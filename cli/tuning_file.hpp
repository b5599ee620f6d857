// SPDX-License-Identifier: Apache-2.0
// A tuning table file, what auto picks from (driver/tuning.hpp) as `collnet tune` writes
// it and --tuning reads it: {"measured_on": "...", "rules": [{"collective", "ranks",
// "up_to_bytes", "algorithm", and for the reductions "types": "int" / "int64" / "float"},
// ...]}.
#pragma once

#include <istream>
#include <string>
#include <vector>

#include "driver/tuning.hpp"

namespace collnet::cli {

// Throws std::invalid_argument naming the file and what is wrong.
driver::Tuning read_tuning_file(const std::string& path);
// The same from a stream; `path` names it in the errors.
driver::Tuning read_tuning(std::istream& in, const std::string& path);
// `measured_on` names where the rules come from. Throws std::invalid_argument if the file
// cannot be written.
void write_tuning_file(const std::string& path, const std::vector<driver::TuningRule>& rules,
                       const std::string& measured_on);

}  // namespace collnet::cli
