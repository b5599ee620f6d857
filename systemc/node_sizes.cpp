// SPDX-License-Identifier: Apache-2.0
#include "systemc/node_sizes.hpp"

#include <stdexcept>

namespace collnet::sim {

using fw::regmap::kSizes;
using fw::regmap::SizeParam;

NodeSizes::NodeSizes() {
  for (std::size_t i = 0; i < kCount; ++i) values_[i] = kSizes[i].def;
}

const SizeParam& NodeSizes::find(const std::string& key) {
  for (const SizeParam& p : kSizes)
    if (key == p.key) return p;
  std::string keys;
  for (const SizeParam& p : kSizes) keys += (keys.empty() ? "" : ", ") + std::string(p.key);
  throw std::invalid_argument("'" + key + "' is not a size of the node (sizes: " + keys + ")");
}

std::string NodeSizes::allowed(const SizeParam& p) {
  std::string text = std::to_string(p.min) + ".." + std::to_string(p.max);
  if (p.power_of_two) text += ", a power of two";
  if (p.multiple_of > 1) text += ", a multiple of " + std::to_string(p.multiple_of);
  return text;
}

void NodeSizes::set(const std::string& key, long long value) {
  const SizeParam& p = find(key);
  const bool ok = value >= p.min && value <= p.max && value % p.multiple_of == 0 &&
                  (!p.power_of_two || (value & (value - 1)) == 0);
  if (!ok)
    throw std::invalid_argument(std::string(p.key) + " (" + p.top + "." + p.param + ") must be " + allowed(p) +
                                " (" + p.limits + "), got " + std::to_string(value));
  values_[static_cast<std::size_t>(&p - kSizes)] = static_cast<unsigned>(value);
}

void NodeSizes::set_assignment(const std::string& text) {
  const std::size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
    throw std::invalid_argument("'" + text + "' is not KEY=VALUE (e.g. torus.vc_buffer_flits=32)");
  const std::string key = text.substr(0, eq), number = text.substr(eq + 1);
  std::size_t used = 0;
  long long value = 0;
  try {
    value = std::stoll(number, &used, 10);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != number.size() || number.find_first_not_of("0123456789") != std::string::npos)
    throw std::invalid_argument(key + ": '" + number + "' is not a whole number");
  set(key, value);
}

unsigned NodeSizes::get(const std::string& key) const {
  return values_[static_cast<std::size_t>(&find(key) - kSizes)];
}

bool NodeSizes::is_default() const { return *this == NodeSizes(); }

std::vector<std::string> NodeSizes::changed_list() const {
  std::vector<std::string> pairs;
  for (std::size_t i = 0; i < kCount; ++i)
    if (values_[i] != kSizes[i].def) pairs.push_back(std::string(kSizes[i].key) + "=" + std::to_string(values_[i]));
  return pairs;
}

std::string NodeSizes::changed(const std::string& sep) const {
  std::string text;
  for (const std::string& p : changed_list()) text += (text.empty() ? "" : sep) + p;
  return text;
}

std::vector<std::string> NodeSizes::parameters(const std::string& top) const {
  std::vector<std::string> args;
  for (std::size_t i = 0; i < kCount; ++i)
    if (top == kSizes[i].top) args.push_back(std::string(kSizes[i].param) + "=" + std::to_string(values_[i]));
  return args;
}

std::vector<std::string> NodeSizes::overrides(const std::string& top) const {
  std::vector<std::string> args = parameters(top);
  for (std::string& a : args) a = "-G" + a;
  return args;
}

}  // namespace collnet::sim
