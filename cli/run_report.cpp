// SPDX-License-Identifier: Apache-2.0
// The text line, the errors and --json of one run of a collective, from its RunResult.
#include "cli/run_report.hpp"

#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/json_file.hpp"
#include "cli/machine_file.hpp"
#include "reference/collectives.hpp"
#include "reference/data_file.hpp"

namespace collnet::cli {

namespace {

const reference::Collective& spec_of(const RunOptions& o) { return *reference::find_collective(o.collective); }

// What ran, on which machine: the same for a run that failed.
nlohmann::json setup_json(const RunOptions& o, const RunResult& r) {
  const reference::Collective& spec = spec_of(o);
  nlohmann::json js;
  js["collective"] = o.collective;
  js["nodes"] = o.machine.shape.nodes();
  js["tasks_per_node"] = o.machine.tasks_per_node;
  js["members"] = static_cast<unsigned>(r.members.size());
  if (!o.ranks.empty()) js["ranks"] = r.members;
  js["torus"] = o.machine.shape.str();
  js["count"] = r.count;
  js["type"] = driver::to_string(o.type);
  js["op"] = spec.takes_op ? driver::to_string(r.op) : "none";
  if (spec.takes_root) js["root"] = o.root;
  js["seed"] = o.seed;
  js["algorithm"] = r.algorithm_name();
  // Which communicators ride the tree: the class route, or null when it runs on the torus.
  js["class_route"] = r.class_route ? nlohmann::json(*r.class_route) : nlohmann::json(nullptr);
  if (r.algorithm == driver::Algorithm::AlltoallvSegment) {
    js["piece_bytes"] = o.segment.piece_bytes;
    js["order"] = driver::to_string(o.segment.order);
  }
  js["bytes"] = r.bytes_per_rank;
  js["tree_depth"] = r.tree_depth;
  js["link_latency"] = o.machine.tree_latency;  // the tree links'; "machine" has every wire's
  js["access_cycles"] = o.machine.access_cycles;
  js["clock_mhz"] = o.machine.clock_mhz;
  js["machine"] = machine_json(o.machine);
  return js;
}

// What the machine measured, and the collective's time.
void add_measurements(const RunOptions& o, const RunResult& r, nlohmann::json& js) {
  js["link_flits"] = r.tree_link_flits;
  js["torus_link_flits"] = r.torus_link_flits;
  js["torus_busiest_link_flits"] = r.torus_busiest_link_flits;
  js["sim_cycles"] = r.job.cycles;
  js["wall_seconds"] = r.job.wall_seconds;
  if (r.partitions) js["partitions"] = r.partitions->json();
  js["idle_skip"] = sim::to_string(o.machine.idle_skip);
  js["tree_skipped_fraction"] = r.activity.tree_skipped_share();
  js["torus_skipped_fraction"] = r.activity.torus_skipped_share();
  js["idle_skipped_fraction"] = r.activity.skipped_share();
  js["cycles"] = r.cycles;
  js["time_us"] = static_cast<double>(r.cycles) / o.machine.clock_mhz;
  js["verified"] = r.verified;
  if (!spec_of(o).moves_data) return;
  js["packets"] = r.packets;
  js["cycles_per_packet"] = static_cast<double>(r.cycles) / static_cast<double>(r.packets);
  js["flits_per_cycle"] = static_cast<double>(r.bytes_per_rank) / 8.0 / static_cast<double>(r.cycles);
  // Busy fraction of the tree's link directions over the collective (0 on one node): tree
  // links in both directions that the run could have used.
  const uint64_t link_directions = 2ull * (o.machine.shape.nodes() - 1);
  js["link_utilization"] =
      link_directions ? static_cast<double>(r.tree_link_flits) / static_cast<double>(link_directions * r.cycles) : 0.0;
  if (!r.verified) js["mismatches"] = r.mismatch.count;
}

nlohmann::json run_json(const RunOptions& o, const RunResult& r) {
  nlohmann::json js = setup_json(o, r);
  if (r.job.ok) {
    add_measurements(o, r, js);
  } else {
    js["verified"] = false;
    js["error"] = r.job.error;
    js["cycles"] = nullptr;
    js["sim_cycles"] = r.job.cycles;
  }
  if (r.samples) js["samples"] = r.samples->json();
  if (r.links) js["links"] = r.links->json();
  // The nodes down from boot, and what crossed their edges (nothing, on every network).
  nlohmann::json down = nlohmann::json::array();
  for (const auto& [node, t] : r.down_traffic)
    down.push_back({{"node", node},
                    {"tree_flits_out", t.tree_out},
                    {"tree_flits_in", t.tree_in},
                    {"torus_flits_out", t.torus_out},
                    {"torus_flits_in", t.torus_in},
                    {"barrier_words_out", t.barrier_out},
                    {"barrier_words_in", t.barrier_in}});
  js["down_nodes"] = down;
  return js;
}

// " torus=4x4x4 nodes=64", the nodes down, the tasks per node and the members of a subset.
std::string machine_text(const RunOptions& o, const RunResult& r) {
  const unsigned tasks = o.machine.tasks_per_node;
  std::string text = " torus=" + o.machine.shape.str();
  const std::vector<unsigned> down = o.machine.down().list();
  for (size_t k = 0; k < down.size(); ++k) text += (k ? "," : " down=") + std::to_string(down[k]);
  text += " nodes=" + std::to_string(o.machine.shape.nodes()) + (tasks > 1 ? " tasks=" + std::to_string(tasks) : "");
  if (!o.ranks.empty()) {
    text += " ranks=";
    for (size_t k = 0; k < r.members.size(); ++k) text += (k ? "," : "") + std::to_string(r.members[k]);
  }
  if (!r.class_route && (!o.ranks.empty() || !down.empty())) text += " (no class route: every collective on the torus)";
  return text;
}

// The line of a run that finished, without its verdict.
std::string run_line(const RunOptions& o, const RunResult& r) {
  const reference::Collective& spec = spec_of(o);
  std::ostringstream line;
  line << o.collective;
  if (o.algorithm != driver::Algorithm::Auto || !o.machine.down_nodes.empty()) line << " algorithm=" << r.algorithm_name();
  if (!spec.moves_data) {
    line << machine_text(o, r) << ": " << r.cycles << " cycles from the last arrival to the last departure ("
         << r.cycles / o.machine.clock_mhz << " us at " << o.machine.clock_mhz << " MHz)";
    return line.str();
  }
  if (spec.takes_op) line << " op=" << driver::to_string(r.op);
  if (spec.takes_root) line << " root=" << o.root;
  line << " type=" << driver::to_string(o.type) << " count=" << r.count;
  if (spec.takes_counts) line << " counts=" << (o.counts ? "file" : "seeded");
  line << machine_text(o, r) << ": " << r.cycles << " cycles (" << static_cast<double>(r.cycles) / o.machine.clock_mhz
       << " us at " << o.machine.clock_mhz << " MHz), " << r.bytes_per_rank << " bytes per rank";
  if (spec.lengths) line << " sent";
  return line.str();
}

// Why a run that finished is wrong.
std::string wrong(const RunOptions& o, const RunResult& r) {
  std::ostringstream why;
  if (!spec_of(o).moves_data) {
    why << "collnet: rank " << r.first_to_leave << " left the barrier at cycle " << r.first_end
        << ", before the last rank arrived at cycle " << r.last_start << "\n";
    return why.str();
  }
  const reference::Mismatch& bad = r.mismatch;
  why << "collnet: " << bad.count << " wrong elements; first at rank " << bad.rank << " index " << bad.index
      << ": expected " << reference::hex64(bad.expected) << ", got " << reference::hex64(bad.got) << "\n";
  return why.str();
}

std::string samples_line(const RunOptions& o, const LinkSamples& samples) {
  std::ostringstream line;
  line << std::fixed << std::setprecision(3) << "  samples    " << samples.size() << ", every " << o.sample_every
       << " cycles: mean link utilisation peaked at " << samples.tree_peak() << " flits/cycle on the tree, "
       << samples.peak() << " on the torus\n";
  return line.str();
}

}  // namespace

int report_run(const RunOptions& o, const RunResult& r, std::ostream& text) {
  if (!r.job.ok) {
    std::cerr << "collnet: " << o.collective << " failed: " << r.job.error << "\n";
  } else {
    text << run_line(o, r) << (r.verified ? ", verified\n" : ", WRONG\n");
    if (!r.verified) std::cerr << wrong(o, r);
  }
  if (r.samples) text << samples_line(o, *r.samples);
  if (r.links && (r.links->bits_flipped || !r.links->down.empty())) text << r.links->text() << "\n";
  if (r.partitions) text << r.partitions->text() << "\n";
  if (!o.json_path.empty() && !write_json_file(o.json_path, run_json(o, r))) return 1;
  return r.job.ok && r.verified ? 0 : 1;
}

}  // namespace collnet::cli
