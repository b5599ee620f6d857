// SPDX-License-Identifier: Apache-2.0
// nd_node: the node top that the machine instantiates once per node: its tree side
// (nd_tree_net: the combining-network adapter, the barrier unit and the tree links' link
// ends) and its torus side (nd_torus_net: the router, its registers and the torus links'
// link ends) behind the node's register bus (the torus side's window, cn_pkg::WinTorus, goes
// to the torus side, the rest to the tree side: regmap/collnet.json's address windows).
// Every output is driven by a register inside a block, so a node is evaluated once per
// clock edge and links are pure delays between nodes. The flat engine (nd_machine)
// instantiates nd_node; the SystemC machine Verilates the two sides as separate models
// and does this module's bus decode in C++ (systemc/node.cpp), so that it can skip
// whichever side is quiescent.
// Ports are flat, one group per link (valid, VC, header flag, data and the link layer's
// control word forward; a running credit count per VC back), so that waveform viewers
// group them cleanly.
`default_nettype none

module nd_node (
  input  wire logic                                      clk_i,
  input  wire logic                                      rst_ni,
  // register bus
  input  wire logic                                      bus_req_i,
  input  wire logic                                      bus_we_i,
  input  wire logic [cn_pkg::BusAddrBits-1:0]            bus_addr_i,
  input  wire logic [cn_pkg::BusDataBits-1:0]            bus_wdata_i,  // word 0 in [63:0]
  input  wire logic                                      bus_priv_i,
  output logic                                           bus_ready_o,
  output logic                                           bus_rvalid_o,
  output logic      [cn_pkg::BusDataBits-1:0]            bus_rdata_o,
  // tree link 0
  input  wire logic                                      tree0_in_valid_i,
  input  wire logic                                      tree0_in_vc_i,
  input  wire logic                                      tree0_in_hdr_i,
  input  wire logic [cn_pkg::FlitBits-1:0]               tree0_in_data_i,
  output logic      [cn_pkg::NumVcs*lk_pkg::LkTreeCntW-1:0] tree0_in_credit_o,  // running counts, VC v at [v*4 +: 4]
  output logic                                           tree0_out_valid_o,
  output logic                                           tree0_out_vc_o,
  output logic                                           tree0_out_hdr_o,
  output logic      [cn_pkg::FlitBits-1:0]               tree0_out_data_o,
  input  wire logic [cn_pkg::NumVcs*lk_pkg::LkTreeCntW-1:0] tree0_out_credit_i,
  input  wire logic [lk_pkg::LkCtlBits-1:0]              tree0_in_ctl_i,
  output logic      [lk_pkg::LkCtlBits-1:0]              tree0_out_ctl_o,
  // tree link 1
  input  wire logic                                      tree1_in_valid_i,
  input  wire logic                                      tree1_in_vc_i,
  input  wire logic                                      tree1_in_hdr_i,
  input  wire logic [cn_pkg::FlitBits-1:0]               tree1_in_data_i,
  output logic      [cn_pkg::NumVcs*lk_pkg::LkTreeCntW-1:0] tree1_in_credit_o,  // running counts, VC v at [v*4 +: 4]
  output logic                                           tree1_out_valid_o,
  output logic                                           tree1_out_vc_o,
  output logic                                           tree1_out_hdr_o,
  output logic      [cn_pkg::FlitBits-1:0]               tree1_out_data_o,
  input  wire logic [cn_pkg::NumVcs*lk_pkg::LkTreeCntW-1:0] tree1_out_credit_i,
  input  wire logic [lk_pkg::LkCtlBits-1:0]              tree1_in_ctl_i,
  output logic      [lk_pkg::LkCtlBits-1:0]              tree1_out_ctl_o,
  // tree link 2
  input  wire logic                                      tree2_in_valid_i,
  input  wire logic                                      tree2_in_vc_i,
  input  wire logic                                      tree2_in_hdr_i,
  input  wire logic [cn_pkg::FlitBits-1:0]               tree2_in_data_i,
  output logic      [cn_pkg::NumVcs*lk_pkg::LkTreeCntW-1:0] tree2_in_credit_o,  // running counts, VC v at [v*4 +: 4]
  output logic                                           tree2_out_valid_o,
  output logic                                           tree2_out_vc_o,
  output logic                                           tree2_out_hdr_o,
  output logic      [cn_pkg::FlitBits-1:0]               tree2_out_data_o,
  input  wire logic [cn_pkg::NumVcs*lk_pkg::LkTreeCntW-1:0] tree2_out_credit_i,
  input  wire logic [lk_pkg::LkCtlBits-1:0]              tree2_in_ctl_i,
  output logic      [lk_pkg::LkCtlBits-1:0]              tree2_out_ctl_o,
  // barrier network, per tree link: {OR, AND} of each of the 4 channels
  input  wire logic [7:0]                                gi0_in_i,
  output logic      [7:0]                                gi0_out_o,
  input  wire logic [7:0]                                gi1_in_i,
  output logic      [7:0]                                gi1_out_o,
  input  wire logic [7:0]                                gi2_in_i,
  output logic      [7:0]                                gi2_out_o,
  // torus link 0 (x+)
  input  wire logic                                      tor0_in_valid_i,
  input  wire logic                                      tor0_in_hdr_i,
  input  wire logic [tr_pkg::TrVcW-1:0]                  tor0_in_vc_i,
  input  wire logic [tr_pkg::TrFlitBits-1:0]             tor0_in_data_i,
  output logic      [tr_pkg::TrNumVcs*lk_pkg::LkTorusCntW-1:0] tor0_in_credit_o,  // running counts, VC v at [v*8 +: 8]
  output logic                                           tor0_out_valid_o,
  output logic                                           tor0_out_hdr_o,
  output logic      [tr_pkg::TrVcW-1:0]                  tor0_out_vc_o,
  output logic      [tr_pkg::TrFlitBits-1:0]             tor0_out_data_o,
  input  wire logic [tr_pkg::TrNumVcs*lk_pkg::LkTorusCntW-1:0] tor0_out_credit_i,
  input  wire logic [lk_pkg::LkCtlBits-1:0]              tor0_in_ctl_i,
  output logic      [lk_pkg::LkCtlBits-1:0]              tor0_out_ctl_o,
  // torus link 1 (x-)
  input  wire logic                                      tor1_in_valid_i,
  input  wire logic                                      tor1_in_hdr_i,
  input  wire logic [tr_pkg::TrVcW-1:0]                  tor1_in_vc_i,
  input  wire logic [tr_pkg::TrFlitBits-1:0]             tor1_in_data_i,
  output logic      [tr_pkg::TrNumVcs*lk_pkg::LkTorusCntW-1:0] tor1_in_credit_o,  // running counts, VC v at [v*8 +: 8]
  output logic                                           tor1_out_valid_o,
  output logic                                           tor1_out_hdr_o,
  output logic      [tr_pkg::TrVcW-1:0]                  tor1_out_vc_o,
  output logic      [tr_pkg::TrFlitBits-1:0]             tor1_out_data_o,
  input  wire logic [tr_pkg::TrNumVcs*lk_pkg::LkTorusCntW-1:0] tor1_out_credit_i,
  input  wire logic [lk_pkg::LkCtlBits-1:0]              tor1_in_ctl_i,
  output logic      [lk_pkg::LkCtlBits-1:0]              tor1_out_ctl_o,
  // torus link 2 (y+)
  input  wire logic                                      tor2_in_valid_i,
  input  wire logic                                      tor2_in_hdr_i,
  input  wire logic [tr_pkg::TrVcW-1:0]                  tor2_in_vc_i,
  input  wire logic [tr_pkg::TrFlitBits-1:0]             tor2_in_data_i,
  output logic      [tr_pkg::TrNumVcs*lk_pkg::LkTorusCntW-1:0] tor2_in_credit_o,  // running counts, VC v at [v*8 +: 8]
  output logic                                           tor2_out_valid_o,
  output logic                                           tor2_out_hdr_o,
  output logic      [tr_pkg::TrVcW-1:0]                  tor2_out_vc_o,
  output logic      [tr_pkg::TrFlitBits-1:0]             tor2_out_data_o,
  input  wire logic [tr_pkg::TrNumVcs*lk_pkg::LkTorusCntW-1:0] tor2_out_credit_i,
  input  wire logic [lk_pkg::LkCtlBits-1:0]              tor2_in_ctl_i,
  output logic      [lk_pkg::LkCtlBits-1:0]              tor2_out_ctl_o,
  // torus link 3 (y-)
  input  wire logic                                      tor3_in_valid_i,
  input  wire logic                                      tor3_in_hdr_i,
  input  wire logic [tr_pkg::TrVcW-1:0]                  tor3_in_vc_i,
  input  wire logic [tr_pkg::TrFlitBits-1:0]             tor3_in_data_i,
  output logic      [tr_pkg::TrNumVcs*lk_pkg::LkTorusCntW-1:0] tor3_in_credit_o,  // running counts, VC v at [v*8 +: 8]
  output logic                                           tor3_out_valid_o,
  output logic                                           tor3_out_hdr_o,
  output logic      [tr_pkg::TrVcW-1:0]                  tor3_out_vc_o,
  output logic      [tr_pkg::TrFlitBits-1:0]             tor3_out_data_o,
  input  wire logic [tr_pkg::TrNumVcs*lk_pkg::LkTorusCntW-1:0] tor3_out_credit_i,
  input  wire logic [lk_pkg::LkCtlBits-1:0]              tor3_in_ctl_i,
  output logic      [lk_pkg::LkCtlBits-1:0]              tor3_out_ctl_o,
  // torus link 4 (z+)
  input  wire logic                                      tor4_in_valid_i,
  input  wire logic                                      tor4_in_hdr_i,
  input  wire logic [tr_pkg::TrVcW-1:0]                  tor4_in_vc_i,
  input  wire logic [tr_pkg::TrFlitBits-1:0]             tor4_in_data_i,
  output logic      [tr_pkg::TrNumVcs*lk_pkg::LkTorusCntW-1:0] tor4_in_credit_o,  // running counts, VC v at [v*8 +: 8]
  output logic                                           tor4_out_valid_o,
  output logic                                           tor4_out_hdr_o,
  output logic      [tr_pkg::TrVcW-1:0]                  tor4_out_vc_o,
  output logic      [tr_pkg::TrFlitBits-1:0]             tor4_out_data_o,
  input  wire logic [tr_pkg::TrNumVcs*lk_pkg::LkTorusCntW-1:0] tor4_out_credit_i,
  input  wire logic [lk_pkg::LkCtlBits-1:0]              tor4_in_ctl_i,
  output logic      [lk_pkg::LkCtlBits-1:0]              tor4_out_ctl_o,
  // torus link 5 (z-)
  input  wire logic                                      tor5_in_valid_i,
  input  wire logic                                      tor5_in_hdr_i,
  input  wire logic [tr_pkg::TrVcW-1:0]                  tor5_in_vc_i,
  input  wire logic [tr_pkg::TrFlitBits-1:0]             tor5_in_data_i,
  output logic      [tr_pkg::TrNumVcs*lk_pkg::LkTorusCntW-1:0] tor5_in_credit_o,  // running counts, VC v at [v*8 +: 8]
  output logic                                           tor5_out_valid_o,
  output logic                                           tor5_out_hdr_o,
  output logic      [tr_pkg::TrVcW-1:0]                  tor5_out_vc_o,
  output logic      [tr_pkg::TrFlitBits-1:0]             tor5_out_data_o,
  input  wire logic [tr_pkg::TrNumVcs*lk_pkg::LkTorusCntW-1:0] tor5_out_credit_i,
  input  wire logic [lk_pkg::LkCtlBits-1:0]              tor5_in_ctl_i,
  output logic      [lk_pkg::LkCtlBits-1:0]              tor5_out_ctl_o,
  // torus configuration, static while the machine runs (registered inside)
  input  wire logic [tr_pkg::NumDims*tr_pkg::CoordW-1:0] tor_coord_i,      // this node's x, y, z (8 bits each, x lowest)
  input  wire logic [tr_pkg::NumDims*tr_pkg::CoordW-1:0] tor_dims_i,       // the torus size in x, y, z
  input  wire logic [tr_pkg::NumDirs-1:0]                tor_link_down_i,  // torus links not to use
  // RegTrStatus as wires (FIFO levels), for an on-chip agent that streams packets
  output logic      [63:0]                               tor_status_o,
  // the links' rates, cycles per flit in 8.8 fixed point (static; lk_port): 16'h0100 is a
  // flit every cycle
  input  wire logic [15:0]                               tree_cpf_i,
  input  wire logic [15:0]                               torus_cpf_i,
  // any sticky error in the node
  output logic                                           err_o
);

  // The tree adapter's buffer sizes, in packets. Fixed rather than parameters: the node
  // has no parameters, so that a hierarchical Verilation of the flat machine can compile
  // it once as a block (Verilator 5.006 re-elaborates a parameterized block in its parent).
  localparam int LinkPackets = 4;  // per VC per tree link
  localparam int InjPackets  = 8;  // per injection FIFO
  localparam int RcvPackets  = 8;  // per reception FIFO

  // A whole machine in one model (nd_machine) holds many nodes: one copy of the node's
  // code serves them all instead of one inlined copy per node.
  /*verilator no_inline_module*/

  // ------------------------------------------------------------ register bus decode
  // The torus side's window goes to the torus side; the tree side splits the rest between
  // the adapter, the barrier unit and the link counters. Every read path is registered in
  // its unit; the select is registered too. systemc/node.cpp decodes the same way, with the
  // same generated decode (fw::regmap::in_win_torus).
  logic                           to_tr, sel_tr_q, tree_rvalid, tr_rvalid, tree_err, tr_err;
  logic [cn_pkg::BusDataBits-1:0] tree_rdata, tr_rdata;

  assign to_tr = cn_pkg::in_win_torus(bus_addr_i);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)        sel_tr_q <= 1'b0;
    else if (bus_req_i) sel_tr_q <= to_tr;
  end

  assign bus_rvalid_o = sel_tr_q ? tr_rvalid : tree_rvalid;
  assign bus_rdata_o  = sel_tr_q ? tr_rdata : tree_rdata;
  assign err_o        = tree_err || tr_err;

  // The counters' service ports are the SystemC machine's (it Verilates the two sides
  // apart); in a whole-machine model the counters are read over the register bus.
  logic [63:0] unused_tree_svc, unused_torus_svc, unused_perf_svc;
  // The node has no DMA engine (nd_torus_net's Dma is 0): its memory port is idle.
  logic                              unused_dma_rd_req, unused_dma_wr_req, unused_dma_event;
  logic [dm_pkg::DmAddrW-1:0]        unused_dma_rd_addr, unused_dma_wr_addr;
  logic [2:0]                        unused_dma_rd_n, unused_dma_wr_n;
  logic [dm_pkg::DmPortWords*64-1:0] unused_dma_wr_data;

  nd_tree_net #(
    .LinkPackets(LinkPackets), .InjPackets(InjPackets), .RcvPackets(RcvPackets)
  ) u_tree_net (
    .clk_i, .rst_ni,
    .bus_req_i(bus_req_i && !to_tr), .bus_we_i, .bus_addr_i, .bus_wdata_i, .bus_priv_i,
    .bus_ready_o, .bus_rvalid_o(tree_rvalid), .bus_rdata_o(tree_rdata),
    .tree0_in_valid_i, .tree0_in_vc_i, .tree0_in_hdr_i, .tree0_in_data_i, .tree0_in_credit_o, .tree0_out_valid_o, .tree0_out_vc_o, .tree0_out_hdr_o, .tree0_out_data_o, .tree0_out_credit_i, .tree0_in_ctl_i, .tree0_out_ctl_o,
    .tree1_in_valid_i, .tree1_in_vc_i, .tree1_in_hdr_i, .tree1_in_data_i, .tree1_in_credit_o, .tree1_out_valid_o, .tree1_out_vc_o, .tree1_out_hdr_o, .tree1_out_data_o, .tree1_out_credit_i, .tree1_in_ctl_i, .tree1_out_ctl_o,
    .tree2_in_valid_i, .tree2_in_vc_i, .tree2_in_hdr_i, .tree2_in_data_i, .tree2_in_credit_o, .tree2_out_valid_o, .tree2_out_vc_o, .tree2_out_hdr_o, .tree2_out_data_o, .tree2_out_credit_i, .tree2_in_ctl_i, .tree2_out_ctl_o,
    .gi0_in_i, .gi0_out_o, .gi1_in_i, .gi1_out_o, .gi2_in_i, .gi2_out_o,
    .tree_cpf_i, .lk_svc_sel_i(6'd0), .lk_svc_word_o(unused_tree_svc),
    .err_o(tree_err)
  );

  nd_torus_net u_torus_net (
    .clk_i, .rst_ni,
    .bus_req_i(bus_req_i && to_tr), .bus_we_i, .bus_addr_i, .bus_wdata_i,
    .bus_rvalid_o(tr_rvalid), .bus_rdata_o(tr_rdata),
    .tor0_in_valid_i, .tor0_in_hdr_i, .tor0_in_vc_i, .tor0_in_data_i, .tor0_in_credit_o,
    .tor0_out_valid_o, .tor0_out_hdr_o, .tor0_out_vc_o, .tor0_out_data_o, .tor0_out_credit_i, .tor0_in_ctl_i, .tor0_out_ctl_o,
    .tor1_in_valid_i, .tor1_in_hdr_i, .tor1_in_vc_i, .tor1_in_data_i, .tor1_in_credit_o,
    .tor1_out_valid_o, .tor1_out_hdr_o, .tor1_out_vc_o, .tor1_out_data_o, .tor1_out_credit_i, .tor1_in_ctl_i, .tor1_out_ctl_o,
    .tor2_in_valid_i, .tor2_in_hdr_i, .tor2_in_vc_i, .tor2_in_data_i, .tor2_in_credit_o,
    .tor2_out_valid_o, .tor2_out_hdr_o, .tor2_out_vc_o, .tor2_out_data_o, .tor2_out_credit_i, .tor2_in_ctl_i, .tor2_out_ctl_o,
    .tor3_in_valid_i, .tor3_in_hdr_i, .tor3_in_vc_i, .tor3_in_data_i, .tor3_in_credit_o,
    .tor3_out_valid_o, .tor3_out_hdr_o, .tor3_out_vc_o, .tor3_out_data_o, .tor3_out_credit_i, .tor3_in_ctl_i, .tor3_out_ctl_o,
    .tor4_in_valid_i, .tor4_in_hdr_i, .tor4_in_vc_i, .tor4_in_data_i, .tor4_in_credit_o,
    .tor4_out_valid_o, .tor4_out_hdr_o, .tor4_out_vc_o, .tor4_out_data_o, .tor4_out_credit_i, .tor4_in_ctl_i, .tor4_out_ctl_o,
    .tor5_in_valid_i, .tor5_in_hdr_i, .tor5_in_vc_i, .tor5_in_data_i, .tor5_in_credit_o,
    .tor5_out_valid_o, .tor5_out_hdr_o, .tor5_out_vc_o, .tor5_out_data_o, .tor5_out_credit_i, .tor5_in_ctl_i, .tor5_out_ctl_o,
    .tor_coord_i, .tor_dims_i, .tor_link_down_i, .tor_status_o, .torus_cpf_i,
    .lk_svc_sel_i(6'd0), .lk_svc_word_o(unused_torus_svc),
    .perf_svc_sel_i(7'd0), .perf_svc_word_o(unused_perf_svc),
    .dma_rd_req_o(unused_dma_rd_req), .dma_rd_addr_o(unused_dma_rd_addr), .dma_rd_n_o(unused_dma_rd_n),
    .dma_rd_gnt_i(1'b0), .dma_rd_valid_i(1'b0), .dma_rd_data_i('0),
    .dma_wr_req_o(unused_dma_wr_req), .dma_wr_addr_o(unused_dma_wr_addr), .dma_wr_n_o(unused_dma_wr_n),
    .dma_wr_data_o(unused_dma_wr_data), .dma_wr_gnt_i(1'b0), .dma_event_o(unused_dma_event),
    .err_o(tr_err)
  );

endmodule : nd_node

`default_nettype wire
