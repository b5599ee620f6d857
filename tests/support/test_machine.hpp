// SPDX-License-Identifier: Apache-2.0
// The machine the whole-machine tests build: a shape, tasks per node and a watchdog short
// enough that a hung test fails in seconds rather than running for minutes. The tests run
// every machine in a child process (systemc/isolated.hpp).
#pragma once

#include <cstdint>
#include <string>

#include "systemc/isolated.hpp"
#include "systemc/machine_config.hpp"

namespace collnet::test {

using sim::Isolated;
using sim::run_isolated;

inline sim::MachineConfig machine_config(const std::string& shape, unsigned tasks = 1,
                                         uint64_t watchdog_cycles = 200'000) {
  sim::MachineConfig c;
  c.shape = sim::Shape::parse(shape);
  c.tasks_per_node = tasks;
  c.watchdog_cycles = watchdog_cycles;
  return c;
}

}  // namespace collnet::test
