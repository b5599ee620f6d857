// SPDX-License-Identifier: Apache-2.0
#include "cli/machine_options.hpp"

#include <array>
#include <stdexcept>

#include "cli/machine_file.hpp"
#include "reference/number_list.hpp"
#include "systemc/shape.hpp"

namespace collnet::cli {

namespace {
// An option that stores its value in `field` when given.
template <class T>
void add(CLI::App* app, const std::string& name, std::optional<T>& field, const std::string& help) {
  app->add_option_function<T>(name, [&field](const T& v) { field = v; }, help);
}
}  // namespace

void add_machine_options(CLI::App* app, MachineOptions& o) {
  app->add_option("--machine", o.machine,
                  "the machine's timing and shape: a preset (" + machine_preset_list() +
                      ") or a JSON machine file (docs/machines.md); the options below override it");
  add(app, "--link-latency", o.link_latency, "cycles per link, every tree and torus link and barrier wire (1..60; default 4)");
  add(app, "--tree-latency", o.tree_latency, "cycles per tree link (1..60)");
  add(app, "--torus-latency", o.torus_latency, "cycles per torus link: one for all, or X,Y,Z per dimension (1..60 each)");
  add(app, "--barrier-latency", o.barrier_latency, "cycles per barrier wire (the global interrupt network, 1..1000)");
  add(app, "--tree-cycles-per-flit", o.tree_rate,
      "tree link serialisation: cycles per 64-bit flit (1..64, in steps of 1/256; default 1)");
  add(app, "--torus-cycles-per-flit", o.torus_rate,
      "torus link serialisation: cycles per 64-bit flit (1..64, in steps of 1/256; default 1)");
  add(app, "--access-cycles", o.access_cycles, "cycles a processor's register or memory access costs (1..1000; default 1)");
  app->add_flag("--coprocessor", o.coprocessor,
               "coprocessor mode: each node's second processor runs the message layer of its one task, "
               "which computes meanwhile (docs/coprocessor.md; the machine file's processor.coprocessor)");
  add(app, "--clock-mhz", o.clock_mhz, "the clock reports convert cycles to time at, MHz (default 700)");
  add(app, "--down-nodes", o.down_nodes,
      "nodes down from boot, e.g. 21,42: down on every network and running no rank; the collectives and "
      "point-to-point go around them (docs/down-nodes.md)");
  app->add_option("--rtl", o.rtl,
                  "a node size KEY=VALUE, e.g. torus.vc_buffer_flits=32 (repeatable; over the machine file's \"rtl\"): "
                  "other sizes than the defaults build node models once, into $COLLNET_MODEL_CACHE "
                  "(docs/design-space.md)")
      ->allow_extra_args(false);
}

void apply_down_nodes(const MachineOptions& o, sim::MachineConfig& m) {
  const unsigned nodes = m.shape.nodes();
  const std::string what = o.down_nodes ? "--down-nodes: " : "the machine file's down_nodes: ";
  try {
    if (o.down_nodes) m.down_nodes = reference::parse_number_list(*o.down_nodes, nodes, "node");
    (void)m.down();
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(what + e.what());
  }
  if (!m.down_nodes.empty() && m.down_nodes.size() >= nodes)
    throw std::invalid_argument(what + "every node of the " + m.shape.str() + " machine is down");
}

void add_torus_option(CLI::App* app, TorusOption& torus) {
  torus.option = app->add_option("--torus", torus.text, "machine shape XxYxZ (default: --machine's, else 4x4x4)")
                     ->capture_default_str();
}

namespace {
unsigned checked(long long v, long long lo, long long hi, const std::string& option) {
  if (v < lo || v > hi)
    throw std::invalid_argument(option + ": must be " + std::to_string(lo) + ".." + std::to_string(hi) + ", got " +
                                std::to_string(v));
  return static_cast<unsigned>(v);
}
}  // namespace

void apply_machine_options(const MachineOptions& o, sim::MachineConfig& m, std::string* torus, bool torus_given) {
  if (!o.machine.empty()) {
    sim::MachineConfig from_file = m;
    bool has_shape = false;
    apply_machine(o.machine, from_file, &has_shape);
    if (has_shape && torus && !torus_given) *torus = from_file.shape.str();
    from_file.shape = m.shape;  // the caller parses its shape from *torus
    m = from_file;
  }
  constexpr long long kMaxLink = sim::MachineConfig::kMaxLinkLatency;
  const std::string why = " (the link layer's retransmission timeout covers that round trip)";
  try {
    if (o.link_latency) m.set_link_latency(checked(*o.link_latency, 1, kMaxLink, "--link-latency"));
    if (o.tree_latency) m.tree_latency = checked(*o.tree_latency, 1, kMaxLink, "--tree-latency");
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(e.what() + why);
  }
  if (o.torus_latency) {
    const std::string& text = *o.torus_latency;
    const std::vector<std::string> items = reference::split_list(text);
    if (items.size() != 1 && items.size() != 3)
      throw std::invalid_argument("--torus-latency: give one latency or three (X,Y,Z), got '" + text + "'");
    std::array<unsigned, 3> l{};
    for (unsigned k = 0; k < 3; ++k) {
      const std::string& item = items[items.size() == 1 ? 0 : k];
      try {
        l[k] = reference::parse_list_number(item, text, kMaxLink + 1, "latency");
      } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(std::string("--torus-latency: ") + e.what() + " (1.." + std::to_string(kMaxLink) +
                                    " cycles" + why + ")");
      }
      if (l[k] < 1) throw std::invalid_argument("--torus-latency: a latency must be at least 1 cycle");
    }
    m.torus_latency = l;
  }
  if (o.barrier_latency)
    m.barrier_latency = checked(*o.barrier_latency, 1, sim::MachineConfig::kMaxBarrierLatency, "--barrier-latency");
  if (o.tree_rate) {
    sim::MachineConfig::check_rate("--tree-cycles-per-flit", *o.tree_rate);
    m.tree_cycles_per_flit = *o.tree_rate;
  }
  if (o.torus_rate) {
    sim::MachineConfig::check_rate("--torus-cycles-per-flit", *o.torus_rate);
    m.torus_cycles_per_flit = *o.torus_rate;
  }
  if (o.access_cycles)
    m.access_cycles = checked(*o.access_cycles, 1, sim::MachineConfig::kMaxAccessCycles, "--access-cycles");
  if (o.coprocessor) m.coprocessor = true;
  if (o.clock_mhz) {
    if (!(*o.clock_mhz > 0)) throw std::invalid_argument("--clock-mhz: must be positive");
    m.clock_mhz = *o.clock_mhz;
  }
  for (const std::string& size : o.rtl) {
    try {
      m.sizes.set_assignment(size);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(std::string("--rtl: ") + e.what());
    }
  }
}

std::string set_machine(const std::string& command, const MachineOptions& o, const TorusOption& torus, long long tasks,
                        sim::MachineConfig& m) {
  std::string shape = torus.text;
  try {
    apply_machine_options(o, m, &shape, torus.given());
  } catch (const std::invalid_argument& e) {
    return command + ": " + e.what();
  }
  try {
    m.shape = sim::Shape::parse(shape);
  } catch (const std::invalid_argument& e) {
    return command + ": --torus: " + e.what();
  }
  if (m.shape.nodes() > sim::MachineConfig::kMaxNodes)
    return command + ": --torus " + shape + " has more than " + std::to_string(sim::MachineConfig::kMaxNodes) +
           " nodes";
  try {
    apply_down_nodes(o, m);
  } catch (const std::invalid_argument& e) {
    return command + ": " + e.what();
  }
  if (tasks < 1 || tasks > sim::MachineConfig::kMaxTasksPerNode)
    return command + ": --tasks must be 1.." + std::to_string(sim::MachineConfig::kMaxTasksPerNode) + ", got " +
           std::to_string(tasks);
  m.tasks_per_node = static_cast<unsigned>(tasks);
  return "";
}

}  // namespace collnet::cli
