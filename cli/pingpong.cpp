// SPDX-License-Identifier: Apache-2.0
#include "cli/pingpong.hpp"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/link_report.hpp"
#include "cli/machine_file.hpp"
#include "cli/progress.hpp"
#include "driver/job.hpp"
#include "firmware/down_nodes.hpp"
#include "firmware/torus_layout.hpp"
#include "systemc/machine.hpp"

namespace collnet::cli {

namespace {

// The bytes of round `k` of a message of `bytes` from world rank `src`: each round differs.
uint8_t byte_of(unsigned src, unsigned k, size_t i) { return static_cast<uint8_t>(src * 77 + k * 13 + i * 7 + (i >> 9)); }

struct Row {
  size_t bytes = 0;
  uint64_t round_trip_cycles = 0;  // all iterations
  bool ok = true;
};

}  // namespace

int run_pingpong(const PingpongOptions& o) {
  const unsigned world = o.machine.shape.nodes() * o.machine.tasks_per_node;
  if (o.a >= world || o.b >= world || o.a == o.b)
    throw std::invalid_argument("--ranks: pingpong needs two different ranks of the machine's " + std::to_string(world));
  sim::Machine model(o.machine);
  driver::Job job(model, o.p2p);
  Progress progress = Progress::on_stderr("pingpong");
  if (progress.shown()) model.watch(Progress::kWatchCycles, [&] { progress.update(model.cycle()); });
  std::vector<Row> rows(o.sizes.size());
  // o.a and o.b are tasks (node * tasks per node + task); the world's ranks count only the
  // live nodes' tasks.
  const fw::DownNodes down = o.machine.down();
  const driver::RunReport rep = job.run([&](driver::Task& t) {
    const unsigned me = t.node() * t.tasks_per_node() + t.task_on_node();
    if (me != o.a && me != o.b) return;
    const unsigned peer = down.world_of_task(me == o.a ? o.b : o.a, t.tasks_per_node());
    driver::Communicator& w = t.world();
    for (size_t s = 0; s < o.sizes.size(); ++s) {
      const size_t bytes = o.sizes[s];
      std::vector<uint8_t> out(bytes), in(bytes);
      // One warm-up round trip, then the measured ones.
      for (unsigned k = 0; k <= o.iterations; ++k) {
        for (size_t i = 0; i < bytes; ++i) out[i] = byte_of(me, k, i);
        const uint64_t start = t.cycle();
        if (me == o.a) {
          w.send(out.data(), bytes, driver::Datatype::U8, peer, 0);
          w.recv(in.data(), bytes, driver::Datatype::U8, peer, 0);
          if (k > 0) rows[s].round_trip_cycles += t.cycle() - start;
        } else {
          w.recv(in.data(), bytes, driver::Datatype::U8, peer, 0);
          w.send(out.data(), bytes, driver::Datatype::U8, peer, 0);
        }
        for (size_t i = 0; i < bytes; ++i)
          if (in[i] != byte_of(peer, k, i)) rows[s].ok = false;
      }
      rows[s].bytes = bytes;
    }
  });
  progress.finish();
  if (!rep.ok) {
    std::cerr << "collnet: pingpong failed: " << rep.error << "\n";
    return 1;
  }

  const fw::TorusLayout layout(o.machine.shape.dims());
  const unsigned na = o.a / o.machine.tasks_per_node, nb = o.b / o.machine.tasks_per_node;
  const auto ca = layout.coord(na), cb = layout.coord(nb);
  const unsigned hops = layout.distance(ca, cb);
  const double mhz = o.machine.clock_mhz;
  // A 64-bit flit per link every torus_cycles_per_flit cycles (one per cycle by default).
  const double link_bytes_per_cycle = 8.0 / o.machine.torus_cycles_per_flit;
  std::printf("pingpong: rank %u (node %u at %u,%u,%u) and rank %u (node %u at %u,%u,%u), %u hops, %u round trips per size\n",
              o.a, na, ca[0], ca[1], ca[2], o.b, nb, cb[0], cb[1], cb[2], hops, o.iterations);
  std::printf("%10s %14s %10s %10s %10s\n", "bytes", "cycles/1-way", "us", "MB/s", "of link");
  nlohmann::json js;
  js["ranks"] = {o.a, o.b};
  js["hops"] = hops;
  js["iterations"] = o.iterations;
  js["clock_mhz"] = mhz;
  js["torus"] = o.machine.shape.str();
  js["eager_limit"] = o.p2p.eager_limit;
  js["machine"] = machine_json(o.machine);
  bool all_ok = true;
  for (const Row& r : rows) {
    const double one_way = static_cast<double>(r.round_trip_cycles) / (2.0 * o.iterations);
    const double bytes_per_cycle = one_way > 0 ? r.bytes / one_way : 0;
    const double mb_s = bytes_per_cycle * mhz;  // bytes per µs
    std::printf("%10zu %14.1f %10.3f %10.1f %9.1f%%%s\n", r.bytes, one_way, one_way / mhz, mb_s,
                100.0 * bytes_per_cycle / link_bytes_per_cycle, r.ok ? "" : "  WRONG DATA");
    js["sizes"].push_back({{"bytes", r.bytes},
                           {"cycles_one_way", one_way},
                           {"us_one_way", one_way / mhz},
                           {"mb_per_s", mb_s},
                           {"link_fraction", bytes_per_cycle / link_bytes_per_cycle},
                           {"verified", r.ok}});
    all_ok = all_ok && r.ok;
  }
  js["verified"] = all_ok;
  js["sim_cycles"] = rep.cycles;
  if (LinkReport::wanted(o.machine, !o.json_path.empty())) {
    const LinkReport links = LinkReport::of(model);
    js["links"] = links.json();
    if (links.bits_flipped || !links.down.empty()) std::printf("%s\n", links.text().c_str());  // as run and traffic do
  }
  if (!o.json_path.empty()) {
    std::ofstream f(o.json_path);
    f << js.dump(2) << "\n";
    if (!f) {
      std::cerr << "collnet: cannot write " << o.json_path << "\n";
      return 1;
    }
  }
  return all_ok ? 0 : 1;
}

}  // namespace collnet::cli
