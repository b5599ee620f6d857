// SPDX-License-Identifier: Apache-2.0
// dm_regs: the DMA engine's register block on the node's register bus (its window
// cn_pkg::WinDma) and the state software sees there: the descriptors it queues (RegDmDesc:
// a descriptor that breaks the rules, or one with no room, is refused), the counters
// (a base address and a count of words each: the injection side counts a descriptor's
// local counter down as it sends, the reception side a put's counter as it writes; a
// counter counted down to zero sets its bit of RegDmZero), the reception ring's bounds and
// head, the injection ring's bounds and tail (dm_fetch reads it), the event enables and
// the sticky error bits. Every access completes in the cycle it
// is presented; read data is registered and valid on rvalid_o the cycle after. A refused
// access changes nothing but its error bit. Addresses and fields: dm_pkg, generated from
// regmap/collnet.json like firmware/regmap.hpp.
`include "cmn_assert.svh"
`default_nettype none

module dm_regs #(
  // Reported in RegDmSizes (the queues are the engine's).
  parameter int  DescSlots = dm_pkg::DmDescSlots,
  parameter int  GetSlots  = dm_pkg::DmGetSlots,
  parameter int  RowSlots  = dm_pkg::DmRowSlots,
  localparam int AddrW    = $bits(dm_pkg::RegDmStatus),  // the register bus's address (cn_pkg::BusAddrBits)
  localparam int DescBits = dm_pkg::DmDescWords * 64,
  localparam int AW       = dm_pkg::DmAddrW,
  localparam int Ctrs     = dm_pkg::DmCounters,
  localparam int CtrW     = dm_pkg::DmCtrW
) (
  input  wire logic                 clk_i,
  input  wire logic                 rst_ni,
  // register bus (already decoded to the window)
  input  wire logic                 req_i,
  input  wire logic                 we_i,
  input  wire logic [AddrW-1:0]     addr_i,
  input  wire logic [DescBits-1:0]  wdata_i,  // word 0 in [63:0]
  output logic                      rvalid_o,
  output logic      [63:0]          rdata_o,
  // software's descriptor queue: a push, and the room left
  output logic                      desc_push_o,
  output logic      [DescBits-1:0]  desc_o,
  input  wire logic [7:0]           desc_free_i,
  input  wire logic [7:0]           gets_i,       // descriptors the remote gets' queue holds
  input  wire logic                 inj_busy_i,
  input  wire logic                 rcv_busy_i,
  // the counters: count down (injection side, reception side), and a base for the reception side
  input  wire logic                 inj_dec_i,
  input  wire logic [CtrW-1:0]      inj_ctr_i,
  input  wire logic [2:0]           inj_n_i,
  input  wire logic                 rcv_dec_i,
  input  wire logic [CtrW-1:0]      rcv_ctr_i,
  input  wire logic [2:0]           rcv_n_i,
  output logic      [AW-1:0]        rcv_base_o,   // counter rcv_ctr_i's base
  // the reception ring: its bounds and software's head; mf_reset_o (the cycle after a
  // write of RegDmMfStart or RegDmMfEnd) empties it
  output logic      [AW-1:0]        mf_start_o,
  output logic      [AW-1:0]        mf_end_o,
  output logic      [AW-1:0]        mf_head_o,
  output logic                      mf_reset_o,
  input  wire logic [AW-1:0]        mf_tail_i,
  // the injection ring: its bounds and software's tail; if_reset_o (the cycle after a write
  // of RegDmIfStart or RegDmIfEnd) empties it; dm_fetch's head, and its dropped descriptors
  output logic      [AW-1:0]        if_start_o,
  output logic      [AW-1:0]        if_end_o,
  output logic      [AW-1:0]        if_tail_o,
  output logic                      if_reset_o,
  input  wire logic [AW-1:0]        if_head_i,
  input  wire logic                 if_bad_i,
  // errors the sides report (pulses)
  input  wire logic                 bad_packet_i,
  input  wire logic                 mf_err_i,
  output logic                      event_o,      // an enabled condition holds
  output logic      [dm_pkg::DmErrBits-1:0] err_o // sticky
);

  // ------------------------------------------------------------ decode
  logic rd, wr, is_base, is_count;
  logic [CtrW-1:0] idx;
  assign rd       = req_i && !we_i;
  assign wr       = req_i && we_i;
  assign is_base  = dm_pkg::in_reg_dm_ctr_base(addr_i);
  assign is_count = dm_pkg::in_reg_dm_ctr_count(addr_i);
  // Both arrays decode the same address bits to the counter.
  assign idx      = dm_pkg::reg_dm_ctr_base_index(addr_i);

  logic wr_desc, wr_err_clear, wr_zero_clear, wr_event, wr_mf_start, wr_mf_end, wr_mf_head, wr_base, wr_count;
  logic wr_if_start, wr_if_end, wr_if_tail;
  assign wr_desc       = wr && (addr_i == dm_pkg::RegDmDesc);
  assign wr_err_clear  = wr && (addr_i == dm_pkg::RegDmErrClear);
  assign wr_zero_clear = wr && (addr_i == dm_pkg::RegDmZeroClear);
  assign wr_event      = wr && (addr_i == dm_pkg::RegDmEventEn);
  assign wr_mf_start   = wr && (addr_i == dm_pkg::RegDmMfStart);
  assign wr_mf_end     = wr && (addr_i == dm_pkg::RegDmMfEnd);
  assign wr_mf_head    = wr && (addr_i == dm_pkg::RegDmMfHead);
  assign wr_if_start   = wr && (addr_i == dm_pkg::RegDmIfStart);
  assign wr_if_end     = wr && (addr_i == dm_pkg::RegDmIfEnd);
  assign wr_if_tail    = wr && (addr_i == dm_pkg::RegDmIfTail);
  assign wr_base       = wr && is_base;
  assign wr_count      = wr && is_count;
  logic wr_ok, readable;  // readable: the read multiplexer (below) knows the address
  assign wr_ok = wr_desc || wr_err_clear || wr_zero_clear || wr_event || wr_mf_start || wr_mf_end || wr_mf_head ||
                 wr_if_start || wr_if_end || wr_if_tail || wr_base || wr_count;

  // ------------------------------------------------------------ descriptors
  logic desc_room, desc_good;
  assign desc_room   = (desc_free_i != '0);
  assign desc_good   = dm_pkg::desc_ok(wdata_i);
  assign desc_push_o = wr_desc && desc_room && desc_good;
  assign desc_o      = wdata_i;

  // ------------------------------------------------------------ counters
  // Each a register of its own (a generate block's): see tr_perf for why.
  logic [Ctrs*AW-1:0]               bases;
  logic [Ctrs*dm_pkg::DmCountW-1:0] counts;
  logic [Ctrs-1:0]                  zero_set, under;
  logic [Ctrs-1:0]                  zero_q;
  logic [63:0]                      wword;
  assign wword = wdata_i[63:0];
  for (genvar k = 0; k < Ctrs; k++) begin : g_ctr
    logic [AW-1:0]              base_q;
    logic [dm_pkg::DmCountW-1:0] count_q;
    logic [3:0]                 dec;  // words counted down this cycle, from both sides
    assign dec = ((inj_dec_i && inj_ctr_i == CtrW'(k)) ? 4'(inj_n_i) : 4'd0) +
                 ((rcv_dec_i && rcv_ctr_i == CtrW'(k)) ? 4'(rcv_n_i) : 4'd0);
    // A write of the count wins over a count down in the same cycle.
    logic written;
    assign written     = wr_count && idx == CtrW'(k);
    assign under[k]    = !written && (dec != '0) && (dm_pkg::DmCountW'(dec) > count_q);
    assign zero_set[k] = !written && (dec != '0) && (count_q != '0) && (dm_pkg::DmCountW'(dec) >= count_q);
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        base_q  <= '0;
        count_q <= '0;
      end else begin
        if (wr_base && idx == CtrW'(k)) base_q <= {wword[AW-1:3], 3'd0};
        if (written)                    count_q <= wword[dm_pkg::DmCountW-1:0];
        else if (under[k])              count_q <= '0;
        else                            count_q <= count_q - dm_pkg::DmCountW'(dec);
      end
    end
    assign bases[k*AW +: AW]                             = base_q;
    assign counts[k*dm_pkg::DmCountW +: dm_pkg::DmCountW] = count_q;
  end
  assign rcv_base_o = bases[32'(rcv_ctr_i)*AW +: AW];

  // ------------------------------------------------------------ the rest of the state
  logic [dm_pkg::DmErrBits-1:0] err_q, err_set;
  logic [Ctrs-1:0]              ev_zero_q;
  logic                         ev_mf_q;
  logic [AW-1:0]                mf_start_q, mf_end_q, mf_head_q;
  logic                         mf_reset_q;
  logic [AW-1:0]                if_start_q, if_end_q, if_tail_q;
  logic                         if_reset_q;
  // The injection ring is in 32-byte slots (a descriptor each); a tail outside it is refused.
  localparam int SlotLsb = $clog2(dm_pkg::DmDescWords * 8);
  logic [AW-1:0] wslot;
  logic          tail_ok;
  assign wslot   = {wword[AW-1:SlotLsb], SlotLsb'(0)};
  assign tail_ok = (if_end_q > if_start_q) && (wslot >= if_start_q) && (wslot < if_end_q);

  always_comb begin
    err_set = '0;
    err_set[dm_pkg::DmErrBadDesc]   = (wr_desc && desc_room && !desc_good) || if_bad_i;
    err_set[dm_pkg::DmErrDescFull]  = wr_desc && !desc_room;
    err_set[dm_pkg::DmErrBadPacket] = bad_packet_i;
    err_set[dm_pkg::DmErrUnderflow] = |under;
    err_set[dm_pkg::DmErrBadAccess] = (wr && !wr_ok) || (rd && !readable);
    err_set[dm_pkg::DmErrMemFifo]   = mf_err_i;
    err_set[dm_pkg::DmErrIfRing]    = wr_if_tail && !tail_ok;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      err_q      <= '0;
      zero_q     <= '0;
      ev_zero_q  <= '0;
      ev_mf_q    <= 1'b0;
      mf_start_q <= '0;
      mf_end_q   <= '0;
      mf_head_q  <= '0;
      mf_reset_q <= 1'b0;
      if_start_q <= '0;
      if_end_q   <= '0;
      if_tail_q  <= '0;
      if_reset_q <= 1'b0;
    end else begin
      err_q <= (err_q & ~(wr_err_clear ? wword[dm_pkg::DmErrBits-1:0] : '0)) | err_set;
      for (int k = 0; k < Ctrs; k++) begin
        if (wr_count && idx == CtrW'(k))                zero_q[k] <= 1'b0;
        else if (zero_set[k] || under[k])               zero_q[k] <= 1'b1;
        else if (wr_zero_clear && wword[k])             zero_q[k] <= 1'b0;
      end
      if (wr_event) begin
        ev_zero_q <= wword[dm_pkg::DmEventZeroLsb +: Ctrs];
        ev_mf_q   <= wword[dm_pkg::DmEventMemFifoBit];
      end
      // Moving the ring empties it: the head now, the tail (the reception side's) the cycle after.
      if (wr_mf_start) mf_start_q <= {wword[AW-1:3], 3'd0};
      if (wr_mf_end)   mf_end_q   <= {wword[AW-1:3], 3'd0};
      if (wr_mf_start)     mf_head_q <= {wword[AW-1:3], 3'd0};
      else if (wr_mf_end)  mf_head_q <= mf_start_q;
      else if (wr_mf_head) mf_head_q <= {wword[AW-1:3], 3'd0};
      mf_reset_q <= wr_mf_start || wr_mf_end;
      // Likewise the injection ring: the tail now, the head (dm_fetch's) the cycle after.
      if (wr_if_start) if_start_q <= wslot;
      if (wr_if_end)   if_end_q   <= wslot;
      if (wr_if_start)                  if_tail_q <= wslot;
      else if (wr_if_end)               if_tail_q <= if_start_q;
      else if (wr_if_tail && tail_ok)   if_tail_q <= wslot;
      if_reset_q <= wr_if_start || wr_if_end;
    end
  end
  assign mf_start_o = mf_start_q;
  assign mf_end_o   = mf_end_q;
  assign mf_head_o  = mf_head_q;
  assign mf_reset_o = mf_reset_q;
  assign if_start_o = if_start_q;
  assign if_end_o   = if_end_q;
  assign if_tail_o  = if_tail_q;
  assign if_reset_o = if_reset_q;
  assign err_o      = err_q;
  assign event_o    = |(zero_q & ev_zero_q) || (ev_mf_q && (mf_tail_i != mf_head_q));

  // ------------------------------------------------------------ reads
  logic [63:0] status, sizes, event_en, rword;
  always_comb begin
    status = '0;
    status[dm_pkg::DmStatusDescFreeLsb +: dm_pkg::DmStatusDescFreeW] = desc_free_i;
    status[dm_pkg::DmStatusGetsLsb +: dm_pkg::DmStatusGetsW]         = gets_i;
    status[dm_pkg::DmStatusInjBusyBit]                               = inj_busy_i;
    status[dm_pkg::DmStatusRcvBusyBit]                               = rcv_busy_i;
    status[dm_pkg::DmStatusErrBit]                                   = |err_q;
    sizes = '0;
    sizes[dm_pkg::DmSizesDescSlotsLsb +: dm_pkg::DmSizesDescSlotsW] = 8'(DescSlots);
    sizes[dm_pkg::DmSizesGetSlotsLsb +: dm_pkg::DmSizesGetSlotsW]   = 8'(GetSlots);
    sizes[dm_pkg::DmSizesRowSlotsLsb +: dm_pkg::DmSizesRowSlotsW]   = 8'(RowSlots);
    sizes[dm_pkg::DmSizesCountersLsb +: dm_pkg::DmSizesCountersW]   = 8'(Ctrs);
    event_en = '0;
    event_en[dm_pkg::DmEventZeroLsb +: Ctrs]   = ev_zero_q;
    event_en[dm_pkg::DmEventMemFifoBit]        = ev_mf_q;
    rword    = '0;
    readable = 1'b1;
    if (is_base)       rword = 64'(bases[32'(idx)*AW +: AW]);
    else if (is_count) rword = 64'(counts[32'(idx)*dm_pkg::DmCountW +: dm_pkg::DmCountW]);
    else unique case (addr_i)
      dm_pkg::RegDmStatus:  rword = status;
      dm_pkg::RegDmErr:     rword = 64'(err_q);
      dm_pkg::RegDmZero:    rword = 64'(zero_q);
      dm_pkg::RegDmEventEn: rword = event_en;
      dm_pkg::RegDmMfStart: rword = 64'(mf_start_q);
      dm_pkg::RegDmMfEnd:   rword = 64'(mf_end_q);
      dm_pkg::RegDmMfHead:  rword = 64'(mf_head_q);
      dm_pkg::RegDmMfTail:  rword = 64'(mf_tail_i);
      dm_pkg::RegDmIfStart: rword = 64'(if_start_q);
      dm_pkg::RegDmIfEnd:   rword = 64'(if_end_q);
      dm_pkg::RegDmIfHead:  rword = 64'(if_head_i);
      dm_pkg::RegDmIfTail:  rword = 64'(if_tail_q);
      dm_pkg::RegDmSizes:   rword = sizes;
      default:              readable = 1'b0;  // unmapped, or write-only (zero and DmErrBadAccess)
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rvalid_o <= 1'b0;
      rdata_o  <= '0;
    end else begin
      rvalid_o <= rd;
      if (rd) rdata_o <= rword;
    end
  end

  logic unused;
  assign unused = ^{wdata_i[DescBits-1:64], wword[63:AW], wword[2:0]};

  `CMN_ASSERT_PARAM(g_check_sizes, DescSlots >= 1 && DescSlots <= 255 && GetSlots >= 1 && GetSlots <= 255,
                    $sformatf("dm_regs: DescSlots (%0d) and GetSlots (%0d) must be 1..255", DescSlots, GetSlots))

endmodule : dm_regs

`default_nettype wire
