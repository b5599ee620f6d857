// SPDX-License-Identifier: Apache-2.0
// collnet-wave-filter: GTKWave's translate filter process for collnet's views
// (systemc/wave_filter.hpp): a line in, a line out, flushed, until GTKWave closes it.
#include <iostream>
#include <string>

#include "systemc/wave_filter.hpp"

int main() {
  std::string line;
  while (std::getline(std::cin, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::cout << collnet::sim::wave_filter_line(line) << '\n' << std::flush;
  }
  return 0;
}
