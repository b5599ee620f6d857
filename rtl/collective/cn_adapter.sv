// cn_adapter: one node's combining-network (tree) adapter. Three bidirectional links,
// 16 class routes, the register block, and two virtual channels (cn_vc: user and system),
// each with its own injection and reception FIFO stacks, combine engine (up the tree,
// through the ALU), broadcast engine (down the tree) and root turnaround path. The VCs
// share the links: every link carries a VC bit per flit and returns credits per VC, so a
// full buffer of one VC never stops the other, and the link arbitration below is fair
// between them. All link outputs are registered. The register bus is cn_pkg::BusDataBits
// wide so that the processor moves cn_pkg::VectorWords payload words per access.
//
// Link l, both directions: valid, vc, hdr (header flit), data[63:0] forward; credit[v]
// back (one pulse per packet buffer of VC v freed at the receiver).
`default_nettype none

module cn_adapter #(
  parameter int LinkPackets = 4,  // receive buffers per link and VC, in packets
  parameter int InjPackets  = 8,  // injection FIFO depth per VC, in packets
  parameter int RcvPackets  = 8   // reception FIFO depth per VC, in packets
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,
  // register bus
  input  wire logic             bus_req_i,
  input  wire logic             bus_we_i,
  input  wire logic [11:0]      bus_addr_i,
  input  wire logic [cn_pkg::BusDataBits-1:0] bus_wdata_i,
  input  wire logic             bus_priv_i,
  output logic                  bus_ready_o,
  output logic                  bus_rvalid_o,
  output logic      [cn_pkg::BusDataBits-1:0] bus_rdata_o,
  // links (link l's data in bits [l*64 +: 64], its credits in [l*2 +: 2], VC v at bit v)
  input  wire logic [2:0]       link_in_valid_i,
  input  wire logic [2:0]       link_in_vc_i,
  input  wire logic [2:0]       link_in_hdr_i,
  input  wire logic [3*64-1:0]  link_in_data_i,
  output logic      [3*2-1:0]   link_in_credit_o,
  output logic      [2:0]       link_out_valid_o,
  output logic      [2:0]       link_out_vc_o,
  output logic      [2:0]       link_out_hdr_o,
  output logic      [3*64-1:0]  link_out_data_o,
  input  wire logic [3*2-1:0]   link_out_credit_i,
  // any sticky error bit set
  output logic                  err_o
);

  localparam int Vcs        = cn_pkg::NumVcs;
  localparam int InjHdrCntW = $clog2(InjPackets + 1);
  localparam int InjPlCntW  = $clog2(InjPackets * cn_pkg::PayloadFlits + 1);
  localparam int RcvHdrCntW = $clog2(RcvPackets + 1);
  localparam int RcvPlCntW  = $clog2(RcvPackets * cn_pkg::PayloadFlits + 1);
  localparam int WordsW     = $clog2(cn_pkg::VectorWords + 1);

  // ------------------------------------------------------------ register block
  logic [cn_pkg::NumClasses*cn_pkg::RouteBits-1:0] routes;
  logic [Vcs-1:0]                                  inj_hdr_push, inj_pl_push, inj_hdr_full;
  logic [Vcs-1:0]                                  rcv_hdr_pop, rcv_pl_pop;
  logic [WordsW-1:0]                               inj_pl_n, rcv_pl_n;
  logic [cn_pkg::BusDataBits-1:0]                  inj_wdata;
  logic [48:0]                                     inj_entry;
  logic [Vcs*InjHdrCntW-1:0]                       inj_hdr_count;
  logic [Vcs*InjPlCntW-1:0]                        inj_pl_count;
  logic [Vcs*RcvHdrCntW-1:0]                       rcv_hdr_count;
  logic [Vcs*RcvPlCntW-1:0]                        rcv_pl_count;
  logic [Vcs*32-1:0]                               rcv_hdr;
  logic [Vcs*cn_pkg::BusDataBits-1:0]              rcv_pl;
  logic [cn_pkg::ErrBits-1:0]                      err_set, err_bits;
  logic [31:0]                                     err_expected, err_got;
  logic [2:0]                                      err_source;

  cn_regs #(.InjPackets(InjPackets), .RcvPackets(RcvPackets)) u_regs (
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
  // One packet-buffer set per link and VC; VC v of link l is index v*3 + l.
  logic [Vcs*3-1:0]    rx_hdr_valid, rx_pl_valid, rx_hdr_pop, rx_pl_pop, rx_proto_err;
  logic [Vcs*3*32-1:0] rx_hdr;
  logic [Vcs*3*64-1:0] rx_pl;

  for (genvar l = 0; l < 3; l++) begin : g_link
    for (genvar v = 0; v < Vcs; v++) begin : g_vc
      cn_link_rx #(.Packets(LinkPackets)) u_rx (
        .clk_i, .rst_ni,
        .valid_i(link_in_valid_i[l] && link_in_vc_i[l] == 1'(v)), .hdr_i(link_in_hdr_i[l]),
        .data_i(link_in_data_i[l*64 +: 64]), .credit_o(link_in_credit_o[l*2 + v]),
        .hdr_valid_o(rx_hdr_valid[v*3 + l]), .hdr_o(rx_hdr[(v*3 + l)*32 +: 32]),
        .hdr_pop_i(rx_hdr_pop[v*3 + l]),
        .pl_valid_o(rx_pl_valid[v*3 + l]), .pl_o(rx_pl[(v*3 + l)*64 +: 64]),
        .pl_pop_i(rx_pl_pop[v*3 + l]),
        .proto_err_o(rx_proto_err[v*3 + l])
      );
    end
  end

  // ------------------------------------------------------------ the two VCs
  logic [Vcs*3-1:0]    want, grant, hold, send, send_hdr;
  logic [Vcs*3*64-1:0] send_data;
  logic [Vcs-1:0]      vc_err_route, vc_err_mismatch, vc_err_op, vc_err_size, vc_err_proto;
  logic [Vcs*32-1:0]   vc_err_expected, vc_err_got;
  logic [Vcs*2-1:0]    vc_err_source;

  cn_vc #(.InjPackets(InjPackets), .RcvPackets(RcvPackets)) u_user (
    .clk_i, .rst_ni, .routes_i(routes),
    .inj_hdr_push_i(inj_hdr_push[0]), .inj_entry_i(inj_entry), .inj_pl_push_i(inj_pl_push[0]),
    .inj_pl_n_i(inj_pl_n), .inj_data_i(inj_wdata), .inj_hdr_full_o(inj_hdr_full[0]),
    .inj_hdr_count_o(inj_hdr_count[0 +: InjHdrCntW]), .inj_pl_count_o(inj_pl_count[0 +: InjPlCntW]),
    .rcv_hdr_pop_i(rcv_hdr_pop[0]), .rcv_pl_pop_i(rcv_pl_pop[0]), .rcv_pl_n_i(rcv_pl_n),
    .rcv_hdr_o(rcv_hdr[0 +: 32]), .rcv_pl_o(rcv_pl[0 +: cn_pkg::BusDataBits]),
    .rcv_hdr_count_o(rcv_hdr_count[0 +: RcvHdrCntW]), .rcv_pl_count_o(rcv_pl_count[0 +: RcvPlCntW]),
    .rx_hdr_valid_i(rx_hdr_valid[0 +: 3]), .rx_hdr_i(rx_hdr[0 +: 3*32]), .rx_hdr_pop_o(rx_hdr_pop[0 +: 3]),
    .rx_pl_valid_i(rx_pl_valid[0 +: 3]), .rx_pl_i(rx_pl[0 +: 3*64]), .rx_pl_pop_o(rx_pl_pop[0 +: 3]),
    .want_o(want[0 +: 3]), .grant_i(grant[0 +: 3]), .hold_o(hold[0 +: 3]),
    .send_o(send[0 +: 3]), .send_hdr_o(send_hdr[0 +: 3]), .send_data_o(send_data[0 +: 3*64]),
    .err_route_o(vc_err_route[0]), .err_mismatch_o(vc_err_mismatch[0]), .err_op_o(vc_err_op[0]),
    .err_size_o(vc_err_size[0]), .err_proto_o(vc_err_proto[0]),
    .err_expected_o(vc_err_expected[0 +: 32]), .err_got_o(vc_err_got[0 +: 32]),
    .err_source_o(vc_err_source[0 +: 2])
  );

  cn_vc #(.InjPackets(InjPackets), .RcvPackets(RcvPackets)) u_system (
    .clk_i, .rst_ni, .routes_i(routes),
    .inj_hdr_push_i(inj_hdr_push[1]), .inj_entry_i(inj_entry), .inj_pl_push_i(inj_pl_push[1]),
    .inj_pl_n_i(inj_pl_n), .inj_data_i(inj_wdata), .inj_hdr_full_o(inj_hdr_full[1]),
    .inj_hdr_count_o(inj_hdr_count[InjHdrCntW +: InjHdrCntW]),
    .inj_pl_count_o(inj_pl_count[InjPlCntW +: InjPlCntW]),
    .rcv_hdr_pop_i(rcv_hdr_pop[1]), .rcv_pl_pop_i(rcv_pl_pop[1]), .rcv_pl_n_i(rcv_pl_n),
    .rcv_hdr_o(rcv_hdr[32 +: 32]), .rcv_pl_o(rcv_pl[cn_pkg::BusDataBits +: cn_pkg::BusDataBits]),
    .rcv_hdr_count_o(rcv_hdr_count[RcvHdrCntW +: RcvHdrCntW]),
    .rcv_pl_count_o(rcv_pl_count[RcvPlCntW +: RcvPlCntW]),
    .rx_hdr_valid_i(rx_hdr_valid[3 +: 3]), .rx_hdr_i(rx_hdr[3*32 +: 3*32]), .rx_hdr_pop_o(rx_hdr_pop[3 +: 3]),
    .rx_pl_valid_i(rx_pl_valid[3 +: 3]), .rx_pl_i(rx_pl[3*64 +: 3*64]), .rx_pl_pop_o(rx_pl_pop[3 +: 3]),
    .want_o(want[3 +: 3]), .grant_i(grant[3 +: 3]), .hold_o(hold[3 +: 3]),
    .send_o(send[3 +: 3]), .send_hdr_o(send_hdr[3 +: 3]), .send_data_o(send_data[3*64 +: 3*64]),
    .err_route_o(vc_err_route[1]), .err_mismatch_o(vc_err_mismatch[1]), .err_op_o(vc_err_op[1]),
    .err_size_o(vc_err_size[1]), .err_proto_o(vc_err_proto[1]),
    .err_expected_o(vc_err_expected[32 +: 32]), .err_got_o(vc_err_got[32 +: 32]),
    .err_source_o(vc_err_source[2 +: 2])
  );

  // ------------------------------------------------------------ link arbitration
  // A VC requests link l when a packet of it is ready to start there, it holds a credit of
  // its VC, and no packet (of either VC) is in flight on l. Links are shared at packet
  // granularity. When both VCs request a link, the VC named by prio_q wins it, and prio_q
  // passes to the other VC whenever its VC starts a packet: under contention the VCs
  // alternate packet by packet. One priority for all links (rather than one per link)
  // means a broadcast that needs two links is never split between VCs that each hold one.
  logic [Vcs*3-1:0] tx_can_start;  // link l's credit of VC v at [l*2 + v]
  logic [2:0]       tx_credit_err, link_free, send_vc;
  logic [Vcs*3-1:0] req;
  logic             prio_q, prio_started;

  always_comb begin
    for (int l = 0; l < 3; l++) begin
      link_free[l] = !hold[l] && !hold[3 + l];
      for (int v = 0; v < Vcs; v++) req[v*3 + l] = want[v*3 + l] && tx_can_start[l*2 + v] && link_free[l];
      grant[l]     = req[l]     && (!req[3 + l] || !prio_q);
      grant[3 + l] = req[3 + l] && (!req[l]     ||  prio_q);
    end
  end

  assign prio_started = prio_q ? |(send[3 +: 3] & send_hdr[3 +: 3]) : |(send[0 +: 3] & send_hdr[0 +: 3]);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)           prio_q <= 1'b0;
    else if (prio_started) prio_q <= !prio_q;
  end

  // ------------------------------------------------------------ link senders
  for (genvar l = 0; l < 3; l++) begin : g_tx
    assign send_vc[l] = send[3 + l];
    cn_link_tx #(.Credits(LinkPackets)) u_tx (
      .clk_i, .rst_ni,
      .send_i(send[l] || send[3 + l]), .vc_i(send_vc[l]),
      .hdr_i(send_vc[l] ? send_hdr[3 + l] : send_hdr[l]),
      .data_i(send_vc[l] ? send_data[(3 + l)*64 +: 64] : send_data[l*64 +: 64]),
      .can_start_o(tx_can_start[l*2 +: 2]),
      .valid_o(link_out_valid_o[l]), .vc_o(link_out_vc_o[l]), .hdr_o(link_out_hdr_o[l]),
      .data_o(link_out_data_o[l*64 +: 64]),
      .credit_i(link_out_credit_i[l*2 +: 2]), .credit_err_o(tx_credit_err[l])
    );
  end

  // ------------------------------------------------------------ errors
  // A header error of the user VC wins the details when both VCs report in one cycle.
  logic info_vc;
  assign info_vc      = !(vc_err_route[0] || vc_err_mismatch[0] || vc_err_op[0] || vc_err_size[0]);
  assign err_expected = vc_err_expected[info_vc*32 +: 32];
  assign err_got      = vc_err_got[info_vc*32 +: 32];
  assign err_source   = {info_vc, vc_err_source[info_vc*2 +: 2]};

  always_comb begin
    err_set                         = '0;
    err_set[cn_pkg::ErrHdrMismatch] = |vc_err_mismatch;
    err_set[cn_pkg::ErrBadRoute]    = |vc_err_route;
    err_set[cn_pkg::ErrBadOpcode]   = |vc_err_op;
    err_set[cn_pkg::ErrBadSize]     = |vc_err_size;
    err_set[cn_pkg::ErrLinkProto]   = (|rx_proto_err) || (|tx_credit_err) || (|vc_err_proto);
  end

`ifndef SYNTHESIS
`ifndef __ICARUS__  // Icarus Verilog 11 cannot parse concurrent assertions
  for (genvar l = 0; l < 3; l++) begin : g_one_vc
    assert property (@(posedge clk_i) disable iff (!rst_ni) !(send[l] && send[3 + l]))
      else $error("cn_adapter: both VCs drive link %0d", l);
  end
`endif
`endif

endmodule : cn_adapter

`default_nettype wire
