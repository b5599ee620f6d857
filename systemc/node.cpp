// SPDX-License-Identifier: Apache-2.0
// The Verilated (plain C++) model headers come before any SystemC header: with SystemC
// seen first, verilated.h would take the model for a SystemC one.
#include "Vtorus_net.h"
#include "Vtorus_net___024root.h"
#include "Vtree_net.h"
#include "Vtree_net___024root.h"
#include "verilated.h"
#include "verilated_fst_c.h"
// clang-format off
#include "systemc/node.hpp"
#include "firmware/regmap.hpp"
#include "systemc/bus_words.hpp"
#include "systemc/model_clock.hpp"

#include <algorithm>
#include <stdexcept>
// clang-format on

namespace collnet::sim {

namespace {
const LinkFlit kIdle{};
const BarrierBits kBarrierIdle{};
const TorusFlit kTorusIdle{};

// Drives an input port, saying whether its value changed.
template <class Port, class Value>
bool drive(Port& port, Value v) {
  const bool changed = port != static_cast<Port>(v);
  port = static_cast<Port>(v);
  return changed;
}
template <class Wide>
bool drive_bus_words(Wide& w, const std::array<uint64_t, 4>& v) {
  const std::array<uint64_t, 4> old = bus_words(w);
  if (old == v) return false;
  set_bus_words(w, v);
  return true;
}

// Drives a side's bus request: `req` says whether this cycle's access is the side's own. A
// side sees the bus's address and data only with a request of its own: a register block
// ignores them without one, and held still they do not wake a quiescent side. `last_req`
// is the request last driven. Returns whether any input changed.
template <class Model>
bool drive_request(Model& m, bool req, bool& last_req, const fw::BusRequest& r) {
  bool changed = false;
  if (req != last_req) {
    m.bus_req_i = req;
    last_req = req;
    changed = true;
  }
  if (req) {
    changed |= drive(m.bus_we_i, r.write);
    changed |= drive(m.bus_addr_i, r.addr);
    changed |= drive_bus_words(m.bus_wdata_i, r.wdata);
  }
  return changed;
}
}  // namespace

// The model's torus link ports by direction, so that one loop drives all six. Resolved
// once, when the node is built.
struct Node::TorusPorts {
  CData *in_valid, *in_hdr, *in_vc, *out_valid, *out_hdr, *out_vc;
  IData *in_credit, *out_credit;
  QData *in_data, *out_data, *in_ctl, *out_ctl;
};

// in_* are the model's inputs (the incoming wire: its flit, the far end's credit counts
// for this direction and its control word), out_* its outputs.
#define COLLNET_TORUS_PORTS(m, d)                                                                      \
  TorusPorts {                                                                                        \
    &m.tor##d##_in_valid_i, &m.tor##d##_in_hdr_i, &m.tor##d##_in_vc_i, &m.tor##d##_out_valid_o,       \
        &m.tor##d##_out_hdr_o, &m.tor##d##_out_vc_o, &m.tor##d##_out_credit_i, &m.tor##d##_in_credit_o, \
        &m.tor##d##_in_data_i, &m.tor##d##_out_data_o, &m.tor##d##_in_ctl_i, &m.tor##d##_out_ctl_o     \
  }

std::array<Node::TorusPorts, 6> Node::torus_ports(Vtorus_net& m) {
  return {COLLNET_TORUS_PORTS(m, 0), COLLNET_TORUS_PORTS(m, 1), COLLNET_TORUS_PORTS(m, 2),
          COLLNET_TORUS_PORTS(m, 3), COLLNET_TORUS_PORTS(m, 4), COLLNET_TORUS_PORTS(m, 5)};
}
#undef COLLNET_TORUS_PORTS

Node::Node(sc_core::sc_module_name name, unsigned rank, VerilatedContext& context, IdleSkip idle_skip)
    : sc_module(name),
      clk("clk"),
      rank_(rank),
      tree_(std::make_unique<Vtree_net>(&context, this->name())),
      torus_(std::make_unique<Vtorus_net>(&context, this->name())),
      tor_ports_(std::make_unique<const std::array<TorusPorts, 6>>(torus_ports(*torus_))),
      tree_idle_(tree_->rootp, sizeof(*tree_->rootp), std::string(this->name()) + " tree side", idle_skip),
      torus_idle_(torus_->rootp, sizeof(*torus_->rootp), std::string(this->name()) + " torus side", idle_skip) {
  reset_model(*tree_);
  reset_model(*torus_);
  torus_status_ = torus_->tor_status_o;
  SC_METHOD(on_posedge);
  sensitive << clk.pos();
  dont_initialize();
}

Node::~Node() {
  tree_->final();
  torus_->final();
}

void Node::use_scratch(std::vector<unsigned char>* scratch) {
  tree_idle_.use_scratch(scratch);
  torus_idle_.use_scratch(scratch);
}

void Node::trace(VerilatedFstC& fst) {
  tree_->trace(&fst, 99);
  torus_->trace(&fst, 99);
}

Node::Activity Node::activity() const {
  return {tree_idle_.evaluated(), tree_idle_.skipped(), torus_idle_.evaluated(), torus_idle_.skipped()};
}

void Node::connect_torus(unsigned dir, TorusWire& out, TorusWire& in) {
  tor_out_.at(dir).bind(&out);
  tor_in_.at(dir) = &in;
  in.notify(&torus_read_until_[dir]);
}

void Node::set_torus_config(const std::array<unsigned, 3>& coord, const std::array<unsigned, 3>& dims,
                            unsigned links_down) {
  uint32_t c = 0, d = 0;
  for (unsigned k = 0; k < 3; ++k) {
    c |= (coord[k] & 0xffu) << (8 * k);
    d |= (dims[k] & 0xffu) << (8 * k);
  }
  torus_->tor_coord_i = c;
  torus_->tor_dims_i = d;
  set_torus_links_down(links_down);
}

void Node::set_torus_links_down(unsigned links_down) {
  torus_->tor_link_down_i = links_down & 0x3fu;
  torus_config_changed_ = true;
}

// From the copy taken when the side was last evaluated: the processors poll it while the
// torus side sleeps, and reading the model would pull its memory into the cache.
uint64_t Node::torus_status() const { return torus_status_; }

void Node::connect(unsigned link, LinkWire& out, LinkWire& in, BarrierWire& gi_out, BarrierWire& gi_in) {
  out_.at(link).bind(&out);
  in_.at(link) = &in;
  in.notify(&tree_read_until_[link]);
  gi_wire_out_.at(link).bind(&gi_out);
  gi_wire_in_.at(link) = &gi_in;
  gi_in.notify(&gi_read_until_[link]);
}

void Node::set_link_rates(uint16_t tree_cpf, uint16_t torus_cpf) {
  tree_->tree_cpf_i = tree_cpf;
  torus_->torus_cpf_i = torus_cpf;
  tree_config_changed_ = torus_config_changed_ = true;
}

uint64_t Node::bus_rdata() const { return bus_rvector()[0]; }

std::array<uint64_t, 4> Node::bus_rvector() const {
  return sel_torus_ ? bus_words(torus_->bus_rdata_o) : bus_words(tree_->bus_rdata_o);
}

bool Node::error_flag() const { return tree_->err_o || torus_->err_o; }

namespace {
// Reads the words at `sel` through a side's service port (`set` drives its select, `get`
// reads its word): no clock edge, so only the port's combinational read settles, and
// nothing in the run changes. The select is left at 0.
template <class Model, size_t N, class Set, class Get>
std::array<uint64_t, N> read_service_port(Model& m, const std::array<unsigned, N>& sel, Set set, Get get) {
  std::array<uint64_t, N> w{};
  for (size_t i = 0; i < N; ++i) {
    set(m, sel[i]);
    m.eval();
    w[i] = get(m);
  }
  set(m, 0);
  m.eval();
  return w;
}

template <class Model>
fw::LinkCounters read_link_port(Model& m, unsigned link) {
  std::array<unsigned, 8> sel{};
  for (unsigned k = 0; k < 8; ++k) sel[k] = link * 8 + k;
  return fw::LinkCounters::decode(read_service_port(
      m, sel, [](Model& x, unsigned s) { x.lk_svc_sel_i = static_cast<CData>(s); },
      [](Model& x) { return static_cast<uint64_t>(x.lk_svc_word_o); }));
}
}  // namespace

fw::LinkCounters Node::link_counters(bool torus, unsigned link) {
  if (link >= (torus ? 6u : 3u))
    throw std::invalid_argument(std::string(torus ? "torus" : "tree") + " link " + std::to_string(link) +
                                " does not exist");
  return torus ? read_link_port(*torus_, link) : read_link_port(*tree_, link);
}

fw::TorusLinkPerf Node::torus_perf(unsigned link) {
  // The port's word address is the counter's offset in its window (what tr_perf sees of a
  // bus address) / 8.
  const auto addresses = fw::torus_perf_addresses(link);
  std::array<unsigned, fw::kTorusPerfWords> sel{};
  for (unsigned i = 0; i < sel.size(); ++i) sel[i] = (addresses[i] & (fw::regmap::kWinTrPerfSize - 1)) / 8;
  return fw::decode_torus_perf(read_service_port(
      *torus_, sel, [](Vtorus_net& x, unsigned s) { x.perf_svc_sel_i = static_cast<CData>(s); },
      [](Vtorus_net& x) { return static_cast<uint64_t>(x.perf_svc_word_o); }));
}

void Node::on_posedge() {
  step();
  // Task 0's processor first: SystemC triggers the delta notifications last first.
  for (auto e = edges_.rbegin(); e != edges_.rend(); ++e) (*e)->notify(sc_core::SC_ZERO_TIME);
}

const sc_core::sc_event& Node::edge_event(unsigned task) {
  while (edges_.size() <= task) edges_.push_back(std::make_unique<sc_core::sc_event>());
  return *edges_[task];
}

bool Node::drive_tree() {
  Vtree_net& m = *tree_;
  bool changed = false;
  // Only the links whose flit differs from the last one driven are written.
  for (unsigned l = 0; l < 3; ++l) {
    if (primed_ && cycle_ > tree_read_until_[l].load(std::memory_order_relaxed)) continue;
    const LinkFlit& f = in_[l] ? in_[l]->get(cycle_) : kIdle;
    if (primed_ && f == tree_in_[l]) continue;
    tree_in_[l] = f;
    changed = true;
    switch (l) {
      case 0:
        m.tree0_in_valid_i = f.valid, m.tree0_in_vc_i = f.vc, m.tree0_in_hdr_i = f.hdr, m.tree0_in_data_i = f.data;
        m.tree0_out_credit_i = f.credit, m.tree0_in_ctl_i = f.ctl;
        break;
      case 1:
        m.tree1_in_valid_i = f.valid, m.tree1_in_vc_i = f.vc, m.tree1_in_hdr_i = f.hdr, m.tree1_in_data_i = f.data;
        m.tree1_out_credit_i = f.credit, m.tree1_in_ctl_i = f.ctl;
        break;
      default:
        m.tree2_in_valid_i = f.valid, m.tree2_in_vc_i = f.vc, m.tree2_in_hdr_i = f.hdr, m.tree2_in_data_i = f.data;
        m.tree2_out_credit_i = f.credit, m.tree2_in_ctl_i = f.ctl;
        break;
    }
  }
  for (unsigned l = 0; l < 3; ++l) {
    if (primed_ && cycle_ > gi_read_until_[l].load(std::memory_order_relaxed)) continue;
    const BarrierBits& b = gi_wire_in_[l] ? gi_wire_in_[l]->get(cycle_) : kBarrierIdle;
    if (primed_ && b == gi_in_[l]) continue;
    gi_in_[l] = b;
    changed = true;
    (l == 0 ? m.gi0_in_i : l == 1 ? m.gi1_in_i : m.gi2_in_i) = b.gi;
  }
  // nd_node's decode (the same generated decode as the RTL's, from regmap/collnet.json): the
  // torus side's window goes to the torus side, the rest to the tree side.
  const bool req = request_.active && !fw::regmap::in_win_torus(request_.addr);
  changed |= drive_request(m, req, tree_req_, request_);
  // The rate pins (set_link_rates) are static; an edge after a change evaluates them.
  changed |= tree_config_changed_;
  tree_config_changed_ = false;
  if (req) changed |= drive(m.bus_priv_i, request_.privileged);  // the torus side has no privilege input
  return changed;
}

bool Node::drive_torus() {
  Vtorus_net& m = *torus_;
  bool changed = false;
  const std::array<TorusPorts, 6>& tp = *tor_ports_;
  for (unsigned d = 0; d < 6; ++d) {
    if (primed_ && cycle_ > torus_read_until_[d].load(std::memory_order_relaxed)) continue;
    const TorusFlit& f = tor_in_[d] ? tor_in_[d]->get(cycle_) : kTorusIdle;
    if (primed_ && f == torus_in_[d]) continue;
    torus_in_[d] = f;
    changed = true;
    *tp[d].in_valid = f.valid;
    *tp[d].in_hdr = f.hdr;
    *tp[d].in_vc = f.vc;
    *tp[d].in_data = f.data;
    *tp[d].in_credit = f.credit;
    *tp[d].in_ctl = f.ctl;
  }
  changed |= drive_request(m, request_.active && fw::regmap::in_win_torus(request_.addr), torus_req_, request_);
  // The configuration pins (set_torus_config) are registered at the edge after a change.
  changed |= torus_config_changed_;
  torus_config_changed_ = false;
  return changed;
}

void Node::read_tree_outputs() {
  const Vtree_net& m = *tree_;
  tree_out_[0] = {bool(m.tree0_out_valid_o), bool(m.tree0_out_vc_o), bool(m.tree0_out_hdr_o), m.tree0_out_data_o,
                  m.tree0_in_credit_o, m.tree0_out_ctl_o};
  tree_out_[1] = {bool(m.tree1_out_valid_o), bool(m.tree1_out_vc_o), bool(m.tree1_out_hdr_o), m.tree1_out_data_o,
                  m.tree1_in_credit_o, m.tree1_out_ctl_o};
  tree_out_[2] = {bool(m.tree2_out_valid_o), bool(m.tree2_out_vc_o), bool(m.tree2_out_hdr_o), m.tree2_out_data_o,
                  m.tree2_in_credit_o, m.tree2_out_ctl_o};
  gi_out_[0].gi = m.gi0_out_o;
  gi_out_[1].gi = m.gi1_out_o;
  gi_out_[2].gi = m.gi2_out_o;
}

void Node::read_torus_outputs() {
  const std::array<TorusPorts, 6>& tp = *tor_ports_;
  for (unsigned d = 0; d < 6; ++d)
    torus_out_[d] = {bool(*tp[d].out_valid), bool(*tp[d].out_hdr), *tp[d].out_vc, *tp[d].out_data, *tp[d].out_credit,
                     *tp[d].out_ctl};
  torus_status_ = torus_->tor_status_o;
}

void Node::grant_bus() {
  if (bus_holder_ >= 0 || bus_waiting_.empty()) return;
  const auto first = std::min_element(bus_waiting_.begin(), bus_waiting_.end(), [](const BusWait& a, const BusWait& b) {
    return a.cycle != b.cycle ? a.cycle < b.cycle : a.task < b.task;
  });
  bus_holder_ = static_cast<int>(first->task);
  request_ = first->req;
  bus_waiting_.erase(first);
}

void Node::step() {
  grant_bus();
  const bool tree_evaluated = tree_idle_.step(drive_tree(), cycle_, [this] { clock_cycle(*tree_); });
  const bool torus_evaluated = torus_idle_.step(drive_torus(), cycle_, [this] { clock_cycle(*torus_); });
  if (tree_evaluated || !primed_) read_tree_outputs();
  if (torus_evaluated || !primed_) read_torus_outputs();
  primed_ = true;
  if (request_.active) sel_torus_ = fw::regmap::in_win_torus(request_.addr);

  for (unsigned l = 0; l < 3; ++l) {
    out_[l].put(cycle_, tree_out_[l]);
    gi_wire_out_[l].put(cycle_, gi_out_[l]);
  }
  for (unsigned d = 0; d < 6; ++d) tor_out_[d].put(cycle_, torus_out_[d]);

  request_.active = false;
  if (agent_) agent_->after_edge(cycle_, *this);
  ++cycle_;
}

}  // namespace collnet::sim
