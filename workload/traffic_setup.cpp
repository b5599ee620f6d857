#include "traffic_setup.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace collnet::workload {

namespace {
bool anything_down(const fw::TorusFaults& f) {
  return std::find(f.node_down.begin(), f.node_down.end(), true) != f.node_down.end() ||
         std::any_of(f.links_down.begin(), f.links_down.end(), [](unsigned bits) { return bits != 0; });
}
}  // namespace

TrafficSetup::TrafficSetup(const fw::TorusLayout& layout, const fw::TorusFaults& faults, const TrafficSpec& spec,
                           TrafficWindow window)
    : layout_(layout),
      pattern_(spec.pattern, layout_, faults.node_down, spec.hotspot, spec.hotspot_fraction),
      ledger_(layout_.nodes(), window) {
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

TrafficResult TrafficSetup::run(uint64_t idle_limit, uint64_t drain_limit, const std::function<void(uint64_t)>& step) {
  constexpr uint64_t kStep = 100;  // cycles between checks of the watchdog
  const TrafficWindow& w = ledger_.window();
  const uint64_t end_measure = w.warmup + w.cycles;
  const uint64_t drain_cycles = drain_limit ? drain_limit : 10 * end_measure + 100000;
  uint64_t now = 0;
  bool deadlock = false, timeout = false;
  const auto t0 = std::chrono::steady_clock::now();
  auto stuck = [&] { return ledger_.in_flight() > 0 && now - ledger_.last_move() >= idle_limit; };
  while (now < end_measure && !deadlock) {
    const uint64_t n = std::min(kStep, end_measure - now);
    step(n);
    now += n;
    deadlock = stuck();
  }
  stop_creating();
  const uint64_t drain_end = now + drain_cycles;
  while (!deadlock && ledger_.in_flight() > 0) {
    if (now >= drain_end) {
      timeout = true;
      break;
    }
    step(kStep);
    now += kStep;
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
  r.corrupted = ledger_.corrupted();
  r.deadlock = deadlock;
  r.drain_timeout = timeout;
  r.cycles = cycles;
  r.wall_seconds = wall;
  r.sim_cycles_per_second = wall > 0 ? static_cast<double>(cycles) / wall : 0;
  r.node_cycles_per_second = r.sim_cycles_per_second * r.nodes;
  return r;
}

}  // namespace collnet::workload
