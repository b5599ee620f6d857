// SPDX-License-Identifier: Apache-2.0
#include "cli/fault_options.hpp"

#include <stdexcept>

#include "firmware/torus_layout.hpp"
#include "reference/number_list.hpp"

namespace collnet::cli {

void add_fault_options(CLI::App* app, FaultOptions& f) {
  app->add_option("--link-ber", f.link_ber,
                  "bit error rate of every tree and torus link, 0 <= RATE < 1 (the link layer retransmits)")
      ->capture_default_str();
  app->add_option("--link-down", f.link_down,
                  "links cut mid-run, NODE:LINK@CYCLE with LINK x+ x- y+ y- z+ z- (torus) or tree0 tree1 tree2, "
                  "comma-separated, e.g. 5:x+@20000,0:tree1@3000");
  app->add_option("--node-down", f.node_down,
                  "nodes that go down mid-run, NODE@CYCLE, comma-separated: every link of the node, tree and torus, "
                  "is cut at that cycle (e.g. 5@20000)");
  app->add_option("--fault-seed", f.fault_seed, "seed of the bit errors (each link has its own generator)")
      ->capture_default_str();
}

namespace {
uint64_t parse_cycle(const std::string& cycle, const std::string& item) {
  if (cycle.empty() || cycle.find_first_not_of("0123456789") != std::string::npos || cycle.size() > 18)
    throw std::invalid_argument("'" + cycle + "' in '" + item + "' is not a cycle number");
  return std::stoull(cycle);
}

// Each comma-separated item of `option`'s text, parsed into `out`; an error names the option.
template <typename T, typename Parse>
void parse_items(const char* option, const std::string& text, std::vector<T>& out, Parse parse) {
  if (text.empty()) return;
  for (const std::string& item : reference::split_list(text)) {
    try {
      out.push_back(parse(item));
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(std::string(option) + ": " + e.what());
    }
  }
}
}  // namespace

sim::MachineConfig::LinkCut parse_link_cut(const std::string& item, unsigned nodes) {
  const size_t colon = item.find(':'), at = item.find('@');
  if (colon == std::string::npos || at == std::string::npos || at < colon)
    throw std::invalid_argument("'" + item + "' is not NODE:LINK@CYCLE (for example 5:x+@20000 or 0:tree1@3000)");
  sim::MachineConfig::LinkCut c{};
  c.rank = reference::parse_list_number(item.substr(0, colon), item, nodes, "node");
  const std::string link = item.substr(colon + 1, at - colon - 1);
  bool found = false;
  if (const unsigned d = fw::TorusLayout::dir_named(link); d < 6) c.torus = true, c.link = d, found = true;
  for (unsigned l = 0; l < 3; ++l)
    if (link == link_option_name(false, l)) c.torus = false, c.link = l, found = true;
  if (!found)
    throw std::invalid_argument("'" + link + "' in '" + item +
                                "' is not a link (x+ x- y+ y- z+ z- on the torus, tree0 tree1 tree2 on the tree)");
  c.cycle = parse_cycle(item.substr(at + 1), item);
  return c;
}

sim::MachineConfig::NodeCut parse_node_cut(const std::string& item, unsigned nodes) {
  const size_t at = item.find('@');
  if (at == std::string::npos) throw std::invalid_argument("'" + item + "' is not NODE@CYCLE (for example 5@20000)");
  sim::MachineConfig::NodeCut c{};
  c.rank = reference::parse_list_number(item.substr(0, at), item, nodes, "node");
  c.cycle = parse_cycle(item.substr(at + 1), item);
  return c;
}

std::string link_option_name(bool torus, unsigned link) {
  return torus ? std::string(fw::TorusLayout::dir_name(link)) : "tree" + std::to_string(link);
}

std::string describe_cuts(const sim::MachineConfig& m) {
  std::string s;
  const auto item = [&s](const std::string& text) { s += (s.empty() ? "" : ", ") + text; };
  for (const sim::MachineConfig::LinkCut& c : m.link_cuts)
    item("link " + std::to_string(c.rank) + ":" + link_option_name(c.torus, c.link) + " cut at cycle " +
         std::to_string(c.cycle));
  for (const sim::MachineConfig::NodeCut& c : m.node_cuts)
    item("node " + std::to_string(c.rank) + " down at cycle " + std::to_string(c.cycle));
  return s;
}

void apply_fault_options(const FaultOptions& f, unsigned nodes, sim::MachineConfig& m) {
  if (!(f.link_ber >= 0 && f.link_ber < 1))
    throw std::invalid_argument("--link-ber: " + std::to_string(f.link_ber) + " is not a rate in [0, 1)");
  m.link_ber = f.link_ber;
  m.fault_seed = f.fault_seed;
  parse_items("--link-down", f.link_down, m.link_cuts,
              [nodes](const std::string& item) { return parse_link_cut(item, nodes); });
  parse_items("--node-down", f.node_down, m.node_cuts,
              [nodes](const std::string& item) { return parse_node_cut(item, nodes); });
}

}  // namespace collnet::cli
