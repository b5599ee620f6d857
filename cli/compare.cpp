#include "compare.hpp"

#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "systemc/isolated.hpp"

namespace collnet::cli {

int run_compare(const CompareOptions& o) {
  const auto coll = driver::collective_named(o.run.collective);
  if (!coll) {
    std::cerr << "collnet: compare: " << o.run.collective << " has one algorithm; nothing to compare\n";
    return 2;
  }
  std::vector<driver::Algorithm> algs = o.algorithms;
  if (algs.empty())
    for (driver::Algorithm a : driver::algorithms_for(*coll))
      if (a != driver::Algorithm::Auto) algs.push_back(a);
  const size_t elem = driver::bytes(o.run.type);
  const bool barrier = *coll == driver::Collective::Barrier;
  const std::vector<size_t> sizes = barrier ? std::vector<size_t>{0} : o.sizes;

  std::cout << o.run.collective << " on " << o.run.machine.shape.str() << " ("
            << o.run.machine.shape.nodes() * o.run.machine.tasks_per_node << " ranks), type "
            << driver::to_string(o.run.type) << ": cycles per algorithm, * the fastest\n";
  std::cout << std::setw(10) << "bytes";
  for (driver::Algorithm a : algs) std::cout << std::setw(std::max<size_t>(12, std::string(to_string(a)).size() + 2)) << to_string(a);
  std::cout << "\n";

  nlohmann::json js;
  js["collective"] = o.run.collective;
  js["torus"] = o.run.machine.shape.str();
  js["tasks_per_node"] = o.run.machine.tasks_per_node;
  js["type"] = driver::to_string(o.run.type);
  js["rows"] = nlohmann::json::array();
  int status = 0;
  for (size_t bytes : sizes) {
    std::vector<uint64_t> cycles(algs.size(), 0), busiest(algs.size(), 0);
    std::vector<bool> ok(algs.size(), false);
    RunOptions r = o.run;
    r.count = barrier ? 1 : std::max<size_t>(1, bytes / elem);
    r.json_path.clear();
    r.output_path.clear();
    for (size_t i = 0; i < algs.size(); ++i) {
      r.algorithm = algs[i];
      // One machine per process (SystemC cannot build a second): the child reports its
      // cycles, or why it failed.
      const sim::Isolated child = sim::run_isolated([&r] {
        std::ostringstream quiet;
        uint64_t c = 0, busiest = 0;
        return run_collective(r, quiet, &c, &busiest) == 0 ? "ok " + std::to_string(c) + " " + std::to_string(busiest)
                                                           : std::string("failed");
      });
      ok[i] = child.exited && child.report.rfind("ok ", 0) == 0;
      if (ok[i]) {
        std::istringstream in(child.report.substr(3));
        in >> cycles[i] >> busiest[i];
      }
      if (!ok[i]) {
        std::cerr << "collnet: compare: " << o.run.collective << " " << to_string(algs[i]) << " at " << bytes
                  << " bytes: " << child.report << "\n";
        status = 1;
      }
    }
    size_t best = algs.size();
    for (size_t i = 0; i < algs.size(); ++i)
      if (ok[i] && (best == algs.size() || cycles[i] < cycles[best])) best = i;
    std::cout << std::setw(10) << r.count * elem;
    nlohmann::json row;
    row["bytes"] = r.count * elem;
    row["count"] = r.count;
    for (size_t i = 0; i < algs.size(); ++i) {
      std::ostringstream cell;
      if (ok[i])
        cell << cycles[i] << (i == best ? "*" : " ");
      else
        cell << "FAILED ";
      std::cout << std::setw(std::max<size_t>(12, std::string(to_string(algs[i])).size() + 2)) << cell.str();
      row["cycles"][to_string(algs[i])] = ok[i] ? nlohmann::json(cycles[i]) : nlohmann::json(nullptr);
      row["busiest_torus_link_flits"][to_string(algs[i])] = ok[i] ? nlohmann::json(busiest[i]) : nlohmann::json(nullptr);
    }
    if (best < algs.size()) row["fastest"] = to_string(algs[best]);
    std::cout << "\n";
    js["rows"].push_back(row);
  }
  if (!o.json_path.empty()) {
    std::ofstream f(o.json_path);
    if (!f) {
      std::cerr << "collnet: cannot write --json file '" << o.json_path << "'\n";
      return 1;
    }
    f << js.dump(2) << "\n";
  }
  return status;
}

}  // namespace collnet::cli
