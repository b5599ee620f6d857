// cn_adapter: one node's combining-network (tree) adapter. Three bidirectional links,
// 16 class routes, an injection FIFO stack and a reception FIFO stack (headers and
// payloads in separate FIFOs), the combine engine (up the tree, through the ALU) and
// the broadcast engine (down the tree, to children and local reception). At the root of
// a class the combined result turns around through an internal path into the broadcast
// engine. All link outputs are registered. The register bus is cn_pkg::BusDataBits wide so
// that the processor moves cn_pkg::VectorWords payload words per access: the payload FIFOs
// (cmn_wfifo) take or give that many words at the bus side and one flit per cycle at the
// engine side.
//
// Link l, both directions: valid, hdr (header flit), data[63:0] forward; credit back
// (one pulse per packet buffer freed at the receiver).
`default_nettype none

module cn_adapter #(
  parameter int LinkPackets = 4,  // receive buffers per link, in packets
  parameter int InjPackets  = 8,  // injection FIFO depth, in packets
  parameter int RcvPackets  = 8   // reception FIFO depth, in packets
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
  // links (link l's data in bits [l*64 +: 64])
  input  wire logic [2:0]       link_in_valid_i,
  input  wire logic [2:0]       link_in_hdr_i,
  input  wire logic [3*64-1:0]  link_in_data_i,
  output logic      [2:0]       link_in_credit_o,
  output logic      [2:0]       link_out_valid_o,
  output logic      [2:0]       link_out_hdr_o,
  output logic      [3*64-1:0]  link_out_data_o,
  input  wire logic [2:0]       link_out_credit_i,
  // any sticky error bit set
  output logic                  err_o
);

  localparam int LoopPackets = 2;
  localparam int InjPlDepth  = InjPackets * cn_pkg::PayloadFlits;  // payload FIFO depths, words
  localparam int RcvPlDepth  = RcvPackets * cn_pkg::PayloadFlits;
  localparam int RcvPlCntW   = $clog2(RcvPlDepth + 1);
  localparam int WordsW      = $clog2(cn_pkg::VectorWords + 1);
  localparam int UpperBits   = cn_pkg::BusDataBits - 64;  // bus data above word 0

  // ------------------------------------------------------------ register block
  logic [cn_pkg::NumClasses*cn_pkg::RouteBits-1:0]          routes;
  logic                                                     inj_hdr_push, inj_pl_push;
  logic [WordsW-1:0]                                        inj_pl_n, rcv_pl_n;
  logic [cn_pkg::BusDataBits-1:0]                           inj_wdata;
  logic                                                     inj_hdr_full;
  logic                                                     inj_hdr_empty;
  logic [$clog2(InjPackets + 1)-1:0]                        inj_hdr_count;
  logic [$clog2(InjPlDepth + 1)-1:0]                        inj_pl_count;
  logic [48:0]                                              inj_entry, inj_head;
  logic [cn_pkg::BusDataBits-1:0]                           inj_pl;  // word 0: the next flit
  logic                                                     inj_entry_pop, inj_word_pop;
  logic                                                     loc_hdr_valid, loc_pl_valid;
  logic [31:0]                                              loc_hdr;
  logic [63:0]                                              loc_pl;
  logic                                                     rcv_hdr_pop, rcv_pl_pop;
  logic                                                     rcv_hdr_full, rcv_pl_full;
  logic                                                     rcv_hdr_empty;
  logic [$clog2(RcvPackets + 1)-1:0]                        rcv_hdr_count;
  logic [RcvPlCntW-1:0]                                     rcv_pl_count;
  logic [31:0]                                              rcv_hdr;
  logic [cn_pkg::BusDataBits-1:0]                           rcv_pl;
  logic [cn_pkg::ErrBits-1:0]                               err_set, err_bits;
  logic [31:0]                                              err_expected, err_got;
  logic [1:0]                                               err_source;

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

  // ------------------------------------------------------------ FIFO stacks
  logic [3:0] cb_hdr_pop, cb_pl_pop, bc_hdr_pop, bc_pl_pop;

  cmn_fifo #(.Width(49), .Depth(InjPackets)) u_inj_hdr (
    .clk_i, .rst_ni, .push_i(inj_hdr_push), .data_i(inj_entry),
    .pop_i(inj_entry_pop), .data_o(inj_head),
    .full_o(inj_hdr_full), .empty_o(inj_hdr_empty), .count_o(inj_hdr_count)
  );
  // Injection payload: 1 or VectorWords words in from the bus, one flit out per cycle.
  cmn_wfifo #(.Width(64), .Lanes(cn_pkg::VectorWords), .Depth(InjPlDepth)) u_inj_pl (
    .clk_i, .rst_ni, .push_i(inj_pl_push), .push_n_i(inj_pl_n), .data_i(inj_wdata),
    .pop_i(inj_word_pop), .pop_n_i(WordsW'(1)), .data_o(inj_pl), .count_o(inj_pl_count)
  );

  cn_inj_source u_inj_source (
    .clk_i, .rst_ni,
    .entry_valid_i(!inj_hdr_empty), .entry_i(inj_head), .entry_pop_o(inj_entry_pop),
    .word_valid_i(inj_pl_count != '0), .word_i(inj_pl[63:0]), .word_pop_o(inj_word_pop),
    .hdr_valid_o(loc_hdr_valid), .hdr_o(loc_hdr), .hdr_pop_i(cb_hdr_pop[0]),
    .pl_valid_o(loc_pl_valid), .pl_o(loc_pl), .pl_pop_i(cb_pl_pop[0])
  );

  logic        bc_valid, bc_hdr, rcv_hdr_push, rcv_pl_push;
  logic [63:0] bc_data;

  cmn_fifo #(.Width(32), .Depth(RcvPackets)) u_rcv_hdr (
    .clk_i, .rst_ni, .push_i(rcv_hdr_push), .data_i(bc_data[31:0]),
    .pop_i(rcv_hdr_pop), .data_o(rcv_hdr),
    .full_o(rcv_hdr_full), .empty_o(rcv_hdr_empty), .count_o(rcv_hdr_count)
  );
  // Reception payload: one flit in per cycle, 1 or VectorWords words out to the bus.
  cmn_wfifo #(.Width(64), .Lanes(cn_pkg::VectorWords), .Depth(RcvPlDepth)) u_rcv_pl (
    .clk_i, .rst_ni, .push_i(rcv_pl_push), .push_n_i(WordsW'(1)),
    .data_i({{UpperBits{1'b0}}, bc_data}),
    .pop_i(rcv_pl_pop), .pop_n_i(rcv_pl_n), .data_o(rcv_pl), .count_o(rcv_pl_count)
  );
  assign rcv_pl_full = (rcv_pl_count == RcvPlCntW'(RcvPlDepth));

  logic                 unused_empty;
  logic [UpperBits-1:0] unused_inj_lanes;  // the engine takes one flit at a time
  assign unused_empty     = rcv_hdr_empty;
  assign unused_inj_lanes = inj_pl[cn_pkg::BusDataBits-1:64];

  // ------------------------------------------------------------ links
  logic [2:0]       rx_hdr_valid, rx_pl_valid, rx_proto_err, tx_credit_err, tx_can_start, tx_send, tx_hdr;
  logic [3*32-1:0]  rx_hdr;          // link l in bits [l*32 +: 32]
  logic [3*64-1:0]  rx_pl, tx_data;  // link l in bits [l*64 +: 64]

  for (genvar l = 0; l < 3; l++) begin : g_link
    cn_link_rx #(.Packets(LinkPackets)) u_rx (
      .clk_i, .rst_ni,
      .valid_i(link_in_valid_i[l]), .hdr_i(link_in_hdr_i[l]), .data_i(link_in_data_i[l*64 +: 64]),
      .credit_o(link_in_credit_o[l]),
      .hdr_valid_o(rx_hdr_valid[l]), .hdr_o(rx_hdr[l*32 +: 32]),
      .hdr_pop_i(cb_hdr_pop[l+1] || bc_hdr_pop[l+1]),
      .pl_valid_o(rx_pl_valid[l]), .pl_o(rx_pl[l*64 +: 64]), .pl_pop_i(cb_pl_pop[l+1] || bc_pl_pop[l+1]),
      .proto_err_o(rx_proto_err[l])
    );
    cn_link_tx #(.Credits(LinkPackets)) u_tx (
      .clk_i, .rst_ni,
      .send_i(tx_send[l]), .hdr_i(tx_hdr[l]), .data_i(tx_data[l*64 +: 64]),
      .can_start_o(tx_can_start[l]),
      .valid_o(link_out_valid_o[l]), .hdr_o(link_out_hdr_o[l]), .data_o(link_out_data_o[l*64 +: 64]),
      .credit_i(link_out_credit_i[l]), .credit_err_o(tx_credit_err[l])
    );
  end

  // ------------------------------------------------------------ root turnaround
  logic        loop_send, loop_can_start, loop_valid, loop_hdr, loop_credit, loop_credit_err;
  logic        loop_hdr_valid, loop_pl_valid, loop_proto_err;
  logic [63:0] loop_data, loop_pl;
  logic [31:0] loop_hdr_data;
  logic        cb_valid, cb_hdr;
  logic [63:0] cb_data;
  logic [1:0]  cb_dst;

  assign loop_send = cb_valid && (cb_dst == cn_pkg::RouteUpNone);

  cn_link_tx #(.Credits(LoopPackets)) u_loop_tx (
    .clk_i, .rst_ni,
    .send_i(loop_send), .hdr_i(cb_hdr), .data_i(cb_data), .can_start_o(loop_can_start),
    .valid_o(loop_valid), .hdr_o(loop_hdr), .data_o(loop_data),
    .credit_i(loop_credit), .credit_err_o(loop_credit_err)
  );
  cn_link_rx #(.Packets(LoopPackets)) u_loop_rx (
    .clk_i, .rst_ni,
    .valid_i(loop_valid), .hdr_i(loop_hdr), .data_i(loop_data), .credit_o(loop_credit),
    .hdr_valid_o(loop_hdr_valid), .hdr_o(loop_hdr_data), .hdr_pop_i(bc_hdr_pop[0]),
    .pl_valid_o(loop_pl_valid), .pl_o(loop_pl), .pl_pop_i(bc_pl_pop[0]),
    .proto_err_o(loop_proto_err)
  );

  // ------------------------------------------------------------ engines
  logic [3:0] cb_hold, cb_can_start;
  logic [2:0] bc_hold, bc_links, bc_claim, bc_can_start;
  logic       cb_err_route, cb_err_mismatch, cb_err_op, cb_err_size, cb_busy, bc_busy;
  logic [2:0] cb_alu_op;
  logic [63:0] cb_alu_result;

  // The broadcast engine wins a link both engines want in the same cycle: traffic going
  // down drains the tree towards the reception FIFOs, which keeps the network live.
  assign bc_claim     = (bc_valid && bc_hdr) ? bc_links : 3'b0;
  assign bc_can_start = tx_can_start & ~cb_hold[2:0];
  assign cb_can_start = {loop_can_start, tx_can_start & ~bc_hold & ~bc_claim};

  cn_combine u_combine (
    .clk_i, .rst_ni, .routes_i(routes),
    .src_hdr_valid_i({rx_hdr_valid, loc_hdr_valid}), .src_hdr_i({rx_hdr, loc_hdr}),
    .src_hdr_pop_o(cb_hdr_pop),
    .src_pl_valid_i({rx_pl_valid, loc_pl_valid}), .src_pl_i({rx_pl, loc_pl}),
    .src_pl_pop_o(cb_pl_pop),
    .dst_can_start_i(cb_can_start),
    .out_valid_o(cb_valid), .out_hdr_o(cb_hdr), .out_data_o(cb_data), .out_dst_o(cb_dst),
    .hold_o(cb_hold),
    .err_bad_route_o(cb_err_route), .err_mismatch_o(cb_err_mismatch), .err_bad_opcode_o(cb_err_op),
    .err_bad_size_o(cb_err_size),
    .err_expected_o(err_expected), .err_got_o(err_got), .err_source_o(err_source),
    .busy_o(cb_busy), .alu_opcode_o(cb_alu_op), .alu_result_o(cb_alu_result)
  );

  cn_bcast u_bcast (
    .clk_i, .rst_ni, .routes_i(routes),
    .src_hdr_valid_i({rx_hdr_valid, loop_hdr_valid}), .src_hdr_i({rx_hdr, loop_hdr_data}),
    .src_hdr_pop_o(bc_hdr_pop),
    .src_pl_valid_i({rx_pl_valid, loop_pl_valid}), .src_pl_i({rx_pl, loop_pl}),
    .src_pl_pop_o(bc_pl_pop),
    .dst_can_start_i(bc_can_start),
    .out_valid_o(bc_valid), .out_hdr_o(bc_hdr), .out_data_o(bc_data), .out_links_o(bc_links),
    .hold_o(bc_hold),
    .rcv_hdr_space_i(!rcv_hdr_full), .rcv_pl_space_i(!rcv_pl_full),
    .rcv_hdr_push_o(rcv_hdr_push), .rcv_pl_push_o(rcv_pl_push),
    .busy_o(bc_busy)
  );

  logic        unused_cb_hold_loop;  // only the combine engine uses the turnaround path
  assign unused_cb_hold_loop = cb_hold[3];
  logic [3:0]  unused_obs;
  logic [63:0] unused_obs_data;
  assign unused_obs      = {cb_busy, bc_busy, cb_alu_op[0] ^ cb_alu_op[1] ^ cb_alu_op[2], 1'b0};
  assign unused_obs_data = cb_alu_result;

  // ------------------------------------------------------------ link send mux
  always_comb begin
    for (int l = 0; l < 3; l++) begin
      logic bc_take, cb_take;
      bc_take    = bc_valid && bc_links[l];
      cb_take    = cb_valid && (cb_dst == 2'(l));
      tx_send[l]          = bc_take || cb_take;
      tx_hdr[l]           = bc_take ? bc_hdr : cb_hdr;
      tx_data[l*64 +: 64] = bc_take ? bc_data : cb_data;
    end
  end

  // ------------------------------------------------------------ errors
  always_comb begin
    err_set                         = '0;
    err_set[cn_pkg::ErrHdrMismatch] = cb_err_mismatch;
    err_set[cn_pkg::ErrBadRoute]    = cb_err_route;
    err_set[cn_pkg::ErrBadOpcode]   = cb_err_op;
    err_set[cn_pkg::ErrBadSize]     = cb_err_size;
    err_set[cn_pkg::ErrLinkProto]   = (|rx_proto_err) || (|tx_credit_err) ||
                                      loop_proto_err || loop_credit_err;
  end

`ifndef SYNTHESIS
`ifndef __ICARUS__  // Icarus Verilog 11 cannot parse concurrent assertions
  for (genvar l = 0; l < 3; l++) begin : g_one_driver
    assert property (@(posedge clk_i) disable iff (!rst_ni)
                     !(bc_valid && bc_links[l] && cb_valid && cb_dst == 2'(l)))
      else $error("cn_adapter: both engines drive link %0d", l);
  end
`endif
`endif

endmodule : cn_adapter

`default_nettype wire
