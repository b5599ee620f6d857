// SPDX-License-Identifier: Apache-2.0
#include "reference/number_list.hpp"

#include <algorithm>
#include <stdexcept>

namespace collnet::reference {

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  size_t pos = 0;
  for (;;) {
    const size_t comma = text.find(',', pos);
    out.push_back(text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos));
    if (comma == std::string::npos) return out;
    pos = comma + 1;
  }
}

unsigned parse_list_number(const std::string& item, const std::string& text, unsigned limit, const std::string& noun) {
  if (item.empty() || item.size() > 9 || item.find_first_not_of("0123456789") != std::string::npos)
    throw std::invalid_argument("'" + item + "' in '" + text + "' is not a " + noun);
  const unsigned n = static_cast<unsigned>(std::stoul(item));
  if (n >= limit)
    throw std::invalid_argument(noun + " " + std::to_string(n) + " is not on a machine of " + std::to_string(limit) +
                                " " + noun + "s");
  return n;
}

std::vector<unsigned> parse_number_list(const std::string& text, unsigned limit, const std::string& noun) {
  std::vector<unsigned> out;
  for (const std::string& item : split_list(text)) {
    const unsigned n = parse_list_number(item, text, limit, noun);
    if (std::find(out.begin(), out.end(), n) != out.end())
      throw std::invalid_argument(noun + " " + std::to_string(n) + " is listed twice");
    out.push_back(n);
  }
  return out;
}

std::vector<size_t> parse_sizes(const std::string& text) {
  std::vector<size_t> sizes;
  for (const std::string& item : split_list(text)) {
    size_t pos = 0;
    unsigned long long v = 0;
    try {
      v = std::stoull(item, &pos, 10);
    } catch (const std::exception&) {
      throw std::invalid_argument("'" + item + "' in '" + text + "' is not a size (bytes, or with k or M)");
    }
    const std::string unit = item.substr(pos);
    unsigned shift = 0;
    if (unit == "k" || unit == "K")
      shift = 10;
    else if (unit == "M" || unit == "m")
      shift = 20;
    else if (!unit.empty())
      throw std::invalid_argument("'" + item + "' in '" + text + "' is not a size (bytes, or with k or M)");
    // Compared before the shift, which would wrap a large count ("18014398509481984k" is
    // 2^64 bytes, 0 once wrapped).
    constexpr unsigned long long kMax = 64ull << 20;
    if (item.empty() || item[0] == '-' || v > (kMax >> shift))
      throw std::invalid_argument("'" + item + "' in '" + text + "': sizes are 0..64M bytes");
    v <<= shift;
    sizes.push_back(static_cast<size_t>(v));
  }
  if (sizes.empty()) throw std::invalid_argument("no sizes in '" + text + "'");
  return sizes;
}

}  // namespace collnet::reference
