// SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli/collective_calls.hpp"
#include "cli/json_file.hpp"
#include "cli/link_report.hpp"
#include "cli/link_samples.hpp"
#include "cli/machine_file.hpp"
#include "cli/progress.hpp"
#include "cli/run_collective.hpp"
#include "driver/job.hpp"
#include "reference/collectives.hpp"
#include "reference/data_file.hpp"
#include "reference/inputs.hpp"
#include "reference/verify.hpp"
#include "systemc/machine.hpp"

namespace collnet::cli {

int run_collective(const RunOptions& o, std::ostream& text, RunMeasure* measure) {
  const std::string& coll = o.collective;
  const reference::Collective* spec = reference::find_collective(coll);
  if (spec == nullptr)
    throw std::invalid_argument("unknown collective '" + coll + "' (known: " + reference::collective_names() + ")");
  const bool barrier = !spec->moves_data;
  const driver::Op op = spec->takes_op ? o.op : driver::Op::Bor;
  const bool pairs = spec->takes_op && driver::is_loc(op);
  const unsigned tasks = o.machine.tasks_per_node;
  const unsigned world = o.machine.shape.nodes() * tasks;

  // The participants: every world rank, or the --ranks subset, indexed by their rank in the
  // communicator. A rank's seeded input depends only on the seed and its world rank.
  std::vector<unsigned> members = o.ranks;
  if (members.empty())
    for (unsigned r = 0; r < world; ++r) members.push_back(r);
  std::sort(members.begin(), members.end());
  const unsigned n = static_cast<unsigned>(members.size());

  std::vector<std::vector<uint64_t>> in(n);
  const uint64_t count = barrier ? 0 : o.count;  // with --input, the files' length
  // The vector forms' counts: the --counts file's, or drawn from the seed.
  const reference::Counts counts = o.counts ? *o.counts : reference::seeded_counts_for(*spec, o.seed, n, count);
  std::vector<reference::Lengths> len(n);
  for (unsigned k = 0; k < n; ++k) len[k] = reference::member_lengths(*spec, count, counts, o.root, n, k);
  if (!o.input.empty() && !barrier) {
    in = o.input;
  } else {
    for (unsigned k = 0; k < n; ++k) in[k] = reference::seeded_input(o.seed, members[k], len[k].send, o.type, op);
  }
  std::vector<std::vector<uint64_t>> out(n);
  uint64_t sent_elements = 0;
  for (unsigned k = 0; k < n; ++k) {
    out[k].assign(len[k].recv * (pairs ? 2 : 1), 0);
    sent_elements += len[k].send;
  }
  std::vector<uint64_t> start(n, 0), end(n, 0), packets(n, 0);
  // A barrier's ranks arrive at seeded, different times, so that leaving early would show.
  std::vector<uint64_t> arrival_delay(n, 0);
  if (barrier)
    for (unsigned k = 0; k < n; ++k)
      arrival_delay[k] =
          reference::seeded_input(o.seed, members[k], 1, driver::Datatype::U64, driver::Op::Sum)[0] % 256;

  // The algorithm: --algorithm, or what auto picks (the collectives outside
  // driver::Collective have one).
  const std::optional<driver::Collective> driver_coll = driver::collective_named(coll);
  driver::Algorithm chosen = o.algorithm;
  unsigned class_route = driver::kNoClass;  // the communicator's (a subset may have none)
  const CollectiveCall& call = collective_call(coll);
  sim::Machine machine_model(o.machine);
  driver::Job job(machine_model, o.p2p, o.tuning.get());
  Progress progress = Progress::on_stderr(coll);
  if (progress.shown()) machine_model.watch(Progress::kWatchCycles, [&] { progress.update(machine_model.cycle()); });
  std::optional<LinkSamples> samples;
  if (o.sample_every) {
    samples.emplace(fw::TorusLayout(o.machine.shape.dims()), o.sample_every);
    machine_model.watch(o.sample_every, [&] { samples->take(machine_model, machine_model.cycle()); });
  }
  const driver::RunReport report = job.run([&](driver::Task& t) {
    std::optional<driver::Communicator> subset = o.ranks.empty() ? std::nullopt : t.world().create(o.ranks);
    if (!o.ranks.empty() && !subset) return;  // not a member: its node's hardware still serves the route
    driver::Communicator* comm = subset ? &*subset : &t.world();
    comm->set_argument_check(o.check_arguments);
    if (driver_coll) comm->set_algorithm(*driver_coll, o.algorithm);
    comm->set_segment_options(o.segment);
    const unsigned k = comm->rank();
    if (k == 0 && driver_coll) chosen = comm->choose(*driver_coll, count * driver::bytes(o.type));
    if (k == 0) class_route = comm->class_route();
    t.cpu().idle(arrival_delay[k]);
    start[k] = t.cycle();
    call(*comm, Call{o.type, op, o.root, count, in[k].data(), out[k].data(), len[k].recv, &counts});
    end[k] = t.cycle();
    packets[k] = comm->last().packets;
  });
  progress.finish();
  if (samples) samples->take(machine_model, machine_model.cycle());  // the cycles after the last whole period
  if (!o.machine.trace_path.empty() && n > 0) {  // the view opens on the collective
    const uint64_t first = *std::min_element(start.begin(), start.end());
    const uint64_t last = *std::max_element(end.begin(), end.end());
    machine_model.write_wave_view({{}, first, last, {{first, coll + " starts"}, {last, coll + " ends"}}});
  }

  nlohmann::json js;
  js["collective"] = coll;
  js["nodes"] = o.machine.shape.nodes();
  js["tasks_per_node"] = tasks;
  js["members"] = n;
  if (!o.ranks.empty()) js["ranks"] = members;
  js["torus"] = o.machine.shape.str();
  js["count"] = count;
  js["type"] = driver::to_string(o.type);
  js["op"] = spec->takes_op ? driver::to_string(op) : "none";
  if (spec->takes_root) js["root"] = o.root;
  js["seed"] = o.seed;
  js["algorithm"] = driver_coll ? driver::to_string(chosen) : "default";
  // Which communicators ride the tree: the class route, or null when it runs on the torus.
  js["class_route"] = class_route == driver::kNoClass ? nlohmann::json(nullptr) : nlohmann::json(class_route);
  if (chosen == driver::Algorithm::AlltoallvSegment) {
    js["piece_bytes"] = o.segment.piece_bytes;
    js["order"] = driver::to_string(o.segment.order);
  }
  const uint64_t bytes_per_rank = spec->lengths ? sent_elements * driver::bytes(o.type) / n : count * driver::bytes(o.type);
  js["bytes"] = bytes_per_rank;
  js["tree_depth"] = machine_model.tree_depth();
  js["link_latency"] = o.machine.tree_latency;  // the tree links'; "machine" has every wire's
  js["access_cycles"] = o.machine.access_cycles;
  js["clock_mhz"] = o.machine.clock_mhz;
  js["machine"] = machine_json(o.machine);

  auto finish = [&](int status) {
    if (samples) {
      js["samples"] = samples->json();
      std::ostringstream line;
      line << std::fixed << std::setprecision(3) << "  samples    " << samples->size() << ", every "
           << o.sample_every << " cycles: mean link utilisation peaked at " << samples->tree_peak()
           << " flits/cycle on the tree, " << samples->peak() << " on the torus\n";
      text << line.str();
    }
    // The link layer's counters; a line of them when the links misbehaved.
    if (LinkReport::wanted(o.machine, !o.json_path.empty())) {
      const LinkReport links = LinkReport::of(machine_model);
      js["links"] = links.json();
      if (links.bits_flipped || !links.down.empty()) text << links.text() << "\n";
    }
    if (measure) {
      if (js.contains("cycles") && js["cycles"].is_number()) measure->cycles = js["cycles"].get<uint64_t>();
      if (js.contains("torus_busiest_link_flits")) measure->busiest_torus_link = js["torus_busiest_link_flits"].get<uint64_t>();
      measure->algorithm = js["algorithm"].get<std::string>();
    }
    if (!o.json_path.empty() && !write_json_file(o.json_path, js)) return 1;
    return status;
  };

  if (!report.ok) {
    std::cerr << "collnet: " << coll << " failed: " << report.error << "\n";
    js["verified"] = false;
    js["error"] = report.error;
    js["cycles"] = nullptr;
    js["sim_cycles"] = report.cycles;
    return finish(1);
  }

  uint64_t flits = 0;
  for (unsigned r = 0; r < o.machine.shape.nodes(); ++r)
    for (unsigned l = 0; l < 3; ++l) flits += machine_model.link_flits(r, l);
  js["link_flits"] = flits;
  // The torus's links: every flit sent, and the busiest link direction's.
  uint64_t torus_flits = 0, busiest = 0;
  for (unsigned r = 0; r < o.machine.shape.nodes(); ++r)
    for (unsigned d = 0; d < 6; ++d) {
      const uint64_t f = machine_model.torus_link_flits(r, d);
      torus_flits += f;
      busiest = std::max(busiest, f);
    }
  js["torus_link_flits"] = torus_flits;
  js["torus_busiest_link_flits"] = busiest;
  // Tree links in both directions that the run could have used.
  const uint64_t link_directions = 2ull * (o.machine.shape.nodes() - 1);
  js["sim_cycles"] = report.cycles;
  js["wall_seconds"] = report.wall_seconds;
  js["idle_skip"] = sim::to_string(o.machine.idle_skip);
  const sim::Node::Activity activity = machine_model.activity();
  js["tree_skipped_fraction"] = activity.tree_skipped_share();
  js["torus_skipped_fraction"] = activity.torus_skipped_share();
  js["idle_skipped_fraction"] = activity.skipped_share();

  const uint64_t last_in = *std::max_element(start.begin(), start.end());
  const uint64_t last_out = *std::max_element(end.begin(), end.end());
  std::string members_text;
  if (!o.ranks.empty()) {
    members_text = " ranks=";
    for (unsigned k = 0; k < n; ++k) members_text += (k ? "," : "") + std::to_string(members[k]);
    if (class_route == driver::kNoClass) members_text += " (no class route: every collective on the torus)";
  }
  const std::string machine_text = " torus=" + o.machine.shape.str() + " nodes=" +
                                   std::to_string(o.machine.shape.nodes()) +
                                   (tasks > 1 ? " tasks=" + std::to_string(tasks) : "") + members_text;
  std::ostringstream line;
  line << coll;
  if (o.algorithm != driver::Algorithm::Auto) line << " algorithm=" << driver::to_string(chosen);
  if (barrier) {
    // The barrier's cost is what the last rank to arrive waits; verified if no rank left
    // before the last one arrived.
    const uint64_t cycles = last_out - last_in;
    const auto early = std::min_element(end.begin(), end.end());
    const bool ok = *early >= last_in;
    js["cycles"] = cycles;
    js["time_us"] = static_cast<double>(cycles) / o.machine.clock_mhz;
    js["verified"] = ok;
    line << machine_text << ": " << cycles << " cycles from the last arrival to the last departure ("
         << cycles / o.machine.clock_mhz << " us at " << o.machine.clock_mhz << " MHz)";
    if (ok) {
      text << line.str() << ", verified\n";
      return finish(0);
    }
    text << line.str() << ", WRONG\n";
    std::cerr << "collnet: rank " << (early - end.begin()) << " left the barrier at cycle " << *early
              << ", before the last rank arrived at cycle " << last_in << "\n";
    return finish(1);
  }

  reference::Problem problem;
  problem.collective = coll;
  problem.type = o.type;
  problem.op = op;
  problem.root = o.root;
  problem.count = count;
  problem.counts = &counts;
  const auto want = reference::reference(problem, in);
  const reference::Mismatch bad = reference::compare(out, want);
  if (!o.output_path.empty()) {
    std::vector<std::optional<std::vector<uint64_t>>> results(n);
    for (unsigned k = 0; k < n; ++k)
      if (want[k]) results[k] = out[k];
    reference::write_data_file(o.output_path, o.type, pairs, results);
  }

  const uint64_t cycles = last_out - *std::min_element(start.begin(), start.end());
  const uint64_t pk = std::max<uint64_t>(1, *std::max_element(packets.begin(), packets.end()));
  const double us = static_cast<double>(cycles) / o.machine.clock_mhz;
  js["cycles"] = cycles;
  js["time_us"] = us;
  js["verified"] = bad.count == 0;
  js["packets"] = pk;
  js["cycles_per_packet"] = static_cast<double>(cycles) / static_cast<double>(pk);
  js["flits_per_cycle"] = static_cast<double>(bytes_per_rank) / 8.0 / static_cast<double>(cycles);
  // Busy fraction of the tree's link directions over the collective (0 on one node).
  js["link_utilization"] =
      link_directions ? static_cast<double>(flits) / static_cast<double>(link_directions * cycles) : 0.0;

  if (spec->takes_op) line << " op=" << driver::to_string(op);
  if (spec->takes_root) line << " root=" << o.root;
  line << " type=" << driver::to_string(o.type) << " count=" << count;
  if (spec->takes_counts) line << " counts=" << (o.counts ? "file" : "seeded");
  line << machine_text << ": " << cycles << " cycles ("
       << us << " us at " << o.machine.clock_mhz << " MHz), " << bytes_per_rank << " bytes per rank";
  if (spec->lengths) line << " sent";
  if (bad.count == 0) {
    text << line.str() << ", verified\n";
    return finish(0);
  }
  js["mismatches"] = bad.count;
  text << line.str() << ", WRONG\n";
  std::cerr << "collnet: " << bad.count << " wrong elements; first at rank " << bad.rank << " index " << bad.index
            << ": expected " << reference::hex64(bad.expected) << ", got " << reference::hex64(bad.got) << "\n";
  return finish(1);
}

}  // namespace collnet::cli
