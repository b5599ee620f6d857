// SPDX-License-Identifier: Apache-2.0
#include "workload/traffic_setup.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace collnet::workload {

namespace {
constexpr uint64_t kStep = 100;  // cycles between checks of the watchdog and for links gone down

bool anything_down(const fw::TorusFaults& f) {
  return std::find(f.node_down.begin(), f.node_down.end(), true) != f.node_down.end() ||
         std::any_of(f.links_down.begin(), f.links_down.end(), [](unsigned bits) { return bits != 0; });
}
}  // namespace

TrafficSetup::TrafficSetup(const fw::TorusLayout& layout, const fw::TorusFaults& faults, const TrafficSpec& spec,
                           TrafficWindow window)
    : layout_(layout),
      faults_(faults),
      pattern_(spec.pattern, layout_, faults.node_down, spec.hotspot, spec.hotspot_fraction),
      ledger_(layout_.nodes(), window) {
  faults_.node_down.resize(layout_.nodes(), false);
  faults_.links_down.resize(layout_.nodes(), 0);
  if (anything_down(faults)) routes_ = fw::routes_around(layout_, faults);
  for (unsigned r = 0; r < layout_.nodes(); ++r) {
    agents_.push_back(std::make_unique<TrafficAgent>(r, layout_, spec, pattern_, ledger_,
                                                     routes_.empty() ? nullptr : &routes_[r]));
    if (pattern_.sends(r)) ++senders_;
  }
}

void TrafficSetup::stop_creating() {
  for (auto& a : agents_) a->stop();
}

bool TrafficSetup::mark_new_links_down(const TrafficControl& control) {
  bool any = false;
  for (const auto& [rank, dir] : control.links_declared_down()) {
    if (faults_.links_down.at(rank) >> dir & 1u) continue;
    const unsigned far = layout_.neighbour(rank, dir);
    faults_.links_down[rank] |= 1u << dir;
    faults_.links_down[far] |= 1u << fw::TorusLayout::opposite(dir);
    control.mark_links_down(rank, faults_.links_down[rank]);
    control.mark_links_down(far, faults_.links_down[far]);
    ++recovery_.links_gone_down;
    any = true;
  }
  return any;
}

bool TrafficSetup::cut_off(unsigned rank) const {
  unsigned links = 0;
  for (unsigned d = 0; d < 6; ++d)
    if (layout_.has_link(d)) links |= 1u << d;
  return links != 0 && (faults_.links_down.at(rank) & links) == links;
}

void TrafficSetup::recover(const TrafficControl& control, const std::function<void(uint64_t)>& step,
                           uint64_t& now, const TrafficParts* parts) {
  // Drained: no packet read or written anywhere for this long, longer than any packet
  // takes to cross the torus once nothing new enters it.
  uint64_t diameter = 0;
  for (unsigned k = 0; k < 3; ++k) diameter += layout_.dims()[k] / 2;
  const uint64_t quiet = 2000 + 64 * diameter;
  const uint64_t start = now;
  for (auto& a : agents_) a->pause();
  while (now - std::min(now, ledger_.last_move()) < quiet) {
    step(kStep);
    now += kStep;
    mark_new_links_down(control);  // the far end, or another link
  }
  for (unsigned r = 0; r < agents_.size(); ++r)
    if (!faults_.node_down[r] && cut_off(r)) {
      faults_.node_down[r] = true;
      pattern_.set_down(r);
      agents_[r]->go_down();
      ++recovery_.nodes_gone_down;
    }
  recovery_.abandoned += ledger_.abandon(faults_.node_down);
  routes_ = fw::routes_around(layout_, faults_);
  // Only a node's own part knows which of its packets were still waiting in its queue.
  std::vector<uint64_t> counts{0, 0};  // requeued, resent
  for (unsigned r = 0; r < agents_.size(); ++r) {
    if (faults_.node_down[r] || (parts && !parts->local(r))) continue;
    const std::vector<TrafficLedger::Outstanding> resend = ledger_.outstanding(r);
    const size_t waiting = agents_[r]->restart(&routes_[r], resend);
    counts[0] += waiting;
    counts[1] += resend.size() - waiting;
  }
  if (parts) parts->sum(counts);
  recovery_.requeued += counts[0];
  recovery_.resent += counts[1];
  ++recovery_.recoveries;
  recovery_.cycles += now - start;
}

TrafficResult TrafficSetup::run(uint64_t idle_limit, uint64_t drain_limit,
                                const std::function<void(uint64_t)>& advance, const TrafficControl* control,
                                const TrafficParts* parts) {
  if (parts) ledger_.journal();
  // A step: the machine advances, then (in parts) the parts pool their books.
  const std::function<void(uint64_t)> step = [&](uint64_t n) {
    advance(n);
    if (parts) ledger_.merge(parts->pool(ledger_.take_journal()));
  };
  const TrafficWindow& w = ledger_.window();
  const uint64_t end_measure = w.warmup + w.cycles;
  const uint64_t drain_cycles = drain_limit ? drain_limit : 10 * end_measure + 100000;
  uint64_t now = 0;
  bool deadlock = false, timeout = false;
  const auto t0 = std::chrono::steady_clock::now();
  auto stuck = [&] { return ledger_.in_flight() > 0 && now - ledger_.last_move() >= idle_limit; };
  auto check_links = [&] {
    if (control && mark_new_links_down(*control)) recover(*control, step, now, parts);
  };
  while (now < end_measure && !deadlock) {
    const uint64_t n = std::min(kStep, end_measure - now);
    step(n);
    now += n;
    check_links();
    deadlock = stuck();
  }
  stop_creating();
  const uint64_t drain_end = now + drain_cycles;
  // Without links that may go down, a damaged packet is corrupted and the run has failed:
  // stop at once rather than wait for the watchdog (its packet never counts as delivered).
  while (!deadlock && ledger_.in_flight() > 0 && (control || ledger_.damaged() == 0)) {
    if (now >= drain_end) {
      timeout = true;
      break;
    }
    step(kStep);
    now += kStep;
    check_links();
    deadlock = stuck();
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return summarize(now, wall, deadlock, timeout);
}

TrafficResult TrafficSetup::summarize(uint64_t cycles, double wall, bool deadlock, bool timeout) {
  TrafficResult r;
  const TrafficWindow& w = ledger_.window();
  r.nodes = nodes();
  r.senders = senders_;
  r.offered = static_cast<double>(ledger_.offered_flits()) / (static_cast<double>(r.nodes) * w.cycles);
  r.accepted = static_cast<double>(ledger_.accepted_flits()) / (static_cast<double>(r.nodes) * w.cycles);
  std::vector<uint32_t>& lat = ledger_.latencies();
  r.measured_packets = lat.size();
  if (!lat.empty()) {
    double sum = 0;
    for (uint32_t l : lat) sum += l;
    r.avg_latency = sum / static_cast<double>(lat.size());
    r.avg_hops = static_cast<double>(ledger_.measured_hops()) / static_cast<double>(lat.size());
    const size_t k = std::min(lat.size() - 1, static_cast<size_t>(std::ceil(0.99 * static_cast<double>(lat.size()))) - 1);
    std::nth_element(lat.begin(), lat.begin() + static_cast<std::ptrdiff_t>(k), lat.end());
    r.p99_latency = lat[k];
    r.max_latency = *std::max_element(lat.begin(), lat.end());
  }
  r.created = ledger_.created_count();
  r.delivered = ledger_.delivered_count();
  r.lost = ledger_.in_flight();
  r.duplicated = ledger_.duplicated();
  r.damaged = std::min(ledger_.damaged(), damage_allowed());
  r.corrupted = ledger_.damaged() - r.damaged;
  r.recovery = recovery_;
  r.deadlock = deadlock;
  r.drain_timeout = timeout;
  r.cycles = cycles;
  r.wall_seconds = wall;
  r.sim_cycles_per_second = wall > 0 ? static_cast<double>(cycles) / wall : 0;
  r.node_cycles_per_second = r.sim_cycles_per_second * r.nodes;
  return r;
}

}  // namespace collnet::workload
