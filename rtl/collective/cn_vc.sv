// SPDX-License-Identifier: Apache-2.0
// cn_vc: one virtual channel of the combining-network adapter: its injection FIFO stack
// (header entries + payload words, with the identity-injection unit in front of the
// combine engine), its reception FIFO stack (the FIFO reception stack: headers and
// payloads apart), the combine engine (up the tree, through the ALU), the broadcast engine
// (down the tree) and the root's turnaround path between them. The adapter instantiates
// one per VC; the VCs share only the links (cn_link_tx, arbitrated by the adapter) and the
// class routes, so a VC that stalls or halts on an error never holds the other back.
//
// Link side: the VC's receive buffer of every link (cn_link_rx packet sources) come in;
// want_o says on which links a packet of this VC is ready to start, grant_i on which it
// may start this cycle (credit of this VC held, link free, arbitration won), hold_o on
// which a packet of this VC is in flight; send_o/send_hdr_o/send_data_o carry the flits.
`include "cmn_assert.svh"
`default_nettype none

module cn_vc
#(
  parameter int InjPackets = 8,  // injection FIFO depth, in packets
  parameter int RcvPackets = 8,  // reception FIFO depth, in packets
  localparam int InjPlDepth = InjPackets * cn_pkg::PayloadFlits,  // payload FIFO depths, words
  localparam int RcvPlDepth = RcvPackets * cn_pkg::PayloadFlits,
  localparam int WordsW     = $clog2(cn_pkg::VectorWords + 1),
  localparam int NumLinks   = cn_pkg::NumLinks,
  localparam int FlitBits   = cn_pkg::FlitBits,
  localparam int HdrBits    = cn_pkg::HdrBits,
  localparam int SrcW       = $clog2(NumLinks + 1)  // a combine source: local or a link
) (
  input  wire logic                                            clk_i,
  input  wire logic                                            rst_ni,
  input  wire logic [cn_pkg::NumClasses*cn_pkg::RouteBits-1:0] routes_i,
  // injection FIFOs (register side)
  input  wire logic                                            inj_hdr_push_i,
  input  wire logic [cn_pkg::InjEntryBits-1:0]        inj_entry_i,  // cn_pkg::inj_entry()
  input  wire logic                                            inj_pl_push_i,
  input  wire logic [WordsW-1:0]                               inj_pl_n_i,
  input  wire logic [cn_pkg::BusDataBits-1:0]                  inj_data_i,
  output logic                                                 inj_hdr_full_o,
  output logic      [$clog2(InjPackets + 1)-1:0]               inj_hdr_count_o,
  output logic      [$clog2(InjPlDepth + 1)-1:0]               inj_pl_count_o,
  // reception FIFOs (register side)
  input  wire logic                                            rcv_hdr_pop_i,
  input  wire logic                                            rcv_pl_pop_i,
  input  wire logic [WordsW-1:0]                               rcv_pl_n_i,
  output logic      [HdrBits-1:0]                              rcv_hdr_o,
  output logic      [cn_pkg::BusDataBits-1:0]                  rcv_pl_o,
  output logic      [$clog2(RcvPackets + 1)-1:0]               rcv_hdr_count_o,
  output logic      [$clog2(RcvPlDepth + 1)-1:0]               rcv_pl_count_o,
  // this VC's receive buffers of the links (link l in bits [l*HdrBits +: HdrBits] /
  // [l*FlitBits +: FlitBits])
  input  wire logic [NumLinks-1:0]                             rx_hdr_valid_i,
  input  wire logic [NumLinks*HdrBits-1:0]                     rx_hdr_i,
  output logic      [NumLinks-1:0]                             rx_hdr_pop_o,
  input  wire logic [NumLinks-1:0]                             rx_pl_valid_i,
  input  wire logic [NumLinks*FlitBits-1:0]                    rx_pl_i,
  output logic      [NumLinks-1:0]                             rx_pl_pop_o,
  // link destinations
  output logic      [NumLinks-1:0]                             want_o,
  input  wire logic [NumLinks-1:0]                             grant_i,
  output logic      [NumLinks-1:0]                             hold_o,
  output logic      [NumLinks-1:0]                             send_o,
  output logic      [NumLinks-1:0]                             send_hdr_o,
  output logic      [NumLinks*FlitBits-1:0]                    send_data_o,
  // errors (pulses; the details belong to the pulse)
  output logic                                                 err_route_o,
  output logic                                                 err_mismatch_o,
  output logic                                                 err_op_o,
  output logic                                                 err_size_o,
  output logic                                                 err_proto_o,  // turnaround path
  output logic      [HdrBits-1:0]                              err_expected_o,
  output logic      [HdrBits-1:0]                              err_got_o,
  output logic      [SrcW-1:0]                                 err_source_o
);

  localparam int LoopPackets = 2;
  localparam int RcvPlCntW   = $clog2(RcvPlDepth + 1);
  localparam int UpperBits   = cn_pkg::BusDataBits - FlitBits;  // bus data above word 0

  // ------------------------------------------------------------ injection
  logic                           inj_hdr_empty, inj_entry_pop, inj_word_pop;
  logic [cn_pkg::InjEntryBits-1:0] inj_head;
  logic [cn_pkg::BusDataBits-1:0] inj_pl;  // word 0: the next flit
  logic                           loc_hdr_valid, loc_pl_valid;
  logic [HdrBits-1:0]             loc_hdr;
  logic [FlitBits-1:0]            loc_pl;
  logic [NumLinks:0]              cb_hdr_pop, cb_pl_pop, bc_hdr_pop, bc_pl_pop;  // engine sources

  cmn_fifo #(.Width(cn_pkg::InjEntryBits), .Depth(InjPackets)) u_inj_hdr (
    .clk_i, .rst_ni, .push_i(inj_hdr_push_i), .data_i(inj_entry_i),
    .pop_i(inj_entry_pop), .data_o(inj_head),
    .full_o(inj_hdr_full_o), .empty_o(inj_hdr_empty), .count_o(inj_hdr_count_o)
  );
  // Injection payload: 1 or VectorWords words in from the bus, one flit out per cycle.
  cmn_wfifo #(.Width(FlitBits), .Lanes(cn_pkg::VectorWords), .Depth(InjPlDepth)) u_inj_pl (
    .clk_i, .rst_ni, .push_i(inj_pl_push_i), .push_n_i(inj_pl_n_i), .data_i(inj_data_i),
    .pop_i(inj_word_pop), .pop_n_i(WordsW'(1)), .data_o(inj_pl), .count_o(inj_pl_count_o)
  );

  cn_inj_source u_inj_source (
    .clk_i, .rst_ni,
    .entry_valid_i(!inj_hdr_empty), .entry_i(inj_head), .entry_pop_o(inj_entry_pop),
    .word_valid_i(inj_pl_count_o != '0), .word_i(inj_pl[FlitBits-1:0]), .word_pop_o(inj_word_pop),
    .hdr_valid_o(loc_hdr_valid), .hdr_o(loc_hdr), .hdr_pop_i(cb_hdr_pop[0]),
    .pl_valid_o(loc_pl_valid), .pl_o(loc_pl), .pl_pop_i(cb_pl_pop[0])
  );

  logic [UpperBits-1:0] unused_inj_lanes;  // the engine takes one flit at a time
  assign unused_inj_lanes = inj_pl[cn_pkg::BusDataBits-1:FlitBits];

  // ------------------------------------------------------------ reception
  logic                bc_valid, bc_hdr, rcv_hdr_push, rcv_pl_push, rcv_hdr_full, rcv_hdr_empty, rcv_pl_full;
  logic [FlitBits-1:0] bc_data;

  cmn_fifo #(.Width(HdrBits), .Depth(RcvPackets)) u_rcv_hdr (
    .clk_i, .rst_ni, .push_i(rcv_hdr_push), .data_i(bc_data[HdrBits-1:0]),
    .pop_i(rcv_hdr_pop_i), .data_o(rcv_hdr_o),
    .full_o(rcv_hdr_full), .empty_o(rcv_hdr_empty), .count_o(rcv_hdr_count_o)
  );
  // Reception payload: one flit in per cycle, 1 or VectorWords words out to the bus.
  cmn_wfifo #(.Width(FlitBits), .Lanes(cn_pkg::VectorWords), .Depth(RcvPlDepth)) u_rcv_pl (
    .clk_i, .rst_ni, .push_i(rcv_pl_push), .push_n_i(WordsW'(1)),
    .data_i({{UpperBits{1'b0}}, bc_data}),
    .pop_i(rcv_pl_pop_i), .pop_n_i(rcv_pl_n_i), .data_o(rcv_pl_o), .count_o(rcv_pl_count_o)
  );
  assign rcv_pl_full = (rcv_pl_count_o == RcvPlCntW'(RcvPlDepth));

  logic unused_empty;
  assign unused_empty = rcv_hdr_empty;

  // ------------------------------------------------------------ root turnaround
  logic                      loop_send, loop_valid, loop_hdr, loop_vc, loop_credit, loop_credit_err;
  logic [cn_pkg::NumVcs-1:0] loop_can_start;
  logic                      loop_hdr_valid, loop_pl_valid, loop_proto_err;
  logic [FlitBits-1:0]       loop_data, loop_pl;
  logic [HdrBits-1:0]        loop_hdr_data;
  logic                      cb_valid, cb_hdr;
  logic [FlitBits-1:0]       cb_data;
  logic [cn_pkg::RouteUpW-1:0] cb_dst;

  assign loop_send = cb_valid && (cb_dst == cn_pkg::RouteUpNone);

  // The turnaround path carries only this VC: it uses credit counter 0 of its sender.
  cn_link_tx #(.Credits(LoopPackets)) u_loop_tx (
    .clk_i, .rst_ni,
    .send_i(loop_send), .vc_i(1'b0), .hdr_i(cb_hdr), .data_i(cb_data), .can_start_o(loop_can_start),
    .valid_o(loop_valid), .vc_o(loop_vc), .hdr_o(loop_hdr), .data_o(loop_data),
    .credit_i({1'b0, loop_credit}), .credit_err_o(loop_credit_err)
  );
  cn_link_rx #(.Packets(LoopPackets)) u_loop_rx (
    .clk_i, .rst_ni,
    .valid_i(loop_valid), .hdr_i(loop_hdr), .data_i(loop_data), .credit_o(loop_credit),
    .hdr_valid_o(loop_hdr_valid), .hdr_o(loop_hdr_data), .hdr_pop_i(bc_hdr_pop[0]),
    .pl_valid_o(loop_pl_valid), .pl_o(loop_pl), .pl_pop_i(bc_pl_pop[0]),
    .proto_err_o(loop_proto_err)
  );

  logic [cn_pkg::NumVcs-1:1] unused_loop_vcs;
  logic                      unused_loop_vc;
  assign unused_loop_vcs = loop_can_start[cn_pkg::NumVcs-1:1];
  assign unused_loop_vc  = loop_vc;

  // ------------------------------------------------------------ engines
  logic [NumLinks:0]           cb_hold, cb_can_start;  // the links and the turnaround path
  logic [NumLinks-1:0]         bc_hold, bc_links, bc_claim, bc_can_start, bc_want_links;
  logic                        cb_want, bc_want, cb_busy, bc_busy;
  logic [cn_pkg::RouteUpW-1:0] cb_want_dst;
  logic [cn_pkg::HdrOpW-1:0]   cb_alu_op;
  logic [FlitBits-1:0]         cb_alu_result;

  // The broadcast engine wins a link both engines want in the same cycle: traffic going
  // down drains the tree towards the reception FIFOs, which keeps the network live.
  assign bc_claim     = (bc_valid && bc_hdr) ? bc_links : '0;
  assign bc_can_start = grant_i & ~cb_hold[NumLinks-1:0];
  assign cb_can_start = {loop_can_start[0], grant_i & ~bc_hold & ~bc_claim};

  assign want_o = (bc_want ? bc_want_links : '0) |
                  ((cb_want && cb_want_dst != cn_pkg::RouteUpNone) ? (NumLinks'(1) << cb_want_dst) : '0);
  assign hold_o = cb_hold[NumLinks-1:0] | bc_hold;

  cn_combine u_combine (
    .clk_i, .rst_ni, .routes_i,
    .src_hdr_valid_i({rx_hdr_valid_i, loc_hdr_valid}), .src_hdr_i({rx_hdr_i, loc_hdr}),
    .src_hdr_pop_o(cb_hdr_pop),
    .src_pl_valid_i({rx_pl_valid_i, loc_pl_valid}), .src_pl_i({rx_pl_i, loc_pl}),
    .src_pl_pop_o(cb_pl_pop),
    .dst_can_start_i(cb_can_start), .want_o(cb_want), .want_dst_o(cb_want_dst),
    .out_valid_o(cb_valid), .out_hdr_o(cb_hdr), .out_data_o(cb_data), .out_dst_o(cb_dst),
    .hold_o(cb_hold),
    .err_bad_route_o(err_route_o), .err_mismatch_o(err_mismatch_o), .err_bad_opcode_o(err_op_o),
    .err_bad_size_o(err_size_o),
    .err_expected_o(err_expected_o), .err_got_o(err_got_o), .err_source_o(err_source_o),
    .busy_o(cb_busy), .alu_opcode_o(cb_alu_op), .alu_result_o(cb_alu_result)
  );

  cn_bcast u_bcast (
    .clk_i, .rst_ni, .routes_i,
    .src_hdr_valid_i({rx_hdr_valid_i, loop_hdr_valid}), .src_hdr_i({rx_hdr_i, loop_hdr_data}),
    .src_hdr_pop_o(bc_hdr_pop),
    .src_pl_valid_i({rx_pl_valid_i, loop_pl_valid}), .src_pl_i({rx_pl_i, loop_pl}),
    .src_pl_pop_o(bc_pl_pop),
    .dst_can_start_i(bc_can_start), .want_o(bc_want), .want_links_o(bc_want_links),
    .out_valid_o(bc_valid), .out_hdr_o(bc_hdr), .out_data_o(bc_data), .out_links_o(bc_links),
    .hold_o(bc_hold),
    .rcv_hdr_space_i(!rcv_hdr_full), .rcv_pl_space_i(!rcv_pl_full),
    .rcv_hdr_push_o(rcv_hdr_push), .rcv_pl_push_o(rcv_pl_push),
    .busy_o(bc_busy)
  );

  assign rx_hdr_pop_o = cb_hdr_pop[NumLinks:1] | bc_hdr_pop[NumLinks:1];
  assign rx_pl_pop_o  = cb_pl_pop[NumLinks:1] | bc_pl_pop[NumLinks:1];
  assign err_proto_o  = loop_proto_err || loop_credit_err;

  logic                unused_cb_hold_loop;  // only the combine engine uses the turnaround path
  assign unused_cb_hold_loop = cb_hold[NumLinks];
  logic [3:0]          unused_obs;           // kept for waveforms (cn_combine's busy_o, alu_*_o)
  logic [FlitBits-1:0] unused_obs_data;
  assign unused_obs      = {cb_busy, bc_busy, cb_alu_op[0] ^ cb_alu_op[1] ^ cb_alu_op[2], 1'b0};
  assign unused_obs_data = cb_alu_result;

  // ------------------------------------------------------------ link send mux
  always_comb begin
    for (int l = 0; l < NumLinks; l++) begin
      logic bc_take, cb_take;
      bc_take                             = bc_valid && bc_links[l];
      cb_take                             = cb_valid && (cb_dst == cn_pkg::RouteUpW'(l));
      send_o[l]                           = bc_take || cb_take;
      send_hdr_o[l]                       = bc_take ? bc_hdr : cb_hdr;
      send_data_o[l*FlitBits +: FlitBits] = bc_take ? bc_data : cb_data;
    end
  end

  for (genvar l = 0; l < NumLinks; l++) begin : g_one_driver
    `CMN_ASSERT_NEVER(OneEngine, bc_valid && bc_links[l] && cb_valid && cb_dst == cn_pkg::RouteUpW'(l),
                      $sformatf("both engines drive link %0d", l))
  end

endmodule : cn_vc

`default_nettype wire
