#include "mailbox.hpp"

#include <algorithm>
#include <string>

#include "error.hpp"

namespace collnet::driver {

namespace {

std::string describe(const Mailbox::Key& k) {
  return "class " + std::to_string(k.cls) + ", source rank " + std::to_string(k.source) + ", task " +
         std::to_string(k.dest_task) + ", tag " + std::to_string(k.tag);
}

}  // namespace

Mailbox::Message* Mailbox::queued(const Key& k) {
  const auto it = queues_.find(k);
  return it == queues_.end() || it->second.empty() ? nullptr : &it->second.front();
}

void Mailbox::pop(const Key& k) {
  const auto it = queues_.find(k);
  if (it == queues_.end() || it->second.empty()) return;
  it->second.pop_front();
  if (it->second.empty()) queues_.erase(it);
}

void Mailbox::post(const Key& k, uint64_t* buf, size_t bytes) {
  Posted& p = posted_[k];
  p = Posted{};
  p.buf = buf;
  p.bytes = bytes;
}

const Mailbox::Posted* Mailbox::posted(const Key& k) const {
  const auto it = posted_.find(k);
  return it == posted_.end() ? nullptr : &it->second;
}

void Mailbox::unpost(const Key& k) {
  const auto p = posted_.find(k);
  if (p == posted_.end()) return;
  if (p->second.started && !p->second.done()) {
    // Abandoned mid-message (its task failed): the rest of the message must not be
    // written into a buffer that may be gone, so what has arrived moves to the queue.
    for (auto& [stream, o] : open_) {
      if (o.filled != &p->second.filled) continue;
      std::deque<Message>& q = queues_[k];
      q.emplace_front();
      Message& m = q.front();
      m.bytes = o.bytes;
      m.words.assign(o.dst, o.dst + o.count);
      m.filled = *o.filled;
      o.dst = m.words.data();
      o.filled = &m.filled;
    }
  }
  posted_.erase(p);
}

Mailbox::Open Mailbox::open(const Key& k, size_t bytes) {
  Open o;
  o.key = k;
  o.bytes = bytes;
  o.count = words_for(bytes);
  const auto p = posted_.find(k);
  // A posted receive takes the message only if nothing older is queued for it and the
  // lengths agree; a message of another length is queued, for the receive to report.
  if (p != posted_.end() && !p->second.started && queued(k) == nullptr && p->second.bytes == bytes) {
    p->second.started = true;
    o.dst = p->second.buf;
    o.filled = &p->second.filled;
    return o;
  }
  std::deque<Message>& q = queues_[k];
  q.emplace_back();
  Message& m = q.back();
  m.bytes = bytes;
  m.words.resize(o.count);
  o.dst = m.words.data();
  o.filled = &m.filled;
  return o;
}

void Mailbox::put(const Key& k, const uint64_t* words, size_t bytes) {
  const Open o = open(k, bytes);
  std::copy(words, words + o.count, o.dst);
  *o.filled = o.count;
}

void Mailbox::fill(unsigned stream, Open& o, const uint64_t* words, size_t available) {
  const size_t n = std::min(available, o.count - *o.filled);
  std::copy(words, words + n, o.dst + *o.filled);
  *o.filled += n;
  ++o.next_index;
  if (*o.filled == o.count) open_.erase(stream);
}

void Mailbox::first_packet(unsigned stream, const Key& k, size_t bytes, const uint64_t* words, size_t available) {
  if (open_.count(stream))
    throw Error("point-to-point: a new message (" + describe(k) + ") arrived while rank " + std::to_string(stream) +
                "'s message (" + describe(open_.at(stream).key) + ") was still incomplete");
  Open& o = open_[stream] = open(k, bytes);
  fill(stream, o, words, available);
}

void Mailbox::next_packet(unsigned stream, const Key& k, uint64_t index, const uint64_t* words, size_t available) {
  const auto it = open_.find(stream);
  if (it == open_.end())
    throw Error("point-to-point: packet " + std::to_string(index) + " (" + describe(k) +
                ") arrived with no message of its source open");
  Open& o = it->second;
  if (o.key < k || k < o.key || index != o.next_index)
    throw Error("point-to-point: packet " + std::to_string(index) + " (" + describe(k) + ") arrived where packet " +
                std::to_string(o.next_index) + " of (" + describe(o.key) + ") was expected");
  fill(stream, o, words, available);
}

size_t Mailbox::queued_messages() const {
  size_t n = 0;
  for (const auto& q : queues_) n += q.second.size();
  return n;
}

}  // namespace collnet::driver
