// A node's point-to-point mailbox, in the memory its tasks share. The node's torus
// reception FIFO is one for all its tasks, so whichever task drains it files every packet
// here; sends between tasks of the node are filed here directly. Messages are queued per
// (communicator, source, destination task, tag) in arrival order, which is what makes the
// matching non-overtaking. A receive that finds nothing queued posts its buffer, and a
// message arriving for it with the posted count is written straight into that buffer
// instead of being queued and copied.
//
// A plain data structure: the caller charges the simulated cycles of its accesses.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <tuple>
#include <vector>

namespace collnet::driver {

class Mailbox {
 public:
  struct Key {
    unsigned cls = 0;        // the communicator's class route
    unsigned source = 0;     // the sender's world rank
    unsigned dest_task = 0;  // the receiver's task on this node
    unsigned tag = 0;
    bool operator<(const Key& o) const {
      return std::tie(cls, source, dest_task, tag) < std::tie(o.cls, o.source, o.dest_task, o.tag);
    }
  };

  // Messages are `bytes` long and travel in 64-bit words, the last one padded.
  static size_t words_for(size_t bytes) { return (bytes + 7) / 8; }

  struct Message {
    size_t bytes = 0;
    std::vector<uint64_t> words;  // words_for(bytes) words, the first `filled` of them arrived
    size_t filled = 0;
    bool complete() const { return filled == words.size(); }
  };

  struct Posted {
    uint64_t* buf = nullptr;  // words_for(bytes) words
    size_t bytes = 0;
    bool started = false;  // a message is being written into buf
    size_t filled = 0;
    bool done() const { return started && filled == words_for(bytes); }
  };

  // The oldest message queued for `k`, complete or still arriving, or nullptr. The pointer
  // stays valid until pop(k).
  Message* queued(const Key& k);
  void pop(const Key& k);

  // A receive of a `bytes`-long message into `buf` (words_for(bytes) words) waits for the
  // next message for `k`. Only when nothing is queued for `k` (a queued message is older
  // and must be received first).
  void post(const Key& k, uint64_t* buf, size_t bytes);
  const Posted* posted(const Key& k) const;
  void unpost(const Key& k);

  // A whole message of `bytes` (in words_for(bytes) words) from a task of this node.
  void put(const Key& k, const uint64_t* words, size_t bytes);

  // Packets from the torus. `stream` is the sender's world rank: a sender's packets arrive
  // in order and its messages one after another, so each stream has at most one message
  // open. `words` holds `available` words after the envelope (padding included); the
  // message takes what it still lacks. Both throw collnet::Error on a packet that does not
  // continue its stream's open message (index or key wrong, or nothing open).
  void first_packet(unsigned stream, const Key& k, size_t bytes, const uint64_t* words, size_t available);
  void next_packet(unsigned stream, const Key& k, uint64_t index, const uint64_t* words, size_t available);

  // Messages queued and streams open, over all keys (for tests and leak checks).
  size_t queued_messages() const;
  size_t open_streams() const { return open_.size(); }

 private:
  struct Open {
    Key key;
    uint64_t* dst = nullptr;     // where the message's words go: a posted buffer or a queued message
    size_t bytes = 0;
    size_t count = 0;            // its words
    size_t* filled = nullptr;    // the Posted's or the Message's
    uint64_t next_index = 0;  // the index the next packet carries: the first is 0
  };
  // Opens a message of `bytes` for `k`: into the posted receive if it can take it (one of
  // the same length), else queued. Returns where its words go.
  Open open(const Key& k, size_t bytes);
  // Copies what the open message still lacks from `words`; closes the stream when complete.
  void fill(unsigned stream, Open& o, const uint64_t* words, size_t available);

  std::map<Key, std::deque<Message>> queues_;  // deque: references survive push_back and pop_front
  std::map<Key, Posted> posted_;
  std::map<unsigned, Open> open_;
};

}  // namespace collnet::driver
