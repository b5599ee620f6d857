// SPDX-License-Identifier: Apache-2.0
// How a partitioned run went on the host (cli/partitions.hpp's PartitionsReport): gathered
// from the partitions' machines, for the report's line and its JSON.
#include <iomanip>
#include <sstream>
#include <stdexcept>

#include "cli/partitions.hpp"

namespace collnet::cli {

std::optional<PartitionsReport> PartitionsReport::of(const sim::Machine& m, double wall_seconds) {
  sim::Transport* t = m.transport();
  if (!t) return std::nullopt;
  const std::vector<double> mine{wall_seconds, m.sync_seconds()};
  sim::Message message;
  message.put(mine);
  const std::vector<sim::Transport::Bytes> parts = t->gather(message.bytes());
  PartitionsReport r;
  r.plan = m.partition_plan();
  for (unsigned p = 0; p < parts.size(); ++p) {
    const std::vector<double> times = sim::Message(parts[p]).values<double>();
    if (times.size() != 2) throw std::runtime_error("partitions: partition " + std::to_string(p) + " sent no times");
    r.partitions.push_back({static_cast<unsigned>(r.plan.nodes.at(p).size()), times[0], times[1]});
  }
  const sim::MachineConfig& c = m.config();
  if (!c.trace_path.empty())
    for (unsigned p = 0; p < r.plan.partitions(); ++p) {
      bool traced = c.trace_nodes.empty();
      for (unsigned node : c.trace_nodes) traced = traced || r.plan.owner.at(node) == p;
      if (traced) r.traces.push_back(c.trace_file(p));
    }
  return r;
}

std::string PartitionsReport::text() const {
  std::ostringstream s;
  const std::string cut = plan.describe();  // "2 partitions (y cut in 2): ..."
  s << std::fixed << std::setprecision(2) << "  partitions " << plan.partitions() << cut.substr(cut.find(" ("))
    << "; wall";
  for (size_t p = 0; p < partitions.size(); ++p) s << (p ? ", " : " ") << partitions[p].wall_seconds;
  s << " s; waiting";
  for (size_t p = 0; p < partitions.size(); ++p) s << (p ? ", " : " ") << partitions[p].sync_seconds;
  s << " s";
  for (size_t k = 0; k < traces.size(); ++k) s << (k ? ", " : "; traces ") << traces[k];
  return s.str();
}

nlohmann::json PartitionsReport::json() const {
  nlohmann::json each = nlohmann::json::array();
  for (const Partition& p : partitions)
    each.push_back({{"nodes", p.nodes}, {"wall_seconds", p.wall_seconds}, {"sync_seconds", p.sync_seconds}});
  return {{"count", plan.partitions()},
          {"slabs", plan.slabs},
          {"cut_wires", plan.cut_wires},
          {"lookahead", plan.lookahead},
          {"each", each},
          {"traces", traces}};
}

}  // namespace collnet::cli
