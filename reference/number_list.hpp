// SPDX-License-Identifier: Apache-2.0
// Comma-separated number lists on the command line ("0,5,6,11,20"): --ranks of `collnet
// run`, --down-nodes and --down-links of `collnet traffic`, and the --sizes lists. One
// parser, so every list refuses the same things with the same words.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace collnet::reference {

// "a,b,c" -> {"a", "b", "c"} (empty items kept, so that the parser can name them).
std::vector<std::string> split_list(const std::string& text);
// One item of `text`: a decimal number below `limit`. Throws std::invalid_argument naming
// the item and what it should be: "'x' in '1,x' is not a rank", "node 99 is not on a
// machine of 8 nodes". `noun` is singular ("rank", "node").
unsigned parse_list_number(const std::string& item, const std::string& text, unsigned limit, const std::string& noun);
// Every item of `text`, each once: a number listed twice is refused too.
std::vector<unsigned> parse_number_list(const std::string& text, unsigned limit, const std::string& noun);
// Message sizes in bytes, "0,8,64,4k,1M" (k and M binary; each 0..64M): pingpong's, compare's
// and tune's --sizes. Throws std::invalid_argument naming the item.
std::vector<size_t> parse_sizes(const std::string& text);

}  // namespace collnet::reference
