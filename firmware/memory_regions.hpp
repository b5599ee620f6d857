// SPDX-License-Identifier: Apache-2.0
// The regions of a node's memory its torus DMA engine may reach, as software registers
// them: the machine serves the engine's memory port from them only (sim::DmaMemory), so a
// wrong address in a descriptor stops the run instead of touching other memory. Software
// registers a buffer for as long as the engine may read or write it.
#pragma once

#include <cstddef>

namespace collnet::fw {

class MemoryRegions {
 public:
  virtual ~MemoryRegions() = default;
  // Registers `bytes` at `p`; regions may overlap, and each registration is undone by one
  // remove with the same arguments. Throw std::invalid_argument for an empty region, one
  // the engine cannot address, or a remove of what was not added.
  virtual void add_region(const void* p, std::size_t bytes) = 0;
  virtual void remove_region(const void* p, std::size_t bytes) = 0;
};

// A region registered for as long as the object lives (none when `regions` is null).
class RegisteredRegion {
 public:
  RegisteredRegion(MemoryRegions* regions, const void* p, std::size_t bytes) : regions_(regions), p_(p), bytes_(bytes) {
    if (regions_ && bytes_) regions_->add_region(p_, bytes_);
  }
  ~RegisteredRegion() {
    if (regions_ && bytes_) regions_->remove_region(p_, bytes_);
  }
  RegisteredRegion(const RegisteredRegion&) = delete;
  RegisteredRegion& operator=(const RegisteredRegion&) = delete;

 private:
  MemoryRegions* regions_;
  const void* p_;
  std::size_t bytes_;
};

}  // namespace collnet::fw
