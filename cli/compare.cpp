// SPDX-License-Identifier: Apache-2.0
#include "cli/compare.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>

#include "cli/run_collective.hpp"
#include "cli/run_command.hpp"
#include "systemc/isolated.hpp"

namespace collnet::cli {

namespace {

// One verified run in a child process (SystemC cannot build a second machine in one): of
// its result, what the table shows (the cycles, the busiest torus link, what auto chose).
std::optional<RunResult> measure_one(const RunOptions& r, const std::string& what) {
  const sim::Isolated child = sim::run_isolated([&r] {
    // The table shows how the grid goes; a run's own progress line would erase its row.
    setenv("COLLNET_PROGRESS", "0", 1);
    std::ostringstream quiet;
    RunResult result;
    if (run_collective(r, quiet, &result) != 0) return std::string("failed: ") + quiet.str();
    return "ok " + std::to_string(result.cycles) + " " + std::to_string(result.torus_busiest_link_flits) + " " +
           result.algorithm_name();
  });
  if (!child.exited || child.report.rfind("ok ", 0) != 0) {
    std::cerr << "collnet: " << what << ": " << child.report << "\n";
    return std::nullopt;
  }
  RunResult m;
  std::string algorithm;
  std::istringstream in(child.report.substr(3));
  in >> m.cycles >> m.torus_busiest_link_flits >> algorithm;
  m.algorithm = driver::algorithm_named(algorithm);
  return m;
}

size_t column(driver::Algorithm a) { return std::max<size_t>(12, std::string(to_string(a)).size() + 2); }

}  // namespace

CompareTable compare_algorithms(const CompareOptions& o) {
  CompareTable t;
  t.collective = *driver::collective_named(o.run.collective);
  t.type = o.run.type;
  t.algorithms = o.algorithms;
  // Every algorithm that applies, but those the down nodes rule out (compare_command
  // refuses them when named).
  std::vector<std::string> not_run;
  if (t.algorithms.empty())
    for (driver::Algorithm a : driver::algorithms_for(t.collective)) {
      if (a == driver::Algorithm::Auto) continue;
      if (const std::string why = unavailable(o.run, a); !why.empty())
        not_run.push_back(std::string(to_string(a)) + ": " + why);
      else
        t.algorithms.push_back(a);
    }
  const size_t elem = driver::bytes(o.run.type);
  const bool barrier = t.collective == driver::Collective::Barrier;
  const std::vector<size_t> sizes = barrier ? std::vector<size_t>{0} : o.sizes;
  const size_t top = sizes.empty() ? 0 : *std::max_element(sizes.begin(), sizes.end());  // for pruned_next

  std::cout << o.run.collective << " on " << o.run.machine.shape.str() << " ("
            << o.run.machine.world_ranks() << " ranks), type "
            << driver::to_string(o.run.type) << ": cycles per algorithm, * the fastest; auto's pick last\n";
  for (const std::string& line : not_run) std::cout << "  not run: " << line << "\n";
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
    if (!t.rows.empty() && t.rows.back().bytes == row.bytes) continue;  // a size below one element, again
    std::cout << std::setw(10) << row.bytes << std::flush;
    for (size_t i = 0; i < t.algorithms.size(); ++i) {
      const driver::Algorithm a = t.algorithms[i];
      row.pruned.push_back(pruned_next(t, i, o.prune, top));
      if (row.pruned.back()) {
        row.cycles.emplace_back();
        row.busiest.emplace_back();
        continue;
      }
      r.algorithm = a;
      const auto m =
          measure_one(r, o.run.collective + " " + to_string(a) + " at " + std::to_string(row.bytes) + " bytes");
      row.cycles.push_back(m ? std::optional<uint64_t>(m->cycles) : std::nullopt);
      row.busiest.push_back(m ? std::optional<uint64_t>(m->torus_busiest_link_flits) : std::nullopt);
      if (!m) t.all_verified = false;
    }
    row.fastest = fastest_of(row.cycles);
    r.algorithm = driver::Algorithm::Auto;
    if (const auto m = measure_one(r, o.run.collective + " auto at " + std::to_string(row.bytes) + " bytes")) {
      row.auto_cycles = m->cycles;
      row.auto_algorithm = m->algorithm_name();
    } else {
      t.all_verified = false;
    }
    for (size_t i = 0; i < t.algorithms.size(); ++i) {
      std::ostringstream cell;
      if (row.cycles[i])
        cell << *row.cycles[i] << (row.fastest == i ? "*" : " ");
      else
        cell << (row.pruned[i] ? "- " : "FAILED ");
      std::cout << std::setw(static_cast<int>(column(t.algorithms[i]))) << cell.str();
    }
    std::cout << "   "
              << (row.auto_cycles ? std::to_string(*row.auto_cycles) + " (" + row.auto_algorithm + ")" : "FAILED")
              << "\n"
              << std::flush;
    t.rows.push_back(std::move(row));
  }
  return t;
}

}  // namespace collnet::cli
