// SPDX-License-Identifier: Apache-2.0
#include "cli/trace_nodes.hpp"

#include <stdexcept>

#include "reference/number_list.hpp"

namespace collnet::cli {

std::vector<unsigned> parse_trace_nodes(const std::string& text, const std::string& trace_path, unsigned nodes) {
  if (text.empty()) return {};
  if (trace_path.empty())
    throw std::invalid_argument("--trace-nodes: there is no trace to limit; add --trace FILE.fst");
  try {
    return reference::parse_number_list(text, nodes, "node");
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("--trace-nodes: ") + e.what());
  }
}

}  // namespace collnet::cli
