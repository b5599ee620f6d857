// SPDX-License-Identifier: Apache-2.0
// Register-level firmware for one node's torus DMA engine (docs/dma.md): counters,
// descriptors (by register, or through the injection ring in memory), the reception ring
// and the engine's errors. A node has the engine when its
// torus side was built with it (RegTrSizes.Dma, torus.dma); on a node without it every call
// but has_engine() throws std::logic_error rather than touch a window nothing answers.
#pragma once

#include <cstdint>

#include "firmware/dma_descriptor.hpp"
#include "firmware/personality.hpp"
#include "firmware/register_bus.hpp"

namespace collnet::fw {

class DmaFirmware {
 public:
  // `engine_fifos`: RegTrSizes.Dma if the caller has read it already (a DmaFirmware made
  // for each call then reads it no more), else -1.
  DmaFirmware(RegisterBus& bus, const Personality& personality, int engine_fifos = -1)
      : bus_(bus), me_(personality), has_(engine_fifos) {}

  // Whether this node has the engine (reads RegTrSizes once), and its FIFOs each way.
  bool has_engine();
  int engine_fifos() {
    (void)has_engine();
    return has_;
  }

  // Counter k: the byte address puts naming it write at (plus their offsets), and the
  // words it waits for (a put's) or sends (a descriptor's local counter). Setting the count
  // clears the counter's zero bit.
  void set_counter(unsigned k, uint64_t base, uint32_t words);
  uint32_t count(unsigned k);
  // Whether counter k has been counted down to zero since its count was last set.
  bool reached_zero(unsigned k);
  // Which conditions raise the engine's event line (RegDmEventEn): bit k counter k's zero
  // bit, bit 32 the memory FIFO holding a packet.
  void set_events(uint64_t enables);

  // Queues a descriptor, waiting (polling RegDmStatus) while the queue is full. Throws
  // std::invalid_argument for a descriptor the engine would refuse (DmaDescriptor::encode).
  // The room's check and the write are two accesses: the tasks of a node queue one at a
  // time (the driver's NodeTasks::dma_queue_held), or a descriptor may find the queue full
  // and be refused (DmErrDescFull).
  void queue(const DmaDescriptor& d);
  // Descriptors the queue can take now.
  unsigned free_slots();

  // The injection ring (Blue Gene/P's injection memory FIFO): `slots` descriptors of node
  // memory from `start` (32-byte aligned, registered with the node's memory), which the
  // engine reads into its queue from the head up to the tail. Setting it empties it.
  void set_ring(uint64_t start, unsigned slots);
  // Where the engine reads next (RegDmIfHead): the slots from the tail up to it are free.
  uint64_t ring_head();
  // Moves the tail (RegDmIfTail) to `tail`, past descriptors written in memory before it.
  void set_ring_tail(uint64_t tail);

  // Throws HardwareError naming every sticky error bit of the engine (RegDmErr), if any.
  void check();

 private:
  void need_engine();
  RegisterBus& bus_;
  const Personality& me_;
  int has_ = -1;  // RegTrSizes.Dma once read (-1: not yet)
};

}  // namespace collnet::fw
