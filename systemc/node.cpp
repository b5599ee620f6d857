// SPDX-License-Identifier: Apache-2.0
#include "systemc/node.hpp"

#include <algorithm>
#include <stdexcept>

#include "firmware/regmap.hpp"
#include "systemc/bus_words.hpp"

namespace collnet::sim {

namespace {
const LinkFlit kIdle{};
const BarrierBits kBarrierIdle{};
const TorusFlit kTorusIdle{};

// Drives an input port, saying whether its value changed.
template <class Port, class Value>
bool drive(Port* port, Value v) {
  const bool changed = *port != static_cast<Port>(v);
  *port = static_cast<Port>(v);
  return changed;
}
bool drive_bus_words(uint32_t* w, const std::array<uint64_t, 4>& v) {
  const std::array<uint64_t, 4> old = bus_words(w);
  if (old == v) return false;
  set_bus_words(w, v);
  return true;
}

// Drives a side's bus request: `req` says whether this cycle's access is the side's own. A
// side sees the bus's address and data only with a request of its own: a register block
// ignores them without one, and held still they do not wake a quiescent side. `last_req`
// is the request last driven. Returns whether any input changed.
bool drive_request(const BusPorts& bus, bool req, bool& last_req, const fw::BusRequest& r) {
  bool changed = false;
  if (req != last_req) {
    *bus.req = req;
    last_req = req;
    changed = true;
  }
  if (req) {
    changed |= drive(bus.we, r.write);
    changed |= drive(bus.addr, r.addr);
    changed |= drive_bus_words(bus.wdata, r.wdata);
  }
  return changed;
}
}  // namespace

Node::Node(sc_core::sc_module_name name, unsigned rank, VerilatedContext& context, IdleSkip idle_skip,
           const NodeModels& models)
    : sc_module(name),
      clk("clk"),
      rank_(rank),
      tree_(models.make_tree(context, this->name())),
      torus_(models.make_torus(context, this->name())),
      tree_idle_(tree_->state(), tree_->state_bytes(), std::string(this->name()) + " tree side", idle_skip),
      torus_idle_(torus_->state(), torus_->state_bytes(), std::string(this->name()) + " torus side", idle_skip) {
  torus_status_ = *torus_->status;
  SC_METHOD(on_posedge);
  sensitive << clk.pos();
  dont_initialize();
}

Node::~Node() {
  tree_->finish();
  torus_->finish();
}

void Node::use_scratch(std::vector<unsigned char>* scratch) {
  tree_idle_.use_scratch(scratch);
  torus_idle_.use_scratch(scratch);
}

void Node::trace(VerilatedFstC& fst) {
  tree_->trace(fst);
  torus_->trace(fst);
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
  *torus_->coord = c;
  *torus_->dims = d;
  set_torus_links_down(links_down);
}

void Node::set_torus_links_down(unsigned links_down) {
  *torus_->link_down = static_cast<uint8_t>(links_down & 0x3fu);
  torus_config_changed_ = true;
}

// From the copy taken when the side was last evaluated: the processors poll it while the
// torus side sleeps, and reading the model would pull its memory into the cache.
uint64_t Node::torus_status() const { return torus_status_; }

bool Node::dma_event() const { return dma_event_; }

void Node::connect(unsigned link, LinkWire& out, LinkWire& in, BarrierWire& gi_out, BarrierWire& gi_in) {
  out_.at(link).bind(&out);
  in_.at(link) = &in;
  in.notify(&tree_read_until_[link]);
  gi_wire_out_.at(link).bind(&gi_out);
  gi_wire_in_.at(link) = &gi_in;
  gi_in.notify(&gi_read_until_[link]);
}

void Node::set_link_rates(uint16_t tree_cpf, uint16_t torus_cpf) {
  *tree_->cpf = tree_cpf;
  *torus_->cpf = torus_cpf;
  tree_config_changed_ = torus_config_changed_ = true;
}

uint64_t Node::bus_rdata() const { return bus_rvector()[0]; }

std::array<uint64_t, 4> Node::bus_rvector() const {
  return bus_words(sel_torus_ ? torus_->bus.rdata : tree_->bus.rdata);
}

bool Node::error_flag() const { return *tree_->bus.err || *torus_->bus.err; }

namespace {
// Reads the words at `sel` through a side's service port (select `sel_port`, word
// `word_port`): no clock edge, so only the port's combinational read settles, and nothing
// in the run changes. The select is left at 0.
template <size_t N>
std::array<uint64_t, N> read_service_port(SideModel& m, uint8_t* sel_port, const uint64_t* word_port,
                                          const std::array<unsigned, N>& sel) {
  std::array<uint64_t, N> w{};
  for (size_t i = 0; i < N; ++i) {
    *sel_port = static_cast<uint8_t>(sel[i]);
    m.settle();
    w[i] = *word_port;
  }
  *sel_port = 0;
  m.settle();
  return w;
}

fw::LinkCounters read_link_port(SideModel& m, const BusPorts& bus, unsigned link) {
  std::array<unsigned, 8> sel{};
  for (unsigned k = 0; k < 8; ++k) sel[k] = link * 8 + k;
  return fw::LinkCounters::decode(read_service_port(m, bus.lk_svc_sel, bus.lk_svc_word, sel));
}
}  // namespace

fw::LinkCounters Node::link_counters(bool torus, unsigned link) {
  if (link >= (torus ? 6u : 3u))
    throw std::invalid_argument(std::string(torus ? "torus" : "tree") + " link " + std::to_string(link) +
                                " does not exist");
  return torus ? read_link_port(*torus_, torus_->bus, link) : read_link_port(*tree_, tree_->bus, link);
}

fw::TorusLinkPerf Node::torus_perf(unsigned link) {
  // The port's word address is the counter's offset in its window (what tr_perf sees of a
  // bus address) / 8.
  const auto addresses = fw::torus_perf_addresses(link);
  std::array<unsigned, fw::kTorusPerfWords> sel{};
  for (unsigned i = 0; i < sel.size(); ++i) sel[i] = (addresses[i] & (fw::regmap::kWinTrPerfSize - 1)) / 8;
  return fw::decode_torus_perf(read_service_port(*torus_, torus_->perf_svc_sel, torus_->perf_svc_word, sel));
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
  TreeSideModel& m = *tree_;
  bool changed = false;
  // Only the links whose flit differs from the last one driven are written.
  for (unsigned l = 0; l < 3; ++l) {
    if (primed_ && cycle_ > tree_read_until_[l].load(std::memory_order_relaxed)) continue;
    const LinkFlit& f = in_[l] ? in_[l]->get(cycle_) : kIdle;
    if (primed_ && f == tree_in_[l]) continue;
    tree_in_[l] = f;
    changed = true;
    const TreeLinkPorts& p = m.link[l];
    *p.in_valid = f.valid, *p.in_vc = f.vc, *p.in_hdr = f.hdr, *p.in_data = f.data;
    *p.in_credit = f.credit, *p.in_ctl = f.ctl;
  }
  for (unsigned l = 0; l < 3; ++l) {
    if (primed_ && cycle_ > gi_read_until_[l].load(std::memory_order_relaxed)) continue;
    const BarrierBits& b = gi_wire_in_[l] ? gi_wire_in_[l]->get(cycle_) : kBarrierIdle;
    if (primed_ && b == gi_in_[l]) continue;
    gi_in_[l] = b;
    changed = true;
    *m.link[l].gi_in = b.gi;
  }
  // nd_node's decode (the same generated decode as the RTL's, from regmap/collnet.json): the
  // torus side's window goes to the torus side, the rest to the tree side.
  const bool req = request_.active && !to_torus(request_.addr);
  changed |= drive_request(m.bus, req, tree_req_, request_);
  // The rate pins (set_link_rates) are static; an edge after a change evaluates them.
  changed |= tree_config_changed_;
  tree_config_changed_ = false;
  if (req) changed |= drive(m.priv, request_.privileged);  // the torus side has no privilege input
  return changed;
}

bool Node::drive_torus() {
  TorusSideModel& m = *torus_;
  bool changed = false;
  const std::array<TorusLinkPorts, 6>& tp = m.link;
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
  changed |= drive_request(m.bus, request_.active && to_torus(request_.addr), torus_req_, request_);
  if (memory_) changed |= drive_memory();
  // The configuration pins (set_torus_config) are registered at the edge after a change.
  changed |= torus_config_changed_;
  torus_config_changed_ = false;
  return changed;
}

bool Node::to_torus(uint16_t addr) const {
  return fw::regmap::in_win_torus(addr) || (memory_ && fw::regmap::in_win_dma(addr));
}

void Node::attach_memory(const DmaMemory::Timing& timing) {
  if (primed_) throw std::logic_error("node " + std::to_string(rank_) + ": memory attached after the first edge");
  memory_ = std::make_unique<DmaMemory>(rank_, timing);
}

// The engine's request is the torus side's output as of its last evaluation (a side that
// was skipped has not changed it); the memory answers it at this edge. A request the memory
// takes always changes the engine's state, so a side fed a grant is never skipped.
bool Node::drive_memory() {
  const TorusSideModel::DmaPorts& p = torus_->dma;
  DmaMemory::Request r;
  if (*p.rd_req) r.read = {true, *p.rd_addr, *p.rd_n};
  if (*p.wr_req) {
    r.write = {true, *p.wr_addr, *p.wr_n};
    r.wdata = bus_words(p.wr_data);
  }
  const DmaMemory::Answer a = memory_->edge(cycle_, r);
  bool changed = drive(p.rd_gnt, a.read_gnt);
  changed |= drive(p.wr_gnt, a.write_gnt);
  changed |= drive(p.rd_valid, a.rvalid);
  if (a.rvalid) changed |= drive_bus_words(p.rd_data, a.rdata);
  return changed;
}

void Node::read_tree_outputs() {
  for (unsigned l = 0; l < 3; ++l) {
    const TreeLinkPorts& p = tree_->link[l];
    tree_out_[l] = {bool(*p.out_valid), bool(*p.out_vc), bool(*p.out_hdr), *p.out_data, *p.out_credit, *p.out_ctl};
    gi_out_[l].gi = *p.gi_out;
  }
}

void Node::read_torus_outputs() {
  const std::array<TorusLinkPorts, 6>& tp = torus_->link;
  for (unsigned d = 0; d < 6; ++d)
    torus_out_[d] = {bool(*tp[d].out_valid), bool(*tp[d].out_hdr), *tp[d].out_vc, *tp[d].out_data, *tp[d].out_credit,
                     *tp[d].out_ctl};
  const uint64_t status = *torus_->status;
  const bool event = torus_->dma.event && *torus_->dma.event;  // 0 without the engine
  if ((status != torus_status_ || event != dma_event_) && torus_status_watched_)
    torus_status_changed_.notify(sc_core::SC_ZERO_TIME);
  torus_status_ = status;
  dma_event_ = event;
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

bool Node::quiet() const {
  if (!primed_ || !tree_idle_.fixed() || !torus_idle_.fixed() || agent_) return false;
  if (edge_waiters_ > 0 || bus_holder_ >= 0 || !bus_waiting_.empty() || request_.active) return false;
  if (tree_config_changed_ || torus_config_changed_) return false;
  if (memory_ && (memory_->busy() || *torus_->dma.rd_req || *torus_->dma.wr_req)) return false;
  for (unsigned l = 0; l < 3; ++l)
    if (cycle_ <= tree_read_until_[l].load(std::memory_order_relaxed) ||
        cycle_ <= gi_read_until_[l].load(std::memory_order_relaxed))
      return false;
  for (unsigned d = 0; d < 6; ++d)
    if (cycle_ <= torus_read_until_[d].load(std::memory_order_relaxed)) return false;
  return true;
}

void Node::leap(uint64_t n) {
  tree_idle_.leap(n);
  torus_idle_.leap(n);
  cycle_ += n;
}

void Node::step() {
  grant_bus();
  const bool tree_evaluated = tree_idle_.step(drive_tree(), cycle_, [this] { tree_->clock_cycle(); });
  const bool torus_evaluated = torus_idle_.step(drive_torus(), cycle_, [this] { torus_->clock_cycle(); });
  if (tree_evaluated || !primed_) read_tree_outputs();
  if (torus_evaluated || !primed_) read_torus_outputs();
  primed_ = true;
  if (request_.active) sel_torus_ = to_torus(request_.addr);

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
