// Communicator::send and recv: messages between two ranks, over the torus between nodes
// (P2pTransport) and through the node's mailbox between tasks of one node.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

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

void Communicator::send(const void* buf, size_t count, Datatype type, unsigned dest, unsigned tag) {
  send_bytes(buf, count, bytes(type), dest, tag);
}

void Communicator::recv(void* buf, size_t count, Datatype type, unsigned source, unsigned tag) {
  recv_bytes(buf, count, bytes(type), source, tag);
}

void Communicator::send_bytes(const void* buf, size_t count, size_t size, unsigned dest, unsigned tag) {
  const size_t length = check_p2p("send", "destination", dest, tag, count, size, buf);
  // The message travels in words, the last one padded with zeros.
  std::vector<uint64_t> words(Mailbox::words_for(length), 0);
  if (length) std::memcpy(words.data(), buf, length);
  const unsigned me = world_rank(rank_), to = world_rank(dest);
  const unsigned to_node = to / tasks_per_node_, to_task = to % tasks_per_node_;
  if (to_node == task_.node) {
    // Same node: into the mailbox (or the posted receive) directly.
    task_.cpu.memory_access();
    node_.mailbox.put(mailbox_key(me, to_task, tag), words.data(), length);
    charge_copy(task_.cpu, words.size());
    return;
  }
  p2p::Envelope env;
  env.tag = tag;
  env.src_task = me % tasks_per_node_;
  env.dst_task = to_task;
  env.cls = cls_;
  P2pTransport(task_, node_).send(to_node, env, words.data(), length);
}

void Communicator::recv_bytes(void* buf, size_t count, size_t size, unsigned source, unsigned tag) {
  const size_t length = check_p2p("recv", "source", source, tag, count, size, buf);
  std::vector<uint64_t> words(Mailbox::words_for(length));
  Mailbox& mb = node_.mailbox;
  const Mailbox::Key k = mailbox_key(world_rank(source), task_.task, tag);
  P2pTransport transport(task_, node_);

  task_.cpu.memory_access();  // look in the mailbox
  if (mb.queued(k) == nullptr) {
    // Nothing queued: post buf, so that the message is written there as it arrives.
    mb.post(k, words.data(), length);
    try {
      for (;;) {
        const Mailbox::Posted* p = mb.posted(k);
        if (p->done()) {
          mb.unpost(k);
          if (length) std::memcpy(buf, words.data(), length);  // written as it arrived, in the node's memory
          return;
        }
        if (!p->started && mb.queued(k) != nullptr) break;  // a message of another length
        transport.poll();
      }
    } catch (...) {
      mb.unpost(k);
      throw;
    }
    mb.unpost(k);
  }

  Mailbox::Message* m = mb.queued(k);
  if (m->bytes != length)
    throw Error("recv: the message from rank " + std::to_string(source) + " with tag " + std::to_string(tag) +
                " holds " + std::to_string(m->bytes) + " bytes; the receive expects " + std::to_string(length) + " (" +
                std::to_string(count) + " elements of " + std::to_string(size) + " bytes; the message stays queued)");
  while (!m->complete()) transport.poll();
  if (length) std::memcpy(buf, m->words.data(), length);
  charge_copy(task_.cpu, words.size());
  mb.pop(k);
}

}  // namespace collnet::driver
