// SPDX-License-Identifier: Apache-2.0
// `collnet sweep`: its options and checks, the variants, and the runs.
#include "cli/sweep_command.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <iterator>
#include <sstream>
#include <stdexcept>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "cli/command_line.hpp"
#include "cli/machine_file.hpp"
#include "cli/own_path.hpp"
#include "cli/usage_error.hpp"
#include "reference/number_list.hpp"
#include "systemc/block_benches.hpp"
#include "systemc/model_build_config.hpp"

namespace collnet::cli {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr std::size_t kMaxVariants = 64;
// Options the sweep gives each run itself.
const char* const kOwnOptions[] = {"--rtl", "--machine", "--json"};

// The smoke set: the block testbenches at the variant's sizes (systemc/block_benches.hpp),
// then whole-machine collectives on the tree and the torus, each verified, on a machine
// small enough to run in a second.
struct SmokeRun {
  const char* name;
  std::vector<std::string> args;
};
const SmokeRun kSmoke[] = {
    {"allreduce (tree)", {"run", "allreduce", "--torus", "2x2x2", "--count", "1024"}},
    {"bcast (tree)", {"run", "bcast", "--torus", "2x2x2", "--count", "1024"}},
    {"allreduce (torus ring)", {"run", "allreduce", "--torus", "2x2x2", "--count", "1024", "--algorithm", "torus-ring"}},
    {"alltoall (torus)", {"run", "alltoall", "--torus", "2x2x2", "--count", "256"}},
    {"barrier", {"run", "barrier", "--torus", "2x2x2"}},
};

// "KEY=V1,V2,..." -> the key and its values, each checked against the RTL's limits.
std::pair<std::string, std::vector<unsigned>> parse_list(const std::string& text) {
  const std::size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
    throw std::invalid_argument("'" + text + "' is not KEY=V1,V2,... (e.g. torus.vc_buffer_flits=33,48,64)");
  const std::string key = text.substr(0, eq);
  std::vector<unsigned> values;
  for (const std::string& item : reference::split_list(text.substr(eq + 1))) {
    sim::NodeSizes probe;
    probe.set_assignment(key + "=" + item);
    values.push_back(probe.get(key));
  }
  return {key, values};
}

// The label of a variant: its swept sizes (and machine file, when more than one).
std::string label_of(const sim::NodeSizes& s, const std::vector<std::string>& swept, const std::string& machine,
                     bool several_machines) {
  std::string l = several_machines ? machine : "";
  for (const std::string& k : swept) l += (l.empty() ? "" : " ") + k + "=" + std::to_string(s.get(k));
  return l.empty() ? "default" : l;
}

// Runs `args` (args[0] the program) with standard output to `out` (empty: inherited) and
// standard error inherited, or to `out` as well if `both`; returns its exit status (-1 if
// it did not exit).
int run_child(const std::vector<std::string>& args, const std::string& out, bool both = false) {
  std::cout.flush();
  std::cerr.flush();
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error(std::string("sweep: cannot start a run: ") + std::strerror(errno));
  if (pid == 0) {
    if (!out.empty()) {
      if (!std::freopen(out.c_str(), "w", stdout)) _exit(127);
      if (both && dup2(STDOUT_FILENO, STDERR_FILENO) < 0) _exit(127);
    }
    std::vector<char*> argv;
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The options that give a run the variant's hardware.
std::vector<std::string> variant_args(const SweepOptions::Variant& v) {
  std::vector<std::string> a;
  if (!v.machine.empty()) a.insert(a.end(), {"--machine", v.machine});
  for (const std::string& size : v.sizes.changed_list()) a.insert(a.end(), {"--rtl", size});
  return a;
}

// Yosys's count of cells and flip-flops for one side at the variant's sizes
// (scripts/rtl_portability.sh --area), or what went wrong.
json side_area(const std::string& top, const sim::NodeSizes& sizes, const fs::path& dir) {
  std::vector<std::string> args{"/bin/bash", std::string(sim::build_config::kSourceDir) + "/scripts/rtl_portability.sh", "--area"};
  for (const std::string& p : sizes.parameters(top)) args.insert(args.end(), {"-P", p});
  args.push_back(top);
  const fs::path out = dir / ("area-" + top + ".md");
  if (run_child(args, out.string()) != 0) throw std::runtime_error("sweep: --area: Yosys failed for " + top);
  // The area table's first row is the top's: | top | instances | logic cells | flip-flops |
  // memory bits | ... (scripts/area_report.py).
  std::ifstream f(out);
  bool rule = false;
  for (std::string line; std::getline(f, line);) {
    if (line.rfind("|---", 0) == 0) {
      rule = true;
      continue;
    }
    if (!rule) continue;
    std::vector<std::string> cells;
    std::stringstream ss(line);
    for (std::string c; std::getline(ss, c, '|');) cells.push_back(c);
    if (cells.size() < 6) break;
    const auto number = [](const std::string& t) { return std::stoull(t); };
    return {{"cells", number(cells[3])}, {"flip_flops", number(cells[4])}, {"memory_bits", number(cells[5])}};
  }
  throw std::runtime_error("sweep: --area: no area table in " + out.string());
}

// The numbers a table row shows of a run's JSON: a collective's or program's cycles, or a
// traffic run's accepted load (its highest, over a --sweep of offered loads).
std::string headline(const json& r) {
  std::ostringstream s;
  if (r.contains("points")) {
    double best = 0;
    for (const json& p : r["points"]) best = std::max(best, p.value("accepted_flits_per_node_cycle", 0.0));
    s << std::fixed << std::setprecision(4) << best << " flits/node/cycle at most";
  } else if (r.contains("accepted_flits_per_node_cycle")) {
    s << std::fixed << std::setprecision(4) << r["accepted_flits_per_node_cycle"].get<double>() << " flits/node/cycle";
  } else if (r.contains("cycles")) {
    s << r["cycles"].get<uint64_t>() << " cycles";
  }
  return s.str();
}

}  // namespace

Subcommand add_sweep(CLI::App& app, CommandLine& cl) {
  SweepOptions& o = cl.sweep;
  CLI::App* s = app.add_subcommand("sweep", "run one workload over hardware variants: a table, a JSON and a plot");
  s->add_option("--rtl", o.rtl, "a node size and the values it takes, KEY=V1,V2,... (repeatable: the product)")
      ->allow_extra_args(false);
  s->add_option("--machines", o.machines, "machine files or presets, comma-separated, each a variant");
  s->add_flag("--area", o.area, "add each variant's cells and flip-flops from Yosys (minutes per variant)");
  s->add_option("--json", o.json, "write every variant with its smoke set, results and area as JSON");
  s->add_option("--plot", o.plot, "draw the results (scripts/plot.py sweep; .svg or .png)");
  s->add_option("--keep", o.keep, "keep each run's JSON in this directory");
  s->add_option("workload", o.workload, "after --: the run, traffic or mpirun command each variant runs")->required();
  return {s, [&cl]() -> std::optional<int> {
            SweepOptions& o = cl.sweep;
            const std::string& w = o.workload.front();
            if (w != "run" && w != "traffic" && w != "mpirun")
              return usage_error("the workload is a run, traffic or mpirun command, not '" + w + "'", "sweep");
            for (const std::string& a : o.workload)
              for (const char* own : kOwnOptions)
                if (a == own || a.rfind(std::string(own) + "=", 0) == 0)
                  return usage_error("the workload's " + std::string(own) + " is the sweep's to give", "sweep");
            if (o.rtl.empty() && o.machines.empty()) return usage_error("give --rtl lists or --machines", "sweep");
            std::vector<std::pair<std::string, std::vector<unsigned>>> lists;
            try {
              for (const std::string& r : o.rtl) lists.push_back(parse_list(r));
            } catch (const std::invalid_argument& e) {
              return usage_error(std::string("--rtl: ") + e.what(), "sweep");
            }
            std::vector<std::string> machines{""};
            if (!o.machines.empty()) machines = reference::split_list(o.machines);
            o.variants.clear();
            o.swept.clear();
            for (const auto& l : lists) {
              for (const std::string& k : o.swept)
                if (k == l.first) return usage_error("--rtl: " + k + " is swept twice", "sweep");
              o.swept.push_back(l.first);
            }
            for (const std::string& m : machines) {
              sim::MachineConfig base;
              try {
                if (!m.empty()) apply_machine(m, base);
              } catch (const std::invalid_argument& e) {
                return usage_error(std::string("--machines: ") + e.what(), "sweep");
              }
              std::vector<sim::NodeSizes> sets{base.sizes};
              for (const auto& [key, values] : lists) {
                std::vector<sim::NodeSizes> next;
                for (const sim::NodeSizes& s : sets)
                  for (unsigned v : values) {
                    sim::NodeSizes t = s;
                    t.set(key, v);
                    next.push_back(t);
                  }
                sets = next;
              }
              for (const sim::NodeSizes& s : sets)
                o.variants.push_back({m, s, label_of(s, o.swept, m, machines.size() > 1)});
            }
            if (o.variants.size() > kMaxVariants)
              return usage_error(std::to_string(o.variants.size()) + " variants: at most " +
                                     std::to_string(kMaxVariants) + " in one sweep",
                                 "sweep");
            cl.command = CommandLine::Command::Sweep;
            return std::nullopt;
          }};
}

namespace {

// The smoke set's block testbenches at the variant's sizes (built first if the cache has
// them not), each run with its output to <stem>-<bench>.log: one entry each in `smoke`.
// True if every one passed.
bool run_block_benches(const SweepOptions::Variant& v, const fs::path& stem, json& smoke) {
  bool ok = true;
  try {
    const auto progress = [](const std::string& step) { std::cerr << "collnet sweep: " << step << "\n"; };
    for (const sim::BlockBench& b : sim::block_benches_for(v.sizes, progress)) {
      const fs::path j = stem.string() + "-" + b.name + ".json", log = stem.string() + "-" + b.name + ".log";
      fs::remove(j);
      const int rc = run_child({b.executable, "--gtest_output=json:" + j.string()}, log.string(), true);
      unsigned tests = 0, failures = 0;
      if (fs::exists(j)) {
        std::ifstream f(j);
        json r;
        f >> r;
        tests = r.value("tests", 0u);
        failures = r.value("failures", 0u) + r.value("errors", 0u);
      }
      const bool passed = rc == 0 && tests > 0 && failures == 0;
      if (!passed)
        std::cerr << "collnet sweep: variant " << v.label << ": " << b.name << " failed " << failures << " of " << tests
                  << " tests (exit status " << rc << "); see " << log.string() << "\n";
      smoke.push_back({{"run", b.name + " (" + b.block + " at " + b.sizes + ")"},
                       {"verified", passed},
                       {"tests", tests},
                       {"failures", failures},
                       {"executable", b.executable},
                       {"log", log.string()}});
      ok &= passed;
    }
  } catch (const std::exception& e) {
    std::cerr << "collnet sweep: variant " << v.label << ": the block testbenches: " << e.what() << "\n";
    smoke.push_back({{"run", "block testbenches"}, {"verified", false}, {"error", e.what()}});
    ok = false;
  }
  return ok;
}

}  // namespace

int run_sweep_command(const SweepOptions& o) {
  const std::string self = own_path();
  fs::path dir = o.keep;
  if (dir.empty()) {
    char tmpl[] = "/tmp/collnet-sweep-XXXXXX";
    if (!mkdtemp(tmpl)) throw std::runtime_error("sweep: cannot make a temporary directory");
    dir = tmpl;
  }
  fs::create_directories(dir);
  json all = {{"workload", o.workload}, {"swept", o.swept}, {"variants", json::array()}};
  int status = 0;
  for (std::size_t i = 0; i < o.variants.size(); ++i) {
    const SweepOptions::Variant& v = o.variants[i];
    std::cerr << "collnet sweep: variant " << i + 1 << " of " << o.variants.size() << ": " << v.label << "\n";
    json entry = {{"label", v.label}, {"machine", v.machine}, {"rtl", rtl_json(v.sizes)}};
    // The smoke set first: a variant whose hardware does not pass it has no numbers.
    const std::vector<std::string> extra = variant_args(v);
    json smoke = json::array();
    bool smoke_ok = run_block_benches(v, dir / ("variant" + std::to_string(i)), smoke);
    for (std::size_t k = 0; k < std::size(kSmoke); ++k) {
      std::vector<std::string> args{self};
      args.insert(args.end(), kSmoke[k].args.begin(), kSmoke[k].args.end());
      args.insert(args.end(), extra.begin(), extra.end());
      const fs::path j = dir / ("variant" + std::to_string(i) + "-smoke" + std::to_string(k) + ".json");
      args.insert(args.end(), {"--json", j.string()});
      const int rc = run_child(args, (dir / "smoke.out").string());
      bool verified = false;
      if (rc == 0 && fs::exists(j)) {
        std::ifstream f(j);
        json r;
        f >> r;
        verified = r.value("verified", false);
      }
      smoke.push_back({{"run", kSmoke[k].name}, {"verified", verified}});
      smoke_ok &= verified;
    }
    entry["smoke"] = smoke;
    entry["smoke_passed"] = smoke_ok;
    if (!smoke_ok) {
      std::cerr << "collnet sweep: variant " << v.label << " failed its smoke set: no numbers for it\n";
      status = 1;
      all["variants"].push_back(entry);
      continue;
    }
    std::vector<std::string> args{self};
    args.insert(args.end(), o.workload.begin(), o.workload.end());
    // mpirun's program and its arguments come after "--": the variant's options go before.
    auto at = std::find(args.begin(), args.end(), "--");
    const fs::path j = dir / ("variant" + std::to_string(i) + ".json");
    std::vector<std::string> mine = extra;
    mine.insert(mine.end(), {"--json", j.string()});
    args.insert(at, mine.begin(), mine.end());
    const int rc = run_child(args, "");
    if (rc != 0 || !fs::exists(j)) {
      std::cerr << "collnet sweep: variant " << v.label << ": the workload failed (exit status " << rc << ")\n";
      entry["result"] = nullptr;
      status = 1;
    } else {
      std::ifstream f(j);
      json r;
      f >> r;
      entry["result"] = r;
    }
    if (o.area) {
      json area = json::object();
      for (const char* top : {"nd_tree_net", "nd_torus_net"}) area[top] = side_area(top, v.sizes, dir);
      entry["area"] = area;
    }
    all["variants"].push_back(entry);
  }

  // The table.
  std::cout << "\n| variant | smoke set |";
  std::cout << " result |" << (o.area ? " tree side cells | tree side flip-flops | torus side cells | torus side flip-flops |" : "")
            << "\n|---|---|---|" << (o.area ? "---|---|---|---|" : "") << "\n";
  for (const json& e : all["variants"]) {
    std::cout << "| " << e["label"].get<std::string>() << " | " << (e["smoke_passed"].get<bool>() ? "passed" : "FAILED")
              << " | " << (e.contains("result") && !e["result"].is_null() ? headline(e["result"]) : "—") << " |";
    if (o.area && e.contains("area"))
      for (const char* top : {"nd_tree_net", "nd_torus_net"})
        std::cout << " " << e["area"][top]["cells"] << " | " << e["area"][top]["flip_flops"] << " |";
    std::cout << "\n";
  }
  if (!o.json.empty()) {
    std::ofstream f(o.json);
    if (!f) throw std::runtime_error("sweep: --json: cannot write " + o.json);
    f << all.dump(1) << "\n";
  }
  if (!o.plot.empty()) {
    fs::path data = o.json.empty() ? dir / "sweep.json" : fs::path(o.json);
    if (o.json.empty()) std::ofstream(data) << all.dump() << "\n";
    const int rc = run_child({"/usr/bin/python3", std::string(sim::build_config::kSourceDir) + "/scripts/plot.py", "sweep",
                              data.string(), "-o", o.plot},
                             "");
    if (rc != 0) {
      std::cerr << "collnet sweep: --plot: scripts/plot.py failed (exit status " << rc << ")\n";
      status = status ? status : 1;
    }
  }
  return status;
}

}  // namespace collnet::cli
