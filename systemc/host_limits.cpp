// SPDX-License-Identifier: Apache-2.0
#include "systemc/host_limits.hpp"

#include <fstream>
#include <stdexcept>
#include <string>

namespace collnet::sim {

void MapBudget::check() const {
  if (needed() <= limit) return;
  throw std::runtime_error(
      "a machine with " + std::to_string(processors) + " simulated processors needs about " +
      std::to_string(needed()) + " memory mappings (SystemC gives each processor a stack with a guard page: " +
      std::to_string(kMapsPerProcessor) + " mappings each), but this host allows a process " + std::to_string(limit) +
      " (vm.max_map_count). Raise the limit, as root: sysctl -w vm.max_map_count=" +
      std::to_string((needed() + needed() / 4 + 65535) / 65536 * 65536) + ", or simulate fewer nodes or tasks per node");
}

std::optional<MapBudget> MapBudget::of_this_process(uint64_t processors) {
  std::ifstream limit_file("/proc/sys/vm/max_map_count");
  std::ifstream maps("/proc/self/maps");
  MapBudget b;
  b.processors = processors;
  if (!(limit_file >> b.limit) || !maps) return std::nullopt;
  for (std::string line; std::getline(maps, line);) ++b.in_use;
  return b;
}

}  // namespace collnet::sim
