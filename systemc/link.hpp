// One direction of a link between two nodes: what the sender registered at a clock edge
// arrives at the receiver `latency` cycles later. A tree link carries the tree flit, the
// credits for the opposite direction and the barrier-network bits that share its wires; a
// torus link carries the torus flit and the credits for the opposite direction. The ring
// has latency + quantum slots: when nodes are stepped up to `quantum` (<= latency) cycles
// each before the next node runs (Machine::advance), a sender may be that far ahead of its
// receiver, and nothing the receiver has still to read is overwritten. With quantum 1 the
// nodes may be evaluated in any order within a cycle. The slot count is rounded up to a
// power of two, so that finding a slot is a mask, not a division.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

namespace collnet::sim {

struct LinkFlit {
  bool operator==(const LinkFlit& o) const {
    return valid == o.valid && vc == o.vc && hdr == o.hdr && data == o.data && credit == o.credit && gi == o.gi;
  }
  bool operator!=(const LinkFlit& o) const { return !(*this == o); }

  bool valid = false;
  bool vc = false;  // the flit's virtual channel (0 user, 1 system)
  bool hdr = false;
  uint64_t data = 0;
  uint8_t credit = 0;  // credits for the link's other direction, VC v at bit v
  uint8_t gi = 0;       // barrier network: {OR, AND} of each of the 4 channels
};

struct TorusFlit {
  bool operator==(const TorusFlit& o) const {
    return valid == o.valid && hdr == o.hdr && vc == o.vc && data == o.data && credit == o.credit;
  }
  bool operator!=(const TorusFlit& o) const { return !(*this == o); }

  bool valid = false;
  bool hdr = false;
  uint8_t vc = 0;      // 0, 1 dynamic, 2 escape, 3 high priority
  uint64_t data = 0;
  uint8_t credit = 0;  // credits for the link's other direction, VC v at bit v
};

template <class Flit>
class DelayWire {
 public:
  explicit DelayWire(unsigned latency, unsigned quantum = 1)
      : latency_(latency), slots_(power_of_two_at_least(uint64_t{latency} + quantum)), mask_(slots_.size() - 1) {}

  // What the sender drives after the clock edge of `cycle`.
  void put(uint64_t cycle, const Flit& f) {
    slots_[cycle & mask_] = f;
    if (f.valid) ++flits_;
    if (read_until_) read_until_->store(cycle + latency_, std::memory_order_relaxed);
  }
  // What the receiver samples at the clock edge of `cycle`: what was put at cycle - latency
  // (unsigned arithmetic wraps, so the first cycles read the idle slots' initial value).
  const Flit& get(uint64_t cycle) const { return slots_[(cycle - latency_) & mask_]; }

  uint64_t flits() const { return flits_; }
  uint64_t slots() const { return slots_.size(); }

  // The receiver's note of the last cycle it must read this wire at: every put sets it to
  // the cycle that reads what it wrote. Past it, every slot still holds what the receiver
  // last read, so it need not look (a cache miss per idle link and cycle saved). The note
  // lives with the receiver; the sender writes it only when it writes a slot. With
  // threads, a note written in a quantum names a cycle of a later quantum, so a receiver
  // that does not see it until after the quantum's join misses nothing.
  void notify(std::atomic<uint64_t>* read_until) { read_until_ = read_until; }

 private:
  static uint64_t power_of_two_at_least(uint64_t n) {
    uint64_t p = 1;
    while (p < n) p <<= 1;
    return p;
  }

  uint64_t latency_;
  std::vector<Flit> slots_;
  uint64_t mask_;
  std::atomic<uint64_t>* read_until_ = nullptr;
  uint64_t flits_ = 0;
};

// The sender's end of a wire: skips the writes that would change nothing, which are most of
// them on a link with nothing to send. Once the same idle flit has been put `slots` times
// in a row, every slot holds it, and putting it again is a no-op. Valid flits are always
// put (the wire counts them). Keeping this state with the sender, not in the wire, spares
// an idle node a cache miss per link per cycle.
template <class Flit>
class WireSender {
 public:
  void bind(DelayWire<Flit>* wire) {
    wire_ = wire;
    same_ = wire ? wire->slots() : 0;  // a new wire's slots all hold the idle flit
    slots_ = same_;
    last_ = Flit{};
  }
  void put(uint64_t cycle, const Flit& f) {
    if (!wire_) return;
    if (f == last_) {
      if (!f.valid && same_ >= slots_) return;
      ++same_;
    } else {
      last_ = f;
      same_ = 1;
    }
    wire_->put(cycle, f);
  }

 private:
  DelayWire<Flit>* wire_ = nullptr;
  Flit last_{};
  uint64_t same_ = 0, slots_ = 0;
};

using LinkWire = DelayWire<LinkFlit>;
using TorusWire = DelayWire<TorusFlit>;

}  // namespace collnet::sim
