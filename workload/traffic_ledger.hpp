// SPDX-License-Identifier: Apache-2.0
// The books of a synthetic-traffic run, shared by every node's agent: which packets were
// created and delivered (to catch loss, duplicates and corruption), the packets still
// outstanding (what a source sends again when a link goes down), the measurement window
// and its samples, and when anything last moved (the deadlock watchdog). Agents may call
// in from several threads at once (an engine that steps nodes on several host threads,
// such as sim::Machine::advance): the per-packet entries take a lock, and each node
// reports its moves in a slot of its own. The readers are for when no agent runs.
#pragma once

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace collnet::workload {

struct TrafficWindow {
  uint64_t warmup = 0;  // cycles before the measurement
  uint64_t cycles = 0;  // measured cycles
  bool measured(uint64_t cycle) const { return cycle >= warmup && cycle < warmup + cycles; }
};

class TrafficLedger {
 public:
  TrafficLedger(unsigned nodes, TrafficWindow window)
      : window_(window), delivered_(nodes), outstanding_(nodes), last_move_(nodes, 0) {}

  const TrafficWindow& window() const { return window_; }

  // A packet not yet delivered: what its source needs to send it again.
  struct Outstanding {
    uint64_t seq;
    unsigned dst;
    uint64_t created;
  };

  // Packet `seq` of `src` to `dst` was created (sequence numbers count 0, 1, 2, ... per
  // source).
  void created(unsigned src, uint64_t seq, unsigned dst, uint64_t cycle, unsigned flits) {
    std::lock_guard<std::mutex> lock(mutex_);
    const Created c{seq, cycle, src, dst, flits};
    if (journaling_) journal_.created.push_back(c);
    else apply(c);
  }
  // A packet arrived. `intact`: header and payload were as sent, so `src` and `seq` name
  // it; a damaged packet names nothing for sure (its words may be anything) and is only
  // counted (damaged(); whether it may be a packet that a link going down cut short is
  // for the run to judge).
  void delivered(unsigned src, uint64_t seq, uint64_t created_cycle, uint64_t cycle, unsigned flits, unsigned hops,
                 bool intact) {
    std::lock_guard<std::mutex> lock(mutex_);
    const Delivered d{seq, created_cycle, cycle, src, flits, hops, intact ? 1u : 0u};
    if (journaling_) journal_.delivered.push_back(d);
    else apply(d);
  }
  // Node `rank` moved a packet in `cycle` (each node reports its own cycles in order).
  void moved(unsigned rank, uint64_t cycle) { last_move_[rank] = cycle; }

  uint64_t created_count() const { return created_; }
  uint64_t delivered_count() const { return delivered_count_; }
  // Created, and neither delivered nor abandoned: lost if the run has ended.
  uint64_t in_flight() const { return created_ - delivered_count_ - abandoned_; }
  uint64_t abandoned() const { return abandoned_; }
  // Nodes went down (down[r]): their packets not yet delivered, and the packets to them,
  // are abandoned (no source sends them again, and they are not lost). Returns how many
  // were newly abandoned.
  uint64_t abandon(const std::vector<bool>& down) {
    std::lock_guard<std::mutex> lock(mutex_);
    uint64_t n = 0;
    for (unsigned src = 0; src < outstanding_.size(); ++src) {
      auto& out = outstanding_[src];
      for (auto it = out.begin(); it != out.end();) {
        if (down.at(src) || down.at(it->second.dst)) {
          it = out.erase(it);
          ++n;
        } else {
          ++it;
        }
      }
    }
    abandoned_ += n;
    return n;
  }
  uint64_t duplicated() const { return duplicated_; }
  uint64_t damaged() const { return damaged_; }
  // Source `src`'s packets not yet delivered, oldest first.
  std::vector<Outstanding> outstanding(unsigned src) const {
    std::vector<Outstanding> v;
    for (const auto& [seq, o] : outstanding_[src]) v.push_back(o);
    std::sort(v.begin(), v.end(), [](const Outstanding& a, const Outstanding& b) { return a.seq < b.seq; });
    return v;
  }
  uint64_t offered_flits() const { return offered_flits_; }
  uint64_t accepted_flits() const { return accepted_flits_; }
  uint64_t last_move() const {
    return std::max(merged_last_move_, *std::max_element(last_move_.begin(), last_move_.end()));
  }
  uint64_t measured_hops() const { return measured_hops_; }  // minimal hops of the latency samples
  std::vector<uint32_t>& latencies() { return latencies_; }

  // A machine simulated in parts (sim::Machine's partitions, one process each) keeps one
  // ledger per part, each hearing from its own nodes' agents only. After journal(), a
  // part's ledger holds back what its agents report; take_journal() hands that over, and
  // merge() applies every part's journal (in part order: every creation before any
  // delivery, as a packet is created before it arrives), so that after each merge every
  // part's books are the whole machine's, the same as one ledger's at the same cycle.
  struct Created {
    uint64_t seq, cycle;
    uint32_t src, dst, flits;
  };
  struct Delivered {
    uint64_t seq, created, cycle;
    uint32_t src, flits, hops, intact;
  };
  struct Journal {
    std::vector<Created> created;
    std::vector<Delivered> delivered;
    uint64_t last_move = 0;  // the latest cycle a node of the part moved a packet in
  };
  void journal() { journaling_ = true; }
  Journal take_journal() {
    Journal j = std::move(journal_);
    journal_ = Journal{};
    j.last_move = last_move();
    return j;
  }
  void merge(const std::vector<Journal>& parts) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const Journal& j : parts)
      for (const Created& c : j.created) apply(c);
    for (const Journal& j : parts)
      for (const Delivered& d : j.delivered) apply(d);
    for (const Journal& j : parts) merged_last_move_ = std::max(merged_last_move_, j.last_move);
  }

 private:
  void apply(const Created& c) {
    ++created_;
    if (window_.measured(c.cycle)) offered_flits_ += c.flits;
    outstanding_[c.src].emplace(c.seq, Outstanding{c.seq, c.dst, c.cycle});
  }
  // A damaged packet (not intact) names nothing for sure (its words may be anything).
  void apply(const Delivered& d) {
    if (!d.intact || d.src >= delivered_.size()) {
      ++damaged_;
      return;
    }
    std::vector<bool>& seen = delivered_[d.src];
    if (d.seq >= seen.size()) seen.resize(d.seq + 1 + seen.size() / 2, false);
    if (seen[d.seq]) {
      ++duplicated_;
      return;
    }
    seen[d.seq] = true;
    ++delivered_count_;
    if (outstanding_[d.src].erase(d.seq) == 0) --abandoned_;  // abandoned with a node, yet it arrived
    if (window_.measured(d.cycle)) accepted_flits_ += d.flits;
    if (window_.measured(d.created)) {
      latencies_.push_back(static_cast<uint32_t>(d.cycle - d.created));
      measured_hops_ += d.hops;
    }
  }

  TrafficWindow window_;
  std::vector<std::vector<bool>> delivered_;  // per source, by sequence number
  std::vector<std::unordered_map<uint64_t, Outstanding>> outstanding_;  // per source, by sequence number
  uint64_t created_ = 0, delivered_count_ = 0, duplicated_ = 0, damaged_ = 0, abandoned_ = 0;
  uint64_t offered_flits_ = 0, accepted_flits_ = 0, measured_hops_ = 0;
  std::vector<uint32_t> latencies_;  // packets created in the window: creation to last chunk read
  std::vector<uint64_t> last_move_;  // per node: written only by that node's agent
  uint64_t merged_last_move_ = 0;    // the latest of every part's, at the last merge
  bool journaling_ = false;
  Journal journal_;                  // held back since the last take_journal()
  std::mutex mutex_;                 // guards everything above last_move_, and journal_
};

}  // namespace collnet::workload
