// SPDX-License-Identifier: Apache-2.0
// What one task (a processor's program) on a node has to work with: which node and task it
// is, its processor, its node's firmware objects and the node's personality (its place in
// the machine). The machine model builds one per task and hands it to the task's code;
// the driver builds everything on it and needs nothing else of the machine.
#pragma once

#include "firmware/barrier_firmware.hpp"
#include "firmware/coprocessor.hpp"
#include "firmware/memory_regions.hpp"
#include "firmware/personality.hpp"
#include "firmware/processor.hpp"
#include "firmware/torus_firmware.hpp"
#include "firmware/tree_firmware.hpp"

namespace collnet::fw {

struct TaskContext {
  unsigned node;   // the node this task runs on (0 .. nodes - 1)
  unsigned task;   // this task on the node (0 .. tasks - 1)
  unsigned tasks;  // tasks per node
  Processor& cpu;
  TreeFirmware& tree;         // the combining network's user VC
  TreeFirmware& tree_system;  // its system VC (privileged accesses)
  BarrierFirmware& barrier;
  TorusFirmware& torus;
  const Personality& personality;
  // The memory the node's torus DMA engine may reach: null on a node without the engine.
  MemoryRegions* dma_memory = nullptr;
  // The node's coprocessor in coprocessor mode (the machine file's processor.coprocessor):
  // null when the task's processor runs its own message layer.
  Coprocessor* coprocessor = nullptr;
};

}  // namespace collnet::fw
