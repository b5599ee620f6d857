// SPDX-License-Identifier: Apache-2.0
#include "cli/link_report.hpp"

#include <algorithm>
#include <sstream>
#include <tuple>

#include "cli/fault_options.hpp"
#include "firmware/tree_layout.hpp"

namespace collnet::cli {

namespace {
std::string link_name(const sim::Machine::LinkEnd& e) { return link_option_name(e.torus, e.link); }

nlohmann::json counters_json(const fw::LinkCounters& c) {
  return {{"tx_flits", c.tx_flits},   {"tx_packets", c.tx_packets}, {"rx_flits", c.rx_flits},
          {"crc_errors", c.crc_errors}, {"seq_drops", c.seq_drops}, {"resent", c.resent},
          {"timeouts", c.timeouts},   {"naks", c.naks},             {"sideband_errors", c.sideband_errors},
          {"down", c.down}};
}

// The router's counters per VC: {"dyn0": {"flits", "busy", "credit_stall"}, ...}.
nlohmann::json vcs_json(const fw::TorusLinkPerf& p) {
  nlohmann::json j = nlohmann::json::object();
  for (unsigned v = 0; v < p.size(); ++v)
    j[fw::torus_vc_name(v)] = {{"flits", p[v].flits}, {"busy", p[v].busy}, {"credit_stall", p[v].stall}};
  return j;
}

bool any(const fw::TorusLinkPerf& p) {
  for (const fw::TorusVcPerf& v : p)
    if (v.flits || v.busy || v.stall) return true;
  return false;
}
}  // namespace

LinkReport LinkReport::of(sim::Machine& m) {
  LinkReport r;
  r.ends = m.link_counters();
  r.bits_flipped = m.bits_flipped();
  if (sim::Transport* t = m.transport()) {  // every partition's link ends, at partition 0
    sim::Message mine;
    mine.put(r.ends);
    const std::vector<sim::Transport::Bytes> parts = t->gather(mine.bytes());
    r.bits_flipped = t->allreduce(r.bits_flipped, sim::Transport::Op::Sum);
    if (t->rank() == 0) {
      r.ends.clear();
      for (const sim::Transport::Bytes& part : parts)
        for (const sim::Machine::LinkEnd& e : sim::Message(part).values<sim::Machine::LinkEnd>()) r.ends.push_back(e);
      // In one process's order: by node, its tree links, then its torus links.
      std::sort(r.ends.begin(), r.ends.end(), [](const sim::Machine::LinkEnd& a, const sim::Machine::LinkEnd& b) {
        return std::tie(a.rank, a.torus, a.link) < std::tie(b.rank, b.torus, b.link);
      });
    }
  }
  for (const sim::Machine::LinkEnd& e : r.ends) {
    (e.torus ? r.torus : r.tree) += e.counters;
    if (e.torus)
      for (unsigned v = 0; v < e.perf.size(); ++v) r.torus_vcs[v] += e.perf[v];
    if (e.counters.down)
      r.down.push_back("node " + std::to_string(e.rank) + " " + (e.torus ? "torus link " + link_name(e)
                                                                           : "tree link " + std::to_string(e.link)));
  }
  return r;
}

nlohmann::json LinkReport::json() const {
  nlohmann::json per_link = nlohmann::json::array();
  for (const sim::Machine::LinkEnd& e : ends) {
    const fw::LinkCounters& c = e.counters;
    if (c.tx_flits == 0 && c.rx_flits == 0 && c.crc_errors == 0 && c.seq_drops == 0 && !c.down && !any(e.perf))
      continue;
    nlohmann::json row = counters_json(c);
    if (e.torus) row["vcs"] = vcs_json(e.perf);
    row["node"] = e.rank;
    row["network"] = e.torus ? "torus" : "tree";
    row["link"] = link_name(e);
    if (!e.torus) {  // where the link is in the tree (fw::TreeLayout), for plots by depth
      unsigned depth = 0;
      for (unsigned r = e.rank; r > 0; r = fw::TreeLayout::parent(r)) ++depth;
      row["depth"] = depth;
      row["toward"] = e.link == 0 ? "parent" : "child";
    }
    per_link.push_back(row);
  }
  nlohmann::json torus_total = counters_json(torus);
  torus_total["vcs"] = vcs_json(torus_vcs);
  return {{"tree", counters_json(tree)},
          {"torus", torus_total},
          {"bits_flipped", bits_flipped},
          {"down", down},
          {"per_link", per_link}};
}

std::string LinkReport::text() const {
  std::ostringstream s;
  const auto one = [&s](const char* name, const fw::LinkCounters& c) {
    s << name << " " << c.tx_flits << " flits sent, " << c.crc_errors << " CRC errors, " << c.resent << " resent, "
      << c.timeouts << " timeouts";
  };
  s << "links: ";
  one("tree", tree);
  s << "; ";
  one("torus", torus);
  if (bits_flipped) s << "; " << bits_flipped << " bits flipped";
  for (const std::string& d : down) s << "; " << d << " DOWN";
  return s.str();
}

}  // namespace collnet::cli
