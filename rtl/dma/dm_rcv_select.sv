// SPDX-License-Identifier: Apache-2.0
// dm_rcv_select: the DMA engine's reception FIFOs (the router's, Fifos of them, each
// written a flit a cycle by packets arriving on its links) as the one FIFO dm_receive takes
// packets from. With one FIFO it is that FIFO, packets taken as they stream in. With more,
// dm_receive takes a packet only once all of it is in its FIFO, the FIFOs in turn: a
// packet is then taken as fast as the memory port writes it (up to a row a cycle), not at
// its link's flit a cycle, so that the engine keeps up with several FIFOs filling at once.
// The FIFO chosen for a packet is kept from its header's pop to its last flit's.
`include "cmn_assert.svh"
`default_nettype none

module dm_rcv_select #(
  parameter int Fifos = 1,  // the router's reception FIFOs for the engine
  parameter int CntW  = 9,  // width of a FIFO's count of flits
  localparam int RowBits = dm_pkg::DmPortWords * 64
) (
  input  wire logic                     clk_i,
  input  wire logic                     rst_ni,
  // the router's FIFOs (tr_router dma_rcv_*): FIFO k's flits held at [k*CntW], its first
  // four at [k*RowBits]; pop rcv_n_o flits of FIFO k with rcv_pop_o[k]
  input  wire logic [Fifos*CntW-1:0]    rcv_count_i,
  input  wire logic [Fifos*RowBits-1:0] rcv_data_i,
  output logic      [Fifos-1:0]         rcv_pop_o,
  output logic      [2:0]               rcv_n_o,
  // the one FIFO dm_receive sees
  output logic      [CntW-1:0]          count_o,
  output logic      [RowBits-1:0]       data_o,
  input  wire logic                     pop_i,
  input  wire logic [2:0]               n_i
);

  assign rcv_n_o = n_i;

  if (Fifos == 1) begin : g_one
    logic unused_clock;  // no state: the one FIFO is dm_receive's
    assign unused_clock = ^{clk_i, rst_ni};
    assign count_o   = rcv_count_i;
    assign data_o    = rcv_data_i;
    assign rcv_pop_o = pop_i;
  end else begin : g_many
    localparam int FifoW = $clog2(Fifos);
    localparam int LenW  = tr_pkg::PacketFlitsW;

    logic             held_q;   // a packet is being taken, from FIFO sel_q
    logic [FifoW-1:0] sel_q, pick, sel;
    logic [LenW-1:0]  left_q;   // its flits not yet popped
    logic             any;

    // The next FIFO in turn whose head packet is all there.
    logic [Fifos-1:0] whole, unused_grant;
    for (genvar k = 0; k < Fifos; k++) begin : g_whole
      logic [CntW-1:0] count;
      logic [LenW-1:0] need;  // the head packet's flits (a signal of its own: Icarus casts no call)
      assign count    = rcv_count_i[k*CntW +: CntW];
      assign need     = tr_pkg::packet_flits(rcv_data_i[k*RowBits +: 64]);
      assign whole[k] = (count != '0) && (32'(count) >= 32'(need));
    end
    cmn_rr_arb #(.N(Fifos)) u_turn (
      .clk_i, .rst_ni, .req_i(whole), .take_i(pop_i && !held_q), .grant_o(unused_grant), .idx_o(pick)
    );
    assign any = |whole;

    assign sel       = held_q ? sel_q : pick;
    assign count_o   = (held_q || any) ? rcv_count_i[32'(sel)*CntW +: CntW] : '0;
    assign data_o    = rcv_data_i[32'(sel)*RowBits +: RowBits];
    assign rcv_pop_o = pop_i ? Fifos'(1) << sel : '0;

    logic [LenW-1:0] len;  // the flits of the packet whose header is at the chosen FIFO's head
    assign len = tr_pkg::packet_flits(data_o[63:0]);
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        held_q <= 1'b0;
        sel_q  <= '0;
        left_q <= '0;
      end else if (pop_i) begin
        if (!held_q) begin
          // The header's pop: the packet is this FIFO's until its last flit is popped.
          held_q <= (len != LenW'(n_i));
          sel_q  <= pick;
          left_q <= len - LenW'(n_i);
        end else begin
          left_q <= left_q - LenW'(n_i);
          if (left_q == LenW'(n_i)) held_q <= 1'b0;
        end
      end
    end

    // dm_receive pops within the packet it is taking, never past its end, and only what is
    // there.
    `CMN_ASSERT_NEVER(PopPastPacket, pop_i && held_q && LenW'(n_i) > left_q,
                      $sformatf("%0d flits popped from FIFO %0d, %0d left in its packet", n_i, sel_q, left_q))
    `CMN_ASSERT_NEVER(PopUnheld, pop_i && !held_q && !any, "a pop with no whole packet in any FIFO")
  end

  `CMN_ASSERT_PARAM(g_check_fifos, Fifos >= 1 && Fifos <= tr_pkg::TrRcvNormalMax,
                    $sformatf("dm_rcv_select: Fifos (%0d) must be 1..%0d", Fifos, tr_pkg::TrRcvNormalMax))

endmodule : dm_rcv_select

`default_nettype wire
