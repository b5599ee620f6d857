// SPDX-License-Identifier: Apache-2.0
// nd_torus_net: the node's torus side: the six-link router, a link end (lk_port: CRC,
// sequence numbers, retransmission) on each of its links, and their register blocks (the
// register bus's torus window cn_pkg::WinTorus: the router's in WinTr, the link counters in
// WinLkTorus and the router's performance counters (tr_perf) in WinTrPerf), with the node's
// torus configuration registered at its edge. The link ports are the wires: credits are
// running counts and each link has a control word (lk_pkg::LkCtl*). A block of its own so
// that a simulator can evaluate it apart from the tree side: the SystemC machine Verilates
// it as one model per node and skips it on cycles where it is quiescent
// (systemc/node.cpp). Port names are nd_node's, so waveforms read the same.
//
// With Dma = n > 0 the side also has the DMA engine (dm_engine, docs/dma.md): its
// registers are the register bus's window cn_pkg::WinDma, it owns n injection FIFOs and n
// reception FIFOs of the router's besides the processors', and it reaches the node's
// memory through the side's memory port (dma_rd_*, dma_wr_*). Without it (0, as in
// nd_node) the window is not the side's and the port is idle.
`include "cmn_assert.svh"
`default_nettype none

module nd_torus_net #(
  // The side's sizes (docs/design-space.md; the catalogue in regmap/collnet.json, "sizes").
  parameter int DynFlits   = 64,  // link buffer of each dynamic VC, flits
  parameter int EscSlots   = 3,   // link buffer of the escape and priority VCs, packets
  parameter int InjFlits   = tr_pkg::TrInjFlits,  // each injection FIFO, flits
  parameter int RcvFlits   = tr_pkg::TrRcvFlits,  // each reception FIFO, flits
  parameter int RcvFifos   = 1,   // normal reception FIFOs (1..TrRcvNormalMax), besides the high-priority one
  parameter int RetryFlits = lk_pkg::LkRetryFlits,  // each link end's retransmission buffer, flits
  parameter int Dma        = 0    // the DMA engine beside the router, with this many FIFOs each way (0: none)
) (
  input  wire logic                                      clk_i,
  input  wire logic                                      rst_ni,
  // register bus (already decoded: torus addresses only)
  input  wire logic                                      bus_req_i,
  input  wire logic                                      bus_we_i,
  input  wire logic [cn_pkg::BusAddrBits-1:0]            bus_addr_i,
  input  wire logic [cn_pkg::BusDataBits-1:0]            bus_wdata_i,
  output logic                                           bus_rvalid_o,
  output logic      [cn_pkg::BusDataBits-1:0]            bus_rdata_o,
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
  // the torus links' rate: cycles per flit, 8.8 fixed point (static; lk_port)
  input  wire logic [15:0]                               torus_cpf_i,
  // service port: link counter word sel[2:0] of torus link sel[5:3], combinational
  input  wire logic [5:0]                                lk_svc_sel_i,
  output logic      [63:0]                               lk_svc_word_o,
  // service port: the performance counter at word sel of RegTrPerf (link sel[6:4], VC
  // sel[3:2], counter sel[1:0]), combinational
  input  wire logic [6:0]                                perf_svc_sel_i,
  output logic      [63:0]                               perf_svc_word_o,
  // the DMA engine's memory port (dm_engine mem_rd_*, mem_wr_*) and its event line (Dma = 1;
  // idle without)
  output logic                                           dma_rd_req_o,
  output logic      [dm_pkg::DmAddrW-1:0]                dma_rd_addr_o,
  output logic      [2:0]                                dma_rd_n_o,
  input  wire logic                                      dma_rd_gnt_i,
  input  wire logic                                      dma_rd_valid_i,
  input  wire logic [dm_pkg::DmPortWords*64-1:0]         dma_rd_data_i,
  output logic                                           dma_wr_req_o,
  output logic      [dm_pkg::DmAddrW-1:0]                dma_wr_addr_o,
  output logic      [2:0]                                dma_wr_n_o,
  output logic      [dm_pkg::DmPortWords*64-1:0]         dma_wr_data_o,
  input  wire logic                                      dma_wr_gnt_i,
  output logic                                           dma_event_o,
  // any sticky error bit of the router, its registers or the DMA engine
  output logic                                           err_o
);

  // The configuration pins are registered once at the node's edge: the router's routing
  // logic then depends on state only, never directly on pins.
  logic [23:0] tor_coord_q, tor_dims_q;
  logic [5:0]  tor_link_down_q;
  logic [15:0] cpf_q;  // the links' rate (1.0 out of reset)
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      tor_coord_q     <= '0;
      tor_dims_q      <= {8'd1, 8'd1, 8'd1};
      tor_link_down_q <= '0;
      cpf_q           <= 16'h0100;
    end else begin
      tor_coord_q     <= tor_coord_i;
      tor_dims_q      <= tor_dims_i;
      tor_link_down_q <= tor_link_down_i;
      cpf_q           <= torus_cpf_i;
    end
  end

  // ------------------------------------------------------------ links
  // The router's link ports meet the wires through a link end each (lk_port): a flit is
  // {hdr, vc, data}, credits travel as running counts, and no level bits share the link.
  localparam int CntW = lk_pkg::LkTorusCntW;
  localparam int Vcs  = tr_pkg::TrNumVcs;

  logic [5:0]      tr_in_valid, tr_in_hdr, tr_out_valid, tr_out_hdr, tr_hold, lk_down;
  logic [6*2-1:0]  tr_in_vc, tr_out_vc;
  logic [6*64-1:0] tr_in_data, tr_out_data;
  logic [6*4-1:0]  tr_in_credit, tr_out_credit;

  logic [5:0]                 w_in_valid, w_in_hdr, w_out_valid, w_out_hdr;
  logic [6*2-1:0]             w_in_vc, w_out_vc;
  logic [6*64-1:0]            w_in_data, w_out_data;
  logic [6*Vcs*CntW-1:0]      w_in_cnt, w_out_cnt;
  logic [6*lk_pkg::LkCtlBits-1:0] w_in_ctl, w_out_ctl;
  logic [6*8*64-1:0]          lk_counters;

  assign w_in_valid = {tor5_in_valid_i, tor4_in_valid_i, tor3_in_valid_i, tor2_in_valid_i, tor1_in_valid_i, tor0_in_valid_i};
  assign w_in_hdr   = {tor5_in_hdr_i, tor4_in_hdr_i, tor3_in_hdr_i, tor2_in_hdr_i, tor1_in_hdr_i, tor0_in_hdr_i};
  assign w_in_vc    = {tor5_in_vc_i, tor4_in_vc_i, tor3_in_vc_i, tor2_in_vc_i, tor1_in_vc_i, tor0_in_vc_i};
  assign w_in_data  = {tor5_in_data_i, tor4_in_data_i, tor3_in_data_i, tor2_in_data_i, tor1_in_data_i, tor0_in_data_i};
  assign w_in_cnt   = {tor5_out_credit_i, tor4_out_credit_i, tor3_out_credit_i, tor2_out_credit_i, tor1_out_credit_i, tor0_out_credit_i};
  assign w_in_ctl   = {tor5_in_ctl_i, tor4_in_ctl_i, tor3_in_ctl_i, tor2_in_ctl_i, tor1_in_ctl_i, tor0_in_ctl_i};
  assign {tor5_in_credit_o, tor4_in_credit_o, tor3_in_credit_o, tor2_in_credit_o, tor1_in_credit_o, tor0_in_credit_o} = w_out_cnt;
  assign {tor5_out_valid_o, tor4_out_valid_o, tor3_out_valid_o, tor2_out_valid_o, tor1_out_valid_o, tor0_out_valid_o} = w_out_valid;
  assign {tor5_out_hdr_o, tor4_out_hdr_o, tor3_out_hdr_o, tor2_out_hdr_o, tor1_out_hdr_o, tor0_out_hdr_o} = w_out_hdr;
  assign {tor5_out_vc_o, tor4_out_vc_o, tor3_out_vc_o, tor2_out_vc_o, tor1_out_vc_o, tor0_out_vc_o} = w_out_vc;
  assign {tor5_out_data_o, tor4_out_data_o, tor3_out_data_o, tor2_out_data_o, tor1_out_data_o, tor0_out_data_o} = w_out_data;
  assign {tor5_out_ctl_o, tor4_out_ctl_o, tor3_out_ctl_o, tor2_out_ctl_o, tor1_out_ctl_o, tor0_out_ctl_o} = w_out_ctl;

  for (genvar d = 0; d < 6; d++) begin : g_link
    logic unused_level, unused_w_level;
    lk_port #(
      .DataW(1 + 2 + 64), .HdrBit(66), .Vcs(Vcs), .CntW(CntW), .LevelW(1), .PacketFlits(tr_pkg::MaxPacketFlits),
      .RetryFlits(RetryFlits)
    ) u_link (
      .clk_i, .rst_ni,
      .n_valid_i(tr_out_valid[d]), .n_data_i({tr_out_hdr[d], tr_out_vc[d*2 +: 2], tr_out_data[d*64 +: 64]}),
      .n_credit_i(tr_in_credit[d*Vcs +: Vcs]), .n_level_i(1'b0), .hold_o(tr_hold[d]),
      .n_valid_o(tr_in_valid[d]), .n_data_o({tr_in_hdr[d], tr_in_vc[d*2 +: 2], tr_in_data[d*64 +: 64]}),
      .n_credit_o(tr_out_credit[d*Vcs +: Vcs]), .n_level_o(unused_level),
      .w_valid_o(w_out_valid[d]), .w_data_o({w_out_hdr[d], w_out_vc[d*2 +: 2], w_out_data[d*64 +: 64]}),
      .w_cnt_o(w_out_cnt[d*Vcs*CntW +: Vcs*CntW]), .w_level_o(unused_w_level),
      .w_ctl_o(w_out_ctl[d*lk_pkg::LkCtlBits +: lk_pkg::LkCtlBits]),
      .w_valid_i(w_in_valid[d]), .w_data_i({w_in_hdr[d], w_in_vc[d*2 +: 2], w_in_data[d*64 +: 64]}),
      .w_cnt_i(w_in_cnt[d*Vcs*CntW +: Vcs*CntW]), .w_level_i(1'b0), .cpf_i(cpf_q),
      .w_ctl_i(w_in_ctl[d*lk_pkg::LkCtlBits +: lk_pkg::LkCtlBits]),
      .down_o(lk_down[d]), .counters_o(lk_counters[d*8*64 +: 8*64])
    );
  end

  logic [tr_pkg::TrInjFifos-1:0] tr_inj_push;
  logic [2:0]                    tr_inj_n, tr_rcv_n;
  logic [4*64-1:0]               tr_inj_data;
  logic [tr_pkg::TrInjFifos*$clog2(InjFlits+1)-1:0] tr_inj_free;
  logic [RcvFifos:0]             tr_rcv_pop;  // the normal FIFOs, then the high-priority one
  logic [(RcvFifos+1)*4*64-1:0]  tr_rcv_data;
  logic [(RcvFifos+1)*$clog2(RcvFlits+1)-1:0] tr_rcv_count;
  logic [tr_pkg::TrRouterErrBits-1:0] tr_router_err;
  logic [tr_pkg::TrErrBits-1:0]       tr_err;
  logic [6*Vcs-1:0]                   perf_flit, perf_busy, perf_stall;
  // the DMA engine's FIFOs (tr_router dma_*; one, idle, without the engine)
  localparam int DmFifos = (Dma > 0) ? Dma : 1;
  logic [DmFifos-1:0]                         dm_inj_push, dm_rcv_pop;
  logic [2:0]                                 dm_inj_n, dm_rcv_n;
  logic [4*64-1:0]                            dm_inj_data;
  logic [DmFifos*4*64-1:0]                    dm_rcv_data;
  logic [DmFifos*$clog2(InjFlits+1)-1:0]      dm_inj_free;
  logic [DmFifos*$clog2(RcvFlits+1)-1:0]      dm_rcv_count;

  tr_router #(
    .DynFlits(DynFlits), .EscSlots(EscSlots), .InjFlits(InjFlits), .RcvFlits(RcvFlits), .RcvFifos(RcvFifos), .Dma(Dma)
  ) u_torus (
    .clk_i, .rst_ni,
    // A link is not used once it is marked down or its link layer has declared it down.
    .bubble_i(1'b1), .my_i(tor_coord_q), .dims_i(tor_dims_q), .link_down_i(tor_link_down_q | lk_down),
    .in_valid_i(tr_in_valid), .in_hdr_i(tr_in_hdr), .in_vc_i(tr_in_vc), .in_data_i(tr_in_data),
    .in_credit_o(tr_in_credit),
    .out_valid_o(tr_out_valid), .out_hdr_o(tr_out_hdr), .out_vc_o(tr_out_vc), .out_data_o(tr_out_data),
    .out_credit_i(tr_out_credit), .out_hold_i(tr_hold),
    .inj_push_i(tr_inj_push), .inj_n_i(tr_inj_n), .inj_data_i(tr_inj_data), .inj_free_o(tr_inj_free),
    .rcv_pop_i(tr_rcv_pop), .rcv_n_i(tr_rcv_n), .rcv_data_o(tr_rcv_data), .rcv_count_o(tr_rcv_count),
    .dma_inj_push_i(dm_inj_push), .dma_inj_n_i(dm_inj_n), .dma_inj_data_i(dm_inj_data), .dma_inj_free_o(dm_inj_free),
    .dma_rcv_pop_i(dm_rcv_pop), .dma_rcv_n_i(dm_rcv_n), .dma_rcv_data_o(dm_rcv_data), .dma_rcv_count_o(dm_rcv_count),
    .err_o(tr_router_err),
    .perf_flit_o(perf_flit), .perf_busy_o(perf_busy), .perf_stall_o(perf_stall)
  );

  // ------------------------------------------------------------ registers
  // The link counters' window (cn_pkg::WinLkTorus, lk_pkg::RegLkTorus) goes to the link
  // counters, the performance counters' (WinTrPerf, tr_pkg::RegTrPerf) to the performance
  // counters, the DMA engine's (WinDma) to the engine when the side has one, the rest of
  // the torus side's window to the router's register block. Every read path is
  // registered; so is the select.
  logic                           to_lk, to_perf, to_dma, sel_lk_q, sel_perf_q, sel_dma_q, tr_rvalid, lk_rvalid, lk_bad;
  logic                           perf_rvalid, perf_bad, dm_rvalid;
  logic [cn_pkg::BusDataBits-1:0] tr_rdata, dm_rdata;
  logic [63:0]                    lk_rdata, perf_rdata;
  assign to_lk   = cn_pkg::in_win_lk_torus(bus_addr_i);
  assign to_perf = cn_pkg::in_win_tr_perf(bus_addr_i);
  assign to_dma  = (Dma != 0) && cn_pkg::in_win_dma(bus_addr_i);
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sel_lk_q   <= 1'b0;
      sel_perf_q <= 1'b0;
      sel_dma_q  <= 1'b0;
    end else if (bus_req_i) begin
      sel_lk_q   <= to_lk;
      sel_perf_q <= to_perf;
      sel_dma_q  <= to_dma;
    end
  end
  assign bus_rvalid_o = sel_lk_q ? lk_rvalid : sel_perf_q ? perf_rvalid : sel_dma_q ? dm_rvalid : tr_rvalid;
  assign bus_rdata_o  = sel_lk_q   ? cn_pkg::BusDataBits'(lk_rdata) :
                        sel_perf_q ? cn_pkg::BusDataBits'(perf_rdata) :
                        sel_dma_q  ? dm_rdata : tr_rdata;

  // The service port: any link counter word, combinationally, for a simulator to read
  // between clock edges without a bus access (as a service network reads counters).
  assign lk_svc_word_o = (32'(lk_svc_sel_i) < 6 * 8) ? lk_counters[32'(lk_svc_sel_i)*64 +: 64] : '0;

  tr_perf u_perf (
    .clk_i, .rst_ni, .flit_i(perf_flit), .busy_i(perf_busy), .stall_i(perf_stall),
    .req_i(bus_req_i && to_perf), .we_i(bus_we_i), .addr_i(bus_addr_i[cn_pkg::WinTrPerfBits-1:0]),
    .rvalid_o(perf_rvalid), .rdata_o(perf_rdata), .bad_o(perf_bad),
    .svc_sel_i(perf_svc_sel_i), .svc_word_o(perf_svc_word_o)
  );

  lk_regs #(.Links(6)) u_link_regs (
    .clk_i, .rst_ni, .req_i(bus_req_i && to_lk), .we_i(bus_we_i), .addr_i(bus_addr_i[cn_pkg::WinLkTorusBits-1:0]),
    .rvalid_o(lk_rvalid), .rdata_o(lk_rdata), .bad_o(lk_bad), .counters_i(lk_counters)
  );

  tr_regs #(
    .BusBits(cn_pkg::BusDataBits), .InjFlits(InjFlits), .RcvFlits(RcvFlits), .RcvFifos(RcvFifos), .DynFlits(DynFlits),
    .EscSlots(EscSlots), .RetryFlits(RetryFlits), .Dma(Dma)
  ) u_torus_regs (
    .clk_i, .rst_ni,
    .req_i(bus_req_i && !to_lk && !to_perf && !to_dma), .we_i(bus_we_i), .addr_i(bus_addr_i), .wdata_i(bus_wdata_i),
    .rvalid_o(tr_rvalid), .rdata_o(tr_rdata), .link_down_err_i(|lk_down), .link_bad_i(lk_bad || perf_bad),
    .my_i(tor_coord_q), .dims_i(tor_dims_q), .link_down_i(tor_link_down_q),
    .inj_push_o(tr_inj_push), .inj_n_o(tr_inj_n), .inj_data_o(tr_inj_data), .inj_free_i(tr_inj_free),
    .rcv_pop_o(tr_rcv_pop), .rcv_n_o(tr_rcv_n), .rcv_data_i(tr_rcv_data), .rcv_count_i(tr_rcv_count),
    .router_err_i(tr_router_err), .err_o(tr_err), .status_o(tor_status_o)
  );

  // ------------------------------------------------------------ the DMA engine
  logic dm_err;
  if (Dma != 0) begin : g_dma
    dm_engine #(.Fifos(Dma), .InjFreeW($clog2(InjFlits+1)), .RcvCntW($clog2(RcvFlits+1))) u_dma (
      .clk_i, .rst_ni,
      .req_i(bus_req_i && to_dma), .we_i(bus_we_i), .addr_i(bus_addr_i), .wdata_i(bus_wdata_i),
      .rvalid_o(dm_rvalid), .rdata_o(dm_rdata),
      .inj_push_o(dm_inj_push), .inj_n_o(dm_inj_n), .inj_data_o(dm_inj_data), .inj_free_i(dm_inj_free),
      .rcv_pop_o(dm_rcv_pop), .rcv_n_o(dm_rcv_n), .rcv_data_i(dm_rcv_data), .rcv_count_i(dm_rcv_count),
      .mem_rd_req_o(dma_rd_req_o), .mem_rd_addr_o(dma_rd_addr_o), .mem_rd_n_o(dma_rd_n_o), .mem_rd_gnt_i(dma_rd_gnt_i),
      .mem_rd_valid_i(dma_rd_valid_i), .mem_rd_data_i(dma_rd_data_i),
      .mem_wr_req_o(dma_wr_req_o), .mem_wr_addr_o(dma_wr_addr_o), .mem_wr_n_o(dma_wr_n_o),
      .mem_wr_data_o(dma_wr_data_o), .mem_wr_gnt_i(dma_wr_gnt_i), .event_o(dma_event_o), .err_o(dm_err)
    );
  end else begin : g_no_dma
    // No engine: its FIFOs' ports and the memory port idle, the window never decoded here.
    logic unused_dma;
    assign unused_dma = ^{dm_inj_free, dm_rcv_data, dm_rcv_count, dma_rd_gnt_i, dma_rd_valid_i, dma_rd_data_i, dma_wr_gnt_i};
    assign {dm_inj_push, dm_inj_n, dm_inj_data, dm_rcv_pop, dm_rcv_n} = '0;
    assign {dma_rd_req_o, dma_rd_addr_o, dma_rd_n_o, dma_wr_req_o, dma_wr_addr_o, dma_wr_n_o, dma_wr_data_o} = '0;
    assign dma_event_o = 1'b0;
    assign {dm_rvalid, dm_rdata, dm_err} = '0;
  end

  assign err_o = |tr_err || dm_err;

  // A link's credits travel as running counts of LkTorusCntW bits, which must count past
  // every credit a VC can owe (its buffer: flits on a dynamic VC, packets on the others).
  `CMN_ASSERT_PARAM(g_check_dma, Dma >= 0 && Dma <= tr_pkg::TrRcvNormalMax,
                    $sformatf("nd_torus_net: Dma (%0d) must be 0 (no DMA engine) .. %0d", Dma, tr_pkg::TrRcvNormalMax))
  `CMN_ASSERT_PARAM(g_check_credits, DynFlits < (1 << CntW) && EscSlots < (1 << CntW),
                    $sformatf("nd_torus_net: DynFlits (%0d) and EscSlots (%0d) must be below %0d, the credit counts' range",
                              DynFlits, EscSlots, 1 << CntW))

endmodule : nd_torus_net

`default_nettype wire
