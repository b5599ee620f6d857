// SPDX-License-Identifier: Apache-2.0
// nd_tree_net: the node's tree side: the combining-network adapter, the barrier unit
// with its barrier wires beside the tree links (gi*_in_i/gi*_out_o), and a link end
// (lk_port: CRC, sequence numbers, retransmission) on each tree link, behind the part of
// the node's register bus that is theirs (the windows cn_pkg::WinGi to the barrier unit,
// WinLkTree to the link counters, the rest to the adapter; nd_node sends the torus side's
// window elsewhere).
// The link ports are the wires: credits are running counts and each link has a control
// word (lk_pkg::LkCtl*). A block of its own so that a simulator can evaluate it apart from
// the torus side: the SystemC machine Verilates it as one model per node and skips it on
// cycles where it is quiescent (systemc/node.cpp). Port names are nd_node's, so waveforms
// read the same.
`include "cmn_assert.svh"
`default_nettype none

module nd_tree_net #(
  // The side's sizes (docs/design-space.md; the catalogue in regmap/collnet.json, "sizes").
  parameter int LinkPackets = 4,  // link buffer per VC per tree link, packets (the credits)
  parameter int InjPackets  = 8,  // each injection FIFO, packets
  parameter int RcvPackets  = 8,  // each reception FIFO, packets
  parameter int RetryFlits  = lk_pkg::LkRetryFlits,  // each link end's retransmission buffer, flits
  parameter int UserClasses = cn_pkg::UserClassesMax  // user class routes (classes 1..UserClasses)
) (
  input  wire logic                           clk_i,
  input  wire logic                           rst_ni,
  // register bus (already decoded: no torus addresses)
  input  wire logic                           bus_req_i,
  input  wire logic                           bus_we_i,
  input  wire logic [cn_pkg::BusAddrBits-1:0] bus_addr_i,
  input  wire logic [cn_pkg::BusDataBits-1:0] bus_wdata_i,  // word 0 in [63:0]
  input  wire logic                           bus_priv_i,
  output logic                                bus_ready_o,
  output logic                                bus_rvalid_o,
  output logic      [cn_pkg::BusDataBits-1:0] bus_rdata_o,
  // tree link 0
  input  wire logic                           tree0_in_valid_i,
  input  wire logic                           tree0_in_vc_i,
  input  wire logic                           tree0_in_hdr_i,
  input  wire logic [cn_pkg::FlitBits-1:0]    tree0_in_data_i,
  output logic      [cn_pkg::NumVcs*lk_pkg::LkTreeCntW-1:0] tree0_in_credit_o,  // running counts, VC v at [v*4 +: 4]
  output logic                                tree0_out_valid_o,
  output logic                                tree0_out_vc_o,
  output logic                                tree0_out_hdr_o,
  output logic      [cn_pkg::FlitBits-1:0]    tree0_out_data_o,
  input  wire logic [cn_pkg::NumVcs*lk_pkg::LkTreeCntW-1:0] tree0_out_credit_i,
  input  wire logic [lk_pkg::LkCtlBits-1:0]   tree0_in_ctl_i,
  output logic      [lk_pkg::LkCtlBits-1:0]   tree0_out_ctl_o,
  // tree link 1
  input  wire logic                           tree1_in_valid_i,
  input  wire logic                           tree1_in_vc_i,
  input  wire logic                           tree1_in_hdr_i,
  input  wire logic [cn_pkg::FlitBits-1:0]    tree1_in_data_i,
  output logic      [cn_pkg::NumVcs*lk_pkg::LkTreeCntW-1:0] tree1_in_credit_o,  // running counts, VC v at [v*4 +: 4]
  output logic                                tree1_out_valid_o,
  output logic                                tree1_out_vc_o,
  output logic                                tree1_out_hdr_o,
  output logic      [cn_pkg::FlitBits-1:0]    tree1_out_data_o,
  input  wire logic [cn_pkg::NumVcs*lk_pkg::LkTreeCntW-1:0] tree1_out_credit_i,
  input  wire logic [lk_pkg::LkCtlBits-1:0]   tree1_in_ctl_i,
  output logic      [lk_pkg::LkCtlBits-1:0]   tree1_out_ctl_o,
  // tree link 2
  input  wire logic                           tree2_in_valid_i,
  input  wire logic                           tree2_in_vc_i,
  input  wire logic                           tree2_in_hdr_i,
  input  wire logic [cn_pkg::FlitBits-1:0]    tree2_in_data_i,
  output logic      [cn_pkg::NumVcs*lk_pkg::LkTreeCntW-1:0] tree2_in_credit_o,  // running counts, VC v at [v*4 +: 4]
  output logic                                tree2_out_valid_o,
  output logic                                tree2_out_vc_o,
  output logic                                tree2_out_hdr_o,
  output logic      [cn_pkg::FlitBits-1:0]    tree2_out_data_o,
  input  wire logic [cn_pkg::NumVcs*lk_pkg::LkTreeCntW-1:0] tree2_out_credit_i,
  input  wire logic [lk_pkg::LkCtlBits-1:0]   tree2_in_ctl_i,
  output logic      [lk_pkg::LkCtlBits-1:0]   tree2_out_ctl_o,
  // barrier network, per tree link: {OR, AND} of each of the 4 channels, on wires of their
  // own (not through the link ends)
  input  wire logic [7:0]                     gi0_in_i,
  output logic      [7:0]                     gi0_out_o,
  input  wire logic [7:0]                     gi1_in_i,
  output logic      [7:0]                     gi1_out_o,
  input  wire logic [7:0]                     gi2_in_i,
  output logic      [7:0]                     gi2_out_o,
  // service port: link counter word sel[2:0] of tree link sel[5:3], combinational
  // the tree links' rate: cycles per flit, 8.8 fixed point (static; lk_port)
  input  wire logic [15:0]                    tree_cpf_i,
  input  wire logic [5:0]                     lk_svc_sel_i,
  output logic      [63:0]                    lk_svc_word_o,
  // any sticky error of the adapter or the barrier unit
  output logic                                err_o
);

  // ------------------------------------------------------------ register bus decode
  // The barrier unit's window (cn_pkg::WinGi) to the barrier unit, the link counters'
  // (WinLkTree, lk_pkg::RegLkTree) to the link counters, the rest to the adapter. Every read
  // path is registered in its unit; the select is registered too. The barrier unit and the
  // link counters have only one-word registers: their read data is word 0 of the wide bus.
  logic                           to_gi, to_lk, cn_rvalid, gi_rvalid, lk_rvalid, lk_bad, cn_err, gi_err;
  logic [1:0]                     sel_q;  // 0 adapter, 1 barrier unit, 2 link counters
  logic [cn_pkg::BusDataBits-1:0] cn_rdata;
  logic [cn_pkg::FlitBits-1:0]    gi_rdata, lk_rdata;

  assign to_gi = cn_pkg::in_win_gi(bus_addr_i);
  assign to_lk = cn_pkg::in_win_lk_tree(bus_addr_i);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)        sel_q <= 2'd0;
    else if (bus_req_i) sel_q <= to_lk ? 2'd2 : to_gi ? 2'd1 : 2'd0;
  end

  assign bus_rvalid_o = (sel_q == 2'd2) ? lk_rvalid : (sel_q == 2'd1) ? gi_rvalid : cn_rvalid;
  assign bus_rdata_o  = (sel_q == 2'd2) ? cn_pkg::BusDataBits'(lk_rdata) :
                        (sel_q == 2'd1) ? cn_pkg::BusDataBits'(gi_rdata) : cn_rdata;
  assign err_o        = cn_err || gi_err;

  // ------------------------------------------------------------ links
  // The links' rate is static configuration, registered at the edge like the torus side's
  // (1.0 out of reset; the machine sets it before the first flit can move).
  logic [15:0] cpf_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) cpf_q <= 16'h0100;
    else         cpf_q <= tree_cpf_i;
  end

  // The adapter's and the barrier unit's link ports meet the wires through a link end each
  // (lk_port): a flit is {vc, hdr, data} and credits travel as running counts. The
  // barrier bits have wires of their own (gi*_in_i/gi*_out_o), as the global interrupt
  // network had on the real machine, so that their latency can differ from the tree's;
  // they do not pass through the link layer.
  localparam int Links = cn_pkg::NumLinks;
  localparam int Vcs   = cn_pkg::NumVcs;
  localparam int CntW  = lk_pkg::LkTreeCntW;
  localparam int CtlW  = lk_pkg::LkCtlBits;

  logic [Links-1:0]          cn_in_valid, cn_in_vc, cn_in_hdr, cn_out_valid, cn_out_vc, cn_out_hdr, lk_hold, lk_down;
  logic [Links*64-1:0]       cn_in_data, cn_out_data;
  logic [Links*Vcs-1:0]      cn_in_credit, cn_out_credit;
  logic [Links*8-1:0]        gi_in, gi_out;
  logic [Links-1:0]          w_in_valid, w_in_vc, w_in_hdr, w_out_valid, w_out_vc, w_out_hdr;
  logic [Links*64-1:0]       w_in_data, w_out_data;
  logic [Links*Vcs*CntW-1:0] w_in_cnt, w_out_cnt;
  logic [Links*8-1:0]        w_in_gi;
  logic [Links*CtlW-1:0]     w_in_ctl, w_out_ctl;
  logic [Links*8*64-1:0]     lk_counters;

  assign w_in_valid = {tree2_in_valid_i, tree1_in_valid_i, tree0_in_valid_i};
  assign w_in_vc    = {tree2_in_vc_i, tree1_in_vc_i, tree0_in_vc_i};
  assign w_in_hdr   = {tree2_in_hdr_i, tree1_in_hdr_i, tree0_in_hdr_i};
  assign w_in_data  = {tree2_in_data_i, tree1_in_data_i, tree0_in_data_i};
  assign w_in_cnt   = {tree2_out_credit_i, tree1_out_credit_i, tree0_out_credit_i};
  assign w_in_gi    = {gi2_in_i, gi1_in_i, gi0_in_i};
  assign w_in_ctl   = {tree2_in_ctl_i, tree1_in_ctl_i, tree0_in_ctl_i};
  assign {tree2_out_valid_o, tree1_out_valid_o, tree0_out_valid_o} = w_out_valid;
  assign {tree2_out_vc_o, tree1_out_vc_o, tree0_out_vc_o}          = w_out_vc;
  assign {tree2_out_hdr_o, tree1_out_hdr_o, tree0_out_hdr_o}       = w_out_hdr;
  assign {tree2_out_data_o, tree1_out_data_o, tree0_out_data_o}    = w_out_data;
  assign {tree2_in_credit_o, tree1_in_credit_o, tree0_in_credit_o} = w_out_cnt;
  assign {gi2_out_o, gi1_out_o, gi0_out_o}                         = gi_out;
  assign gi_in                                                     = w_in_gi;
  assign {tree2_out_ctl_o, tree1_out_ctl_o, tree0_out_ctl_o}       = w_out_ctl;

  for (genvar l = 0; l < Links; l++) begin : g_link
    logic unused_level, unused_w_level;
    lk_port #(
      .DataW(1 + 1 + 64), .HdrBit(64), .Vcs(Vcs), .CntW(CntW), .LevelW(1), .PacketFlits(1 + cn_pkg::PayloadFlits),
      .RetryFlits(RetryFlits)
    ) u_link (
      .clk_i, .rst_ni,
      .n_valid_i(cn_out_valid[l]), .n_data_i({cn_out_vc[l], cn_out_hdr[l], cn_out_data[l*64 +: 64]}),
      .n_credit_i(cn_in_credit[l*Vcs +: Vcs]), .n_level_i(1'b0), .hold_o(lk_hold[l]),
      .n_valid_o(cn_in_valid[l]), .n_data_o({cn_in_vc[l], cn_in_hdr[l], cn_in_data[l*64 +: 64]}),
      .n_credit_o(cn_out_credit[l*Vcs +: Vcs]), .n_level_o(unused_level),
      .w_valid_o(w_out_valid[l]), .w_data_o({w_out_vc[l], w_out_hdr[l], w_out_data[l*64 +: 64]}),
      .w_cnt_o(w_out_cnt[l*Vcs*CntW +: Vcs*CntW]), .w_level_o(unused_w_level),
      .w_ctl_o(w_out_ctl[l*CtlW +: CtlW]),
      .w_valid_i(w_in_valid[l]), .w_data_i({w_in_vc[l], w_in_hdr[l], w_in_data[l*64 +: 64]}),
      .w_cnt_i(w_in_cnt[l*Vcs*CntW +: Vcs*CntW]), .w_level_i(1'b0), .cpf_i(cpf_q),
      .w_ctl_i(w_in_ctl[l*CtlW +: CtlW]),
      .down_o(lk_down[l]), .counters_o(lk_counters[l*8*64 +: 8*64])
    );
  end

  // The service port: any link counter word, combinationally, for a simulator to read
  // between clock edges without a bus access (as a service network reads counters).
  assign lk_svc_word_o = (32'(lk_svc_sel_i) < Links * 8) ? lk_counters[32'(lk_svc_sel_i)*64 +: 64] : '0;

  lk_regs #(.Links(Links)) u_link_regs (
    .clk_i, .rst_ni, .req_i(bus_req_i && to_lk), .we_i(bus_we_i), .addr_i(bus_addr_i[cn_pkg::WinLkTreeBits-1:0]),
    .rvalid_o(lk_rvalid), .rdata_o(lk_rdata), .bad_o(lk_bad), .counters_i(lk_counters)
  );

  cn_adapter #(
    .LinkPackets(LinkPackets), .InjPackets(InjPackets), .RcvPackets(RcvPackets), .RetryFlits(RetryFlits),
    .UserClasses(UserClasses)
  ) u_tree (
    .clk_i, .rst_ni,
    .bus_req_i(bus_req_i && !to_gi && !to_lk), .bus_we_i, .bus_addr_i, .bus_wdata_i, .bus_priv_i,
    .bus_ready_o, .bus_rvalid_o(cn_rvalid), .bus_rdata_o(cn_rdata),
    .link_in_valid_i(cn_in_valid), .link_in_vc_i(cn_in_vc), .link_in_hdr_i(cn_in_hdr),
    .link_in_data_i(cn_in_data), .link_in_credit_o(cn_in_credit),
    .link_out_valid_o(cn_out_valid), .link_out_vc_o(cn_out_vc), .link_out_hdr_o(cn_out_hdr),
    .link_out_data_o(cn_out_data), .link_out_credit_i(cn_out_credit),
    .link_hold_i(lk_hold), .link_down_i(lk_down), .link_bad_addr_i(lk_bad),
    .err_o(cn_err)
  );

  gi_barrier u_barrier (
    .clk_i, .rst_ni,
    .req_i(bus_req_i && to_gi), .we_i(bus_we_i), .addr_i(bus_addr_i), .wdata_i(bus_wdata_i[cn_pkg::FlitBits-1:0]),
    .priv_i(bus_priv_i), .rvalid_o(gi_rvalid), .rdata_o(gi_rdata),
    .link_in_i(gi_in), .link_out_o(gi_out),
    .err_o(gi_err)
  );

  // A link's credits travel as running counts of LkTreeCntW bits, which must count past
  // every credit a VC can owe (its link buffer, in packets).
  `CMN_ASSERT_PARAM(g_check_credits, LinkPackets < (1 << CntW),
                    $sformatf("nd_tree_net: LinkPackets (%0d) must be below %0d, the credit counts' range",
                              LinkPackets, 1 << CntW))

endmodule : nd_tree_net

`default_nettype wire
