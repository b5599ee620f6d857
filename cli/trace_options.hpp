// SPDX-License-Identifier: Apache-2.0
// --trace and --trace-nodes of run, traffic and mpirun: the waveform file and the nodes it
// keeps.
#pragma once

#include <string>
#include <vector>

namespace collnet::cli {

// Throws std::invalid_argument unless `path` names an .fst file.
void check_trace_path(const std::string& path);
// The nodes `text` lists (a number list, reference/number_list.hpp), of `nodes`; needs a
// trace (`trace_path`). Throws std::invalid_argument with the whole message.
std::vector<unsigned> parse_trace_nodes(const std::string& text, const std::string& trace_path, unsigned nodes);

}  // namespace collnet::cli
