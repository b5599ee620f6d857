// SPDX-License-Identifier: Apache-2.0
// What the host must allow for a machine of a given size, checked before the machine is
// built so that a run that cannot fit stops with a message instead of a crash halfway.
//
// The limit a big machine meets first is not memory but the kernel's cap on a process's
// memory mappings (vm.max_map_count, 65530 by default on Linux): SystemC gives every
// processor's thread a stack of its own with a protected guard page in it, which costs
// two mappings per processor. 32,768 processors need about 65,600 and do not fit; the
// allocation that fails surfaces as std::bad_alloc deep inside the SystemC kernel.
#pragma once

#include <cstdint>
#include <optional>

namespace collnet::sim {

struct MapBudget {
  static constexpr uint64_t kMapsPerProcessor = 2;  // the stack and its guard page
  static constexpr uint64_t kSlack = 1024;          // libraries, heap arenas, files, threads

  uint64_t processors = 0;  // simulated processors (SystemC threads) to be created
  uint64_t in_use = 0;      // mappings the process has now
  uint64_t limit = 0;       // vm.max_map_count

  uint64_t needed() const { return in_use + processors * kMapsPerProcessor + kSlack; }
  // Throws std::runtime_error, saying what to do, if the machine would not fit.
  void check() const;

  // This process's numbers on this host; nullopt where /proc cannot tell (no check then).
  static std::optional<MapBudget> of_this_process(uint64_t processors);
};

}  // namespace collnet::sim
