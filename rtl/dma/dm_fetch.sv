// SPDX-License-Identifier: Apache-2.0
// dm_fetch: the DMA engine's injection ring, Blue Gene/P's injection memory FIFO. Software
// writes descriptors (DmDescWords words each, as RegDmDesc takes them) into a ring of node
// memory from RegDmIfStart to RegDmIfEnd and moves RegDmIfTail past them; this block reads
// them from RegDmIfHead on, one memory request each, and hands them to software's
// descriptor queue, so a long series of transfers is queued with one register write
// instead of a processor feeding the queue throughout.
//   Up to FetchSlots descriptors are read and not yet handed on: a read is issued only while
// the reads in flight and the descriptors waiting here stay within that, so the responses
// (which cannot wait) always have room. The head moves past a descriptor when its read is
// taken, so the ring's slots behind the head are software's again. A descriptor that
// breaks the rules (dm_pkg::desc_ok) is dropped and reported (bad_o), as RegDmDesc would
// refuse it; the ones after it go on.
//   A write of RegDmIfStart or RegDmIfEnd empties the ring (reset_i, the cycle after, moves
// the head to the start); software moves the ring only while the engine is not reading it
// (RegDmIfHead at RegDmIfTail and RegDmStatus.InjBusy clear).
`include "cmn_assert.svh"
`default_nettype none

module dm_fetch #(
  parameter int  FetchSlots = dm_pkg::DmFetchSlots,
  localparam int DescBits   = dm_pkg::DmDescWords * 64,
  localparam int AW         = dm_pkg::DmAddrW
) (
  input  wire logic                 clk_i,
  input  wire logic                 rst_ni,
  // the ring (dm_regs): its bounds, software's tail, and the pulse that empties it
  input  wire logic [AW-1:0]        start_i,
  input  wire logic [AW-1:0]        end_i,
  input  wire logic [AW-1:0]        tail_i,
  input  wire logic                 reset_i,
  output logic      [AW-1:0]        head_o,
  // memory reads of one descriptor each (DmDescWords words), taken when rd_gnt_i; the
  // words come back in request order on rd_valid_i, word 0 at [63:0]
  output logic                      rd_req_o,
  output logic      [AW-1:0]        rd_addr_o,
  input  wire logic                 rd_gnt_i,
  input  wire logic                 rd_valid_i,
  input  wire logic [DescBits-1:0]  rd_data_i,
  // a descriptor for software's queue, taken when desc_take_i (first-word fall-through)
  output logic                      desc_valid_o,
  output logic      [DescBits-1:0]  desc_o,
  input  wire logic                 desc_take_i,
  output logic                      bad_o,       // a descriptor was dropped (pulse)
  output logic                      busy_o       // a read in flight or a descriptor waiting
);

  localparam int SlotW = $clog2(FetchSlots + 1);
  localparam int DescBytes = dm_pkg::DmDescWords * 8;

  logic [AW-1:0]    head_q;
  logic [SlotW-1:0] inflight_q;

  // Descriptors read, waiting to be handed on.
  logic                wait_pop, wait_full, wait_empty;
  logic [DescBits-1:0] wait_head;
  logic [SlotW-1:0]    wait_count;
  cmn_fifo #(.Width(DescBits), .Depth(FetchSlots)) u_waiting (
    .clk_i, .rst_ni, .push_i(rd_valid_i), .data_i(rd_data_i), .pop_i(wait_pop), .data_o(wait_head),
    .full_o(wait_full), .empty_o(wait_empty), .count_o(wait_count)
  );

  logic good;
  assign good         = dm_pkg::desc_ok(wait_head);
  assign desc_valid_o = !wait_empty && good;
  assign desc_o       = wait_head;
  assign wait_pop     = !wait_empty && (!good || desc_take_i);
  assign bad_o        = !wait_empty && !good;

  // The next read: the descriptor at the head, while the ring holds one and there is room.
  logic issue;
  logic [AW-1:0] next_head;
  assign rd_req_o  = !reset_i && (head_q != tail_i) && (32'(inflight_q) + 32'(wait_count) < FetchSlots);
  assign rd_addr_o = head_q;
  assign issue     = rd_req_o && rd_gnt_i;
  // The slot after the head, back at the start past the ring's last.
  assign next_head = (head_q + AW'(DescBytes) >= end_i) ? start_i : head_q + AW'(DescBytes);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      head_q     <= '0;
      inflight_q <= '0;
    end else begin
      if (reset_i)    head_q <= start_i;
      else if (issue) head_q <= next_head;
      inflight_q <= inflight_q + SlotW'(issue) - SlotW'(rd_valid_i);
    end
  end
  assign head_o = head_q;
  assign busy_o = (inflight_q != '0) || !wait_empty;

  logic unused;
  assign unused = ^{wait_full};

  // The memory answers only the reads it took, and never more than there is room for.
  `CMN_ASSERT_NEVER(FetchResponseUnasked, rd_valid_i && inflight_q == '0,
                    "an injection ring read response arrived with no read in flight")
  `CMN_ASSERT_PARAM(g_check_slots, FetchSlots >= 1 && FetchSlots <= 255,
                    $sformatf("dm_fetch: FetchSlots (%0d) must be 1..255", FetchSlots))

endmodule : dm_fetch

`default_nettype wire
