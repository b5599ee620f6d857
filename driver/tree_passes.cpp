// SPDX-License-Identifier: Apache-2.0
#include "driver/tree_passes.hpp"

#include <algorithm>
#include <string>

#include "driver/error.hpp"
#include "firmware/alu_model.hpp"

namespace collnet::driver::tree {

namespace {

uint8_t fold8(uint64_t d) {
  d ^= d >> 32;
  d ^= d >> 16;
  d ^= d >> 8;
  return static_cast<uint8_t>(d);
}

fw::Header header(CollectiveContext& c, const Encoding& e, uint64_t descriptor) {
  fw::Header h;
  h.cls = c.group.cls;
  h.op = e.alu;
  h.size_words = e.header_size();
  // [13:8] sequence, [7:0] the arguments: ranks that disagree send different headers.
  // The context too: ranks that mix up two communicators sharing a class route (a
  // duplicate and its parent) send different headers.
  h.tag = ((c.state.seq++ & 0x3fu) << 8) | fold8(descriptor ^ (uint64_t{c.group.context} << 40));
  return h;
}

// The node's tasks meet in their slot of the node's memory: a padded arrival counter whose
// target is the task count rounded up to a power of two; the leader adds its own arrival
// plus the padding, the others one each, and all have arrived when the counter reaches the
// target. arrive returns on the leader once all arrived; the others wait for its release.
void local_arrive(CollectiveContext& c, NodeTasks::Slot& s) {
  const unsigned n = c.group.local_count;
  const uint64_t target = local_barrier_target(n);
  c.task.cpu.memory_access();  // atomic increment
  s.counter += c.group.is_leader() ? 1 + (target - n) : 1;
  if (!c.group.is_leader()) return;
  while (s.counter != target) {
    c.serve_p2p();
    c.task.cpu.memory_access();
  }
  s.counter = 0;
  s.failure = nullptr;
}

void local_release(CollectiveContext& c, NodeTasks::Slot& s) {
  c.task.cpu.memory_access();
  ++s.generation;
}

void local_wait_release(CollectiveContext& c, NodeTasks::Slot& s, uint64_t generation) {
  while (s.generation == generation) {
    c.serve_p2p();
    c.task.cpu.memory_access();
  }
  if (s.failure) {
    try {
      std::rethrow_exception(s.failure);
    } catch (const std::exception& e) {
      throw Error("the task leading node " + std::to_string(c.task.node) + " failed: " + e.what());
    }
  }
}

// This communicator's slot in the node's memory.
NodeTasks::Slot& slot(CollectiveContext& c) {
  return c.node.slot((uint64_t{c.group.context} << 32) | c.group.task_id(0));
}

// Runs `lead` on the node's leader once every task of the node has arrived; the others
// wait for it. What the leader throws, it throws to the others too.
template <class Lead>
void on_leader(CollectiveContext& c, NodeTasks::Slot& s, Lead&& lead) {
  const uint64_t generation = s.generation;
  local_arrive(c, s);
  if (!c.group.is_leader()) return local_wait_release(c, s, generation);
  try {
    lead();
  } catch (...) {
    s.failure = std::current_exception();
    local_release(c, s);
    throw;
  }
  local_release(c, s);
}

}  // namespace

std::vector<uint64_t> stream(CollectiveContext& c, const Encoding& e, const std::vector<uint64_t>& message,
                             WordRange owned, uint64_t descriptor) {
  const fw::Header h = header(c, e, descriptor);
  std::vector<uint64_t> out(message.size());
  Contribution mine;
  mine.word = [&message](size_t i) { return message[i]; };
  mine.pad = fw::ref_identity(static_cast<unsigned>(e.alu));
  mine.own_begin = owned.first;
  mine.own_end = owned.second;
  const StreamStats st = tree_stream(c.task.tree, h, message.size(), mine, out.data(), [&c] { c.serve_p2p(); });
  c.state.last.packets += st.packets;
  c.state.last.status_polls += st.status_polls;
  return out;
}

std::vector<uint64_t> pass(CollectiveContext& c, const Encoding& e, std::vector<uint64_t> message, WordRange owned,
                           uint64_t descriptor) {
  const unsigned n = c.group.local_count;
  if (n == 1) return stream(c, e, message, owned, descriptor);

  NodeTasks::Slot& s = slot(c);
  s.messages.resize(n, nullptr);
  s.owned.resize(n);
  s.messages[c.group.local_index] = &message;
  s.owned[c.group.local_index] = owned;
  on_leader(c, s, [&] {
    // Combine the node's contributions as the ALU would (4 words per processor cycle).
    WordRange own = owned;
    for (unsigned k = 1; k < n; ++k) {
      fw::alu_combine(static_cast<unsigned>(e.alu), e.header_size(), message, *s.messages[k]);
      if (s.owned[k].first < s.owned[k].second) {
        own.first = own.first < own.second ? std::min(own.first, s.owned[k].first) : s.owned[k].first;
        own.second = std::max(own.second, s.owned[k].second);
      }
    }
    c.task.cpu.work((message.size() * (n - 1) + 3) / 4);
    s.result = stream(c, e, message, own, descriptor);
  });
  return s.result;
}

namespace {

// The world's barrier on the barrier network. World barriers alternate between two
// channels: a rank that polls slowly (serving point-to-point traffic meanwhile) still sees
// its barrier complete, because no rank can come back to a channel before every rank has
// left the barrier on it.
void barrier_network(CollectiveContext& c) {
  const unsigned ch = kWorldChannel + (c.state.barriers++ % kWorldChannels);
  bool& sense = c.state.sense[ch - kWorldChannel];
  sense = !sense;
  fw::BarrierFirmware& b = c.task.barrier;
  const unsigned bit = 1u << ch;
  const uint64_t mine = b.local();
  b.set_local(sense ? (mine | bit) : (mine & ~uint64_t{bit}));
  // Set: wait until every bit is set. Cleared: wait until none is.
  if (sense) {
    while (!b.all_set(ch)) c.serve_p2p();
  } else {
    while (b.any_set(ch)) c.serve_p2p();
  }
}

void leader_barrier(CollectiveContext& c) {
  if (c.group.is_world()) return barrier_network(c);
  // A subset: a one-word OR over its class route, straight from the leader.
  stream(c, Encoding{fw::AluOp::Or, 64}, std::vector<uint64_t>(1, 0), {0, 1}, kBarrier);
}

}  // namespace

void barrier_pass(CollectiveContext& c) {
  if (c.group.local_count == 1) return leader_barrier(c);
  on_leader(c, slot(c), [&] { leader_barrier(c); });
}

}  // namespace collnet::driver::tree
