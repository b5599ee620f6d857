#include "machine_config.hpp"

#include <stdexcept>

namespace collnet::sim {

void MachineConfig::validate() const {
  if (shape.nodes() < 1) throw std::invalid_argument("machine shape " + shape.str() + " has no nodes");
  if (shape.nodes() > kMaxNodes)
    throw std::invalid_argument("machine shape " + shape.str() + " has " + std::to_string(shape.nodes()) +
                                " nodes; at most " + std::to_string(kMaxNodes) + " are supported");
  if (link_latency < 1 || link_latency > 1000)
    throw std::invalid_argument("link latency " + std::to_string(link_latency) + " must be 1..1000 cycles");
  if (access_cycles < 1 || access_cycles > 1000)
    throw std::invalid_argument("register access cost " + std::to_string(access_cycles) + " must be 1..1000 cycles");
  if (tasks_per_node < 1 || tasks_per_node > kMaxTasksPerNode)
    throw std::invalid_argument("tasks per node " + std::to_string(tasks_per_node) + " must be 1.." +
                                std::to_string(kMaxTasksPerNode));
  if (watchdog_cycles < 1) throw std::invalid_argument("watchdog must allow at least one cycle");
  if (!(clock_mhz > 0)) throw std::invalid_argument("clock frequency must be positive");
}

}  // namespace collnet::sim
