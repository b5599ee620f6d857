// SPDX-License-Identifier: Apache-2.0
// A node's two Verilated sides (nd_tree_net and nd_torus_net) as the machine's Node drives
// them: each side behind a table of pointers to its ports, resolved once, and the few things
// done to a whole model (reset, a clock edge, settling its combinational logic, tracing).
// The models come from a NodeModels: the ones built into the simulator, which have the
// node's default sizes, or those of a model library built for other sizes and loaded at run
// time (systemc/model_library.hpp). Every side has the same ports whatever its sizes (the
// catalogue of sizes, firmware/rtl_sizes.hpp, holds only sizes that leave them alone), so
// the Node is the same code for all of them. The port types are Verilator's for those
// widths (CData is uint8_t, SData uint16_t, IData uint32_t, QData uint64_t, a 256-bit port
// eight uint32_t words): a side whose port changes width no longer compiles against them.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>

class VerilatedContext;
class VerilatedFstC;

namespace collnet::sim {

// What the Node does to a whole model.
class SideModel {
 public:
  virtual ~SideModel() = default;
  // Through reset (model_clock.hpp's reset_model), then at rest with the clock low.
  virtual void reset() = 0;
  // One clock cycle on the inputs just set (model_clock.hpp's clock_cycle).
  virtual void clock_cycle() = 0;
  // Settles the combinational logic on the inputs just set, without a clock edge (how the
  // service ports are read).
  virtual void settle() = 0;
  // The model's final() (its end of simulation).
  virtual void finish() = 0;
  // Adds the model to a waveform, under the scope it was made with.
  virtual void trace(VerilatedFstC& fst) = 0;
  // The model's whole state (its root object) and its size, for Quiescence.
  virtual const void* state() const = 0;
  virtual std::size_t state_bytes() const = 0;
};

// The register bus of one side, already decoded (nd_node's decode is the Node's), and the
// link layer's counter service port (lk_svc_*: counter word sel[2:0] of link sel[5:3]).
struct BusPorts {
  uint8_t *req = nullptr, *we = nullptr;
  uint16_t* addr = nullptr;
  uint32_t* wdata = nullptr;  // eight 32-bit words, least significant first (bus_words.hpp)
  const uint32_t* rdata = nullptr;
  const uint8_t* err = nullptr;  // any sticky error bit of the side
  uint8_t* lk_svc_sel = nullptr;
  const uint64_t* lk_svc_word = nullptr;
};

// Tree link l of the tree side: in_* are the incoming wire (the flit, the far end's credit
// counts for this link, its control word), out_* the outgoing one; gi_* its barrier bits.
struct TreeLinkPorts {
  uint8_t *in_valid = nullptr, *in_vc = nullptr, *in_hdr = nullptr, *in_credit = nullptr, *gi_in = nullptr;
  uint64_t *in_data = nullptr, *in_ctl = nullptr;
  const uint8_t *out_valid = nullptr, *out_vc = nullptr, *out_hdr = nullptr, *out_credit = nullptr,
                *gi_out = nullptr;
  const uint64_t *out_data = nullptr, *out_ctl = nullptr;
};

// Torus link d (direction 2 * dimension + minus) of the torus side, as TreeLinkPorts.
struct TorusLinkPorts {
  uint8_t *in_valid = nullptr, *in_hdr = nullptr, *in_vc = nullptr;
  uint32_t* in_credit = nullptr;
  uint64_t *in_data = nullptr, *in_ctl = nullptr;
  const uint8_t *out_valid = nullptr, *out_hdr = nullptr, *out_vc = nullptr;
  const uint32_t* out_credit = nullptr;
  const uint64_t *out_data = nullptr, *out_ctl = nullptr;
};

struct TreeSideModel : SideModel {
  BusPorts bus;
  uint8_t* priv = nullptr;  // the access's privileged bit
  std::array<TreeLinkPorts, 3> link;
  uint16_t* cpf = nullptr;  // the links' rate, cycles per flit in 8.8 fixed point (static)
};

struct TorusSideModel : SideModel {
  BusPorts bus;
  std::array<TorusLinkPorts, 6> link;
  uint32_t *coord = nullptr, *dims = nullptr;  // x, y, z at 8 bits each, x lowest (static)
  uint8_t* link_down = nullptr;                // bit d: link d not to be used
  uint16_t* cpf = nullptr;
  const uint64_t* status = nullptr;  // RegTrStatus as wires
  // The performance counters' service port: the counter at word sel of RegTrPerf.
  uint8_t* perf_svc_sel = nullptr;
  const uint64_t* perf_svc_word = nullptr;
  // The DMA engine's memory port and event line (dma_rd_*, dma_wr_*, dma_event_o: idle
  // unless the side was built with the engine, torus.dma).
  struct DmaPorts {
    const uint8_t *rd_req = nullptr, *rd_n = nullptr, *wr_req = nullptr, *wr_n = nullptr, *event = nullptr;
    const uint64_t *rd_addr = nullptr, *wr_addr = nullptr;
    const uint32_t* wr_data = nullptr;  // eight 32-bit words, least significant first
    uint8_t *rd_gnt = nullptr, *rd_valid = nullptr, *wr_gnt = nullptr;
    uint32_t* rd_data = nullptr;
  } dma;
};

// Where a node's sides come from. `make_*` build a side in `context` under the scope
// `name` (the node's), already through reset.
struct NodeModels {
  std::unique_ptr<TreeSideModel> (*make_tree)(VerilatedContext& context, const char* name);
  std::unique_ptr<TorusSideModel> (*make_torus)(VerilatedContext& context, const char* name);
};

// The models built into the simulator: the node's default sizes.
const NodeModels& builtin_node_models();

}  // namespace collnet::sim
