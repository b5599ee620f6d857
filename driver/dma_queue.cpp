// SPDX-License-Identifier: Apache-2.0
#include "driver/dma_queue.hpp"

namespace collnet::driver {

void DmaRing::queue(fw::Processor& cpu, fw::DmaFirmware& dma, bool& held, const fw::DmaDescriptor* d, size_t n) {
  const DmaQueueHold hold(dma, held);
  if (!set_) {
    (void)memory();
    dma.set_ring(address(0), kSlots);
    set_ = true;
  }
  const auto slot_of = [&](uint64_t a) { return static_cast<size_t>((a - address(0)) / sizeof(Slot)); };
  size_t unpublished = 0;  // descriptors written past the tail the engine knows
  for (size_t i = 0; i < n; ++i) {
    const fw::DmaDescriptor::Words w = d[i].encode();
    const size_t next = (tail_ + 1) % kSlots;
    if (next == head_) {
      // Full as last seen (one slot stays empty): hand the engine what is written, then
      // wait for it to read on.
      if (unpublished) dma.set_ring_tail(address(tail_));
      unpublished = 0;
      while ((head_ = slot_of(dma.ring_head())) == next) {
      }
    }
    for (unsigned j = 0; j < fw::regmap::kDmDescWords; ++j) slots_[tail_].w[j] = w[j];
    cpu.memory_access();  // the descriptor's store into node memory
    tail_ = next;
    if (++unpublished == kBatch || i == 0) {  // the first at once: the engine starts on it
      dma.set_ring_tail(address(tail_));
      unpublished = 0;
    }
  }
  if (unpublished) dma.set_ring_tail(address(tail_));
}

}  // namespace collnet::driver
