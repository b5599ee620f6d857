// SPDX-License-Identifier: Apache-2.0
#include "workload/traffic_agent.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <unordered_set>

#include "firmware/regmap.hpp"
#include "firmware/torus_firmware.hpp"

namespace collnet::workload {

namespace rm = fw::regmap;

namespace {
constexpr unsigned kTagDirect = 0, kTagForward = 1, kTagForwarded = 2;  // header software tag
constexpr unsigned kSeqBits = 40;
}  // namespace

TrafficAgent::TrafficAgent(unsigned rank, const fw::TorusLayout& layout, const TrafficSpec& spec,
                           const TrafficPattern& pattern, TrafficLedger& ledger, const std::vector<TorusRoute>* routes)
    : rank_(rank),
      layout_(layout),
      coord_(layout.coord(rank)),
      spec_(spec),
      pattern_(pattern),
      ledger_(ledger),
      routes_(routes),
      rng_(spec.seed * 0x9e3779b97f4a7c15ull + rank),
      create_(spec.rate / (1.0 + rm::kChunkFlits * spec.chunks)) {}

uint64_t TrafficAgent::payload_word(uint64_t id, uint64_t created, unsigned i) {
  uint64_t x = id * 0xbf58476d1ce4e5b9ull ^ (created + i) * 0x94d049bb133111ebull;
  x ^= x >> 31;
  return x * 0xd6e8feb86cd9f6c5ull + i;
}

TrafficAgent::Pending TrafficAgent::route(unsigned dst, uint64_t created, uint64_t seq, unsigned src) const {
  Pending p{dst, dst, created, seq, src};
  if (routes_ && (*routes_)[dst].via >= 0) p.hop_to = static_cast<unsigned>((*routes_)[dst].via);
  return p;
}

void TrafficAgent::deliver(uint64_t cycle) {
  const uint64_t id = rx_words_[0];
  const unsigned src = static_cast<unsigned>(id >> kSeqBits);
  const uint64_t seq = id & ((uint64_t{1} << kSeqBits) - 1);
  const uint64_t created = rx_words_[1];
  const unsigned dst = static_cast<unsigned>(rx_words_[2]);
  bool intact = src < layout_.nodes() && rx_hdr_.dst == coord_ && rx_words_.size() == 4 * rx_hdr_.chunks &&
                rx_hdr_.chunks == spec_.chunks;
  if (rx_hdr_.sw_tag == kTagDirect) intact = intact && rx_hdr_.src == layout_.coord(src);
  for (unsigned i = 3; intact && i < rx_words_.size(); ++i) intact = rx_words_[i] == payload_word(id, created, i);
  if (intact && rx_hdr_.sw_tag == kTagForward && dst != rank_) {
    // This node is the way round something that is down: send it on.
    queue_.push_back(Pending{dst, dst, created, seq, src});
    return;
  }
  intact = intact && dst == rank_;
  const unsigned hops = src < layout_.nodes() ? layout_.distance(layout_.coord(src), coord_) : 0;
  ledger_.delivered(src, seq, created, cycle, 1 + rm::kChunkFlits * spec_.chunks, hops, intact);
}

void TrafficAgent::finish_read(uint64_t cycle, const std::array<uint64_t, 4>& data) {
  if (pending_ == Read::Header) {
    rx_hdr_ = fw::TorusHeader::decode(data[0]);
    rx_chunks_left_ = rx_hdr_.chunks;
    rx_words_.clear();
  } else if (pending_ == Read::Chunk) {
    rx_words_.insert(rx_words_.end(), data.begin(), data.end());
    if (--rx_chunks_left_ == 0) deliver(cycle);
  } else if (pending_ == Read::Levels) {
    // The levels as of the read; only this agent pops, so they can only have grown since.
    const fw::TorusStatus levels = fw::TorusStatus::decode(0, data[0]);
    for (unsigned k = 1; k < rm::kTrRcvNormalMax; ++k) known_[k] = levels.rcv[k];
  }
  pending_ = Read::None;
}

size_t TrafficAgent::restart(const std::vector<TorusRoute>* routes,
                             const std::vector<TrafficLedger::Outstanding>& resend) {
  if (tx_chunks_left_ > 0 || pending_ != Read::None || rx_chunks_left_ > 0)
    throw std::logic_error("traffic agent " + std::to_string(rank_) + " restarted in the middle of a packet");
  // Of `resend`, those still waiting here (packets to a node gone down are in neither).
  std::unordered_set<uint64_t> again;
  for (const TrafficLedger::Outstanding& o : resend) again.insert(o.seq);
  const size_t waiting = static_cast<size_t>(std::count_if(
      queue_.begin(), queue_.end(), [&](const Pending& p) { return p.src == rank_ && again.count(p.seq) != 0; }));
  routes_ = routes;
  queue_.clear();
  for (const TrafficLedger::Outstanding& o : resend) queue_.push_back(route(o.dst, o.created, o.seq, rank_));
  paused_ = false;
  return waiting;
}

void TrafficAgent::after_edge(uint64_t cycle, fw::BusPort& port) {
  if (pending_ != Read::None) finish_read(cycle, port.bus_rvector());

  if (generating_ && create_(rng_)) {
    if (const auto dst = pattern_.destination(rank_, rng_)) {
      ledger_.created(rank_, next_seq_, *dst, cycle, 1 + rm::kChunkFlits * spec_.chunks);
      queue_.push_back(route(*dst, cycle, next_seq_++, rank_));
    }
  }

  const fw::TorusStatus status = fw::TorusStatus::decode(port.torus_status());
  // Reception: normal FIFO 0's level is on the status wires; the other normal FIFOs' (a
  // side built with several) show there only as RcvMore bits, and the agent reads their
  // levels (RegTrRcvLevels, one bus access) when it has none to go on.
  // rx_ready: FIFO rx_fifo_ holds what the next read takes; else read_levels: some FIFO
  // holds flits whose level the agent does not know.
  known_[0] = status.rcv[0];
  bool rx_ready = false, read_levels = false;
  if (rx_chunks_left_ > 0) {
    rx_ready = known_[rx_fifo_] >= rm::kChunkFlits;
    read_levels = !rx_ready && rx_fifo_ > 0 && (status.more >> (rx_fifo_ - 1) & 1u);
  } else {
    for (unsigned i = 0; i < rm::kTrRcvNormalMax && !rx_ready; ++i) {
      const unsigned f = (rx_next_ + i) % rm::kTrRcvNormalMax;
      if (known_[f] >= 1) {
        rx_ready = true;
        rx_fifo_ = f;
      } else if (f > 0 && (status.more >> (f - 1) & 1u)) {
        read_levels = true;
      }
    }
  }
  const bool can_rx = rx_ready || read_levels;
  const unsigned flits = 1 + rm::kChunkFlits * spec_.chunks;
  bool can_tx = false;
  unsigned fifo = 0;
  if (tx_chunks_left_ > 0) {
    can_tx = status.inj_free[tx_fifo_] >= rm::kChunkFlits;  // room was there for the whole packet
  } else if (!queue_.empty() && !paused_) {
    for (unsigned i = 0; i < 2 && !can_tx; ++i) {
      fifo = (next_fifo_ + i) % 2;
      can_tx = status.inj_free[fifo] >= flits;
    }
  }
  if (!can_rx && !can_tx) return;
  const bool rx = can_rx && (!can_tx || rx_turn_);
  rx_turn_ = !rx;
  ledger_.moved(rank_, cycle);

  fw::BusRequest req;
  req.active = true;
  if (rx && !rx_ready) {
    req.write = false;
    req.addr = rm::kRegTrRcvLevels;
    pending_ = Read::Levels;
  } else if (rx) {
    req.write = false;
    if (rx_chunks_left_ > 0) {
      req.addr = rm::reg_tr_rcv_chunk(rx_fifo_);
      pending_ = Read::Chunk;
      known_[rx_fifo_] -= rm::kChunkFlits;
    } else {
      req.addr = rm::reg_tr_rcv_hdr(rx_fifo_);
      pending_ = Read::Header;
      known_[rx_fifo_] -= 1;
      rx_next_ = (rx_fifo_ + 1) % rm::kTrRcvNormalMax;
    }
  } else if (tx_chunks_left_ > 0) {
    req.write = true;
    req.addr = rm::reg_tr_inj_chunk(tx_fifo_);
    const uint64_t id = (uint64_t{tx_.src} << kSeqBits) | tx_.seq;
    for (unsigned w = 0; w < 4; ++w) {
      const unsigned i = 4 * tx_chunk_ + w;
      req.wdata[w] = i == 0 ? id : i == 1 ? tx_.created : i == 2 ? tx_.dst : payload_word(id, tx_.created, i);
    }
    ++tx_chunk_;
    --tx_chunks_left_;
  } else {
    tx_ = queue_.front();
    queue_.pop_front();
    tx_fifo_ = fifo;
    next_fifo_ = (fifo + 1) % 2;
    tx_chunks_left_ = spec_.chunks;
    tx_chunk_ = 0;
    fw::TorusHeader h;
    h.dst = layout_.coord(tx_.hop_to);
    h.chunks = spec_.chunks;
    h.deterministic = spec_.routing == Routing::Dor;
    h.sw_tag = tx_.hop_to != tx_.dst ? kTagForward : (tx_.src != rank_ ? kTagForwarded : kTagDirect);
    if (routes_) {
      const TorusRoute& r = (*routes_)[tx_.hop_to];
      h.hints = r.hints;
      h.deterministic = h.deterministic || r.deterministic;
    }
    req.write = true;
    req.addr = rm::reg_tr_inj_hdr(fifo);
    req.wdata[0] = h.encode();
  }
  port.present(req);
}

}  // namespace collnet::workload
