// SPDX-License-Identifier: Apache-2.0
#include "systemc/shape.hpp"

#include <stdexcept>

namespace collnet::sim {

std::string Shape::str() const { return std::to_string(x) + "x" + std::to_string(y) + "x" + std::to_string(z); }

Shape Shape::parse(const std::string& text) {
  static const char* const names[3] = {"X", "Y", "Z"};
  unsigned d[3] = {0, 0, 0};
  size_t pos = 0;
  for (int i = 0; i < 3; ++i) {
    size_t end = pos;
    while (end < text.size() && text[end] >= '0' && text[end] <= '9') ++end;
    if (end == pos || end - pos > 6)
      throw std::invalid_argument("'" + text + "' is not a shape XxYxZ (for example 4x4x4)");
    d[i] = static_cast<unsigned>(std::stoul(text.substr(pos, end - pos)));
    if (d[i] < 1 || d[i] > 64)
      throw std::invalid_argument("dimension " + std::string(names[i]) + " of '" + text + "' is " +
                                  std::to_string(d[i]) + "; each dimension must be 1..64");
    pos = end;
    if (i < 2) {
      if (pos >= text.size() || (text[pos] != 'x' && text[pos] != 'X'))
        throw std::invalid_argument("'" + text + "' is not a shape XxYxZ (for example 4x4x4)");
      ++pos;
    }
  }
  if (pos != text.size()) throw std::invalid_argument("'" + text + "' is not a shape XxYxZ (for example 4x4x4)");
  return Shape{d[0], d[1], d[2]};
}

}  // namespace collnet::sim
