// SPDX-License-Identifier: Apache-2.0
// compare's table as --json writes it and tune --from reads it back.
#include "cli/compare_table.hpp"

#include <algorithm>
#include <fstream>
#include <stdexcept>

#include "cli/machine_file.hpp"
#include "driver/error.hpp"
#include "systemc/shape.hpp"

namespace collnet::cli {

std::optional<size_t> fastest_of(const std::vector<std::optional<uint64_t>>& cycles) {
  std::optional<size_t> fastest;
  for (size_t i = 0; i < cycles.size(); ++i)
    if (cycles[i] && (!fastest || *cycles[i] < *cycles[*fastest])) fastest = i;
  return fastest;
}

bool pruned_next(const CompareTable& t, size_t i, double factor, size_t top_bytes) {
  if (factor <= 0 || t.rows.empty()) return false;
  const CompareRow& last = t.rows.back();
  if (i < last.pruned.size() && last.pruned[i]) return true;
  if (t.rows.size() < 2 || !last.fastest || *last.fastest == i) return false;
  const CompareRow& before = t.rows[t.rows.size() - 2];
  const size_t f = *last.fastest;
  if (!last.cycles[i] || !before.cycles[i] || !before.cycles[f] || last.bytes <= before.bytes) return false;
  // Below a few packets the costs are latencies that do not extrapolate (a ring allgather
  // on 64 ranks costs the same at 8 and 16 bytes and grows 3 times the tree's rate from 16
  // to 32, then the tree's), and the runs are cheap: every algorithm runs there.
  constexpr size_t kPruneFromBytes = 512;
  if (before.bytes < kPruneFromBytes) return false;
  // Each of the two on the line through its last two sizes (costs grow about linearly in
  // bytes past a few packets), at the top of the grid; the ratio at the sizes between lies
  // between the last row's and that one.
  auto at_top = [&](size_t k) {
    const double c1 = static_cast<double>(*before.cycles[k]), c2 = static_cast<double>(*last.cycles[k]);
    const double slope = (c2 - c1) / static_cast<double>(last.bytes - before.bytes);
    return c2 + slope * static_cast<double>(std::max(top_bytes, last.bytes) - last.bytes);
  };
  return static_cast<double>(*last.cycles[i]) > factor * static_cast<double>(*last.cycles[f]) &&
         at_top(i) > factor * at_top(f);
}

nlohmann::json compare_table_json(const CompareTable& t, const RunOptions& run) {
  nlohmann::json js;
  js["collective"] = run.collective;
  js["torus"] = run.machine.shape.str();
  js["machine"] = machine_json(run.machine);
  js["tasks_per_node"] = run.machine.tasks_per_node;
  js["ranks"] = run.machine.world_ranks();
  js["type"] = driver::to_string(run.type);
  js["rows"] = nlohmann::json::array();
  for (const CompareRow& row : t.rows) {
    nlohmann::json j;
    j["bytes"] = row.bytes;
    for (size_t i = 0; i < t.algorithms.size(); ++i) {
      const char* name = to_string(t.algorithms[i]);
      j["cycles"][name] = row.cycles[i] ? nlohmann::json(*row.cycles[i]) : nlohmann::json(nullptr);
      j["busiest_torus_link_flits"][name] = row.busiest[i] ? nlohmann::json(*row.busiest[i]) : nlohmann::json(nullptr);
    }
    if (row.fastest) j["fastest"] = to_string(t.algorithms[*row.fastest]);
    j["pruned"] = nlohmann::json::array();
    for (size_t i = 0; i < row.pruned.size(); ++i)
      if (row.pruned[i]) j["pruned"].push_back(to_string(t.algorithms[i]));
    j["auto"] = {{"algorithm", row.auto_algorithm},
                 {"cycles", row.auto_cycles ? nlohmann::json(*row.auto_cycles) : nlohmann::json(nullptr)}};
    js["rows"].push_back(j);
  }
  return js;
}

CompareTable read_compare_file(const std::string& path, unsigned* ranks) {
  std::ifstream f(path);
  if (!f) throw std::invalid_argument("cannot open '" + path + "'");
  try {
    const nlohmann::json js = nlohmann::json::parse(f);
    CompareTable t;
    const auto c = driver::collective_named(js.at("collective").get<std::string>());
    if (!c) throw std::invalid_argument("'" + path + "': unknown collective " + js.at("collective").dump());
    t.collective = *c;
    try {
      t.type = driver::parse_datatype(js.value("type", std::string("u64")));
    } catch (const Error& e) {
      throw std::invalid_argument("'" + path + "': " + e.what());
    }
    // Tables from before "ranks" was written: the shape's nodes times the tasks per node.
    *ranks = js.contains("ranks")
                 ? js["ranks"].get<unsigned>()
                 : sim::Shape::parse(js.at("torus").get<std::string>()).nodes() * js.value("tasks_per_node", 1u);
    if (js.at("rows").empty()) throw std::invalid_argument("'" + path + "' has no rows");
    for (const auto& [name, cycles] : js.at("rows")[0].at("cycles").items()) {
      const auto a = driver::algorithm_named(name);
      if (!a) throw std::invalid_argument("'" + path + "': unknown algorithm '" + name + "'");
      t.algorithms.push_back(*a);
    }
    for (const auto& row : js.at("rows")) {
      CompareRow r;
      r.bytes = row.at("bytes").get<size_t>();
      const nlohmann::json pruned = row.value("pruned", nlohmann::json::array());
      for (driver::Algorithm a : t.algorithms) {
        const nlohmann::json& c = row.at("cycles").at(to_string(a));
        r.cycles.push_back(c.is_null() ? std::nullopt : std::optional<uint64_t>(c.get<uint64_t>()));
        r.pruned.push_back(std::find(pruned.begin(), pruned.end(), to_string(a)) != pruned.end());
      }
      r.fastest = fastest_of(r.cycles);
      t.rows.push_back(std::move(r));
    }
    return t;
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument("'" + path + "': " + e.what());
  }
}

}  // namespace collnet::cli
