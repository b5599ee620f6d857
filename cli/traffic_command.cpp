// SPDX-License-Identifier: Apache-2.0
#include "cli/traffic_command.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "cli/command_line.hpp"
#include "cli/json_file.hpp"
#include "cli/link_report.hpp"
#include "cli/link_samples.hpp"
#include "cli/machine_file.hpp"
#include "cli/progress.hpp"
#include "cli/trace_options.hpp"
#include "cli/usage_error.hpp"
#include "firmware/torus_layout.hpp"
#include "reference/number_list.hpp"
#include "systemc/flat_engine.hpp"
#include "systemc/isolated.hpp"
#include "systemc/traffic_run.hpp"

namespace collnet::cli {

namespace {

constexpr int kMaxSweepPoints = 100;

std::optional<int> check_traffic(TrafficCommand& c);

int usage(const std::string& msg) { return usage_error(msg, "traffic"); }

void print_run(const TrafficCommand& c, const sim::TrafficOptions& o, const workload::TrafficResult& r,
               const std::optional<LinkReport>& links, const LinkSamples* samples) {
  std::printf("traffic: %s torus (%u nodes), %s, %s routing, %u-chunk packets (%u flits), link latency %s, engine %s, seed %lld\n",
              o.machine.shape.str().c_str(), o.machine.shape.nodes(), c.pattern.c_str(), c.routing.c_str(), o.spec.chunks, 1 + 4 * o.spec.chunks,
              torus_links_text(o.machine).c_str(), c.engine.c_str(), c.seed);
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

  if (samples)
    std::printf("  samples    %zu, every %llu cycles: mean torus link utilisation peaked at %.3f flits/cycle\n",
                samples->size(), static_cast<unsigned long long>(o.sample_every), samples->peak());
}

nlohmann::json run_json(const TrafficCommand& c, const sim::TrafficOptions& o, const workload::TrafficResult& r,
                        const std::optional<LinkReport>& links, const LinkSamples* samples) {
  const workload::TrafficRecovery& rec = r.recovery;
  nlohmann::json js;
  js["torus"] = o.machine.shape.str();
  js["nodes"] = o.machine.shape.nodes();
  js["pattern"] = c.pattern;
  js["routing"] = c.routing;
  js["engine"] = c.engine;
  js["size_chunks"] = o.spec.chunks;
  js["packet_flits"] = 1 + 4 * o.spec.chunks;
  js["link_latency"] = o.machine.torus_latency[0];  // the x links'; "machine" has every wire's
  js["machine"] = machine_json(o.machine);
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
  if (samples) js["samples"] = samples->json();
  return js;
}

struct Outcome {
  workload::TrafficResult result;
  std::optional<LinkReport> links;
  std::optional<LinkSamples> samples;
  std::optional<PartitionsReport> partitions;  // a partitioned run's, at partition 0
};

// One run of `o`: with the link table when `json` asks for it (or faults make it worth
// reading), with samples when o.sample_every asks for them, and with `progress`'s line if
// it is shown. Throws what sim::run_traffic throws.
Outcome run_one(sim::TrafficOptions o, bool json, Progress* progress) {
  Outcome out;
  const bool links = LinkReport::wanted(o.machine, json);
  o.inspect = [&out, links](sim::Machine& m, const workload::TrafficResult& r) {  // every partition
    if (out.samples) out.samples->combine(m);
    if (links) out.links = LinkReport::of(m);
    out.partitions = PartitionsReport::of(m, r.wall_seconds);
  };
  if (o.sample_every) {
    out.samples.emplace(fw::TorusLayout(o.machine.shape.dims()), o.sample_every);
    o.on_sample = [&out, every = o.sample_every, taken = uint64_t{0}](sim::Machine& m) mutable {
      out.samples->take(m, taken += every);
    };
  }
  if (progress && progress->shown()) {
    const uint64_t window_end = o.window.warmup + o.window.cycles;
    progress->set_total(window_end);
    o.on_step = [progress, window_end](uint64_t cycle) {
      if (cycle >= window_end) progress->set_phase("draining");
      progress->update(cycle);
    };
  }
  out.result = sim::run_traffic(o);
  return out;
}

// --sweep FROM:TO:STEP: the offered loads, FROM, FROM + STEP, ... up to TO.
std::vector<double> sweep_rates(const std::string& text) {
  const size_t a = text.find(':'), b = a == std::string::npos ? a : text.find(':', a + 1);
  if (b == std::string::npos || text.find(':', b + 1) != std::string::npos)
    throw std::invalid_argument("'" + text + "' is not FROM:TO:STEP (for example 0.1:1.0:0.1)");
  double v[3];
  const std::string part[3] = {text.substr(0, a), text.substr(a + 1, b - a - 1), text.substr(b + 1)};
  for (int k = 0; k < 3; ++k) {
    size_t used = 0;
    try {
      v[k] = std::stod(part[k], &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != part[k].size() || !std::isfinite(v[k]))
      throw std::invalid_argument("'" + part[k] + "' in '" + text + "' is not a number");
  }
  if (!(v[0] > 0) || v[1] > 1 || v[0] > v[1])
    throw std::invalid_argument("'" + text + "': loads must be more than 0 and at most 1, FROM no more than TO");
  if (!(v[2] > 0)) throw std::invalid_argument("'" + text + "': STEP must be more than 0");
  const double points = std::floor((v[1] - v[0]) / v[2] + 1e-9) + 1;
  if (points > kMaxSweepPoints)
    throw std::invalid_argument("'" + text + "' makes " + std::to_string(static_cast<long long>(points)) +
                                " runs; at most " + std::to_string(kMaxSweepPoints));
  std::vector<double> rates;
  for (int k = 0; k < static_cast<int>(points); ++k) rates.push_back(std::min(1.0, v[0] + k * v[2]));
  return rates;
}

// A run per offered load, each in a child process (SystemC builds one machine per
// process): a table row per run as it ends, and a JSON whose "points" are the runs' JSON.
int run_sweep(const TrafficCommand& c, const sim::TrafficOptions& base) {
  std::vector<double> rates;
  try {
    rates = sweep_rates(c.sweep);
  } catch (const std::invalid_argument& e) {
    return usage(std::string("--sweep: ") + e.what());
  }
  if (!base.machine.trace_path.empty())
    return usage("--sweep and --trace: a sweep is many runs; trace one of them with --rate");
  std::printf("traffic sweep: %s torus (%u nodes), %s, %s routing, %u-chunk packets, %zu loads from %s\n",
              base.machine.shape.str().c_str(), base.machine.shape.nodes(), c.pattern.c_str(), c.routing.c_str(),
              base.spec.chunks, rates.size(), c.sweep.c_str());
  std::printf("  %8s %10s %10s %9s %6s %6s  %s\n", "rate", "offered", "accepted", "latency", "p99", "max", "packets");
  std::fflush(stdout);
  nlohmann::json points = nlohmann::json::array();
  bool ok = true;
  for (double rate : rates) {
    sim::TrafficOptions o = base;
    o.spec.rate = rate;
    const sim::Isolated child = sim::run_isolated([&] {
      setenv("COLLNET_PROGRESS", "0", 1);  // the table shows how the sweep goes
      const Outcome out = run_one(o, !c.json_path.empty(), nullptr);
      return std::string(out.result.ok() ? "ok " : "failed ") +
             run_json(c, o, out.result, out.links, out.samples ? &*out.samples : nullptr).dump();
    });
    const size_t space = child.report.find(' ');
    nlohmann::json point;
    if (child.exited && space != std::string::npos && child.report[0] != 'e')
      point = nlohmann::json::parse(child.report.substr(space + 1), nullptr, false);
    if (point.is_discarded() || !point.is_object()) {
      std::printf("  %8.3f  FAILED: %s\n", rate, child.report.c_str());
      ok = false;
      continue;
    }
    const bool point_ok = child.report.rfind("ok ", 0) == 0;
    ok = ok && point_ok;
    std::printf("  %8.3f %10.4f %10.4f %9.1f %6.0f %6.0f  %llu delivered, %llu lost%s\n", rate,
                point.at("offered_flits_per_node_cycle").get<double>(),
                point.at("accepted_flits_per_node_cycle").get<double>(), point.at("avg_latency").get<double>(),
                point.at("p99_latency").get<double>(), point.at("max_latency").get<double>(),
                static_cast<unsigned long long>(point.at("packets_delivered").get<uint64_t>()),
                static_cast<unsigned long long>(point.at("packets_lost").get<uint64_t>()),
                point_ok ? "" : point.at("deadlock").get<bool>() ? "  DEADLOCK" : "  FAILED");
    std::fflush(stdout);
    points.push_back(std::move(point));
  }
  if (!c.json_path.empty()) {
    const nlohmann::json js = {{"torus", base.machine.shape.str()}, {"pattern", c.pattern},
                               {"routing", c.routing},            {"size_chunks", base.spec.chunks},
                               {"sweep", c.sweep},                {"points", points}};
    if (!write_json_file(c.json_path, js)) return 1;
  }
  return ok ? 0 : 1;
}

}  // namespace

Subcommand add_traffic(CLI::App& app, CommandLine& cl) {
  TrafficCommand& c = cl.traffic;
  CLI::App* t = app.add_subcommand("traffic", "run synthetic traffic on the torus and measure it");
  t->add_option_function<std::string>(
      "--torus", [&c](const std::string& v) { c.torus = v, c.torus_given = true; },
      "machine shape XxYxZ, each 1..64 (default: --machine's, else 8x8x8)");
  t->add_option("--pattern", c.pattern, "uniform | transpose | bitcomp | hotspot | neighbor")->capture_default_str();
  CLI::Option* rate = t->add_option("--rate", c.rate, "offered load, flits per node per cycle (0..1]")->capture_default_str();
  t->add_option("--sweep", c.sweep,
                "a run per offered load FROM:TO:STEP (e.g. 0.1:1.0:0.1), a row each; --json gets every run as a point")
      ->excludes(rate);
  t->add_option("--sample-every", c.sample_every,
                "record the torus links' utilisation every N cycles (--json's \"samples\"); SystemC engine")
      ->capture_default_str();
  t->add_option("--size", c.size, "chunks of 32 bytes per packet, 1..8 (a packet is 1 + 4 x size flits)")
      ->capture_default_str();
  t->add_option("--routing", c.routing, "dor (dimension order) | adaptive (minimal adaptive)")->capture_default_str();
  t->add_option("--cycles", c.cycles, "measured cycles")->capture_default_str();
  t->add_option("--warmup", c.warmup, "cycles before the measurement")->capture_default_str();
  t->add_option("--engine", c.engine, "systemc (SystemC machine) | flat (one Verilated top)")->capture_default_str();
  add_machine_options(t, c.machine);
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
  t->add_option("--down-links", c.down_links, "links marked down, NODE:DIR with DIR x+ x- y+ y- z+ z-, e.g. 5:x+");
  t->add_option("--idle-limit", c.idle_limit, "deadlock watchdog: cycles without progress while packets are in flight")
      ->capture_default_str();
  add_fault_options(t, c.faults);
  t->add_option("--json", c.json_path, "write the results as JSON");
  t->add_option("--trace", c.trace_path, "write an FST waveform of every node (and a .gtkw view beside it)");
  t->add_option("--trace-nodes", c.trace_nodes, "trace only these nodes, e.g. 0,1,5 (with --trace)");
  add_partitions_option(t, c.partitions);
  return {t, [&cl]() -> std::optional<int> {
            if (const std::optional<int> status = check_traffic(cl.traffic)) return status;
            cl.command = CommandLine::Command::Traffic;
            return std::nullopt;
          }};
}

namespace {

// Every option of `traffic`, checked, into c.options; a usage error's exit status if one is wrong.
std::optional<int> check_traffic(TrafficCommand& c) {
  sim::TrafficOptions& o = c.options;
  std::string torus = c.torus;
  try {
    apply_machine_options(c.machine, o.machine, &torus, c.torus_given);
  } catch (const std::invalid_argument& e) {
    return usage(e.what());
  }
  try {
    o.machine.shape = sim::Shape::parse(torus);
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
  if (c.sample_every < 0 || c.sample_every > (1LL << 40))
    return usage("--sample-every: must be 0 (no samples) or a number of cycles, got " + std::to_string(c.sample_every));
  o.sample_every = static_cast<uint64_t>(c.sample_every);
  if (!(c.rate > 0) || c.rate > 1) return usage("--rate: must be more than 0 and at most 1, got " + std::to_string(c.rate));
  o.spec.rate = c.rate;
  if (c.size < 1 || c.size > 8) return usage("--size: must be 1..8 chunks, got " + std::to_string(c.size));
  o.spec.chunks = static_cast<unsigned>(c.size);
  if (c.cycles < 1 || c.cycles > (1LL << 40)) return usage("--cycles: must be at least 1, got " + std::to_string(c.cycles));
  if (c.warmup < 0 || c.warmup > (1LL << 40)) return usage("--warmup: must be 0 or more, got " + std::to_string(c.warmup));
  o.window = {static_cast<uint64_t>(c.warmup), static_cast<uint64_t>(c.cycles)};
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
    apply_down_nodes(c.machine, o.machine);  // traffic is routed around them
  } catch (const std::invalid_argument& e) {
    return usage(e.what());
  }
  try {
    if (!c.down_links.empty())
      for (const std::string& item : reference::split_list(c.down_links)) {
        const size_t colon = item.find(':');
        if (colon == std::string::npos)
          throw std::invalid_argument("'" + item + "' is not NODE:DIR (for example 5:x+)");
        const unsigned r = reference::parse_list_number(item.substr(0, colon), c.down_links, nodes, "node");
        const std::string dir = item.substr(colon + 1);
        const unsigned d = fw::TorusLayout::dir_named(dir);
        if (d == 6) throw std::invalid_argument("'" + dir + "' in '" + item + "' is not a direction (x+ x- y+ y- z+ z-)");
        o.machine.down_links.push_back({r, d});
      }
  } catch (const std::invalid_argument& e) {
    return usage(std::string("--down-links: ") + e.what());
  }
  try {
    if (!c.trace_path.empty()) {
      check_trace_path(c.trace_path);
      o.machine.trace_path = c.trace_path;
    }
    o.machine.trace_nodes = parse_trace_nodes(c.trace_nodes, o.machine.trace_path, nodes);
  } catch (const std::invalid_argument& e) {
    return usage(e.what());
  }
  try {
    apply_fault_options(c.faults, nodes, o.machine);
  } catch (const std::invalid_argument& e) {
    return usage(e.what());
  }
  if (const std::string bad = apply_partitions(c.partitions, o.machine); !bad.empty()) return usage(bad);
  if (o.machine.partitions > 1 && !c.sweep.empty())
    return usage("--sweep and --partitions: a sweep runs each load in a process of its own; run the loads one "
                 "at a time with --rate");
  try {
    o.validate();
  } catch (const std::invalid_argument& e) {
    return usage(e.what());
  }
  return std::nullopt;
}

}  // namespace

int run_traffic_command(const TrafficCommand& c, sim::Transport* transport) {
  sim::TrafficOptions o = c.options;
  if (!c.sweep.empty()) return run_sweep(c, o);
  o.transport = transport;
  const bool reports = !transport || transport->rank() == 0;  // partition 0 reports a partitioned run
  Progress progress = reports ? Progress::on_stderr("traffic") : Progress(std::cerr, false, "traffic", 0, nullptr);
  Outcome out;
  try {
    out = run_one(o, !c.json_path.empty(), &progress);
    progress.finish();
  } catch (const std::invalid_argument& e) {
    progress.finish();
    return fail_partitions(transport, usage(e.what()));
  } catch (const std::exception& e) {
    progress.finish();
    std::cerr << "collnet: " + std::string(e.what()) + "\n";  // one write: partitions' lines stay whole
    return fail_partitions(transport, 1);
  }
  int status = out.result.ok() ? 0 : 1;  // the result is the whole machine's in every partition
  if (reports) {
    const LinkSamples* samples = out.samples ? &*out.samples : nullptr;
    print_run(c, o, out.result, out.links, samples);
    if (out.partitions) std::printf("%s\n", out.partitions->text().c_str());
    nlohmann::json js = run_json(c, o, out.result, out.links, samples);
    if (out.partitions) js["partitions"] = out.partitions->json();
    if (!c.json_path.empty() && !write_json_file(c.json_path, js)) status = 1;
  }
  return partition0_status(transport, status);
}

}  // namespace collnet::cli
