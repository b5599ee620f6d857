// SPDX-License-Identifier: Apache-2.0
// cn_adapter: one node's combining-network (tree) adapter. Three bidirectional links,
// 16 class routes, the register block, and two virtual channels (cn_vc: user and system),
// each with its own injection and reception FIFO stacks, combine engine (up the tree,
// through the ALU), broadcast engine (down the tree) and root turnaround path. The VCs
// share the links: every link carries a VC bit per flit and returns credits per VC, so a
// full buffer of one VC never stops the other, and the link arbitration below is fair
// between them. All link outputs are registered. The register bus is cn_pkg::BusDataBits
// wide so that the processor moves cn_pkg::VectorWords payload words per access.
//
// Link l, both directions: valid, vc, hdr (header flit), data (one flit) forward; credit[v]
// back (one pulse per packet buffer of VC v freed at the receiver). Between these ports and
// the wires sits the link layer (lk_port, in nd_tree_net), which may hold a link's packet
// starts (link_hold_i) the way a missing credit does.
`include "cmn_assert.svh"
`default_nettype none

module cn_adapter
#(
  parameter int LinkPackets = 4,  // receive buffers per link and VC, in packets
  parameter int InjPackets  = 8,  // injection FIFO depth per VC, in packets
  parameter int RcvPackets  = 8,  // reception FIFO depth per VC, in packets
  parameter int RetryFlits  = 128,  // the side's link ends' (lk_pkg::LkRetryFlits; reported in RegSizes)
  parameter int UserClasses = cn_pkg::UserClassesMax,  // user class routes (cn_regs)
  localparam int NumLinks   = cn_pkg::NumLinks,
  localparam int NumVcs     = cn_pkg::NumVcs,
  localparam int FlitBits   = cn_pkg::FlitBits,
  localparam int HdrBits    = cn_pkg::HdrBits
) (
  input  wire logic                           clk_i,
  input  wire logic                           rst_ni,
  // register bus
  input  wire logic                           bus_req_i,
  input  wire logic                           bus_we_i,
  input  wire logic [cn_pkg::BusAddrBits-1:0] bus_addr_i,
  input  wire logic [cn_pkg::BusDataBits-1:0] bus_wdata_i,
  input  wire logic                           bus_priv_i,
  output logic                                bus_ready_o,
  output logic                                bus_rvalid_o,
  output logic      [cn_pkg::BusDataBits-1:0] bus_rdata_o,
  // links (link l's data in bits [l*FlitBits +: FlitBits], its credits in
  // [l*NumVcs +: NumVcs], VC v at bit v; the VC of a flit is one bit)
  input  wire logic [NumLinks-1:0]            link_in_valid_i,
  input  wire logic [NumLinks-1:0]            link_in_vc_i,
  input  wire logic [NumLinks-1:0]            link_in_hdr_i,
  input  wire logic [NumLinks*FlitBits-1:0]   link_in_data_i,
  output logic      [NumLinks*NumVcs-1:0]     link_in_credit_o,
  output logic      [NumLinks-1:0]            link_out_valid_o,
  output logic      [NumLinks-1:0]            link_out_vc_o,
  output logic      [NumLinks-1:0]            link_out_hdr_o,
  output logic      [NumLinks*FlitBits-1:0]   link_out_data_o,
  input  wire logic [NumLinks*NumVcs-1:0]     link_out_credit_i,
  // the link layer (lk_port) of each link: start no packet on link l (its retransmission
  // buffer is nearly full, or the link is down); link l is down; a bad access to the link
  // counters (a pulse)
  input  wire logic [NumLinks-1:0]            link_hold_i,
  input  wire logic [NumLinks-1:0]            link_down_i,
  input  wire logic                           link_bad_addr_i,
  // any sticky error bit set
  output logic                                err_o
);

  localparam int InjHdrCntW = $clog2(InjPackets + 1);
  localparam int InjPlCntW  = $clog2(InjPackets * cn_pkg::PayloadFlits + 1);
  localparam int RcvHdrCntW = $clog2(RcvPackets + 1);
  localparam int RcvPlCntW  = $clog2(RcvPackets * cn_pkg::PayloadFlits + 1);
  localparam int WordsW     = $clog2(cn_pkg::VectorWords + 1);
  localparam int SrcW       = $clog2(NumLinks + 1);  // a combine source: local or a link

  // A flit's VC travels as one bit, and the link arbitration below alternates two VCs.
  `CMN_ASSERT_PARAM(g_check_vcs, NumVcs == 2,
                    $sformatf("cn_adapter: NumVcs (%0d) must be 2: a flit carries its VC in one bit", NumVcs))

  // Signals per VC and link are vectors with VC v's link l at index v*NumLinks + l (a
  // signal of W bits per VC and link at [(v*NumLinks + l)*W +: W]); signals per VC have
  // VC v at [v*W +: W]. Flat vectors rather than packed arrays [v][l], which Yosys 0.23
  // cannot parse; the bit layout is the same.

  // ------------------------------------------------------------ register block
  logic [cn_pkg::NumClasses*cn_pkg::RouteBits-1:0] routes;
  logic [NumVcs-1:0]                               inj_hdr_push, inj_pl_push, inj_hdr_full;
  logic [NumVcs-1:0]                               rcv_hdr_pop, rcv_pl_pop;
  logic [WordsW-1:0]                               inj_pl_n, rcv_pl_n;
  logic [cn_pkg::BusDataBits-1:0]                  inj_wdata;
  logic [cn_pkg::InjEntryBits-1:0]                 inj_entry;
  logic [NumVcs*InjHdrCntW-1:0]                    inj_hdr_count;
  logic [NumVcs*InjPlCntW-1:0]                     inj_pl_count;
  logic [NumVcs*RcvHdrCntW-1:0]                    rcv_hdr_count;
  logic [NumVcs*RcvPlCntW-1:0]                     rcv_pl_count;
  logic [NumVcs*HdrBits-1:0]                       rcv_hdr;
  logic [NumVcs*cn_pkg::BusDataBits-1:0]           rcv_pl;
  logic [cn_pkg::ErrBits-1:0]                      err_set, err_bits;
  logic [HdrBits-1:0]                              err_expected, err_got;
  logic [SrcW:0]                                   err_source;  // {VC, source}

  cn_regs #(
    .InjPackets(InjPackets), .RcvPackets(RcvPackets), .LinkPackets(LinkPackets), .RetryFlits(RetryFlits),
    .UserClasses(UserClasses)
  ) u_regs (
    .clk_i, .rst_ni,
    .req_i(bus_req_i), .we_i(bus_we_i), .addr_i(bus_addr_i), .wdata_i(bus_wdata_i),
    .priv_i(bus_priv_i), .ready_o(bus_ready_o), .rvalid_o(bus_rvalid_o), .rdata_o(bus_rdata_o),
    .routes_o(routes),
    .inj_hdr_push_o(inj_hdr_push), .inj_pl_push_o(inj_pl_push), .inj_pl_n_o(inj_pl_n),
    .inj_data_o(inj_wdata), .inj_entry_o(inj_entry),
    .inj_hdr_full_i(inj_hdr_full),
    .inj_hdr_count_i(inj_hdr_count), .inj_pl_count_i(inj_pl_count),
    .rcv_hdr_pop_o(rcv_hdr_pop), .rcv_pl_pop_o(rcv_pl_pop), .rcv_pl_n_o(rcv_pl_n),
    .rcv_hdr_i(rcv_hdr), .rcv_pl_i(rcv_pl),
    .rcv_hdr_count_i(rcv_hdr_count), .rcv_pl_count_i(rcv_pl_count),
    .err_set_i(err_set), .err_expected_i(err_expected), .err_got_i(err_got),
    .err_source_i(err_source), .err_o(err_bits)
  );

  assign err_o = |err_bits;

  // ------------------------------------------------------------ link receivers
  // One packet-buffer set per link and VC.
  logic [NumVcs*NumLinks-1:0]          rx_hdr_valid, rx_pl_valid, rx_hdr_pop, rx_pl_pop, rx_proto_err;
  logic [NumVcs*NumLinks*HdrBits-1:0]  rx_hdr;
  logic [NumVcs*NumLinks*FlitBits-1:0] rx_pl;

  for (genvar l = 0; l < NumLinks; l++) begin : g_link
    for (genvar v = 0; v < NumVcs; v++) begin : g_vc
      cn_link_rx #(.Packets(LinkPackets)) u_rx (
        .clk_i, .rst_ni,
        .valid_i(link_in_valid_i[l] && link_in_vc_i[l] == 1'(v)), .hdr_i(link_in_hdr_i[l]),
        .data_i(link_in_data_i[l*FlitBits +: FlitBits]), .credit_o(link_in_credit_o[l*NumVcs + v]),
        .hdr_valid_o(rx_hdr_valid[v*NumLinks + l]), .hdr_o(rx_hdr[(v*NumLinks + l)*HdrBits +: HdrBits]),
        .hdr_pop_i(rx_hdr_pop[v*NumLinks + l]),
        .pl_valid_o(rx_pl_valid[v*NumLinks + l]), .pl_o(rx_pl[(v*NumLinks + l)*FlitBits +: FlitBits]),
        .pl_pop_i(rx_pl_pop[v*NumLinks + l]),
        .proto_err_o(rx_proto_err[v*NumLinks + l])
      );
    end
  end

  // ------------------------------------------------------------ the VCs
  // g_vc[cn_pkg::VcUser] carries the user's traffic, g_vc[cn_pkg::VcSystem] the system's.
  logic [NumVcs*NumLinks-1:0]          want, grant, hold, send, send_hdr;
  logic [NumVcs*NumLinks*FlitBits-1:0] send_data;
  logic [NumVcs-1:0]                   vc_err_route, vc_err_mismatch, vc_err_op, vc_err_size, vc_err_proto;
  logic [NumVcs*HdrBits-1:0]           vc_err_expected, vc_err_got;
  logic [NumVcs*SrcW-1:0]              vc_err_source;

  for (genvar v = 0; v < NumVcs; v++) begin : g_vc
    cn_vc #(.InjPackets(InjPackets), .RcvPackets(RcvPackets)) u_vc (
      .clk_i, .rst_ni, .routes_i(routes),
      .inj_hdr_push_i(inj_hdr_push[v]), .inj_entry_i(inj_entry), .inj_pl_push_i(inj_pl_push[v]),
      .inj_pl_n_i(inj_pl_n), .inj_data_i(inj_wdata), .inj_hdr_full_o(inj_hdr_full[v]),
      .inj_hdr_count_o(inj_hdr_count[v*InjHdrCntW +: InjHdrCntW]),
      .inj_pl_count_o(inj_pl_count[v*InjPlCntW +: InjPlCntW]),
      .rcv_hdr_pop_i(rcv_hdr_pop[v]), .rcv_pl_pop_i(rcv_pl_pop[v]), .rcv_pl_n_i(rcv_pl_n),
      .rcv_hdr_o(rcv_hdr[v*HdrBits +: HdrBits]), .rcv_pl_o(rcv_pl[v*cn_pkg::BusDataBits +: cn_pkg::BusDataBits]),
      .rcv_hdr_count_o(rcv_hdr_count[v*RcvHdrCntW +: RcvHdrCntW]),
      .rcv_pl_count_o(rcv_pl_count[v*RcvPlCntW +: RcvPlCntW]),
      .rx_hdr_valid_i(rx_hdr_valid[v*NumLinks +: NumLinks]),
      .rx_hdr_i(rx_hdr[v*NumLinks*HdrBits +: NumLinks*HdrBits]),
      .rx_hdr_pop_o(rx_hdr_pop[v*NumLinks +: NumLinks]),
      .rx_pl_valid_i(rx_pl_valid[v*NumLinks +: NumLinks]),
      .rx_pl_i(rx_pl[v*NumLinks*FlitBits +: NumLinks*FlitBits]),
      .rx_pl_pop_o(rx_pl_pop[v*NumLinks +: NumLinks]),
      .want_o(want[v*NumLinks +: NumLinks]), .grant_i(grant[v*NumLinks +: NumLinks]),
      .hold_o(hold[v*NumLinks +: NumLinks]),
      .send_o(send[v*NumLinks +: NumLinks]), .send_hdr_o(send_hdr[v*NumLinks +: NumLinks]),
      .send_data_o(send_data[v*NumLinks*FlitBits +: NumLinks*FlitBits]),
      .err_route_o(vc_err_route[v]), .err_mismatch_o(vc_err_mismatch[v]), .err_op_o(vc_err_op[v]),
      .err_size_o(vc_err_size[v]), .err_proto_o(vc_err_proto[v]),
      .err_expected_o(vc_err_expected[v*HdrBits +: HdrBits]), .err_got_o(vc_err_got[v*HdrBits +: HdrBits]),
      .err_source_o(vc_err_source[v*SrcW +: SrcW])
    );
  end

  // ------------------------------------------------------------ link arbitration
  // A VC requests link l when a packet of it is ready to start there, it holds a credit of
  // its VC, and no packet (of either VC) is in flight on l. Links are shared at packet
  // granularity. When both VCs request a link, the VC named by prio_q wins it, and prio_q
  // passes to the other VC whenever its VC starts a packet: under contention the VCs
  // alternate packet by packet. One priority for all links (rather than one per link)
  // means a broadcast that needs two links is never split between VCs that each hold one.
  logic [NumVcs*NumLinks-1:0]      tx_can_start, req;  // a credit of VC v held for link l
  logic [NumLinks-1:0]             tx_credit_err, link_free, send_vc;
  logic                            prio_q, prio_started;

  always_comb begin
    for (int l = 0; l < NumLinks; l++) begin
      link_free[l]         = !hold[l] && !hold[NumLinks + l];
      req[l]               = want[l] && tx_can_start[l] && link_free[l];
      req[NumLinks + l]    = want[NumLinks + l] && tx_can_start[NumLinks + l] && link_free[l];
      grant[l]             = req[l] && (!req[NumLinks + l] || !prio_q);
      grant[NumLinks + l]  = req[NumLinks + l] && (!req[l] || prio_q);
    end
  end

  assign prio_started = prio_q ? |(send[NumLinks +: NumLinks] & send_hdr[NumLinks +: NumLinks])
                               : |(send[0 +: NumLinks] & send_hdr[0 +: NumLinks]);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)           prio_q <= 1'b0;
    else if (prio_started) prio_q <= !prio_q;
  end

  // ------------------------------------------------------------ link senders
  for (genvar l = 0; l < NumLinks; l++) begin : g_tx
    logic [NumVcs-1:0]   can_start;  // per VC, from the sender's credit counters
    logic                hdr;
    logic [FlitBits-1:0] data;
    assign send_vc[l] = send[NumLinks + l];
    for (genvar v = 0; v < NumVcs; v++) begin : g_credit
      assign tx_can_start[v*NumLinks + l] = can_start[v] && !link_hold_i[l];
    end
    assign hdr  = send_vc[l] ? send_hdr[NumLinks + l] : send_hdr[l];
    assign data = send_vc[l] ? send_data[(NumLinks + l)*FlitBits +: FlitBits] : send_data[l*FlitBits +: FlitBits];
    cn_link_tx #(.Credits(LinkPackets)) u_tx (
      .clk_i, .rst_ni,
      .send_i(send[l] || send[NumLinks + l]), .vc_i(send_vc[l]), .hdr_i(hdr), .data_i(data),
      .can_start_o(can_start),
      .valid_o(link_out_valid_o[l]), .vc_o(link_out_vc_o[l]), .hdr_o(link_out_hdr_o[l]),
      .data_o(link_out_data_o[l*FlitBits +: FlitBits]),
      .credit_i(link_out_credit_i[l*NumVcs +: NumVcs]), .credit_err_o(tx_credit_err[l])
    );
  end

  // ------------------------------------------------------------ errors
  // A header error of the user VC wins the details when both VCs report in one cycle.
  logic info_vc;
  assign info_vc      = !(vc_err_route[0] || vc_err_mismatch[0] || vc_err_op[0] || vc_err_size[0]);
  assign err_expected = vc_err_expected[info_vc*HdrBits +: HdrBits];
  assign err_got      = vc_err_got[info_vc*HdrBits +: HdrBits];
  assign err_source   = {info_vc, vc_err_source[info_vc*SrcW +: SrcW]};

  always_comb begin
    err_set                         = '0;
    err_set[cn_pkg::ErrHdrMismatch] = |vc_err_mismatch;
    err_set[cn_pkg::ErrBadRoute]    = |vc_err_route;
    err_set[cn_pkg::ErrBadOpcode]   = |vc_err_op;
    err_set[cn_pkg::ErrBadSize]     = |vc_err_size;
    err_set[cn_pkg::ErrLinkProto]   = (|rx_proto_err) || (|tx_credit_err) || (|vc_err_proto);
    err_set[cn_pkg::ErrLinkDown]    = |link_down_i;
    err_set[cn_pkg::ErrBadAddr]     = link_bad_addr_i;
  end

  for (genvar l = 0; l < NumLinks; l++) begin : g_one_vc
    `CMN_ASSERT_NEVER(OneVc, send[l] && send[NumLinks + l], $sformatf("both VCs drive link %0d", l))
  end

endmodule : cn_adapter

`default_nettype wire
