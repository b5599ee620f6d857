// Communicator::send and recv: messages between two ranks, over the torus between nodes
// (P2pTransport) and through the node's mailbox between tasks of one node.
#include <algorithm>
#include <string>

#include "communicator.hpp"
#include "error.hpp"
#include "p2p_transport.hpp"

namespace collnet::driver {

namespace {

// Copying between node memory buffers, at a vector (four words) per cycle, as combining is.
void charge_copy(fw::Processor& cpu, size_t count) { cpu.idle((count + 3) / 4); }

}  // namespace

Mailbox::Key Communicator::mailbox_key(unsigned source_world, unsigned dest_task, unsigned tag) const {
  return Mailbox::Key{cls_, source_world, dest_task, tag};
}

void Communicator::send(const uint64_t* buf, size_t count, unsigned dest, unsigned tag) {
  check_p2p("send", "destination", dest, tag, count, buf);
  const unsigned me = world_rank(rank_), to = world_rank(dest);
  const unsigned to_node = to / tasks_per_node_, to_task = to % tasks_per_node_;
  if (to_node == task_.node) {
    // Same node: into the mailbox (or the posted receive) directly.
    task_.cpu.memory_access();
    node_.mailbox.put(mailbox_key(me, to_task, tag), buf, count);
    charge_copy(task_.cpu, count);
    return;
  }
  p2p::Envelope env;
  env.tag = tag;
  env.src_task = me % tasks_per_node_;
  env.dst_task = to_task;
  env.cls = cls_;
  P2pTransport(task_, node_).send(to_node, env, buf, count);
}

void Communicator::recv(uint64_t* buf, size_t count, unsigned source, unsigned tag) {
  check_p2p("recv", "source", source, tag, count, buf);
  Mailbox& mb = node_.mailbox;
  const Mailbox::Key k = mailbox_key(world_rank(source), task_.task, tag);
  P2pTransport transport(task_, node_);

  task_.cpu.memory_access();  // look in the mailbox
  if (mb.queued(k) == nullptr) {
    // Nothing queued: post buf, so that the message is written there as it arrives.
    mb.post(k, buf, count);
    try {
      for (;;) {
        const Mailbox::Posted* p = mb.posted(k);
        if (p->done()) {
          mb.unpost(k);
          return;
        }
        if (!p->started && mb.queued(k) != nullptr) break;  // a message of another count
        transport.poll();
      }
    } catch (...) {
      mb.unpost(k);
      throw;
    }
    mb.unpost(k);
  }

  Mailbox::Message* m = mb.queued(k);
  if (m->count != count)
    throw Error("recv: the message from rank " + std::to_string(source) + " with tag " + std::to_string(tag) +
                " holds " + std::to_string(m->count) + " elements; the receive expects " + std::to_string(count) +
                " (the message stays queued)");
  while (!m->complete()) transport.poll();
  std::copy(m->words.begin(), m->words.end(), buf);
  charge_copy(task_.cpu, count);
  mb.pop(k);
}

}  // namespace collnet::driver
