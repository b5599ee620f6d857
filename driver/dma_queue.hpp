// SPDX-License-Identifier: Apache-2.0
// Queueing a descriptor on the node's torus DMA engine when several writers share it: the
// queue's room and the write are two accesses (fw::DmaFirmware::queue), so the node's
// writers (its tasks' alltoall, its point-to-point engine) take the node's flag
// (NodeTasks::dma_queue_held) one at a time; a writer waiting for another polls the room,
// which takes it through cycles.
#pragma once

#include "firmware/dma_descriptor.hpp"
#include "firmware/dma_firmware.hpp"

namespace collnet::driver {

inline void queue_dma_descriptor(fw::DmaFirmware& dma, bool& held, const fw::DmaDescriptor& d) {
  while (held) (void)dma.free_slots();
  held = true;
  try {
    dma.queue(d);
  } catch (...) {
    held = false;
    throw;
  }
  held = false;
}

}  // namespace collnet::driver
