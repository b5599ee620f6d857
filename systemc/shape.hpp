// SPDX-License-Identifier: Apache-2.0
// The machine's shape: X x Y x Z nodes, ranks numbered x-fastest.
#pragma once

#include <array>
#include <string>

namespace collnet::sim {

struct Shape {
  unsigned x = 1, y = 1, z = 1;

  unsigned nodes() const { return x * y * z; }
  std::array<unsigned, 3> dims() const { return {x, y, z}; }
  std::string str() const;

  // Parses "XxYxZ" (for example "4x4x4"); every dimension must be 1..64.
  // Throws std::invalid_argument with a message that quotes the text.
  static Shape parse(const std::string& text);
};

}  // namespace collnet::sim
