// SPDX-License-Identifier: Apache-2.0
// Rendezvous messages by the torus DMA engine's remote get (P2pEngine, p2p_engine.hpp;
// the engine: docs/dma.md). The sender registers its buffer with the node's engine, sets a
// counter to the message's words and offers both in its request to send; the receiver,
// once a receive matches, sets a counter of its own to its buffer and queues a remote get
// to the sender's node, whose one descriptor puts the whole message there. The sender's
// counter reaches zero when its engine has sent the last word (the buffer is free again),
// the receiver's when the last word is written. Only to a node along one dimension of the
// sender: farther, the processors' two paths carry a message twice as fast as the engine,
// which injects a flit a cycle (1 MiB across three dimensions of 2x2x2: 69,935 cycles by
// the processors, 139,676 by the engine) — unless it is started in an interrupt of a
// computing task (serve_interrupt), where the processors would carry it only in the
// interrupts. Counters under way raise the engine's event line (enable_interrupts). A
// message the engine cannot carry (not whole aligned words, a receive too short for it,
// no counter free on either node, routes around what is down) goes by the processors as
// before: the receiver answers with a clear to send and the sender gives its counter back.
#include <cstdint>

#include "driver/dma_queue.hpp"
#include "driver/p2p_engine.hpp"
#include "firmware/dma_descriptor.hpp"
#include "firmware/dma_firmware.hpp"

namespace collnet::driver {

namespace {

bool whole_words(const void* p, size_t bytes) {
  return bytes > 0 && bytes % 8 == 0 && reinterpret_cast<uintptr_t>(p) % 8 == 0;
}

}  // namespace

bool P2pEngine::dma_ready(fw::TaskContext& task) {
  if (dma_state_ >= 0) return dma_state_ == 1;
  dma_state_ = 0;
  // Counters 0 .. 2 * tasks - 1 are alltoall's (personalised.cpp), the last one counts a
  // remote get's own descriptor words; those between are point-to-point's.
  if (!task.dma_memory || routes_ || 2 * tasks_ + 1 >= fw::regmap::kDmCounters) return false;
  fw::DmaFirmware dma(task.cpu, task.personality);
  if (!dma.has_engine()) return false;
  dma_fifos_ = dma.engine_fifos();
  dma.set_counter(kDmaScratchCounter, 0, 0xffffffffu);  // never waited for: it only counts down
  for (unsigned k = kDmaScratchCounter; k-- > 2 * tasks_;) dma_free_.push_back(k);
  dma_state_ = 1;
  return true;
}

bool P2pEngine::dma_send(fw::TaskContext& task, SendOp& op, const void* buf) {
  // Along one dimension: farther, the processors spread a message over two paths
  // (inject_streaming) and the engine, which injects a flit a cycle, would halve its rate.
  // Except a message started while the task computes (by its fibers, in an interrupt): the
  // processors would carry it only in the interrupts, the engine carries it all the while
  // (docs/dma.md#progress-while-the-rank-computes).
  const size_t bytes = op.req->bytes;
  if ((several_paths(op.dst_node) && !interrupts_[task.task].serving) || !whole_words(buf, bytes) || !dma_ready(task) ||
      dma_free_.empty())
    return false;
  DmaSend s;
  s.counter = dma_free_.back();
  dma_free_.pop_back();
  s.region = std::make_unique<fw::RegisteredRegion>(task.dma_memory, buf, bytes);
  fw::DmaFirmware dma(task.cpu, task.personality, dma_fifos_);
  dma.set_counter(s.counter, 0, static_cast<uint32_t>(bytes / 8));
  op.dma_counter = s.counter + 1;
  dma_sends_.emplace(op.id, std::move(s));
  return true;
}

void P2pEngine::dma_drop_send(uint32_t id) {
  auto it = dma_sends_.find(id);
  if (it == dma_sends_.end()) return;
  dma_free_.push_back(it->second.counter);
  dma_sends_.erase(it);
}

bool P2pEngine::dma_accept(fw::TaskContext& task, const std::shared_ptr<RequestState>& req, unsigned src_node,
                           uint64_t addr, unsigned counter, size_t bytes) {
  if (req->capacity < bytes || !whole_words(req->recv_buf, bytes) || addr % 8 != 0 || !dma_ready(task) ||
      dma_free_.empty())
    return false;
  DmaRecv r;
  r.req = req;
  r.counter = dma_free_.back();
  dma_free_.pop_back();
  const auto words = static_cast<uint32_t>(bytes / 8);
  r.data = std::make_unique<fw::RegisteredRegion>(task.dma_memory, req->recv_buf, bytes);
  fw::DmaDescriptor put;  // what the sender's engine runs: its buffer into this one
  put.dst = layout_.coord(node_);
  put.kind = fw::DmaKind::Put;
  put.local_counter = counter;
  put.remote_counter = r.counter;
  put.addr = addr;
  put.words = words;
  r.desc = std::make_unique<std::array<uint64_t, fw::regmap::kDmDescWords>>(put.encode());
  r.desc_region = std::make_unique<fw::RegisteredRegion>(task.dma_memory, r.desc->data(), sizeof(*r.desc));
  fw::DmaDescriptor get;
  get.dst = layout_.coord(src_node);
  get.kind = fw::DmaKind::Get;
  get.local_counter = kDmaScratchCounter;
  get.addr = reinterpret_cast<uintptr_t>(r.desc->data());
  get.words = fw::regmap::kDmDescWords;
  fw::DmaFirmware dma(task.cpu, task.personality, dma_fifos_);
  dma.set_counter(r.counter, reinterpret_cast<uintptr_t>(req->recv_buf), words);
  queue_dma_descriptor(dma, *dma_queue_held_, get);
  dma_recvs_.push_back(std::move(r));
  ++stats_.dma_gets;
  return true;
}

bool P2pEngine::dma_poll(fw::TaskContext& task) {
  if (dma_sends_.empty() && dma_recvs_.empty()) return false;
  fw::DmaFirmware dma(task.cpu, task.personality, dma_fifos_);  // a register read a counter, no more
  bool did = false;
  for (auto it = dma_recvs_.begin(); it != dma_recvs_.end();) {
    if (!dma.reached_zero(it->counter)) {
      ++it;
      continue;
    }
    finish(*it->req);
    dma_free_.push_back(it->counter);
    it = dma_recvs_.erase(it);
    did = true;
  }
  for (auto it = dma_sends_.begin(); it != dma_sends_.end();) {
    if (!dma.reached_zero(it->second.counter)) {
      ++it;
      continue;
    }
    // Sent: the receiver's remote get took it, so no clear to send will come.
    auto op = awaiting_cts_.find(it->first);
    if (op != awaiting_cts_.end()) {
      finish(*op->second->req);
      awaiting_cts_.erase(op);
    }
    dma_free_.push_back(it->second.counter);
    it = dma_sends_.erase(it);
    did = true;
  }
  if (did) dma.check();
  return did;
}

void P2pEngine::enable_interrupts(fw::TaskContext& task) {
  uint64_t events = 0;
  for (const DmaRecv& r : dma_recvs_) events |= uint64_t{1} << r.counter;
  for (const auto& [id, s] : dma_sends_) events |= uint64_t{1} << s.counter;
  if (events == dma_events_) return;
  fw::DmaFirmware(task.cpu, task.personality, dma_fifos_).set_events(events);
  dma_events_ = events;
}

}  // namespace collnet::driver
