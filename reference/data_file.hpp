// SPDX-License-Identifier: Apache-2.0
// --input / --output data files: a JSON array with one array of numbers per rank (in
// communicator rank order). Integers are JSON integers; floating-point values are JSON
// numbers printed with the shortest text that reads back to the same bits, except the
// non-finite ones: "inf", "-inf", "nan" (the default quiet NaN) or, for any other NaN,
// its bit pattern as a string "0x7ff4000000000000". maxloc/minloc elements are
// [value, index] pairs. A rank whose buffer the collective leaves undefined is null.
#pragma once

#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "driver/datatype.hpp"

namespace collnet::reference {

// A 64-bit bit pattern as "0x" and 16 hex digits (also how reports print elements).
std::string hex64(uint64_t bits);

// One raw element as JSON, and back; from_json throws std::invalid_argument naming what
// is wrong with the value.
nlohmann::json element_to_json(driver::Datatype t, uint64_t raw);
uint64_t element_from_json(driver::Datatype t, const nlohmann::json& v);

// Reads `path`: exactly `ranks` arrays of the same length, elements of type t (pairs if
// `pairs`). Throws std::invalid_argument naming the file, rank and index at fault.
std::vector<std::vector<uint64_t>> read_data_file(const std::string& path, driver::Datatype t, bool pairs,
                                                  size_t ranks);
// The same from a stream; `path` names it in the errors.
std::vector<std::vector<uint64_t>> read_data(std::istream& in, const std::string& path, driver::Datatype t, bool pairs,
                                             size_t ranks);
// Writes one array per rank (null for ranks without data). Throws std::runtime_error if
// the file cannot be written.
void write_data_file(const std::string& path, driver::Datatype t, bool pairs,
                     const std::vector<std::optional<std::vector<uint64_t>>>& data);

}  // namespace collnet::reference
