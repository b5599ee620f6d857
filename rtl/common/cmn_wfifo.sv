// SPDX-License-Identifier: Apache-2.0
// cmn_wfifo: synchronous word FIFO whose ports move 1..Lanes words per cycle: a push of
// push_n words (word 0 of data_i first) and a pop of pop_n words from the head. data_o
// shows the first Lanes words at the head (lane 0 = the oldest); lanes at and beyond
// count_o hold stale data. This is how a narrow stream meets a wide register bus: the
// injection payload FIFO takes 1 or 4 words from the bus and gives one flit per cycle to
// the combine engine, the reception payload FIFO the other way round.
//
// Storage is Lanes banks of Depth/Lanes words, word i in bank i % Lanes, so any Lanes
// consecutive words sit in different banks: each bank has one write and one read port
// (an SRAM macro each), and rotators line the lanes up with the banks.
//
// Push and pop may happen in the same cycle; a push may use the words the pop frees. A
// push of more words than are free (after the pop), a pop of more words than are held, or
// a word count outside 1..Lanes is a caller bug: the assertions below catch it in
// simulation, and the offending side (push or pop) changes nothing.
`include "cmn_assert.svh"
`default_nettype none

module cmn_wfifo #(
  parameter int Width = 64,
  parameter int Lanes = 4,   // a power of two >= 2 (one word per cycle: cmn_fifo)
  parameter int Depth = 16,  // words, a multiple of Lanes
  localparam int NW   = $clog2(Lanes + 1),  // width of a word count 0..Lanes
  localparam int CntW = $clog2(Depth + 1)
) (
  input  wire logic                   clk_i,
  input  wire logic                   rst_ni,
  input  wire logic                   push_i,
  input  wire logic [NW-1:0]          push_n_i,
  input  wire logic [Lanes*Width-1:0] data_i,   // word k in [k*Width +: Width]
  input  wire logic                   pop_i,
  input  wire logic [NW-1:0]          pop_n_i,
  output logic      [Lanes*Width-1:0] data_o,   // the head's word k in [k*Width +: Width]
  output logic      [CntW-1:0]        count_o
);

  localparam int LaneW  = $clog2(Lanes);
  localparam int Rows   = Depth / Lanes;
  localparam int RowW   = (Rows > 1) ? $clog2(Rows) : 1;
  localparam int CntW1  = CntW + 1;   // a count with room for Depth + Lanes
  localparam int LaneW1 = LaneW + 1;  // a bank index plus up to Lanes

  // A pointer is (row, bank): word index row * Lanes + bank.
  logic [RowW-1:0]   wr_row_q, rd_row_q, wr_row_next, rd_row_next;
  logic [LaneW-1:0]  wr_bank_q, rd_bank_q;
  logic [LaneW1-1:0] wr_sum, rd_sum;
  logic [CntW-1:0]   count_q;
  logic              do_push, do_pop;
  logic [CntW1-1:0]  free_after_pop;

  // Continuous assignments only, no functions: see the portability notes in cn_pkg.sv.
  assign do_pop         = pop_i && (pop_n_i != '0) && (32'(pop_n_i) <= Lanes) &&
                          (CntW1'(pop_n_i) <= {1'b0, count_q});
  assign free_after_pop = CntW1'(Depth) - {1'b0, count_q} + (do_pop ? CntW1'(pop_n_i) : '0);
  assign do_push        = push_i && (push_n_i != '0) && (32'(push_n_i) <= Lanes) &&
                          (CntW1'(push_n_i) <= free_after_pop);
  assign count_o        = count_q;

  // Advancing a pointer by n <= Lanes words moves it to the next row at most once.
  assign wr_sum      = {1'b0, wr_bank_q} + LaneW1'(push_n_i);
  assign rd_sum      = {1'b0, rd_bank_q} + LaneW1'(pop_n_i);
  assign wr_row_next = (wr_row_q == RowW'(Rows - 1)) ? '0 : wr_row_q + 1'b1;
  assign rd_row_next = (rd_row_q == RowW'(Rows - 1)) ? '0 : rd_row_q + 1'b1;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wr_row_q  <= '0;
      wr_bank_q <= '0;
      rd_row_q  <= '0;
      rd_bank_q <= '0;
      count_q   <= '0;
    end else begin
      if (do_push) begin
        wr_bank_q <= wr_sum[LaneW-1:0];
        if (wr_sum[LaneW]) wr_row_q <= wr_row_next;
      end
      if (do_pop) begin
        rd_bank_q <= rd_sum[LaneW-1:0];
        if (rd_sum[LaneW]) rd_row_q <= rd_row_next;
      end
      count_q <= count_q + (do_push ? CntW'(push_n_i) : '0) - (do_pop ? CntW'(pop_n_i) : '0);
    end
  end

  // ------------------------------------------------------------ banks
  // Bank b takes lane (b - wr_bank) mod Lanes of a push and gives lane (b - rd_bank) mod
  // Lanes of the head; banks below the pointer's bank are already on its next row.
  logic [Lanes*Width-1:0] bank_rd;  // bank b's word at the head in [b*Width +: Width]

  for (genvar b = 0; b < Lanes; b++) begin : g_bank
    logic [Width-1:0]  mem_q [Rows];
    logic [LaneW-1:0]  wr_lane, rd_lane;
    logic [LaneW1-1:0] wr_pos, rd_pos;  // pointer's bank + lane: bit LaneW = next row
    logic [RowW-1:0]   wr_row, rd_row;
    logic              we;

    assign wr_lane = LaneW'(b) - wr_bank_q;
    assign rd_lane = LaneW'(b) - rd_bank_q;
    assign wr_pos  = {1'b0, wr_bank_q} + {1'b0, wr_lane};
    assign rd_pos  = {1'b0, rd_bank_q} + {1'b0, rd_lane};
    assign wr_row  = wr_pos[LaneW] ? wr_row_next : wr_row_q;
    assign rd_row  = rd_pos[LaneW] ? rd_row_next : rd_row_q;
    assign we      = do_push && (LaneW1'(wr_lane) < LaneW1'(push_n_i));
    assign bank_rd[b*Width +: Width] = mem_q[rd_row];

    // Storage has no reset: only words between the pointers are ever read as data.
    always_ff @(posedge clk_i) begin
      if (we) mem_q[wr_row] <= data_i[wr_lane*Width +: Width];
    end
  end

  for (genvar k = 0; k < Lanes; k++) begin : g_lane
    logic [LaneW-1:0] bank;
    assign bank = rd_bank_q + LaneW'(k);
    assign data_o[k*Width +: Width] = bank_rd[bank*Width +: Width];
  end

  // In terms of the inputs and the registers only, not of combinational signals such as
  // free_after_pop that these checks are about.
  `CMN_ASSERT_NEVER(PushWords, push_i && (push_n_i == '0 || 32'(push_n_i) > Lanes),
                    $sformatf("push of %0d words (1..%0d)", push_n_i, Lanes))
  `CMN_ASSERT_NEVER(PopWords, pop_i && (pop_n_i == '0 || 32'(pop_n_i) > Lanes),
                    $sformatf("pop of %0d words (1..%0d)", pop_n_i, Lanes))
  `CMN_ASSERT_NEVER(PushFull,
                    push_i && push_n_i != '0 && 32'(push_n_i) <= Lanes &&
                    32'(push_n_i) + 32'(count_q) >
                    Depth + ((pop_i && pop_n_i != '0 && 32'(pop_n_i) <= Lanes &&
                              32'(pop_n_i) <= 32'(count_q)) ? 32'(pop_n_i) : 0),
                    $sformatf("push of %0d words into %0d of %0d (pop %0d)", push_n_i, count_q, Depth,
                              pop_i ? pop_n_i : '0))
  `CMN_ASSERT_NEVER(PopEmpty, pop_i && pop_n_i != '0 && 32'(pop_n_i) <= Lanes && 32'(pop_n_i) > 32'(count_q),
                    $sformatf("pop of %0d words with %0d held", pop_n_i, count_q))

  `CMN_ASSERT_PARAM(g_check_lanes, Lanes >= 2 && (Lanes & (Lanes - 1)) == 0,
                    $sformatf("cmn_wfifo: Lanes (%0d) must be a power of two, at least 2", Lanes))
  `CMN_ASSERT_PARAM(g_check_depth, Depth >= Lanes && Depth % Lanes == 0,
                    $sformatf("cmn_wfifo: Depth (%0d) must be a multiple of Lanes (%0d)", Depth, Lanes))
  `CMN_ASSERT_PARAM(g_check_width, Width >= 1, $sformatf("cmn_wfifo: Width (%0d) must be at least 1", Width))

endmodule : cmn_wfifo

`default_nettype wire
