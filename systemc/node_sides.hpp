// SPDX-License-Identifier: Apache-2.0
// The NodeModels of one build of the node's two sides: Tree is the Verilated nd_tree_net
// (Vtree_net), Torus nd_torus_net (Vtorus_net), whatever sizes they were Verilated with.
// Included, after those models' headers, by the simulator's built-in models
// (node_models.cpp) and by every model library (model_library_entry.cpp), so that both
// resolve the ports in one place.
#pragma once

#include <memory>

#include "systemc/model_clock.hpp"
#include "systemc/node_models.hpp"

namespace collnet::sim::sides {

template <class Model, class Base>
class Side : public Base {
 public:
  // The context is also made this thread's current one: a model library's copy of the
  // Verilator runtime then reports to the machine's context, not to one of its own.
  Side(VerilatedContext& context, const char* name) : m_((Verilated::threadContextp(&context), std::make_unique<Model>(&context, name))) {}
  void reset() override { reset_model(*m_); }
  void clock_cycle() override { collnet::sim::clock_cycle(*m_); }
  void settle() override { m_->eval(); }
  void finish() override { m_->final(); }
  void trace(VerilatedFstC& fst) override { m_->trace(&fst, 99); }
  const void* state() const override { return m_->rootp; }
  std::size_t state_bytes() const override { return sizeof(*m_->rootp); }

 protected:
  template <class Ports>
  void resolve_bus(Ports& bus) {
    Model& m = *m_;
    bus.req = &m.bus_req_i, bus.we = &m.bus_we_i, bus.addr = &m.bus_addr_i;
    bus.wdata = m.bus_wdata_i.data(), bus.rdata = m.bus_rdata_o.data();
    bus.err = &m.err_o, bus.lk_svc_sel = &m.lk_svc_sel_i, bus.lk_svc_word = &m.lk_svc_word_o;
  }
  std::unique_ptr<Model> m_;
};

#define COLLNET_TREE_LINK(m, l)                                                                             \
  TreeLinkPorts {                                                                                           \
    &m.tree##l##_in_valid_i, &m.tree##l##_in_vc_i, &m.tree##l##_in_hdr_i, &m.tree##l##_out_credit_i,        \
        &m.gi##l##_in_i, &m.tree##l##_in_data_i, &m.tree##l##_in_ctl_i, &m.tree##l##_out_valid_o,            \
        &m.tree##l##_out_vc_o, &m.tree##l##_out_hdr_o, &m.tree##l##_in_credit_o, &m.gi##l##_out_o,           \
        &m.tree##l##_out_data_o, &m.tree##l##_out_ctl_o                                                     \
  }
#define COLLNET_TORUS_LINK(m, d)                                                                           \
  TorusLinkPorts {                                                                                         \
    &m.tor##d##_in_valid_i, &m.tor##d##_in_hdr_i, &m.tor##d##_in_vc_i, &m.tor##d##_out_credit_i,           \
        &m.tor##d##_in_data_i, &m.tor##d##_in_ctl_i, &m.tor##d##_out_valid_o, &m.tor##d##_out_hdr_o,        \
        &m.tor##d##_out_vc_o, &m.tor##d##_in_credit_o, &m.tor##d##_out_data_o, &m.tor##d##_out_ctl_o        \
  }

template <class Model>
class TreeSide final : public Side<Model, TreeSideModel> {
 public:
  TreeSide(VerilatedContext& context, const char* name) : Side<Model, TreeSideModel>(context, name) {
    Model& m = *this->m_;
    this->resolve_bus(this->bus);
    this->priv = &m.bus_priv_i;
    this->link = {COLLNET_TREE_LINK(m, 0), COLLNET_TREE_LINK(m, 1), COLLNET_TREE_LINK(m, 2)};
    this->cpf = &m.tree_cpf_i;
    this->reset();
  }
};

template <class Model>
class TorusSide final : public Side<Model, TorusSideModel> {
 public:
  TorusSide(VerilatedContext& context, const char* name) : Side<Model, TorusSideModel>(context, name) {
    Model& m = *this->m_;
    this->resolve_bus(this->bus);
    this->link = {COLLNET_TORUS_LINK(m, 0), COLLNET_TORUS_LINK(m, 1), COLLNET_TORUS_LINK(m, 2),
                  COLLNET_TORUS_LINK(m, 3), COLLNET_TORUS_LINK(m, 4), COLLNET_TORUS_LINK(m, 5)};
    this->coord = &m.tor_coord_i, this->dims = &m.tor_dims_i, this->link_down = &m.tor_link_down_i;
    this->cpf = &m.torus_cpf_i, this->status = &m.tor_status_o;
    this->perf_svc_sel = &m.perf_svc_sel_i, this->perf_svc_word = &m.perf_svc_word_o;
    auto& dma = this->dma;
    dma.rd_req = &m.dma_rd_req_o, dma.rd_n = &m.dma_rd_n_o, dma.rd_addr = &m.dma_rd_addr_o;
    dma.rd_gnt = &m.dma_rd_gnt_i, dma.rd_valid = &m.dma_rd_valid_i, dma.rd_data = m.dma_rd_data_i.data();
    dma.wr_req = &m.dma_wr_req_o, dma.wr_n = &m.dma_wr_n_o, dma.wr_addr = &m.dma_wr_addr_o;
    dma.wr_data = m.dma_wr_data_o.data(), dma.wr_gnt = &m.dma_wr_gnt_i, dma.event = &m.dma_event_o;
    this->reset();
  }
};

#undef COLLNET_TREE_LINK
#undef COLLNET_TORUS_LINK

// The NodeModels of the Tree and Torus models this is compiled with.
template <class Tree, class Torus>
const NodeModels& node_models() {
  static const NodeModels models{
      [](VerilatedContext& c, const char* name) -> std::unique_ptr<TreeSideModel> {
        return std::make_unique<TreeSide<Tree>>(c, name);
      },
      [](VerilatedContext& c, const char* name) -> std::unique_ptr<TorusSideModel> {
        return std::make_unique<TorusSide<Torus>>(c, name);
      }};
  return models;
}

}  // namespace collnet::sim::sides
