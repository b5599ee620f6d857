// SPDX-License-Identifier: Apache-2.0
// lk_port on its own, built with the tree link's parameters (66-bit flits, two credit lanes
// of 4-bit counts, eight level bits): two link ends (tb/lk_pair.sv, one model) joined by two C++ wires of a chosen
// latency that flip bits at a chosen rate. Each end has a node that sends packets of 1..33
// flits (starting one only while hold_o is low), returns credits (never more outstanding
// than a lane's count can tell apart) and changes its level bits now and then.
//  - A clean link adds no cycle: a flit, a credit and a level change reach the other node
//    exactly `latency` cycles after they left theirs, at latencies 1, 4 and 30.
//  - With bit errors (rates up to 2e-3 per bit: one word in five hit) every flit arrives
//    once, in order and intact, every credit arrives, the levels end equal, and the
//    counters add up (first sends = deliveries, errors and resends seen). Go-back-N pays
//    for an error with a round trip of resent flits: at 1e-3 a third of the flits get through.
//  - A link cut mid-stream is declared down within LkRetryLimit timeouts and holds its node.
//  - A slow link (cpf_i: 1.5 to 64 cycles per flit, latencies up to 60) puts flits on its
//    wire no faster than its rate and at it while busy, delivers every flit, and never
//    times out.
//  - Each invariant of go-back-N broken on purpose fires its assertion: a node that ignores
//    hold_o, a far end acknowledging what was never sent, a go-back not from the oldest
//    unacknowledged flit, a flit delivered out of sequence, a NAK without a loss, a link
//    that comes back up.
#include <array>
#include <cstdint>
#include <deque>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "Vlk_pair.h"
#include "Vlk_pair___024root.h"
#include "tb/tb_harness.hpp"

namespace collnet::tb {
namespace {

constexpr unsigned kDataW = 66, kHdrBit = 64, kVcs = 2, kCntW = 4, kLevelW = 8, kCtlW = 41;
constexpr unsigned kPacketMax = 33;
constexpr unsigned kTimeout = 128, kRetryLimit = 8;

// One cycle's word on a wire.
struct Word {
  bool valid = false;
  uint64_t lo = 0;     // data bits 63:0
  uint8_t hi = 0;      // data bits 65:64
  uint8_t cnt = 0;     // credit counts
  uint8_t level = 0;
  uint64_t ctl = 0;    // 41 bits
  static constexpr unsigned kBits = 1 + kDataW + kVcs * kCntW + kLevelW + kCtlW;
  void flip(unsigned b) {
    if (b == 0) { valid = !valid; return; }
    b -= 1;
    if (b < 64) { lo ^= uint64_t{1} << b; return; }
    b -= 64;
    if (b < 2) { hi ^= uint8_t(1u << b); return; }
    b -= 2;
    if (b < kVcs * kCntW) { cnt ^= uint8_t(1u << b); return; }
    b -= kVcs * kCntW;
    if (b < kLevelW) { level ^= uint8_t(1u << b); return; }
    b -= kLevelW;
    ctl ^= uint64_t{1} << b;
  }
};

// A wire of `latency` cycles that flips each bit it carries with probability `ber`, and
// from cycle `cut_at` until `cut_until` carries nothing (all zeros).
class Wire {
 public:
  Wire(unsigned latency, double ber, std::mt19937_64& rng) : q_(latency), ber_(ber), rng_(rng) {}
  Word get() const { return q_.front(); }
  void put(Word w, uint64_t cycle) {
    if (ber_ > 0) {
      std::bernoulli_distribution hit(ber_);
      for (unsigned b = 0; b < Word::kBits; ++b)
        if (hit(rng_)) w.flip(b), ++flips_;
    }
    if (cycle >= cut_at && cycle < cut_until) w = Word{};
    q_.pop_front();
    q_.push_back(w);
  }
  uint64_t cut_at = ~uint64_t{0}, cut_until = ~uint64_t{0};
  uint64_t flips() const { return flips_; }

 private:
  std::deque<Word> q_;
  double ber_;
  std::mt19937_64& rng_;
  uint64_t flips_ = 0;
};

struct Flit {
  uint64_t lo;
  uint8_t hi;
  bool operator==(const Flit& o) const { return lo == o.lo && hi == o.hi; }
};

// One end's ports in the lk_pair model.
struct Ports {
  CData *n_valid_i, *n_credit_i, *n_level_i, *hold_o, *n_valid_o, *n_credit_o, *n_level_o;
  VlWide<3>*n_data_i, *n_data_o, *w_data_o, *w_data_i;
  CData *w_valid_o, *w_cnt_o, *w_level_o, *w_valid_i, *w_cnt_i, *w_level_i, *down_o, *sel_i;
  QData *w_ctl_o, *w_ctl_i, *word_o;
  SData* cpf_i;
};
#define LK_PORTS(m, e)                                                                                        \
  Ports {                                                                                                    \
    &m.e##_n_valid_i, &m.e##_n_credit_i, &m.e##_n_level_i, &m.e##_hold_o, &m.e##_n_valid_o, &m.e##_n_credit_o, \
        &m.e##_n_level_o, &m.e##_n_data_i, &m.e##_n_data_o, &m.e##_w_data_o, &m.e##_w_data_i, &m.e##_w_valid_o, \
        &m.e##_w_cnt_o, &m.e##_w_level_o, &m.e##_w_valid_i, &m.e##_w_cnt_i, &m.e##_w_level_i, &m.e##_down_o,    \
        &m.e##_sel_i, &m.e##_w_ctl_o, &m.e##_w_ctl_i, &m.e##_word_o, &m.e##_cpf_i                            \
  }

// The node behind one link end: what it sends, returns and receives.
struct NodeSide {
  Ports p;
  // sending
  unsigned left = 0;         // flits of the current packet still to send
  bool out_valid = false;    // the node's registered outputs
  Flit out{};
  std::vector<std::pair<uint64_t, Flit>> sent;      // (cycle, flit)
  std::vector<std::pair<uint64_t, Flit>> received;  // (cycle, flit)
  // credits and levels
  std::array<uint8_t, kVcs> credit_out{};           // pulses this cycle
  std::array<uint64_t, kVcs> credits_sent{}, credits_got{};
  std::vector<std::pair<uint64_t, unsigned>> credit_log_sent, credit_log_got;  // (cycle, lane)
  uint8_t level = 0;
  std::vector<std::pair<uint64_t, uint8_t>> level_log;      // (cycle, new level) as driven
  std::vector<std::pair<uint64_t, uint8_t>> level_seen_log; // (cycle, new level) as seen
  uint8_t level_seen = 0;
  bool ignore_hold = false;
};

Word read_out(const Ports& m) {
  Word w;
  w.valid = *m.w_valid_o;
  w.lo = wide_bits(m.w_data_o->data(), 0, 64);
  w.hi = static_cast<uint8_t>(wide_bits(m.w_data_o->data(), 64, 2));
  w.cnt = *m.w_cnt_o;
  w.level = *m.w_level_o;
  w.ctl = *m.w_ctl_o;
  return w;
}

void drive_in(const Ports& m, const Word& w) {
  *m.w_valid_i = w.valid;
  set_wide_bits(m.w_data_i->data(), 0, 64, w.lo);
  set_wide_bits(m.w_data_i->data(), 64, 2, w.hi);
  *m.w_cnt_i = w.cnt;
  *m.w_level_i = w.level;
  *m.w_ctl_i = w.ctl;
}

struct Options {
  unsigned latency = 4;
  double ber = 0;
  uint64_t cycles = 20000;
  uint64_t stop_sending_at = ~uint64_t{0};  // no packet starts from here on
  double start_rate = 0.5;                    // chance a packet starts when allowed
  uint16_t cpf = 0x100;                       // both ends' rate, cycles per flit (8.8)
};

class Pair {
 public:
  Pair(const Options& o, uint64_t seed)
      : o_(o), rng_(seed), ab_(o.latency, o.ber, rng_), ba_(o.latency, o.ber, rng_) {
    a.p = LK_PORTS(h.model(), a);
    b.p = LK_PORTS(h.model(), b);
  }

  ClockedHarness<Vlk_pair> h;
  NodeSide a, b;
  Wire& ab() { return ab_; }
  Wire& ba() { return ba_; }
  uint64_t cycle() const { return cycle_; }
  // The cycles each end put a flit on its wire (first sends and resends).
  std::vector<uint64_t> a_wire_flits, b_wire_flits;

  void run(uint64_t cycles) {
    for (uint64_t i = 0; i < cycles; ++i) step();
  }

  uint64_t word(NodeSide& n, unsigned sel) {
    *n.p.sel_i = static_cast<CData>(sel);
    h.eval();
    return *n.p.word_o;
  }

 private:
  void drive_node(NodeSide& n) {
    const Ports& m = n.p;
    *m.n_valid_i = n.out_valid;
    set_wide_bits(m.n_data_i->data(), 0, 64, n.out.lo);
    set_wide_bits(m.n_data_i->data(), 64, 2, n.out.hi);
    uint8_t c = 0;
    for (unsigned v = 0; v < kVcs; ++v) c |= uint8_t(n.credit_out[v] << v);
    *m.n_credit_i = c;
    *m.n_level_i = n.level;
    *m.cpf_i = o_.cpf;
  }

  void observe(NodeSide& n) {
    const Ports& m = n.p;
    if (*m.n_valid_o)
      n.received.push_back({cycle_, Flit{wide_bits(m.n_data_o->data(), 0, 64),
                                         static_cast<uint8_t>(wide_bits(m.n_data_o->data(), 64, 2))}});
    for (unsigned v = 0; v < kVcs; ++v)
      if (*m.n_credit_o >> v & 1) ++n.credits_got[v], n.credit_log_got.push_back({cycle_, v});
    if (*m.n_level_o != n.level_seen) {
      n.level_seen = *m.n_level_o;
      n.level_seen_log.push_back({cycle_, n.level_seen});
    }
    if (n.out_valid) n.sent.push_back({cycle_, n.out});
    for (unsigned v = 0; v < kVcs; ++v)
      if (n.credit_out[v]) n.credit_log_sent.push_back({cycle_, v});
  }

  // The node's registers at the edge: the next flit, credit pulses and level.
  void advance_node(NodeSide& n, const NodeSide& peer, bool hold) {
    bool starting = false;
    if (n.left == 0 && (n.ignore_hold || !hold) && cycle_ + 1 < o_.stop_sending_at &&
        std::bernoulli_distribution(o_.start_rate)(rng_)) {
      n.left = 1 + static_cast<unsigned>(rng_() % kPacketMax);
      starting = true;
    }
    n.out_valid = n.left > 0;
    if (n.out_valid) {
      n.out.lo = rng_();
      n.out.hi = static_cast<uint8_t>((rng_() & 2) | (starting ? 1 : 0));  // bit 64 marks a packet's first flit
      --n.left;
    }
    for (unsigned v = 0; v < kVcs; ++v) {
      const uint64_t owed = n.credits_sent[v] - peer.credits_got[v];
      n.credit_out[v] = cycle_ + 1 < o_.stop_sending_at && owed + 1 < (1u << kCntW) &&
                        std::bernoulli_distribution(0.3)(rng_);
      n.credits_sent[v] += n.credit_out[v];
    }
    if (cycle_ + 1 < o_.stop_sending_at && std::bernoulli_distribution(0.01)(rng_)) {
      n.level = static_cast<uint8_t>(rng_());
      n.level_log.push_back({cycle_ + 1, n.level});
    }
  }

  void step() {
    drive_node(a), drive_node(b);
    drive_in(a.p, ba_.get());
    drive_in(b.p, ab_.get());
    h.eval();
    observe(a), observe(b);
    const Word out_a = read_out(a.p), out_b = read_out(b.p);
    const bool hold_a = *a.p.hold_o, hold_b = *b.p.hold_o;
    h.tick();
    ab_.put(out_a, cycle_);
    ba_.put(out_b, cycle_);
    if (out_a.valid) a_wire_flits.push_back(cycle_);
    if (out_b.valid) b_wire_flits.push_back(cycle_);
    advance_node(a, b, hold_a);
    advance_node(b, a, hold_b);
    ++cycle_;
  }

  Options o_;
  std::mt19937_64 rng_;
  Wire ab_, ba_;
  uint64_t cycle_ = 0;
};

std::vector<Flit> flits(const std::vector<std::pair<uint64_t, Flit>>& log) {
  std::vector<Flit> f;
  for (const auto& e : log) f.push_back(e.second);
  return f;
}

void expect_delivered_in_order(const NodeSide& from, const NodeSide& to, const char* dir) {
  const std::vector<Flit> s = flits(from.sent), r = flits(to.received);
  ASSERT_EQ(r.size(), s.size()) << dir << ": flits sent and delivered";
  for (size_t i = 0; i < s.size(); ++i) ASSERT_TRUE(s[i] == r[i]) << dir << ": flit " << i << " differs";
}

class LkPortClean : public ::testing::TestWithParam<unsigned> {};

TEST_P(LkPortClean, AddsNoCycleToFlitsCreditsOrLevels) {
  Options o;
  o.latency = GetParam();
  o.stop_sending_at = 15000;
  Pair p(o, test_seed());
  p.run(o.cycles);
  for (auto [from, to, dir] : {std::tuple{&p.a, &p.b, "a to b"}, std::tuple{&p.b, &p.a, "b to a"}}) {
    ASSERT_GT(from->sent.size(), 5000u) << dir;
    expect_delivered_in_order(*from, *to, dir);
    for (size_t i = 0; i < from->sent.size(); ++i)
      ASSERT_EQ(to->received[i].first, from->sent[i].first + o.latency) << dir << ": flit " << i;
    ASSERT_EQ(to->credit_log_got.size(), from->credit_log_sent.size()) << dir;
    for (size_t i = 0; i < from->credit_log_sent.size(); ++i) {
      ASSERT_EQ(to->credit_log_got[i].first, from->credit_log_sent[i].first + o.latency) << dir << ": credit " << i;
      ASSERT_EQ(to->credit_log_got[i].second, from->credit_log_sent[i].second) << dir << ": credit " << i;
    }
    // Every level change is seen `latency` cycles after it was driven (a change back to
    // the same value within a cycle is not a change).
    ASSERT_FALSE(from->level_log.empty()) << dir;
    for (const auto& [c, v] : to->level_seen_log) {
      uint8_t driven = 0;
      for (const auto& [dc, dv] : from->level_log)
        if (dc + o.latency <= c) driven = dv;
      ASSERT_EQ(v, driven) << dir << ": level seen at cycle " << c;
    }
    EXPECT_EQ(p.word(*from, 0), from->sent.size()) << dir << ": LkTxFlits";
    EXPECT_EQ(p.word(*to, 2), from->sent.size()) << dir << ": LkRxFlits";
    EXPECT_EQ(p.word(*from, 5), 0u) << dir << ": LkResent";
    EXPECT_EQ(p.word(*to, 3), 0u) << dir << ": LkCrcErrors";
    EXPECT_EQ(p.word(*from, 6), 0u) << dir << ": LkTimeouts";
    const uint64_t state = p.word(*from, 7);
    EXPECT_EQ(state & 3, 2u) << dir << ": alive, not down";
    EXPECT_EQ((state >> 8) & 0xff, 0u) << dir << ": nothing held once everything is acknowledged";
  }
  EXPECT_FALSE(p.h.assertion_failed());
}

INSTANTIATE_TEST_SUITE_P(Latencies, LkPortClean, ::testing::Values(1u, 4u, 30u));

// Serialisation (cpf_i): a link end puts a flit on the wire no more often than its rate
// allows, fractional rates average out to the rate, the node's flits queue in the
// retransmission buffer meanwhile (hold_o bounds them), and nothing times out, however
// slow the link, up to the longest latency.
struct RateCase {
  uint16_t cpf;
  unsigned latency;
};
class LkPortRate : public ::testing::TestWithParam<RateCase> {};

TEST_P(LkPortRate, SendsAtTheRateAndDeliversEverything) {
  Options o;
  o.cpf = GetParam().cpf;
  o.latency = GetParam().latency;
  o.start_rate = 1.0;  // the node offers more than the link carries
  o.cycles = 30000;
  o.stop_sending_at = 20000;
  Pair p(o, test_seed());
  p.run(o.cycles);
  const double cycles_per_flit = o.cpf / 256.0;
  for (auto [from, to, wire, dir] : {std::tuple{&p.a, &p.b, &p.a_wire_flits, "a to b"},
                                     std::tuple{&p.b, &p.a, &p.b_wire_flits, "b to a"}}) {
    ASSERT_GT(from->sent.size(), 100u) << dir;
    expect_delivered_in_order(*from, *to, dir);
    // No two flits closer than the rate allows, and over any window no more than it allows.
    const uint64_t min_gap = o.cpf / 256;
    for (size_t i = 1; i < wire->size(); ++i) ASSERT_GE((*wire)[i] - (*wire)[i - 1], min_gap) << dir << ": flit " << i;
    const size_t window = 1000;
    for (size_t i = 0; i + window < wire->size(); i += 97)
      ASSERT_GE(double((*wire)[i + window] - (*wire)[i]) + 1, window * cycles_per_flit - 1) << dir << ": flits " << i;
    // While the node keeps the link busy, the link runs at its rate.
    const uint64_t busy_until = 15000;
    size_t busy = 0;
    for (uint64_t c : *wire) busy += c < busy_until;
    EXPECT_NEAR(double(busy), busy_until / cycles_per_flit, busy_until / cycles_per_flit * 0.02 + 2) << dir;
    EXPECT_EQ(p.word(*from, 5), 0u) << dir << ": LkResent";
    EXPECT_EQ(p.word(*from, 6), 0u) << dir << ": LkTimeouts";
  }
  EXPECT_FALSE(p.h.assertion_failed());
}

INSTANTIATE_TEST_SUITE_P(Rates, LkPortRate,
                         ::testing::Values(RateCase{0x180, 4}, RateCase{0x1000, 4}, RateCase{0x2000, 60},
                                           RateCase{0x4000, 60}, RateCase{0x0a55, 30}),
                         [](const ::testing::TestParamInfo<RateCase>& info) {
                           return "cpf" + std::to_string(info.param.cpf) + "_latency" +
                                  std::to_string(info.param.latency);
                         });

struct ErrorCase {
  unsigned latency;
  double ber;
};

class LkPortErrors : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(LkPortErrors, DeliverEveryFlitOnceInOrderIntact) {
  Options o;
  o.latency = GetParam().latency;
  o.ber = GetParam().ber;
  o.cycles = 40000;
  o.stop_sending_at = 30000;
  Pair p(o, test_seed());
  p.run(o.cycles);
  EXPECT_GT(p.ab().flips() + p.ba().flips(), 0u);
  for (auto [from, to, dir] : {std::tuple{&p.a, &p.b, "a to b"}, std::tuple{&p.b, &p.a, "b to a"}}) {
    ASSERT_GT(from->sent.size(), 1000u) << dir;
    expect_delivered_in_order(*from, *to, dir);
    for (unsigned v = 0; v < kVcs; ++v) EXPECT_EQ(to->credits_got[v], from->credits_sent[v]) << dir << ", lane " << v;
    EXPECT_EQ(to->level_seen, from->level) << dir << ": levels end equal";
    EXPECT_EQ(p.word(*from, 0), from->sent.size()) << dir << ": LkTxFlits counts first sends";
    EXPECT_EQ(p.word(*to, 2), from->sent.size()) << dir << ": LkRxFlits counts deliveries";
    EXPECT_GT(p.word(*to, 3), 0u) << dir << ": LkCrcErrors";
    EXPECT_GT(p.word(*from, 5), 0u) << dir << ": LkResent";
    EXPECT_EQ(p.word(*from, 7) & 1, 0u) << dir << ": not down";
    std::printf("[ link     ] %s: %zu flits, %llu CRC errors, %llu dropped out of sequence, %llu resent, "
                "%llu timeouts\n",
                dir, from->sent.size(), (unsigned long long)p.word(*to, 3), (unsigned long long)p.word(*to, 4),
                (unsigned long long)p.word(*from, 5), (unsigned long long)p.word(*from, 6));
  }
  EXPECT_FALSE(p.h.assertion_failed());
}

INSTANTIATE_TEST_SUITE_P(Rates, LkPortErrors,
                         ::testing::Values(ErrorCase{4, 1e-4}, ErrorCase{4, 1e-3}, ErrorCase{1, 2e-3},
                                           ErrorCase{30, 1e-3}),
                         [](const auto& info) {
                           return "latency" + std::to_string(info.param.latency) + "_case" +
                                  std::to_string(info.index);
                         });

// The acknowledgements stop for longer than the timeout, then come back: the sender times
// out and goes back to the oldest unacknowledged flit, and the first acknowledgement after
// the outage covers flits beyond the one it is resending (the far end had them all along):
// it moves ahead to what the far end expects (lk_port's "acknowledged while being
// resent"). Everything is delivered once and in order, and the link does not go down.
// Without that branch the sender goes on from behind the acknowledged point, sending
// flits its buffer no longer holds, and this test fails.
TEST(LkPort, AcknowledgementsLateBeyondTheTimeoutMoveAGoBackAhead) {
  Options o;
  o.latency = 30;
  o.cycles = 6000;
  o.stop_sending_at = 4000;
  o.start_rate = 1.0;  // a full stream: a long go-back when the timer fires
  Pair p(o, test_seed());
  p.run(2000);
  // b's words stop reaching a: a's timer starts when the last of them arrives, `latency`
  // cycles on, and fires kTimeout cycles later. b's words come back just after that, and
  // the first of them left b before a's resent flits reached it (so it carries no NAK).
  const uint64_t cut = p.cycle();
  p.ba().cut_at = cut;
  p.ba().cut_until = cut + kTimeout + o.latency;
  p.run(o.cycles - 2000);
  for (auto [from, to, dir] : {std::tuple{&p.a, &p.b, "a to b"}, std::tuple{&p.b, &p.a, "b to a"}}) {
    ASSERT_GT(from->sent.size(), 1000u) << dir;
    expect_delivered_in_order(*from, *to, dir);
    EXPECT_EQ(p.word(*from, 7) & 1, 0u) << dir << ": not down";
  }
  std::printf("[ link     ] a: %llu resent, %llu timeouts; b: %llu dropped out of sequence\n",
              (unsigned long long)p.word(p.a, 5), (unsigned long long)p.word(p.a, 6),
              (unsigned long long)p.word(p.b, 4));
  EXPECT_EQ(p.word(p.a, 6), 1u) << "a timed out once while its acknowledgements were gone";
  EXPECT_FALSE(p.h.assertion_failed());
}

TEST(LkPort, ACutLinkIsDeclaredDownWithinTheRetryLimit) {
  Options o;
  o.latency = 4;
  Pair p(o, test_seed());
  p.run(2000);
  const uint64_t cut = p.cycle();
  p.ab().cut_at = cut;
  p.ba().cut_at = cut;
  const uint64_t bound = uint64_t{kRetryLimit} * kTimeout + 2 * o.latency + 4;
  uint64_t down_at = 0;
  for (uint64_t i = 0; i <= bound + 100 && !down_at; ++i) {
    p.run(1);
    if (*p.a.p.down_o) down_at = p.cycle();
  }
  ASSERT_NE(down_at, 0u) << "no down within " << bound + 100 << " cycles of the cut";
  EXPECT_LE(down_at - cut, bound);
  EXPECT_TRUE(*p.a.p.hold_o) << "a link that is down holds its node";
  EXPECT_EQ(p.word(p.a, 6), uint64_t{kRetryLimit}) << "LkTimeouts";
  EXPECT_EQ(p.word(p.a, 7) & 1, 1u) << "LkState.Down";
  // Down is sticky and quiet: nothing more leaves.
  p.run(500);
  EXPECT_FALSE(*p.a.p.w_valid_o);
  EXPECT_EQ(*p.a.p.down_o, 1);
  EXPECT_FALSE(p.h.assertion_failed());
}

// The link layer's assertions, each invariant broken on purpose and its check seen to fire.
// Where a misbehaving node or far end can break one from the ports, the test does that;
// where the logic guarantees it, the test changes a register as a flipped bit would (the
// registers are public in this testbench's Verilation only, tb/tb_lk_port.vlt).
#define LK_REG(p, end, reg) ((p).h->rootp->lk_pair__DOT__u_##end##__DOT__##reg)

// A link carrying a stream both ways.
Options streaming() {
  Options o;
  o.start_rate = 1.0;
  return o;
}

TEST(LkPortAssertions, BufferOverrunFires) {
  Pair p(streaming(), test_seed());
  p.ab().cut_at = 0;  // nothing is ever acknowledged
  p.ba().cut_at = 0;
  p.a.ignore_hold = true;  // the node starts packets while held
  EXPECT_TRUE(p.h.trips("u_a.BufferOverrun", [&] { p.run(400); }, "the node started a packet while held"));
}

TEST(LkPortAssertions, AckWithinSentFires) {
  Pair p(streaming(), test_seed());
  p.run(500);
  // b acknowledges 20 flits it never received, more than a has on its way.
  EXPECT_TRUE(p.h.trips("u_a.AckWithinSent", [&] {
    LK_REG(p, b, expect_q) += 20;
    p.run(8);
  }, "outside the flits sent"));
}

TEST(LkPortAssertions, ResendFromOldestFires) {
  Pair p(streaming(), test_seed());
  p.run(500);
  p.ba().cut_at = p.cycle();  // a's acknowledgements stop: it times out and goes back
  while (p.word(p.a, 6) == 0) p.run(1);
  EXPECT_TRUE(p.h.trips("u_a.ResendFromOldest", [&] {
    LK_REG(p, a, send_q) = static_cast<CData>(LK_REG(p, a, ack_q) + 1);
    p.run(1);
  }, "a go-back resends from"));
}

TEST(LkPortAssertions, RxInSequenceFires) {
  Pair p(streaming(), test_seed());
  p.run(500);
  // b expects one flit ahead: it drops the next flit and takes the one after it.
  EXPECT_TRUE(p.h.trips("u_b.RxInSequence", [&] {
    ++LK_REG(p, b, expect_q);
    p.run(8);
  }, "delivered after"));
}

TEST(LkPortAssertions, SeqOrderedFires) {
  Pair p(streaming(), test_seed());
  p.run(500);
  EXPECT_TRUE(p.h.trips("u_a.SeqOrdered", [&] {
    LK_REG(p, a, hi_q) = static_cast<CData>(LK_REG(p, a, wr_q) + 3);  // sent beyond what was written
    p.run(1);
  }, "sequence numbers out of order"));
}

TEST(LkPortAssertions, NakPerLossFires) {
  Pair p(streaming(), test_seed());
  p.run(500);
  EXPECT_TRUE(p.h.trips("u_a.NakPerLoss", [&] {
    LK_REG(p, a, nak_q) ^= 1;  // a NAK with nothing dropped
    p.run(1);
  }, "a NAK sent without a new loss"));
}

TEST(LkPortAssertions, DownStickyFires) {
  Pair p(streaming(), test_seed());
  p.run(500);
  p.ab().cut_at = p.cycle();
  p.ba().cut_at = p.cycle();
  while (!*p.a.p.down_o) p.run(1);
  p.run(1);
  EXPECT_TRUE(p.h.trips("u_a.DownSticky", [&] {
    LK_REG(p, a, down_q) = 0;
    p.run(1);
  }, "a link declared down came back up"));
}

}  // namespace
}  // namespace collnet::tb
