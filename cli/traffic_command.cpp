#include "traffic_command.hpp"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <stdexcept>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "firmware/torus_layout.hpp"
#include "link_report.hpp"
#include "number_list.hpp"
#include "progress.hpp"
#include "systemc/flat_engine.hpp"
#include "systemc/traffic_run.hpp"

namespace collnet::cli {

namespace {

constexpr int kExitUsage = 2;

int usage(const std::string& msg) {
  std::cerr << "collnet: error: " << msg << "\nRun 'collnet traffic --help' for usage.\n";
  return kExitUsage;
}

}  // namespace

CLI::App* add_traffic_command(CLI::App& app, TrafficCommand& c) {
  CLI::App* t = app.add_subcommand("traffic", "run synthetic traffic on the torus and measure it");
  t->add_option("--torus", c.torus, "machine shape XxYxZ (each 1..64)")->capture_default_str();
  t->add_option("--pattern", c.pattern, "uniform | transpose | bitcomp | hotspot | neighbor")->capture_default_str();
  t->add_option("--rate", c.rate, "offered load, flits per node per cycle (0..1]")->capture_default_str();
  t->add_option("--size", c.size, "chunks of 32 bytes per packet, 1..8 (a packet is 1 + 4 x size flits)")
      ->capture_default_str();
  t->add_option("--routing", c.routing, "dor (dimension order) | adaptive (minimal adaptive)")->capture_default_str();
  t->add_option("--cycles", c.cycles, "measured cycles")->capture_default_str();
  t->add_option("--warmup", c.warmup, "cycles before the measurement")->capture_default_str();
  t->add_option("--engine", c.engine, "systemc (SystemC machine) | flat (one Verilated top)")->capture_default_str();
  t->add_option("--link-latency", c.link_latency, "cycles per link (>= 1)")->capture_default_str();
  t->add_flag("--lockstep", c.lockstep,
              "systemc engine: step every node one cycle at a time under the SystemC kernel instead of "
              "link-latency cycles at a time (same results, slower on big machines)");
  t->add_option("--threads", c.threads,
                 "systemc engine: host threads stepping the nodes, each a contiguous range of ranks "
                 "(same results for any count; not with --lockstep or --trace)")
      ->capture_default_str();
  t->add_option("--idle-skip", c.idle_skip,
                 "systemc engine: on (skip a node side's clock edge when it is quiescent) | off (evaluate "
                 "everything) | check (evaluate everything, fail if a skip would have been wrong); same results")
      ->capture_default_str();
  t->add_option("--seed", c.seed, "seed of the traffic")->capture_default_str();
  t->add_option("--hotspot", c.hotspot, "the hotspot node (pattern hotspot)")->capture_default_str();
  t->add_option("--hotspot-fraction", c.hotspot_fraction, "share of packets sent to the hotspot")
      ->capture_default_str();
  t->add_option("--down-nodes", c.down_nodes, "nodes marked down, e.g. 21,42 (traffic is routed around them)");
  t->add_option("--down-links", c.down_links, "links marked down, NODE:DIR with DIR x+ x- y+ y- z+ z-, e.g. 5:x+");
  t->add_option("--idle-limit", c.idle_limit, "deadlock watchdog: cycles without progress while packets are in flight")
      ->capture_default_str();
  add_fault_options(t, c.faults);
  t->add_option("--json", c.json_path, "write the results as JSON");
  t->add_option("--trace", c.trace_path, "write an FST waveform of every node");
  return t;
}

int run_traffic_command(const TrafficCommand& c) {
  sim::TrafficOptions o;
  try {
    o.machine.shape = sim::Shape::parse(c.torus);
  } catch (const std::invalid_argument& e) {
    return usage(std::string("--torus: ") + e.what());
  }
  const unsigned nodes = o.machine.shape.nodes();
  try {
    o.spec.pattern = workload::parse_pattern(c.pattern);
  } catch (const std::invalid_argument& e) {
    return usage(std::string("--pattern: ") + e.what());
  }
  if (c.routing == "dor") o.spec.routing = workload::Routing::Dor;
  else if (c.routing == "adaptive") o.spec.routing = workload::Routing::Adaptive;
  else return usage("--routing: unknown routing '" + c.routing + "': expected dor or adaptive");
  try {
    o.engine = sim::parse_engine(c.engine);
  } catch (const std::invalid_argument& e) {
    return usage(std::string("--engine: ") + e.what());
  }
  if (!(c.rate > 0) || c.rate > 1) return usage("--rate: must be more than 0 and at most 1, got " + std::to_string(c.rate));
  o.spec.rate = c.rate;
  if (c.size < 1 || c.size > 8) return usage("--size: must be 1..8 chunks, got " + std::to_string(c.size));
  o.spec.chunks = static_cast<unsigned>(c.size);
  if (c.cycles < 1 || c.cycles > (1LL << 40)) return usage("--cycles: must be at least 1, got " + std::to_string(c.cycles));
  if (c.warmup < 0 || c.warmup > (1LL << 40)) return usage("--warmup: must be 0 or more, got " + std::to_string(c.warmup));
  o.window = {static_cast<uint64_t>(c.warmup), static_cast<uint64_t>(c.cycles)};
  if (c.link_latency < 1 || c.link_latency > sim::MachineConfig::kMaxLinkLatency)
    return usage("--link-latency: must be 1.." + std::to_string(sim::MachineConfig::kMaxLinkLatency) +
                 " cycles (the link layer's retransmission timeout covers that round trip), got " +
                 std::to_string(c.link_latency));
  o.machine.link_latency = static_cast<unsigned>(c.link_latency);
  // Which of lockstep, threads, trace and engine go together is TrafficOptions::validate's
  // to say, below.
  o.machine.lockstep = c.lockstep;
  if (c.threads < 1 || c.threads > sim::MachineConfig::kMaxThreads)
    return usage("--threads: must be 1.." + std::to_string(sim::MachineConfig::kMaxThreads) + ", got " +
                 std::to_string(c.threads));
  o.machine.threads = static_cast<unsigned>(c.threads);
  try {
    o.machine.idle_skip = sim::parse_idle_skip(c.idle_skip);
  } catch (const std::invalid_argument& e) {
    return usage(std::string("--idle-skip: ") + e.what());
  }
  if (c.seed < 0) return usage("--seed: must be 0 or more");
  o.spec.seed = static_cast<uint64_t>(c.seed);
  if (c.hotspot < 0 || c.hotspot >= static_cast<long long>(nodes))
    return usage("--hotspot: node " + std::to_string(c.hotspot) + " is not on a machine of " + std::to_string(nodes) +
                 " nodes");
  o.spec.hotspot = static_cast<unsigned>(c.hotspot);
  if (!(c.hotspot_fraction >= 0 && c.hotspot_fraction <= 1)) return usage("--hotspot-fraction: must be 0..1");
  o.spec.hotspot_fraction = c.hotspot_fraction;
  if (c.idle_limit < 1) return usage("--idle-limit: must be at least 1 cycle");
  o.idle_limit = static_cast<uint64_t>(c.idle_limit);
  try {
    if (!c.down_nodes.empty())
      o.machine.down_nodes = parse_number_list(c.down_nodes, nodes, "node");
  } catch (const std::invalid_argument& e) {
    return usage(std::string("--down-nodes: ") + e.what());
  }
  try {
    if (!c.down_links.empty())
      for (const std::string& item : split_list(c.down_links)) {
        const size_t colon = item.find(':');
        if (colon == std::string::npos)
          throw std::invalid_argument("'" + item + "' is not NODE:DIR (for example 5:x+)");
        const unsigned r = parse_list_number(item.substr(0, colon), c.down_links, nodes, "node");
        const std::string dir = item.substr(colon + 1);
        const unsigned d = fw::TorusLayout::dir_named(dir);
        if (d == 6) throw std::invalid_argument("'" + dir + "' in '" + item + "' is not a direction (x+ x- y+ y- z+ z-)");
        o.machine.down_links.push_back({r, d});
      }
  } catch (const std::invalid_argument& e) {
    return usage(std::string("--down-links: ") + e.what());
  }
  if (!c.trace_path.empty()) {
    const std::string& t = c.trace_path;
    if (t.size() < 5 || t.substr(t.size() - 4) != ".fst") return usage("--trace: '" + t + "' must name an .fst file");
    o.machine.trace_path = t;
  }
  try {
    apply_fault_options(c.faults, nodes, o.machine);
  } catch (const std::invalid_argument& e) {
    return usage(e.what());
  }
  try {
    o.validate();
  } catch (const std::invalid_argument& e) {
    return usage(e.what());
  }
  std::optional<LinkReport> links;
  if (LinkReport::wanted(o.machine, !c.json_path.empty()))
    o.inspect = [&links](sim::Machine& m) { links = LinkReport::of(m); };

  Progress progress = Progress::on_stderr("traffic");
  const uint64_t window_end = o.window.warmup + o.window.cycles;
  progress.set_total(window_end);
  if (progress.shown())
    o.on_step = [&progress, window_end](uint64_t cycle) {
      if (cycle >= window_end) progress.set_phase("draining");
      progress.update(cycle);
    };
  workload::TrafficResult r;
  try {
    r = sim::run_traffic(o);
    progress.finish();
  } catch (const std::invalid_argument& e) {
    progress.finish();
    return usage(e.what());
  } catch (const std::exception& e) {
    progress.finish();
    std::cerr << "collnet: " << e.what() << "\n";
    return 1;
  }

  const unsigned flits = 1 + 4 * o.spec.chunks;
  std::printf("traffic: %s torus (%u nodes), %s, %s routing, %u-chunk packets (%u flits), link latency %u, engine %s, seed %lld\n",
              o.machine.shape.str().c_str(), nodes, c.pattern.c_str(), c.routing.c_str(), o.spec.chunks, flits,
              o.machine.link_latency, c.engine.c_str(), c.seed);
  std::printf("  offered    %.4f flits/node/cycle (%u of %u nodes send)\n", r.offered, r.senders, r.nodes);
  std::printf("  accepted   %.4f flits/node/cycle\n", r.accepted);
  std::printf("  latency    avg %.1f  p99 %.0f  max %.0f cycles, creation to last chunk read (%llu packets created in the window, %.2f hops on average)\n",
              r.avg_latency, r.p99_latency, r.max_latency, static_cast<unsigned long long>(r.measured_packets), r.avg_hops);
  std::printf("  packets    created %llu, delivered %llu, lost %llu, duplicated %llu, corrupted %llu\n",
              static_cast<unsigned long long>(r.created), static_cast<unsigned long long>(r.delivered),
              static_cast<unsigned long long>(r.lost), static_cast<unsigned long long>(r.duplicated),
              static_cast<unsigned long long>(r.corrupted));
  std::printf("  simulator  %llu cycles in %.2f s: %.0f cycles/s, %.3g node-cycles/s (%u thread%s, %.1f%% of node sides' edges skipped as idle)\n",
              static_cast<unsigned long long>(r.cycles), r.wall_seconds, r.sim_cycles_per_second, r.node_cycles_per_second,
              r.threads, r.threads == 1 ? "" : "s", 100 * r.idle_skipped);
  const workload::TrafficRecovery& rec = r.recovery;
  if (rec.links_gone_down)
    std::printf("  recovery   %u torus link%s went down: %u recover%s in %llu cycles (sources paused until the network "
                "drained, then routed around); %llu packets lost in the network sent again (%llu of them arrived cut "
                "short), %llu waiting at their sources put on the new routes\n",
                rec.links_gone_down, rec.links_gone_down == 1 ? "" : "s", rec.recoveries,
                rec.recoveries == 1 ? "y" : "ies", static_cast<unsigned long long>(rec.cycles),
                static_cast<unsigned long long>(rec.resent), static_cast<unsigned long long>(r.damaged),
                static_cast<unsigned long long>(rec.requeued));
  if (rec.nodes_gone_down)
    std::printf("  nodes down %u node%s cut off from every neighbour: %llu packets from or to %s abandoned\n",
                rec.nodes_gone_down, rec.nodes_gone_down == 1 ? "" : "s",
                static_cast<unsigned long long>(rec.abandoned), rec.nodes_gone_down == 1 ? "it" : "them");
  if (r.deadlock)
    std::printf("  DEADLOCK: nothing moved for %llu cycles with %llu packets in flight\n",
                static_cast<unsigned long long>(o.idle_limit), static_cast<unsigned long long>(r.lost));
  if (r.drain_timeout) std::printf("  DRAIN TIMEOUT: %llu packets still in flight\n", static_cast<unsigned long long>(r.lost));
  if (links && (links->bits_flipped || !links->down.empty())) std::printf("  %s\n", links->text().c_str());

  if (!c.json_path.empty()) {
    nlohmann::json js;
    js["torus"] = o.machine.shape.str();
    js["nodes"] = nodes;
    js["pattern"] = c.pattern;
    js["routing"] = c.routing;
    js["engine"] = c.engine;
    js["size_chunks"] = o.spec.chunks;
    js["packet_flits"] = flits;
    js["link_latency"] = o.machine.link_latency;
    js["lockstep"] = c.lockstep;
    js["threads"] = r.threads;
    js["seed"] = c.seed;
    js["warmup"] = o.window.warmup;
    js["cycles"] = o.window.cycles;
    js["offered_flits_per_node_cycle"] = r.offered;
    js["accepted_flits_per_node_cycle"] = r.accepted;
    js["avg_latency"] = r.avg_latency;
    js["p99_latency"] = r.p99_latency;
    js["max_latency"] = r.max_latency;
    js["avg_hops"] = r.avg_hops;
    js["measured_packets"] = r.measured_packets;
    js["packets_created"] = r.created;
    js["packets_delivered"] = r.delivered;
    js["packets_lost"] = r.lost;
    js["packets_duplicated"] = r.duplicated;
    js["packets_corrupted"] = r.corrupted;
    js["recovery"] = {{"links_gone_down", rec.links_gone_down}, {"recoveries", rec.recoveries},
                      {"cycles", rec.cycles}, {"packets_sent_again", rec.resent},
                      {"packets_cut_short", r.damaged}, {"packets_requeued", rec.requeued},
                      {"nodes_gone_down", rec.nodes_gone_down}, {"packets_abandoned", rec.abandoned}};
    js["deadlock"] = r.deadlock;
    js["simulated_cycles"] = r.cycles;
    js["wall_seconds"] = r.wall_seconds;
    js["sim_cycles_per_second"] = r.sim_cycles_per_second;
    js["node_cycles_per_second"] = r.node_cycles_per_second;
    js["idle_skip"] = c.idle_skip;
    js["idle_skipped_fraction"] = r.idle_skipped;
    js["links"] = links ? links->json() : nlohmann::json(nullptr);  // the flat engine's are not read
    std::ofstream f(c.json_path);
    f << js.dump(2) << "\n";
    if (!f) {
      std::cerr << "collnet: cannot write " << c.json_path << "\n";
      return 1;
    }
  }
  return r.ok() ? 0 : 1;
}

}  // namespace collnet::cli
