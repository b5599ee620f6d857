// SPDX-License-Identifier: Apache-2.0
// Queueing descriptors on the node's torus DMA engine when several writers share it.
// - One at a time by register (queue_dma_descriptor): the queue's room and the write are
//   two accesses (fw::DmaFirmware::queue), so the node's writers (its tasks' alltoall, its
//   point-to-point engine) take the node's flag (NodeTasks::dma_queue_held) one at a time;
//   a writer waiting for another polls the room, which takes it through cycles.
// - A series through the node's injection ring (DmaRing): the processor writes each
//   descriptor into node memory (a memory access each) and moves the ring's tail, and the
//   engine reads them on its own, so a long series costs the processor its writes and
//   nothing while the engine sends (Blue Gene/P's injection memory FIFOs).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "firmware/dma_descriptor.hpp"
#include "firmware/dma_firmware.hpp"
#include "firmware/processor.hpp"
#include "firmware/regmap.hpp"

namespace collnet::driver {

// The node's flag of writers (NodeTasks::dma_queue_held), held for as long as the object
// lives; waiting for another writer polls the queue's room, which takes cycles.
class DmaQueueHold {
 public:
  DmaQueueHold(fw::DmaFirmware& dma, bool& held) : held_(held) {
    while (held_) (void)dma.free_slots();
    held_ = true;
  }
  ~DmaQueueHold() { held_ = false; }
  DmaQueueHold(const DmaQueueHold&) = delete;
  DmaQueueHold& operator=(const DmaQueueHold&) = delete;

 private:
  bool& held_;
};

inline void queue_dma_descriptor(fw::DmaFirmware& dma, bool& held, const fw::DmaDescriptor& d) {
  const DmaQueueHold hold(dma, held);
  dma.queue(d);
}

// A node's injection ring: kSlots descriptors of the node's memory. The first series sets
// the engine's ring to it; each series registers the ring's memory with the node's DMA
// memory for as long as the caller holds the returned region (until the engine has read
// the series: the caller's counters at zero say so).
class DmaRing {
 public:
  static constexpr unsigned kSlots = 2048;  // 64 KiB: alltoall's descriptors on 64 ranks at 4 KiB a pair
  // The tail moves after a series' first descriptor and then after every this many, so the
  // engine starts on a series while the processor still writes it.
  static constexpr unsigned kBatch = 16;

  // Writes the n descriptors into the ring (each validated first: DmaDescriptor::encode
  // throws for one the engine would refuse), waiting while the ring is full, and moves the
  // tail past them. `held` is the node's flag of writers (NodeTasks::dma_queue_held).
  void queue(fw::Processor& cpu, fw::DmaFirmware& dma, bool& held, const fw::DmaDescriptor* d, size_t n);

  // The ring's memory (made at the first call), for the caller to register.
  const void* memory() {
    if (!slots_) slots_ = std::make_unique<Slot[]>(kSlots);
    return slots_.get();
  }
  static constexpr size_t bytes() { return size_t{kSlots} * sizeof(uint64_t) * fw::regmap::kDmDescWords; }

 private:
  struct alignas(32) Slot {
    uint64_t w[fw::regmap::kDmDescWords];
  };
  uint64_t address(size_t slot) const { return reinterpret_cast<uintptr_t>(&slots_[slot]); }
  std::unique_ptr<Slot[]> slots_;
  size_t tail_ = 0;  // the next slot software writes
  size_t head_ = 0;  // the engine's head when last read
  bool set_ = false;  // the engine's ring is set to it
};

}  // namespace collnet::driver
