// One task's use of its node's torus for point-to-point messages: it injects a message's
// packets (p2p_envelope.hpp) and drains the node's reception FIFO into the node's mailbox.
//
// Every packet is deterministic: dimension-order routing on the escape VC gives the
// packets of one (source node, destination node) pair one path and one VC, so they arrive
// in the order they were injected. All point-to-point packets use injection FIFO 0 and
// reception FIFO 0, which keeps that order inside the node too.
//
// The tasks of a node share its FIFOs, so a task uses them only while it holds the node's
// torus lock (NodeTasks::torus_busy): a packet's header and chunks, or a header and the
// chunks read after it, never interleave with another task's accesses. Whoever holds the
// lock files every packet it finds for any task of the node.
//
// A send never waits for injection room without draining: a full injection FIFO may be
// waiting for a destination that is itself sending to this node and can only go on once
// this node reads its reception FIFO.
#pragma once

#include <cstddef>
#include <cstdint>

#include "firmware/torus_layout.hpp"
#include "node_tasks.hpp"
#include "p2p_envelope.hpp"
#include "firmware/task_context.hpp"

namespace collnet::driver {

class P2pTransport {
 public:
  static constexpr unsigned kFifo = 0;  // injection and reception FIFO of every point-to-point packet

  P2pTransport(fw::TaskContext& task, NodeTasks& node);

  // Injects a message of `bytes` (in words_for(bytes) words at `data`) for task
  // `env.dst_task` of node `dst_node` (another node). Returns once its last packet is in
  // the injection FIFO; meanwhile files whatever arrives for the node.
  void send(unsigned dst_node, p2p::Envelope env, const uint64_t* data, size_t bytes);
  // Files every packet the node has received, unless another task of the node holds the
  // FIFOs (then it is that task's work). Costs at least one access either way.
  void poll();

 private:
  // The node's torus lock: a test-and-set in node memory (tasks are only switched at a
  // simulated cycle, so the test and the set are one atomic access).
  bool try_lock();
  void unlock();
  // With the lock held: files every packet the reception FIFO holds, and finishes a packet
  // whose header has been read.
  void drain();
  void file(const fw::TorusPacket& p);

  fw::TaskContext& task_;
  NodeTasks& node_;
  fw::TorusLayout layout_;
};

}  // namespace collnet::driver
