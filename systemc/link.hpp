// SPDX-License-Identifier: Apache-2.0
// One direction of a link between two nodes: what the sender registered at a clock edge
// arrives at the receiver `latency` cycles later. A tree link carries the tree flit and the
// credits for the opposite direction; a torus link carries the torus flit and the credits
// for the opposite direction; beside each tree link runs a barrier wire, the global
// interrupt network's, with the barrier bits and a latency of its own. The ring
// has latency + quantum slots: when nodes are stepped up to `quantum` (<= latency) cycles
// each before the next node runs (Machine::advance), a sender may be that far ahead of its
// receiver, and nothing the receiver has still to read is overwritten. With quantum 1 the
// nodes may be evaluated in any order within a cycle. The slot count is rounded up to a
// power of two, so that finding a slot is a mask, not a division.
//
// Faults (set_faults): a wire may flip the bits it carries, each with a given probability
// (a seeded generator per wire, so a run is the same for any thread count), and may be cut
// from a cycle on, after which it carries the idle word (all zeros). Bits are flipped in
// the words a sender puts: every flit, and every change of its credit counts, barrier bits
// or link control word. An idle link repeating the same word is not written (WireSender),
// so it takes no errors; the link layer ignores a damaged idle word anyway (lk_port).
#pragma once

#include <atomic>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace collnet::sim {

// The link layer's control word (lk_pkg::LkCtl*: sequence number, CRCs, acknowledgement).
constexpr unsigned kLinkCtlBits = 41;
constexpr uint64_t kLinkCtlMask = (uint64_t{1} << kLinkCtlBits) - 1;

struct LinkFlit {
  bool operator==(const LinkFlit& o) const {
    return valid == o.valid && vc == o.vc && hdr == o.hdr && data == o.data && credit == o.credit && ctl == o.ctl;
  }
  bool operator!=(const LinkFlit& o) const { return !(*this == o); }

  // Flips bit b (0..kBits-1) of the word on the wire.
  static constexpr unsigned kBits = 1 + 1 + 1 + 64 + 8 + kLinkCtlBits;
  void flip(unsigned b) {
    if (b < 64) data ^= uint64_t{1} << b;
    else if (b < 105) ctl ^= uint64_t{1} << (b - 64);
    else if (b < 113) credit ^= uint8_t(1u << (b - 105));
    else if (b == 113) valid = !valid;
    else if (b == 114) vc = !vc;
    else hdr = !hdr;
  }

  bool valid = false;
  bool vc = false;  // the flit's virtual channel (0 user, 1 system)
  bool hdr = false;
  uint64_t data = 0;
  uint8_t credit = 0;  // running credit counts for the link's other direction, VC v at bits [4v+3:4v]
  uint64_t ctl = 0;     // link control word
};

// What a barrier wire carries: the global interrupt network's levels, {OR, AND} of each of
// the 4 channels. These wires take no bit errors (set_faults is not called on them): the
// barrier bits have no link layer to recover from one.
struct BarrierBits {
  bool operator==(const BarrierBits& o) const { return gi == o.gi; }
  bool operator!=(const BarrierBits& o) const { return !(*this == o); }
  static constexpr bool valid = false;  // a level, not a flit: the wire counts no flits
  static constexpr unsigned kBits = 8;
  void flip(unsigned b) { gi ^= uint8_t(1u << b); }

  uint8_t gi = 0;
};

struct TorusFlit {
  bool operator==(const TorusFlit& o) const {
    return valid == o.valid && hdr == o.hdr && vc == o.vc && data == o.data && credit == o.credit && ctl == o.ctl;
  }
  bool operator!=(const TorusFlit& o) const { return !(*this == o); }

  static constexpr unsigned kBits = 1 + 1 + 2 + 64 + 32 + kLinkCtlBits;
  void flip(unsigned b) {
    if (b < 64) data ^= uint64_t{1} << b;
    else if (b < 105) ctl ^= uint64_t{1} << (b - 64);
    else if (b < 137) credit ^= uint32_t{1} << (b - 105);
    else if (b == 137) valid = !valid;
    else if (b == 138) hdr = !hdr;
    else vc ^= uint8_t(1u << (b - 139));
  }

  bool valid = false;
  bool hdr = false;
  uint8_t vc = 0;       // 0, 1 dynamic, 2 escape, 3 high priority
  uint64_t data = 0;
  uint32_t credit = 0;  // running credit counts for the link's other direction, VC v at bits [8v+7:8v]
  uint64_t ctl = 0;     // link control word
};

template <class Flit>
class DelayWire {
 public:
  explicit DelayWire(unsigned latency, unsigned quantum = 1)
      : latency_(latency), slots_(power_of_two_at_least(uint64_t{latency} + quantum)), mask_(slots_.size() - 1) {}

  // What the sender drives after the clock edge of `cycle`; returns what the wire carries
  // (the same, unless a fault damaged it).
  Flit put(uint64_t cycle, Flit f) {
    if (f.valid) ++flits_;
    if (faulty_) f = damage(cycle, f);
    if constexpr (std::is_same_v<Flit, BarrierBits>) raised_ += f.gi != 0;
    slots_[cycle & mask_] = f;
    if (read_until_) read_until_->store(cycle + latency_, std::memory_order_relaxed);
    return f;
  }

  // Each bit flips with probability `ber` (0 <= ber < 1; `seed` seeds this wire's own
  // generator), and from cycle `cut_at` on the wire carries the idle word.
  void set_faults(double ber, uint64_t seed, uint64_t cut_at) {
    ber_ = ber;
    rng_ = seed ? seed : 1;
    cut_at_ = cut_at;
    faulty_ = ber > 0 || cut_at != kNever;
    if (ber_ > 0) gap_ = next_gap();
  }
  static constexpr uint64_t kNever = ~uint64_t{0};
  uint64_t bits_flipped() const { return flipped_; }
  // What the receiver samples at the clock edge of `cycle`: what was put at cycle - latency
  // (unsigned arithmetic wraps, so the first cycles read the idle slots' initial value).
  const Flit& get(uint64_t cycle) const { return slots_[(cycle - latency_) & mask_]; }

  uint64_t flits() const { return flits_; }
  // Barrier wires: the words carried with a bit set (a level carries no flits; what a
  // cut wire was given is not counted, as it carries nothing).
  uint64_t raised() const { return raised_; }
  uint64_t slots() const { return slots_.size(); }

  // The receiver's note of the last cycle it must read this wire at: every put sets it to
  // the cycle that reads what it wrote. Past it, every slot still holds what the receiver
  // last read, so it need not look (a cache miss per idle link and cycle saved). The note
  // lives with the receiver; the sender writes it only when it writes a slot. With
  // threads, a note written in a quantum names a cycle of a later quantum, so a receiver
  // that does not see it until after the quantum's join misses nothing.
  void notify(std::atomic<uint64_t>* read_until) { read_until_ = read_until; }

  // A wire between two partitions of a machine (Machine) is this wire at the sender, never
  // read there, and a replica at the receiver, written once per quantum. Every slot holds
  // the word of its cycle (the sender skips only repeats every slot already holds), so a
  // quantum without puts leaves the two alike, and one with puts is mended by copying its
  // cycles' slots (the sender's end has no receiver here, so its note — notify() — tells
  // whether it was put to); copy_out reads the slots of cycles [from, from + n) (n <= the
  // quantum the wire was made for); copy_in writes them into the replica and moves the
  // receiver's note as put would.
  void copy_out(uint64_t from, unsigned n, Flit* to) const {
    for (unsigned i = 0; i < n; ++i) to[i] = slots_[(from + i) & mask_];
  }
  void copy_in(uint64_t from, unsigned n, const Flit* words) {
    for (unsigned i = 0; i < n; ++i) slots_[(from + i) & mask_] = words[i];
    if (read_until_ && n > 0) read_until_->store(from + n - 1 + latency_, std::memory_order_relaxed);
  }

 private:
  static uint64_t power_of_two_at_least(uint64_t n) {
    uint64_t p = 1;
    while (p < n) p <<= 1;
    return p;
  }

  Flit damage(uint64_t cycle, Flit f) {
    if (cycle >= cut_at_) return Flit{};
    if (ber_ <= 0) return f;
    // gap_: undamaged bits before the next flip, counted across the words put.
    while (gap_ < Flit::kBits) {
      f.flip(static_cast<unsigned>(gap_));
      ++flipped_;
      gap_ += 1 + next_gap();
    }
    gap_ -= Flit::kBits;
    return f;
  }
  // Bits until the next error: geometric with success probability ber_.
  uint64_t next_gap() {
    rng_ ^= rng_ << 13, rng_ ^= rng_ >> 7, rng_ ^= rng_ << 17;  // xorshift64
    const double u = (static_cast<double>(rng_ >> 11) + 0.5) * (1.0 / 9007199254740992.0);
    const double g = std::floor(std::log(u) / std::log1p(-ber_));
    return g > 1e18 ? uint64_t{1'000'000'000'000'000'000} : static_cast<uint64_t>(g);
  }

  uint64_t latency_;
  std::vector<Flit> slots_;
  uint64_t mask_;
  std::atomic<uint64_t>* read_until_ = nullptr;
  uint64_t flits_ = 0, raised_ = 0;
  bool faulty_ = false;
  double ber_ = 0;
  uint64_t rng_ = 1, gap_ = 0, cut_at_ = kNever, flipped_ = 0;
};

// The sender's end of a wire: skips the writes that would change nothing, which are most of
// them on a link with nothing to send. Once the same idle flit has been put `slots` times
// in a row, every slot holds it, and putting it again is a no-op. Valid flits are always
// put (the wire counts them). Keeping this state with the sender, not in the wire, spares
// an idle node a cache miss per link per cycle. What the sender remembers is what the wire
// carries: after a damaged word, the next put of the undamaged one is a change again.
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
      same_ = 1;
    }
    last_ = wire_->put(cycle, f);
  }

 private:
  DelayWire<Flit>* wire_ = nullptr;
  Flit last_{};
  uint64_t same_ = 0, slots_ = 0;
};

using LinkWire = DelayWire<LinkFlit>;
using TorusWire = DelayWire<TorusFlit>;
using BarrierWire = DelayWire<BarrierBits>;

}  // namespace collnet::sim
