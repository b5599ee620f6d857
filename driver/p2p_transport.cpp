#include "p2p_transport.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "error.hpp"

namespace collnet::driver {

namespace {

// Releases the node's torus lock when the holder leaves, also by an exception: another
// task of the node would otherwise wait for it forever.
class LockHeld {
 public:
  explicit LockHeld(NodeTasks& node) : node_(node) {}
  ~LockHeld() { node_.torus_busy = false; }
  LockHeld(const LockHeld&) = delete;
  LockHeld& operator=(const LockHeld&) = delete;

 private:
  NodeTasks& node_;
};

}  // namespace

P2pTransport::P2pTransport(fw::TaskContext& task, NodeTasks& node)
    : task_(task), node_(node), layout_(task.personality.shape) {
  if (task.tasks > (1u << p2p::kTaskBits))
    throw Error("point-to-point: " + std::to_string(task.tasks) + " tasks per node do not fit the envelope's " +
                std::to_string(p2p::kTaskBits) + "-bit task fields (at most " + std::to_string(1u << p2p::kTaskBits) + ")");
}

bool P2pTransport::try_lock() {
  // One task alone on its node never waits for the lock and pays nothing for it.
  const bool shared = task_.tasks > 1;
  if (node_.torus_busy) {
    if (shared) task_.cpu.memory_access();
    return false;
  }
  node_.torus_busy = true;
  if (shared) task_.cpu.memory_access();
  return true;
}

void P2pTransport::unlock() {
  // The releasing store: the lock is free from its first cycle, so a waiting task of the
  // node can take it before this one comes back for it.
  if (task_.tasks > 1) task_.cpu.memory_access();
}

void P2pTransport::send(unsigned dst_node, p2p::Envelope env, const uint64_t* data, size_t bytes) {
  const size_t count = Mailbox::words_for(bytes);
  fw::TorusHeader h;
  h.dst = layout_.coord(dst_node);
  h.deterministic = true;
  const uint64_t packets = p2p::packets_for(count);
  std::vector<uint64_t> payload;
  uint64_t next = 0;
  while (next < packets) {
    if (!try_lock()) continue;
    {
      LockHeld held(node_);
      const fw::TorusStatus st = task_.torus.status();
      if (st.error) task_.torus.check();
      // As many packets as the FIFO has room for, on one status read.
      unsigned room = st.inj_free[kFifo];
      while (next < packets) {
        const size_t first = next * p2p::kDataWords;
        const size_t n = std::min<size_t>(p2p::kDataWords, count - first);
        h.chunks = p2p::chunks_for(n);
        if (room < h.flits()) break;
        env.value = next == 0 ? bytes : next;
        h.sw_tag = next == 0 ? p2p::kSwTagFirst : p2p::kSwTagNext;
        payload.assign(size_t{fw::regmap::kChunkFlits} * h.chunks, 0);
        payload[0] = env.encode();
        std::copy(data + first, data + first + n, payload.begin() + 1);
        task_.torus.inject(h, payload, kFifo);
        room -= h.flits();
        ++next;
      }
      // Whatever has arrived meanwhile, so that no node waits on this one's reception FIFO.
      if (st.rcv[kFifo] > 0 || task_.torus.mid_packet(kFifo)) drain();
    }
    unlock();
  }
}

void P2pTransport::poll() {
  if (!try_lock()) return;
  {
    LockHeld held(node_);
    const fw::TorusStatus st = task_.torus.status();
    if (st.error) task_.torus.check();
    if (st.rcv[kFifo] > 0 || task_.torus.mid_packet(kFifo)) drain();
  }
  unlock();
}

void P2pTransport::drain() {
  // A header read leaves its chunks to this task's firmware: finish the packet before the
  // lock goes (it streams in at a flit per cycle once its header is there).
  do {
    for (const fw::TorusPacket& p : task_.torus.receive_available(kFifo)) file(p);
  } while (task_.torus.mid_packet(kFifo));
}

void P2pTransport::file(const fw::TorusPacket& p) {
  const unsigned src_node = layout_.rank(p.header.src);
  const bool first = p.header.sw_tag == p2p::kSwTagFirst;
  if (!first && p.header.sw_tag != p2p::kSwTagNext)
    throw Error("point-to-point: node " + std::to_string(task_.node) + " received a torus packet from node " +
                std::to_string(src_node) + " with software tag " + std::to_string(p.header.sw_tag) +
                ", which is not a point-to-point packet");
  const p2p::Envelope env = p2p::Envelope::decode(p.payload.front());
  if (env.src_task >= task_.tasks || env.dst_task >= task_.tasks)
    throw Error("point-to-point: node " + std::to_string(task_.node) + " received a packet from task " +
                std::to_string(env.src_task) + " of node " + std::to_string(src_node) + " for task " +
                std::to_string(env.dst_task) + ", with " + std::to_string(task_.tasks) + " tasks per node");
  const unsigned source = src_node * task_.tasks + env.src_task;
  const Mailbox::Key k{env.cls, source, env.dst_task, env.tag};
  task_.cpu.memory_access();  // the mailbox's bookkeeping; the words came in by the vector reads
  const uint64_t* words = p.payload.data() + 1;
  const size_t available = p.payload.size() - 1;
  if (first)
    node_.mailbox.first_packet(source, k, env.value, words, available);
  else
    node_.mailbox.next_packet(source, k, env.value, words, available);
}

}  // namespace collnet::driver
