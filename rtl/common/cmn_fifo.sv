// SPDX-License-Identifier: Apache-2.0
// cmn_fifo: synchronous first-in first-out buffer, the one FIFO cell every block reuses.
// Push and pop may happen in the same cycle (also when full: the pop frees the slot).
// The head is visible on data_o while !empty_o (first-word fall-through).
// Pushing when full without a pop, or popping when empty, is a caller bug: the
// assertions below catch it in simulation and the FIFO state is left unchanged.
`include "cmn_assert.svh"
`default_nettype none

module cmn_fifo #(
  parameter int Width = 64,
  parameter int Depth = 8,
  localparam int PtrW = (Depth > 1) ? $clog2(Depth) : 1,
  localparam int CntW = $clog2(Depth + 1)
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,
  input  wire logic             push_i,
  input  wire logic [Width-1:0] data_i,
  input  wire logic             pop_i,
  output logic      [Width-1:0] data_o,
  output logic                  full_o,
  output logic                  empty_o,
  output logic      [CntW-1:0]  count_o
);

  logic [Width-1:0] mem_q [Depth];
  logic [PtrW-1:0]  rd_ptr_q, wr_ptr_q;
  logic [CntW-1:0]  count_q;

  logic do_push, do_pop;

  assign empty_o = (count_q == '0);
  assign full_o  = (count_q == CntW'(Depth));
  assign count_o = count_q;
  assign data_o  = mem_q[rd_ptr_q];

  assign do_pop  = pop_i && !empty_o;
  assign do_push = push_i && (!full_o || do_pop);

  function automatic logic [PtrW-1:0] next_ptr(input logic [PtrW-1:0] ptr);
    next_ptr = (ptr == PtrW'(Depth - 1)) ? '0 : ptr + 1'b1;
  endfunction

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_ptr_q <= '0;
      wr_ptr_q <= '0;
      count_q  <= '0;
    end else begin
      if (do_push) wr_ptr_q <= next_ptr(wr_ptr_q);
      if (do_pop)  rd_ptr_q <= next_ptr(rd_ptr_q);
      if (do_push && !do_pop)      count_q <= count_q + 1'b1;
      else if (do_pop && !do_push) count_q <= count_q - 1'b1;
    end
  end

  // Storage has no reset: only entries between the pointers are ever read.
  always_ff @(posedge clk_i) begin
    if (do_push) mem_q[wr_ptr_q] <= data_i;
  end

  `CMN_ASSERT_NEVER(PushFull, push_i && full_o && !pop_i, "push into a full FIFO")
  `CMN_ASSERT_NEVER(PopEmpty, pop_i && empty_o, "pop from an empty FIFO")

  `CMN_ASSERT_PARAM(g_check_depth, Depth >= 1, $sformatf("cmn_fifo: Depth (%0d) must be at least 1", Depth))
  `CMN_ASSERT_PARAM(g_check_width, Width >= 1, $sformatf("cmn_fifo: Width (%0d) must be at least 1", Width))

endmodule : cmn_fifo

`default_nettype wire
