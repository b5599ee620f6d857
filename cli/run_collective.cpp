#include <algorithm>
#include <optional>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "driver/machine.hpp"
#include "driver/op.hpp"
#include "inputs.hpp"
#include "run_options.hpp"
#include "verify.hpp"

namespace collnet::cli {

namespace {

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(v));
  return buf;
}

}  // namespace

int run_collective(const RunOptions& o) {
  const bool barrier = o.collective == "barrier";
  const driver::Op op = o.collective == "allreduce" ? driver::parse_op(o.op) : driver::Op::Bxor;
  const uint64_t count = barrier ? 0 : o.count;

  // The participants: every world rank, or the --ranks subset. Data is indexed by the rank
  // in the communicator; a rank's input depends only on the seed and its world rank.
  std::vector<unsigned> members = o.ranks;
  if (members.empty())
    for (unsigned r = 0; r < o.machine.shape.nodes(); ++r) members.push_back(r);
  std::sort(members.begin(), members.end());
  const unsigned n = static_cast<unsigned>(members.size());

  std::vector<std::vector<uint64_t>> in(n), out(n);
  for (unsigned k = 0; k < n; ++k) {
    in[k] = seeded_input(o.seed, members[k], count, op);
    out[k].assign(count, 0);
  }
  std::vector<uint64_t> start(n, 0), end(n, 0);
  // A barrier's ranks arrive at seeded, different times, so that leaving early would show.
  std::vector<uint64_t> arrival_delay(n, 0);
  if (barrier)
    for (unsigned k = 0; k < n; ++k) arrival_delay[k] = seeded_input(o.seed, members[k], 1, op)[0] % 256;

  driver::Machine machine(o.machine);
  const driver::RunReport report = machine.run([&](driver::Task& t) {
    std::optional<driver::Communicator> subset =
        o.ranks.empty() ? std::nullopt : t.world().create(o.ranks);
    if (!o.ranks.empty() && !subset) return;  // not a member: its node's hardware still serves the route
    driver::Communicator* comm = subset ? &*subset : &t.world();
    const unsigned k = comm->rank();
    t.cpu().idle(arrival_delay[k]);
    start[k] = t.cycle();
    if (barrier) {
      comm->barrier();
    } else if (o.collective == "allreduce") {
      comm->allreduce(in[k].data(), out[k].data(), o.count, op);
    } else {
      out[k] = in[k];
      comm->bcast(out[k].data(), o.count, o.root);
    }
    end[k] = t.cycle();
  });

  nlohmann::json js;
  js["collective"] = o.collective;
  js["nodes"] = o.machine.shape.nodes();
  js["members"] = n;
  if (!o.ranks.empty()) js["ranks"] = members;
  js["torus"] = o.machine.shape.str();
  js["count"] = count;
  js["type"] = o.type;
  js["op"] = o.collective == "allreduce" ? o.op : "none";
  if (o.collective == "bcast") js["root"] = o.root;
  js["seed"] = o.seed;
  js["bytes"] = count * 8;
  js["tree_depth"] = machine.sim().tree_depth();
  js["link_latency"] = o.machine.link_latency;
  js["access_cycles"] = o.machine.access_cycles;
  js["clock_mhz"] = o.machine.clock_mhz;

  auto finish = [&](int status) {
    if (!o.json_path.empty()) {
      std::ofstream f(o.json_path);
      if (!f) {
        std::cerr << "collnet: cannot write --json file '" << o.json_path << "'\n";
        return 1;
      }
      f << js.dump(2) << "\n";
    }
    return status;
  };

  if (!report.ok) {
    std::cerr << "collnet: " << o.collective << " failed: " << report.error << "\n";
    js["verified"] = false;
    js["error"] = report.error;
    js["cycles"] = nullptr;
    return finish(1);
  }

  uint64_t flits = 0;
  for (unsigned r = 0; r < n; ++r)
    for (unsigned l = 0; l < 3; ++l) flits += machine.sim().link_flits(r, l);
  js["link_flits"] = flits;
  // Tree links in both directions that the run could have used, and the packets per rank.
  const uint64_t link_directions = 2ull * (o.machine.shape.nodes() - 1);
  const uint64_t packets = (count + 31) / 32;
  js["sim_cycles"] = report.cycles;
  js["wall_seconds"] = report.wall_seconds;

  const uint64_t last_in = *std::max_element(start.begin(), start.end());
  const uint64_t last_out = *std::max_element(end.begin(), end.end());
  std::string members_text;
  if (!o.ranks.empty()) {
    members_text = " ranks=";
    for (unsigned k = 0; k < n; ++k) members_text += (k ? "," : "") + std::to_string(members[k]);
  }
  std::ostringstream line;
  line << o.collective;
  uint64_t cycles = 0;
  if (barrier) {
    // The barrier's cost is what the last rank to arrive waits; verified if no rank left
    // before the last one arrived.
    cycles = last_out - last_in;
    const auto early = std::min_element(end.begin(), end.end());
    const bool ok = *early >= last_in;
    js["cycles"] = cycles;
    js["time_us"] = static_cast<double>(cycles) / o.machine.clock_mhz;
    js["verified"] = ok;
    line << " torus=" << o.machine.shape.str() << " nodes=" << o.machine.shape.nodes() << members_text << ": " << cycles
         << " cycles from the last arrival to the last departure (" << cycles / o.machine.clock_mhz << " us at "
         << o.machine.clock_mhz << " MHz)";
    if (ok) {
      std::cout << line.str() << ", verified\n";
      return finish(0);
    }
    std::cout << line.str() << ", WRONG\n";
    std::cerr << "collnet: rank " << (early - end.begin()) << " left the barrier at cycle " << *early
              << ", before the last rank arrived at cycle " << last_in << "\n";
    return finish(1);
  }

  const std::vector<uint64_t> ref = o.collective == "allreduce" ? reference_allreduce(in, op) : in[o.root];
  const Mismatch bad = compare(out, ref);
  cycles = last_out - *std::min_element(start.begin(), start.end());
  const double us = static_cast<double>(cycles) / o.machine.clock_mhz;
  js["cycles"] = cycles;
  js["time_us"] = us;
  js["verified"] = bad.count == 0;
  js["packets"] = packets;
  js["cycles_per_packet"] = static_cast<double>(cycles) / static_cast<double>(packets);
  // Busy fraction of the tree's link directions over the collective (0 on one node).
  js["link_utilization"] =
      link_directions ? static_cast<double>(flits) / static_cast<double>(link_directions * cycles) : 0.0;

  if (o.collective == "allreduce") line << " op=" << o.op;
  else line << " root=" << o.root;
  line << " type=" << o.type << " count=" << o.count << " torus=" << o.machine.shape.str()
       << " nodes=" << o.machine.shape.nodes() << members_text << ": "
       << cycles << " cycles (" << us << " us at " << o.machine.clock_mhz << " MHz), " << o.count * 8
       << " bytes per rank";
  if (bad.count == 0) {
    std::cout << line.str() << ", verified\n";
    return finish(0);
  }
  js["mismatches"] = bad.count;
  std::cout << line.str() << ", WRONG\n";
  std::cerr << "collnet: " << bad.count << " wrong elements; first at rank " << bad.rank << " index " << bad.index
            << ": expected " << hex(bad.expected) << ", got " << hex(bad.got) << "\n";
  return finish(1);
}

}  // namespace collnet::cli
