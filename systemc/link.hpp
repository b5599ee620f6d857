// One direction of a link between two nodes: what the sender registered at a clock edge
// arrives at the receiver `latency` cycles later. A tree link carries the tree flit, the
// credits for the opposite direction and the barrier-network bits that share its wires; a
// torus link carries the torus flit and the credits for the opposite direction. The ring
// has latency + quantum slots: when nodes are stepped up to `quantum` (<= latency) cycles
// each before the next node runs (Machine::advance), a sender may be that far ahead of its
// receiver, and nothing the receiver has still to read is overwritten. With quantum 1 the
// nodes may be evaluated in any order within a cycle.
#pragma once

#include <cstdint>
#include <vector>

namespace collnet::sim {

struct LinkFlit {
  bool valid = false;
  bool vc = false;  // the flit's virtual channel (0 user, 1 system)
  bool hdr = false;
  uint64_t data = 0;
  uint8_t credit = 0;  // credits for the link's other direction, VC v at bit v
  uint8_t gi = 0;       // barrier network: {OR, AND} of each of the 4 channels
};

struct TorusFlit {
  bool valid = false;
  bool hdr = false;
  uint8_t vc = 0;      // 0, 1 dynamic, 2 escape, 3 high priority
  uint64_t data = 0;
  uint8_t credit = 0;  // credits for the link's other direction, VC v at bit v
};

template <class Flit>
class DelayWire {
 public:
  explicit DelayWire(unsigned latency, unsigned quantum = 1) : latency_(latency), slots_(latency + quantum) {}

  // What the sender drives after the clock edge of `cycle`.
  void put(uint64_t cycle, const Flit& f) {
    slots_[cycle % slots_.size()] = f;
    if (f.valid) ++flits_;
  }
  // What the receiver samples at the clock edge of `cycle`: what was put at cycle - latency.
  const Flit& get(uint64_t cycle) const { return slots_[(cycle + slots_.size() - latency_) % slots_.size()]; }

  uint64_t flits() const { return flits_; }

 private:
  uint64_t latency_;
  std::vector<Flit> slots_;
  uint64_t flits_ = 0;
};

using LinkWire = DelayWire<LinkFlit>;
using TorusWire = DelayWire<TorusFlit>;

}  // namespace collnet::sim
