// SPDX-License-Identifier: Apache-2.0
// tr_ring: up to N torus routers wired as one ring along x (a torus of n x 1 x 1), links of
// one cycle, for the ring and bubble testbenches. The ring's size n (2..N) and whether the
// routers keep the bubble rule are inputs, static while packets move, so one model serves
// every ring the testbenches build. Router i < n is at x = i; its x+ link feeds router
// (i+1) mod n's x- input and its x- link router (i-1) mod n's x+ input. Routers n..N-1
// sit idle (no input ever reaches them). Ports are router i's injection and reception in
// slice i.
`default_nettype none

module tr_ring #(
  parameter int N = 5  // routers built; the ring uses n_i of them
) (
  input  wire logic            clk_i,
  input  wire logic            rst_ni,
  input  wire logic [2:0]      n_i,       // routers in the ring, 2..N
  input  wire logic            bubble_i,  // the bubble rule (0: show the deadlock it prevents)
  input  wire logic [N*3-1:0]  inj_push_i,
  input  wire logic [N*64-1:0] inj_data_i,
  output logic      [N*3*8-1:0] inj_free_o,
  output logic      [N*2-1:0]  rcv_valid_o,
  output logic      [N*2*64-1:0] rcv_data_o,
  input  wire logic [N*2-1:0]  rcv_pop_i,
  output logic      [N*4-1:0]  err_o,
  output logic                 moving_o  // some link carries a flit this cycle
);

  // The y and z outputs of every router stay unconnected.
  /* verilator lint_off UNUSEDSIGNAL */
  logic [N*6-1:0]    in_valid, in_hdr, out_valid, out_hdr;
  logic [N*6*2-1:0]  in_vc, out_vc;
  logic [N*6*64-1:0] in_data, out_data;
  logic [N*6*4-1:0]  in_credit, out_credit;
  logic [N*2*9-1:0]  rcv_count;
  logic [N*2*256-1:0] rcv_lanes;  // only the head flit is used
  /* verilator lint_on UNUSEDSIGNAL */

  for (genvar i = 0; i < N; i++) begin : g_node
    // The neighbours in a full ring of N, and the wrap-around of a ring of n_i: the last
    // router's x+ meets router 0, and router 0's x- meets the last one.
    localparam int Up = (i + 1) % N;
    logic       in_ring, last;
    logic [2:0] next, prev;
    assign in_ring = (3'(i) < n_i);
    assign last    = (3'(i + 1) == n_i);
    assign next    = last ? 3'd0 : 3'(Up);
    assign prev    = (i == 0) ? n_i - 3'd1 : 3'(i - 1);
    // x+ (link 0) of i meets x- (link 1) of next; x- of i meets x+ of prev. A router
    // outside the ring gets nothing.
    assign in_valid[i*6 + 0]              = in_ring && out_valid[32'(next)*6 + 1];
    assign in_hdr[i*6 + 0]                = in_ring && out_hdr[32'(next)*6 + 1];
    assign in_vc[(i*6 + 0)*2 +: 2]        = out_vc[(32'(next)*6 + 1)*2 +: 2];
    assign in_data[(i*6 + 0)*64 +: 64]    = out_data[(32'(next)*6 + 1)*64 +: 64];
    assign out_credit[(i*6 + 0)*4 +: 4]   = in_ring ? in_credit[(32'(next)*6 + 1)*4 +: 4] : 4'd0;
    assign in_valid[i*6 + 1]              = in_ring && out_valid[32'(prev)*6 + 0];
    assign in_hdr[i*6 + 1]                = in_ring && out_hdr[32'(prev)*6 + 0];
    assign in_vc[(i*6 + 1)*2 +: 2]        = out_vc[(32'(prev)*6 + 0)*2 +: 2];
    assign in_data[(i*6 + 1)*64 +: 64]    = out_data[(32'(prev)*6 + 0)*64 +: 64];
    assign out_credit[(i*6 + 1)*4 +: 4]   = in_ring ? in_credit[(32'(prev)*6 + 0)*4 +: 4] : 4'd0;
    // y and z have size 1: no links.
    assign in_valid[i*6 + 2 +: 4]         = '0;
    assign in_hdr[i*6 + 2 +: 4]           = '0;
    assign in_vc[(i*6 + 2)*2 +: 8]        = '0;
    assign in_data[(i*6 + 2)*64 +: 256]   = '0;
    assign out_credit[(i*6 + 2)*4 +: 16]  = '0;

    logic [3*24-1:0] unused_perf;  // the performance events: tr_perf's testbench's
    logic [8+256+9-1:0] unused_dma;  // no DMA engine (Dma = 0): its FIFOs' ports idle
    tr_router #(.InjFlits(128), .RcvFlits(256)) u_router (
      .clk_i, .rst_ni,
      .bubble_i, .my_i({8'd0, 8'd0, 8'(i)}), .dims_i({8'd1, 8'd1, 5'd0, n_i}), .link_down_i(6'b0),
      .in_valid_i(in_valid[i*6 +: 6]), .in_hdr_i(in_hdr[i*6 +: 6]), .in_vc_i(in_vc[i*12 +: 12]),
      .in_data_i(in_data[i*384 +: 384]), .in_credit_o(in_credit[i*24 +: 24]),
      .out_valid_o(out_valid[i*6 +: 6]), .out_hdr_o(out_hdr[i*6 +: 6]), .out_vc_o(out_vc[i*12 +: 12]),
      .out_data_o(out_data[i*384 +: 384]), .out_credit_i(out_credit[i*24 +: 24]), .out_hold_i(6'0),
      .inj_push_i(inj_push_i[i*3 +: 3]), .inj_n_i(3'd1), .inj_data_i({192'd0, inj_data_i[i*64 +: 64]}),
      .inj_free_o(inj_free_o[i*24 +: 24]),
      .rcv_pop_i(rcv_pop_i[i*2 +: 2]), .rcv_n_i(3'd1), .rcv_data_o(rcv_lanes[i*512 +: 512]),
      .rcv_count_o(rcv_count[i*18 +: 18]),
      .dma_inj_push_i(1'b0), .dma_inj_n_i(3'd1), .dma_inj_data_i(256'd0), .dma_inj_free_o(unused_dma[0 +: 8]),
      .dma_rcv_pop_i(1'b0), .dma_rcv_n_i(3'd1), .dma_rcv_data_o(unused_dma[8 +: 256]),
      .dma_rcv_count_o(unused_dma[264 +: 9]),
      .err_o(err_o[i*4 +: 4]),
      .perf_flit_o(unused_perf[0 +: 24]), .perf_busy_o(unused_perf[24 +: 24]), .perf_stall_o(unused_perf[48 +: 24])
    );
  end

  // One flit at a time at the ports: the head flit of each reception FIFO.
  for (genvar i = 0; i < N; i++) begin : g_rcv
    for (genvar k = 0; k < 2; k++) begin : g_fifo
      assign rcv_valid_o[i*2 + k]          = (rcv_count[(i*2 + k)*9 +: 9] != '0);
      assign rcv_data_o[(i*2 + k)*64 +: 64] = rcv_lanes[(i*2 + k)*256 +: 64];
    end
  end

  assign moving_o = |out_valid;

endmodule : tr_ring

`default_nettype wire
