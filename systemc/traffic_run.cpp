#include "traffic_run.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>

#include "flat_engine.hpp"
#include "machine.hpp"

namespace collnet::sim {

std::string to_string(Engine e) { return e == Engine::Flat ? "flat" : "systemc"; }

Engine parse_engine(const std::string& text) {
  if (text == "systemc") return Engine::SystemC;
  if (text == "flat") return Engine::Flat;
  throw std::invalid_argument("unknown engine '" + text + "': expected systemc or flat");
}

void TrafficOptions::validate() const {
  machine.validate();
  if (!(spec.rate > 0) || spec.rate > 1.0)
    throw std::invalid_argument("offered rate " + std::to_string(spec.rate) +
                                " must be more than 0 and at most 1 flit per node per cycle");
  if (spec.chunks < 1 || spec.chunks > fw::regmap::kMaxChunks)
    throw std::invalid_argument("packet size " + std::to_string(spec.chunks) + " must be 1..8 chunks");
  if (window.cycles < 1) throw std::invalid_argument("the measurement needs at least one cycle");
  if (idle_limit < 1) throw std::invalid_argument("the deadlock watchdog needs at least one cycle");
  if (engine == Engine::Flat && machine.threads > 1)
    throw std::invalid_argument("threads " + std::to_string(machine.threads) +
                                " and the flat engine: the flat engine is one model, evaluated by one thread");
  if (engine == Engine::Flat && machine.lockstep)
    throw std::invalid_argument("lockstep and the flat engine: the flat engine is one model, "
                                "stepped a cycle at a time already");
}

// ------------------------------------------------------------------ setup and run
TrafficSetup::TrafficSetup(const TrafficOptions& o)
    : layout_(o.machine.shape.dims()),
      pattern_(o.spec.pattern, layout_,
               [&] {
                 std::vector<bool> down(layout_.nodes(), false);
                 for (unsigned r : o.machine.down_nodes) down[r] = true;
                 return down;
               }(),
               o.spec.hotspot, o.spec.hotspot_fraction),
      ledger_(layout_.nodes(), o.window) {
  if (!o.machine.down_nodes.empty() || !o.machine.down_links.empty()) routes_ = fw::routes_around(layout_, o.machine.torus_faults());
  for (unsigned r = 0; r < layout_.nodes(); ++r) {
    agents_.push_back(std::make_unique<TrafficAgent>(r, layout_, o.spec, pattern_, ledger_,
                                                     routes_.empty() ? nullptr : &routes_[r]));
    if (pattern_.sends(r)) ++senders_;
  }
}

void TrafficSetup::stop_creating() {
  for (auto& a : agents_) a->stop();
}

TrafficResult TrafficSetup::run(const TrafficOptions& o, const std::function<void(uint64_t)>& step) {
  constexpr uint64_t kStep = 100;  // cycles between checks of the watchdog
  const uint64_t end_measure = o.window.warmup + o.window.cycles;
  const uint64_t drain_limit = o.drain_limit ? o.drain_limit : 10 * end_measure + 100000;
  uint64_t now = 0;
  bool deadlock = false, timeout = false;
  const auto t0 = std::chrono::steady_clock::now();
  auto stuck = [&] { return ledger_.in_flight() > 0 && now - ledger_.last_move() >= o.idle_limit; };
  while (now < end_measure && !deadlock) {
    const uint64_t n = std::min(kStep, end_measure - now);
    step(n);
    now += n;
    deadlock = stuck();
  }
  stop_creating();
  const uint64_t drain_end = now + drain_limit;
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

namespace {

TrafficResult run_systemc(const TrafficOptions& o) {
  TrafficSetup setup(o);
  Machine machine(o.machine);
  for (unsigned r = 0; r < setup.nodes(); ++r) machine.attach(r, setup.agent(r));
  TrafficResult res = setup.run(o, [&](uint64_t n) { machine.advance(n); });
  res.threads = machine.threads();
  res.idle_skipped = machine.activity().skipped_share();
  machine.finish();
  return res;
}

}  // namespace

TrafficResult run_traffic(const TrafficOptions& o) {
  o.validate();
  if (o.engine == Engine::Flat) {
    TrafficSetup setup(o);
    return run_flat(o, setup);
  }
  return run_systemc(o);
}

}  // namespace collnet::sim
