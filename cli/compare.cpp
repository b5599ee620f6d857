// SPDX-License-Identifier: Apache-2.0
#include "cli/json_file.hpp"
#include "cli/compare.hpp"
#include "cli/machine_file.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "driver/error.hpp"
#include "systemc/isolated.hpp"
#include "systemc/shape.hpp"

namespace collnet::cli {

namespace {

// One verified run in a child process (SystemC cannot build a second machine in one).
std::optional<RunMeasure> measure_one(const RunOptions& r, const std::string& what) {
  const sim::Isolated child = sim::run_isolated([&r] {
    // The table shows how the grid goes; a run's own progress line would erase its row.
    setenv("COLLNET_PROGRESS", "0", 1);
    std::ostringstream quiet;
    RunMeasure m;
    if (run_collective(r, quiet, &m) != 0) return std::string("failed: ") + quiet.str();
    return "ok " + std::to_string(m.cycles) + " " + std::to_string(m.busiest_torus_link) + " " + m.algorithm;
  });
  if (!child.exited || child.report.rfind("ok ", 0) != 0) {
    std::cerr << "collnet: " << what << ": " << child.report << "\n";
    return std::nullopt;
  }
  RunMeasure m;
  std::istringstream in(child.report.substr(3));
  in >> m.cycles >> m.busiest_torus_link >> m.algorithm;
  return m;
}

size_t column(driver::Algorithm a) { return std::max<size_t>(12, std::string(to_string(a)).size() + 2); }

}  // namespace

CompareTable compare_algorithms(const CompareOptions& o) {
  CompareTable t;
  t.collective = *driver::collective_named(o.run.collective);
  t.algorithms = o.algorithms;
  if (t.algorithms.empty())
    for (driver::Algorithm a : driver::algorithms_for(t.collective))
      if (a != driver::Algorithm::Auto) t.algorithms.push_back(a);
  const size_t elem = driver::bytes(o.run.type);
  const bool barrier = t.collective == driver::Collective::Barrier;
  const std::vector<size_t> sizes = barrier ? std::vector<size_t>{0} : o.sizes;

  std::cout << o.run.collective << " on " << o.run.machine.shape.str() << " ("
            << o.run.machine.shape.nodes() * o.run.machine.tasks_per_node << " ranks), type "
            << driver::to_string(o.run.type) << ": cycles per algorithm, * the fastest; auto's pick last\n";
  std::cout << std::setw(10) << "bytes";
  for (driver::Algorithm a : t.algorithms) std::cout << std::setw(static_cast<int>(column(a))) << to_string(a);
  std::cout << "   auto\n" << std::flush;

  for (size_t bytes : sizes) {
    RunOptions r = o.run;
    r.count = barrier ? 1 : std::max<size_t>(1, bytes / elem);
    r.json_path.clear();
    r.output_path.clear();
    CompareRow row;
    row.bytes = barrier ? 0 : r.count * elem;
    std::cout << std::setw(10) << row.bytes << std::flush;
    for (driver::Algorithm a : t.algorithms) {
      r.algorithm = a;
      const auto m = measure_one(r, o.run.collective + " " + to_string(a) + " at " + std::to_string(row.bytes) + " bytes");
      row.cycles.push_back(m ? std::optional<uint64_t>(m->cycles) : std::nullopt);
      row.busiest.push_back(m ? std::optional<uint64_t>(m->busiest_torus_link) : std::nullopt);
      if (!m) t.all_verified = false;
    }
    for (size_t i = 0; i < t.algorithms.size(); ++i)
      if (row.cycles[i] && (!row.fastest || *row.cycles[i] < *row.cycles[*row.fastest])) row.fastest = i;
    r.algorithm = driver::Algorithm::Auto;
    if (const auto m = measure_one(r, o.run.collective + " auto at " + std::to_string(row.bytes) + " bytes")) {
      row.auto_cycles = m->cycles;
      row.auto_algorithm = m->algorithm;
    } else {
      t.all_verified = false;
    }
    for (size_t i = 0; i < t.algorithms.size(); ++i) {
      std::ostringstream cell;
      if (row.cycles[i])
        cell << *row.cycles[i] << (row.fastest == i ? "*" : " ");
      else
        cell << "FAILED ";
      std::cout << std::setw(static_cast<int>(column(t.algorithms[i]))) << cell.str();
    }
    std::cout << "   " << (row.auto_cycles ? std::to_string(*row.auto_cycles) + " (" + row.auto_algorithm + ")" : "FAILED")
              << "\n"
              << std::flush;
    t.rows.push_back(std::move(row));
  }
  return t;
}

int run_compare(const CompareOptions& o) {
  const CompareTable t = compare_algorithms(o);
  if (!o.json_path.empty()) {
    nlohmann::json js;
    js["collective"] = o.run.collective;
    js["torus"] = o.run.machine.shape.str();
    js["machine"] = machine_json(o.run.machine);
    js["tasks_per_node"] = o.run.machine.tasks_per_node;
    js["ranks"] = o.run.machine.shape.nodes() * o.run.machine.tasks_per_node;
    js["type"] = driver::to_string(o.run.type);
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
      j["auto"] = {{"algorithm", row.auto_algorithm},
                   {"cycles", row.auto_cycles ? nlohmann::json(*row.auto_cycles) : nlohmann::json(nullptr)}};
      js["rows"].push_back(j);
    }
    if (!write_json_file(o.json_path, js)) return 1;
  }
  return t.all_verified ? 0 : 1;
}

std::vector<driver::TuningRule> rules_from(const CompareTable& t, unsigned ranks) {
  std::vector<driver::TuningRule> rules;
  for (size_t k = 0; k < t.rows.size(); ++k) {
    if (!t.rows[k].fastest) continue;
    const driver::Algorithm a = t.algorithms[*t.rows[k].fastest];
    size_t up_to = SIZE_MAX;
    if (k + 1 < t.rows.size())
      up_to = static_cast<size_t>(std::sqrt(static_cast<double>(std::max<size_t>(1, t.rows[k].bytes)) *
                                            static_cast<double>(t.rows[k + 1].bytes)));
    if (!rules.empty() && rules.back().algorithm == a)
      rules.back().up_to_bytes = up_to;  // the same winner: one rule
    else
      rules.push_back({t.collective, ranks, up_to, a});
  }
  return rules;
}

void write_tuning_file(const std::string& path, const std::vector<driver::TuningRule>& rules, const std::string& torus) {
  nlohmann::json js;
  js["measured_on"] = torus;
  js["rules"] = nlohmann::json::array();
  for (const driver::TuningRule& r : rules)
    js["rules"].push_back({{"collective", to_string(r.collective)},
                           {"ranks", r.ranks},
                           {"up_to_bytes", r.up_to_bytes == SIZE_MAX ? nlohmann::json(nullptr) : nlohmann::json(r.up_to_bytes)},
                           {"algorithm", to_string(r.algorithm)}});
  std::ofstream f(path);
  if (!f) throw std::invalid_argument("cannot write '" + path + "'");
  f << js.dump(2) << "\n";
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
    // Tables from before "ranks" was written: the shape's nodes times the tasks per node.
    *ranks = js.contains("ranks") ? js["ranks"].get<unsigned>()
                                  : sim::Shape::parse(js.at("torus").get<std::string>()).nodes() *
                                        js.value("tasks_per_node", 1u);
    if (js.at("rows").empty()) throw std::invalid_argument("'" + path + "' has no rows");
    for (const auto& [name, cycles] : js.at("rows")[0].at("cycles").items()) {
      const auto a = driver::algorithm_named(name);
      if (!a) throw std::invalid_argument("'" + path + "': unknown algorithm '" + name + "'");
      t.algorithms.push_back(*a);
    }
    for (const auto& row : js.at("rows")) {
      CompareRow r;
      r.bytes = row.at("bytes").get<size_t>();
      for (driver::Algorithm a : t.algorithms) {
        const nlohmann::json& c = row.at("cycles").at(to_string(a));
        r.cycles.push_back(c.is_null() ? std::nullopt : std::optional<uint64_t>(c.get<uint64_t>()));
      }
      for (size_t i = 0; i < r.cycles.size(); ++i)
        if (r.cycles[i] && (!r.fastest || *r.cycles[i] < *r.cycles[*r.fastest])) r.fastest = i;
      t.rows.push_back(std::move(r));
    }
    return t;
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument("'" + path + "': " + e.what());
  }
}

int run_tune(const TuneOptions& o) {
  unsigned ranks = o.run.machine.shape.nodes() * o.run.machine.tasks_per_node;
  std::vector<driver::TuningRule> rules;
  bool ok = true;
  if (!o.from.empty()) {
    std::string where;
    for (const std::string& path : o.from) {
      CompareTable t;
      try {
        t = read_compare_file(path, &ranks);
      } catch (const std::invalid_argument& e) {
        std::cerr << "collnet: tune: --from: " << e.what() << "\n";
        return 2;
      }
      for (const driver::TuningRule& r : rules_from(t, ranks)) rules.push_back(r);
      where += (where.empty() ? "" : ", ") + path;
    }
    try {
      write_tuning_file(o.output, rules, where);
    } catch (const std::invalid_argument& e) {
      std::cerr << "collnet: tune: " << e.what() << "\n";
      return 1;
    }
    std::cout << "tuning table: " << o.output << " (" << rules.size() << " rules from " << where << ")\n";
    return 0;
  }
  for (unsigned i = 0; i < driver::kNumCollectives; ++i) {
    CompareOptions c;
    c.run = o.run;
    c.run.collective = to_string(static_cast<driver::Collective>(i));
    c.sizes = o.sizes;
    const CompareTable t = compare_algorithms(c);
    ok = ok && t.all_verified;
    for (const driver::TuningRule& r : rules_from(t, ranks)) rules.push_back(r);
    std::cout << "\n";
  }
  try {
    write_tuning_file(o.output, rules, o.run.machine.shape.str());
  } catch (const std::invalid_argument& e) {
    std::cerr << "collnet: tune: " << e.what() << "\n";
    return 1;
  }
  std::cout << "tuning table: " << o.output << " (" << rules.size() << " rules for " << ranks << " ranks)\n";
  return ok ? 0 : 1;
}

}  // namespace collnet::cli
