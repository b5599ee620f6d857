// The Verilated (plain C++) model headers come before any SystemC header: with SystemC
// seen first, verilated.h would take the model for a SystemC one.
#include "Vnode.h"
#include "verilated.h"
// clang-format off
#include "node.hpp"
#include "model_reset.hpp"
// clang-format on

namespace collnet::sim {

namespace {
const LinkFlit kIdle{};
const TorusFlit kTorusIdle{};
}  // namespace

// The model's torus link ports by direction, so that one loop drives all six. Resolved
// once, when the node is built.
struct Node::TorusPorts {
  CData *in_valid, *in_hdr, *in_vc, *in_credit, *out_valid, *out_hdr, *out_vc, *out_credit;
  QData *in_data, *out_data;
};

#define COLLNET_TORUS_PORTS(m, d)                                                                     \
  TorusPorts {                                                                                       \
    &m.tor##d##_in_valid_i, &m.tor##d##_in_hdr_i, &m.tor##d##_in_vc_i, &m.tor##d##_out_credit_i,     \
        &m.tor##d##_out_valid_o, &m.tor##d##_out_hdr_o, &m.tor##d##_out_vc_o, &m.tor##d##_in_credit_o, \
        &m.tor##d##_in_data_i, &m.tor##d##_out_data_o                                                \
  }

std::array<Node::TorusPorts, 6> Node::torus_ports(Vnode& m) {
  return {COLLNET_TORUS_PORTS(m, 0), COLLNET_TORUS_PORTS(m, 1), COLLNET_TORUS_PORTS(m, 2),
          COLLNET_TORUS_PORTS(m, 3), COLLNET_TORUS_PORTS(m, 4), COLLNET_TORUS_PORTS(m, 5)};
}
#undef COLLNET_TORUS_PORTS

Node::Node(sc_core::sc_module_name name, unsigned rank, VerilatedContext& context)
    : sc_module(name),
      clk("clk"),
      rank_(rank),
      model_(std::make_unique<Vnode>(&context, this->name())),
      tor_ports_(std::make_unique<const std::array<TorusPorts, 6>>(torus_ports(*model_))) {
  reset_model(*model_);
  SC_METHOD(on_posedge);
  sensitive << clk.pos();
  dont_initialize();
}

Node::~Node() { model_->final(); }

void Node::connect_torus(unsigned dir, TorusWire& out, const TorusWire& in) {
  tor_out_.at(dir) = &out;
  tor_in_.at(dir) = &in;
}

void Node::set_torus_config(const std::array<unsigned, 3>& coord, const std::array<unsigned, 3>& dims,
                            unsigned links_down) {
  uint32_t c = 0, d = 0;
  for (unsigned k = 0; k < 3; ++k) {
    c |= (coord[k] & 0xffu) << (8 * k);
    d |= (dims[k] & 0xffu) << (8 * k);
  }
  model_->tor_coord_i = c;
  model_->tor_dims_i = d;
  model_->tor_link_down_i = links_down & 0x3fu;
}

uint64_t Node::torus_status() const { return model_->tor_status_o; }

void Node::connect(unsigned link, LinkWire& out, const LinkWire& in) {
  out_.at(link) = &out;
  in_.at(link) = &in;
}

uint64_t Node::bus_rdata() const { return bus_rvector()[0]; }

std::array<uint64_t, 4> Node::bus_rvector() const { return bus_words(model_->bus_rdata_o); }

bool Node::error_flag() const { return model_->err_o; }

void Node::on_posedge() {
  step();
  edge_.notify(sc_core::SC_ZERO_TIME);
}

void Node::step() {
  Vnode& m = *model_;
  const LinkFlit& in0 = in_[0] ? in_[0]->get(cycle_) : kIdle;
  const LinkFlit& in1 = in_[1] ? in_[1]->get(cycle_) : kIdle;
  const LinkFlit& in2 = in_[2] ? in_[2]->get(cycle_) : kIdle;
  m.tree0_in_valid_i = in0.valid;
  m.tree0_in_vc_i = in0.vc;
  m.tree0_in_hdr_i = in0.hdr;
  m.tree0_in_data_i = in0.data;
  m.tree0_out_credit_i = in0.credit;
  m.tree1_in_valid_i = in1.valid;
  m.tree1_in_vc_i = in1.vc;
  m.tree1_in_hdr_i = in1.hdr;
  m.tree1_in_data_i = in1.data;
  m.tree1_out_credit_i = in1.credit;
  m.tree2_in_valid_i = in2.valid;
  m.tree2_in_vc_i = in2.vc;
  m.tree2_in_hdr_i = in2.hdr;
  m.tree2_in_data_i = in2.data;
  m.tree2_out_credit_i = in2.credit;
  m.gi0_in_i = in0.gi;
  m.gi1_in_i = in1.gi;
  m.gi2_in_i = in2.gi;
  const std::array<TorusPorts, 6>& tp = *tor_ports_;
  for (unsigned d = 0; d < 6; ++d) {
    const TorusFlit& f = tor_in_[d] ? tor_in_[d]->get(cycle_) : kTorusIdle;
    *tp[d].in_valid = f.valid;
    *tp[d].in_hdr = f.hdr;
    *tp[d].in_vc = f.vc;
    *tp[d].in_data = f.data;
    *tp[d].in_credit = f.credit;
  }
  m.bus_req_i = request_.active;
  m.bus_we_i = request_.write;
  m.bus_priv_i = request_.privileged;
  m.bus_addr_i = request_.addr;
  // The data is ignored without a request: no copy on idle cycles.
  if (request_.active) set_bus_words(m.bus_wdata_i, request_.wdata);

  // The falling edge settles this cycle's inputs before the rising edge, so that the edge
  // and the RTL's concurrent assertions (which sample the values just before it) see them.
  m.clk_i = 0;
  m.eval();
  m.clk_i = 1;
  m.eval();

  if (out_[0])
    out_[0]->put(cycle_, {bool(m.tree0_out_valid_o), bool(m.tree0_out_vc_o), bool(m.tree0_out_hdr_o),
                          m.tree0_out_data_o, m.tree0_in_credit_o, m.gi0_out_o});
  if (out_[1])
    out_[1]->put(cycle_, {bool(m.tree1_out_valid_o), bool(m.tree1_out_vc_o), bool(m.tree1_out_hdr_o),
                          m.tree1_out_data_o, m.tree1_in_credit_o, m.gi1_out_o});
  if (out_[2])
    out_[2]->put(cycle_, {bool(m.tree2_out_valid_o), bool(m.tree2_out_vc_o), bool(m.tree2_out_hdr_o),
                          m.tree2_out_data_o, m.tree2_in_credit_o, m.gi2_out_o});

  for (unsigned d = 0; d < 6; ++d)
    if (tor_out_[d])
      tor_out_[d]->put(cycle_, {bool(*tp[d].out_valid), bool(*tp[d].out_hdr), *tp[d].out_vc, *tp[d].out_data,
                                *tp[d].out_credit});

  request_.active = false;
  if (agent_) agent_->after_edge(cycle_, *this);
  ++cycle_;
}

}  // namespace collnet::sim
