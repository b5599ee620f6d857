// SPDX-License-Identifier: Apache-2.0
// The node's sizes a machine is built with: a value for every entry of the catalogue
// (firmware/rtl_sizes.hpp, from regmap/collnet.json), each the default unless a machine
// file's "rtl" section or --rtl KEY=VALUE sets it. A value is checked against the limits
// the RTL's elaboration checks enforce before anything is built (docs/design-space.md).
#pragma once

#include <array>
#include <cstddef>
#include <iterator>
#include <string>
#include <vector>

#include "firmware/rtl_sizes.hpp"

namespace collnet::sim {

class NodeSizes {
 public:
  static constexpr std::size_t kCount = std::size(fw::regmap::kSizes);

  NodeSizes();  // every size at its default

  // Sets the size `key` names ("torus.vc_buffer_flits"). Throws std::invalid_argument
  // naming the key (and the RTL parameter) and the limit, for an unknown key or a value
  // the RTL refuses.
  void set(const std::string& key, long long value);
  // "KEY=VALUE", as --rtl gives it: set(KEY, VALUE), or std::invalid_argument.
  void set_assignment(const std::string& text);
  unsigned get(const std::string& key) const;
  unsigned value(std::size_t i) const { return values_[i]; }

  bool is_default() const;
  // The sizes that differ from the defaults as "key=value" pairs (what --rtl takes), in
  // catalogue order; changed() joins them with `sep` ("" when none differs).
  std::vector<std::string> changed_list() const;
  std::string changed(const std::string& sep = ", ") const;
  // `top`'s parameters (nd_tree_net or nd_torus_net) as "Param=value", every size of that
  // top in catalogue order (rtl_portability.sh's -P); overrides() as Verilator's
  // "-GParam=value".
  std::vector<std::string> parameters(const std::string& top) const;
  std::vector<std::string> overrides(const std::string& top) const;

  bool operator==(const NodeSizes& o) const { return values_ == o.values_; }
  bool operator!=(const NodeSizes& o) const { return !(*this == o); }

  // The catalogue entry of `key`, or std::invalid_argument listing the keys there are.
  static const fw::regmap::SizeParam& find(const std::string& key);
  // The values `p` allows, for a message: "33..255", "64..128, a power of two", "36..4092,
  // a multiple of 4".
  static std::string allowed(const fw::regmap::SizeParam& p);

 private:
  std::array<unsigned, kCount> values_{};
};

}  // namespace collnet::sim
