// SPDX-License-Identifier: Apache-2.0
// --trace-nodes of run, traffic and mpirun: the nodes a trace keeps.
#pragma once

#include <string>
#include <vector>

namespace collnet::cli {

// The nodes `text` lists (a number list, reference/number_list.hpp), of `nodes`; needs a
// trace (`trace_path`). Throws std::invalid_argument with the whole message.
std::vector<unsigned> parse_trace_nodes(const std::string& text, const std::string& trace_path, unsigned nodes);

}  // namespace collnet::cli
