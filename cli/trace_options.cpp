// SPDX-License-Identifier: Apache-2.0
// The checks of --trace and --trace-nodes.
#include "cli/trace_options.hpp"

#include <stdexcept>

#include "reference/number_list.hpp"

namespace collnet::cli {

void check_trace_path(const std::string& path) {
  if (path.size() < 5 || path.substr(path.size() - 4) != ".fst")
    throw std::invalid_argument("--trace: '" + path + "' must name an .fst file");
}

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
