// SPDX-License-Identifier: Apache-2.0
// The node register bus as firmware sees it: one 64-bit read or write per call, or one
// vector access that moves four 64-bit words (32 bytes, like a 256-bit SIMD load or store)
// to or from a vector register. In the machine each call is one real bus cycle on the
// Verilated node and costs simulated cycles, whatever its width; block testbenches
// implement it directly on a model.
#pragma once

#include <array>
#include <cstdint>

namespace collnet::fw {

class RegisterBus {
 public:
  // Word 0 travels in bus data bits [63:0], word 3 in [255:192].
  using Vector = std::array<uint64_t, 4>;

  virtual ~RegisterBus() = default;
  virtual uint64_t read(uint32_t addr, bool privileged = false) = 0;
  virtual void write(uint32_t addr, uint64_t data, bool privileged = false) = 0;
  virtual void write_vector(uint32_t addr, const Vector& v, bool privileged = false) = 0;
  virtual Vector read_vector(uint32_t addr, bool privileged = false) = 0;
};

}  // namespace collnet::fw
