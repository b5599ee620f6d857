// The node register bus as firmware sees it: one 64-bit read or write per call. In the
// machine each access is a real bus cycle on the Verilated node and costs simulated
// cycles; block testbenches implement it directly on a model.
#pragma once

#include <cstdint>

namespace collnet::fw {

class RegisterBus {
 public:
  virtual ~RegisterBus() = default;
  virtual uint64_t read(uint32_t addr, bool privileged = false) = 0;
  virtual void write(uint32_t addr, uint64_t data, bool privileged = false) = 0;
};

}  // namespace collnet::fw
