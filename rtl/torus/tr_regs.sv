// SPDX-License-Identifier: Apache-2.0
// tr_regs: the torus router's register block on the node's register bus (its window
// cn_pkg::WinTr). It turns writes into pushes into the router's injection FIFOs (a header
// is one word, a chunk is four: one vector write) and reads into pops from its reception
// FIFOs (reception slot k: normal FIFO k below RcvFifos, the high-priority FIFO at slot
// TrRcvPrio; the slots between are unmapped), shows the FIFO levels and the node's torus
// configuration, and keeps the sticky error bits (the router's error pulses and its own).
// Every access completes in the cycle it is presented; read data is registered and valid on
// rvalid_o the cycle after. A refused access (no room, too little to read, an unmapped
// address, a write to a read-only register) changes nothing but its error bit.
// Addresses and fields: tr_pkg, generated from regmap/collnet.json like firmware/regmap.hpp.
`include "cmn_assert.svh"
`default_nettype none

module tr_regs #(
  parameter int  BusBits  = 256,  // the register bus: four 64-bit words
  parameter int  InjFlits = tr_pkg::TrInjFlits,  // each injection FIFO's depth (the router's), flits
  parameter int  RcvFlits = tr_pkg::TrRcvFlits,  // each reception FIFO's depth, flits
  parameter int  RcvFifos = 1,  // normal reception FIFOs (the router's), besides the high-priority one
  // Reported in RegTrSizes only (the link buffers and link ends are the router's and the side's).
  parameter int  DynFlits   = 64,
  parameter int  EscSlots   = 3,
  parameter int  RetryFlits = 128,  // lk_pkg::LkRetryFlits
  parameter int  Dma        = 0,    // the DMA engine's FIFOs each way (0: no engine; its registers are its own, WinDma)
  localparam int InjCntW  = $clog2(InjFlits + 1),
  localparam int RcvCntW  = $clog2(RcvFlits + 1),
  localparam int NumRcv   = RcvFifos + 1,  // the router's reception FIFOs: normal ones, then high priority
  localparam int AddrW    = $bits(tr_pkg::RegTrStatus)  // the register bus's address (cn_pkg::BusAddrBits)
) (
  input  wire logic                                clk_i,
  input  wire logic                                rst_ni,
  // register bus
  input  wire logic                                req_i,
  input  wire logic                                we_i,
  input  wire logic [AddrW-1:0]                    addr_i,
  input  wire logic [BusBits-1:0]                  wdata_i,
  output logic                                     rvalid_o,
  output logic      [BusBits-1:0]                  rdata_o,
  // configuration shown in RegTrConfig
  input  wire logic [3*tr_pkg::CoordW-1:0]         my_i,
  input  wire logic [3*tr_pkg::CoordW-1:0]         dims_i,
  input  wire logic [5:0]                          link_down_i,
  // the router's injection and reception FIFOs
  output logic      [tr_pkg::TrInjFifos-1:0]       inj_push_o,
  output logic      [2:0]                          inj_n_o,
  output logic      [4*64-1:0]                     inj_data_o,
  input  wire logic [tr_pkg::TrInjFifos*InjCntW-1:0] inj_free_i,
  output logic      [NumRcv-1:0]                   rcv_pop_o,
  output logic      [2:0]                          rcv_n_o,
  input  wire logic [NumRcv*4*64-1:0]              rcv_data_i,
  input  wire logic [NumRcv*RcvCntW-1:0]           rcv_count_i,
  // errors
  input  wire logic [tr_pkg::TrRouterErrBits-1:0]  router_err_i,  // pulses
  input  wire logic                                link_down_err_i,  // some link end is down (lk_port)
  input  wire logic                                link_bad_i,       // a bad access to the link or performance counters (a pulse)
  output logic      [tr_pkg::TrErrBits-1:0]        err_o,         // sticky
  // RegTrStatus as wires, for an on-chip agent that streams packets (see systemc/traffic)
  output logic      [63:0]                         status_o
);

  // ------------------------------------------------------------ decode
  // FIFO k of a group answers at the group's base + 8*k (the groups' decodes: tr_pkg).
  logic       wr, rd, in_inj_hdr, in_inj_chunk, in_rcv_hdr, in_rcv_chunk;
  logic [1:0] fifo;
  assign wr   = req_i && we_i;
  assign rd   = req_i && !we_i;
  assign fifo = tr_pkg::reg_tr_inj_hdr_index(addr_i);  // the chunk group's too (same stride)
  assign in_inj_hdr   = tr_pkg::in_reg_tr_inj_hdr(addr_i);
  assign in_inj_chunk = tr_pkg::in_reg_tr_inj_chunk(addr_i);
  assign in_rcv_hdr   = tr_pkg::in_reg_tr_rcv_hdr(addr_i);
  assign in_rcv_chunk = tr_pkg::in_reg_tr_rcv_chunk(addr_i);

  logic wr_inj, wr_clear, wr_bad, rd_rcv, rd_plain, rd_bad;
  assign wr_inj   = wr && (in_inj_hdr || in_inj_chunk);
  assign wr_clear = wr && (addr_i == tr_pkg::RegTrErrClear);
  assign wr_bad   = wr && !wr_inj && !wr_clear;
  // A reception slot names a FIFO the side has: normal FIFO k below RcvFifos, the
  // high-priority FIFO at TrRcvPrio (its last).
  localparam int SlotW = $bits(tr_pkg::reg_tr_rcv_hdr_index(AddrW'(0)));
  logic [SlotW-1:0] slot;
  logic             slot_built;
  assign slot       = tr_pkg::reg_tr_rcv_hdr_index(addr_i);  // the chunk group's too
  assign slot_built = (32'(slot) < RcvFifos) || (32'(slot) == tr_pkg::TrRcvPrio);
  assign rd_rcv   = rd && (in_rcv_hdr || in_rcv_chunk) && slot_built;
  assign rd_plain = rd && ((addr_i == tr_pkg::RegTrStatus) || (addr_i == tr_pkg::RegTrErr) ||
                           (addr_i == tr_pkg::RegTrConfig) || (addr_i == tr_pkg::RegTrSizes) ||
                           (addr_i == tr_pkg::RegTrRcvLevels));
  assign rd_bad   = rd && !rd_rcv && !rd_plain;

  // ------------------------------------------------------------ injection
  logic [2:0]         want_n;
  logic [1:0]         ik;  // the injection FIFO addressed (3 is not one: refused above)
  logic [InjCntW-1:0] free;
  logic               inj_ok;
  assign want_n     = in_inj_chunk ? 3'd4 : 3'd1;
  assign ik         = (fifo == 2'd3) ? 2'd0 : fifo;
  assign free       = inj_free_i[32'(ik)*InjCntW +: InjCntW];
  assign inj_ok     = wr_inj && (32'(free) >= 32'(want_n));
  assign inj_push_o = inj_ok ? tr_pkg::TrInjFifos'(1 << fifo) : '0;
  assign inj_n_o    = want_n;
  assign inj_data_o = wdata_i[4*64-1:0];

  // ------------------------------------------------------------ reception
  localparam int RkW = $clog2(NumRcv + 1);
  logic [RkW-1:0]     rk;  // the reception FIFO addressed (when the slot is built)
  logic [RcvCntW-1:0] held;
  logic               rcv_ok;
  assign rk        = (32'(slot) == tr_pkg::TrRcvPrio) ? RkW'(RcvFifos) : RkW'(slot);
  assign held      = (32'(rk) < NumRcv) ? rcv_count_i[32'(rk)*RcvCntW +: RcvCntW] : '0;
  assign rcv_ok    = rd_rcv && (32'(held) >= (in_rcv_chunk ? 4 : 1));
  assign rcv_pop_o = rcv_ok ? NumRcv'(1) << rk : '0;
  assign rcv_n_o   = in_rcv_chunk ? 3'd4 : 3'd1;

  // ------------------------------------------------------------ status and errors
  // RegTrStatus field widths from tr_pkg (generated from regmap/collnet.json).
  localparam int InjFreeW  = tr_pkg::TrStatusInjFreeW;
  localparam int RcvCountW = tr_pkg::TrStatusRcvCountW;
  logic [tr_pkg::TrErrBits-1:0] err_q, err_set;
  logic [63:0]                  levels;  // RegTrRcvLevels
  always_comb begin
    status_o = '0;
    for (int k = 0; k < tr_pkg::TrInjFifos; k++)
      status_o[tr_pkg::TrStatusInjFreeLsb + tr_pkg::TrStatusInjFreeStride*k +: InjFreeW] =
          InjFreeW'(inj_free_i[k*InjCntW +: InjCntW]);
    // RcvCount[0]: normal FIFO 0; RcvCount[1]: the high-priority FIFO; RcvMore: the other
    // normal FIFOs holding flits (their levels in RegTrRcvLevels).
    status_o[tr_pkg::TrStatusRcvCountLsb +: RcvCountW] = RcvCountW'(rcv_count_i[0 +: RcvCntW]);
    status_o[tr_pkg::TrStatusRcvCountLsb + tr_pkg::TrStatusRcvCountStride +: RcvCountW] =
        RcvCountW'(rcv_count_i[RcvFifos*RcvCntW +: RcvCntW]);
    for (int k = 1; k < RcvFifos; k++)
      status_o[tr_pkg::TrStatusRcvMoreLsb + k - 1] = (rcv_count_i[k*RcvCntW +: RcvCntW] != '0);
    levels = '0;
    for (int k = 1; k < RcvFifos; k++)
      levels[tr_pkg::TrRcvLevelsCountLsb + tr_pkg::TrRcvLevelsCountStride*(k-1) +: tr_pkg::TrRcvLevelsCountW] =
          tr_pkg::TrRcvLevelsCountW'(rcv_count_i[k*RcvCntW +: RcvCntW]);
    status_o[tr_pkg::TrStatusErrBit] = |err_q;

    err_set = '0;
    err_set[tr_pkg::TrRouterErrBits-1:0]   = router_err_i;
    err_set[tr_pkg::TrErrInjFull]         = wr_inj && !inj_ok;
    err_set[tr_pkg::TrErrRcvEmpty]        = rd_rcv && !rcv_ok;
    err_set[tr_pkg::TrErrBadAccess]       = wr_bad || rd_bad || link_bad_i;
    err_set[tr_pkg::TrErrLinkDown]        = link_down_err_i;
  end
  assign err_o = err_q;

  // RegTrSizes: the side's sizes as built (its parameters), for software to read.
  localparam logic [63:0] SizesWord =
      (64'(DynFlits) << tr_pkg::TrSizesDynFlitsLsb) | (64'(EscSlots) << tr_pkg::TrSizesEscSlotsLsb) |
      (64'(InjFlits) << tr_pkg::TrSizesInjFlitsLsb) | (64'(RcvFlits) << tr_pkg::TrSizesRcvFlitsLsb) |
      (64'(RetryFlits) << tr_pkg::TrSizesRetryFlitsLsb) | (64'(RcvFifos) << tr_pkg::TrSizesRcvFifosLsb) |
      (64'(Dma) << tr_pkg::TrSizesDmaLsb);

  logic [63:0] rword;
  always_comb begin
    rword = '0;
    if (addr_i == tr_pkg::RegTrStatus)      rword = status_o;
    else if (addr_i == tr_pkg::RegTrErr)    rword = 64'(err_q);
    else if (addr_i == tr_pkg::RegTrConfig) rword = {10'd0, link_down_i, dims_i, my_i};
    else if (addr_i == tr_pkg::RegTrSizes)  rword = SizesWord;
    else if (addr_i == tr_pkg::RegTrRcvLevels) rword = levels;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      err_q    <= '0;
      rvalid_o <= 1'b0;
      rdata_o  <= '0;
    end else begin
      err_q    <= (wr_clear ? (err_q & ~wdata_i[tr_pkg::TrErrBits-1:0]) : err_q) | err_set;
      rvalid_o <= rd;
      if (rd) begin
        if (rcv_ok) rdata_o <= in_rcv_chunk ? BusBits'(rcv_data_i[32'(rk)*256 +: 256])
                                            : BusBits'(rcv_data_i[32'(rk)*256 +: 64]);
        else        rdata_o <= BusBits'(rword);
      end
    end
  end

  // RegTrStatus reports the FIFO levels in fields of fixed width: the depths must fit them.
  `CMN_ASSERT_PARAM(g_check_inj_status, InjFlits < (1 << InjFreeW),
                    $sformatf("tr_regs: InjFlits (%0d) does not fit RegTrStatus's %0d-bit free-flit fields",
                              InjFlits, InjFreeW))
  `CMN_ASSERT_PARAM(g_check_rcv_fifos, RcvFifos >= 1 && RcvFifos <= tr_pkg::TrRcvNormalMax,
                    $sformatf("tr_regs: RcvFifos (%0d) must be 1..%0d, the register map's reception slots",
                              RcvFifos, tr_pkg::TrRcvNormalMax))
  `CMN_ASSERT_PARAM(g_check_rcv_status, RcvFlits < (1 << RcvCountW) && RcvFlits < (1 << tr_pkg::TrRcvLevelsCountW),
                    $sformatf("tr_regs: RcvFlits (%0d) does not fit RegTrStatus's %0d-bit level fields",
                              RcvFlits, RcvCountW))

  // The router's FIFOs report levels within their depths, and the block pushes only into
  // room for every flit it pushes and pops only flits held.
  for (genvar k = 0; k < tr_pkg::TrInjFifos; k++) begin : g_inj_check
    logic [InjCntW-1:0] room;
    assign room = inj_free_i[k*InjCntW +: InjCntW];
    `CMN_ASSERT(InjFreeWithinDepth, 32'(room) <= InjFlits,
                $sformatf("injection FIFO %0d reports %0d flits free of %0d", k, room, InjFlits))
    `CMN_ASSERT_NEVER(PushWithoutRoom, inj_push_o[k] && 32'(room) < 32'(inj_n_o),
                      $sformatf("%0d flits pushed into injection FIFO %0d with %0d free", inj_n_o, k, room))
  end
  for (genvar k = 0; k < NumRcv; k++) begin : g_rcv_check
    logic [RcvCntW-1:0] count;
    assign count = rcv_count_i[k*RcvCntW +: RcvCntW];
    `CMN_ASSERT(RcvCountWithinDepth, 32'(count) <= RcvFlits,
                $sformatf("reception FIFO %0d reports %0d flits held of %0d", k, count, RcvFlits))
    `CMN_ASSERT_NEVER(PopBeyondHeld, rcv_pop_o[k] && 32'(count) < 32'(rcv_n_o),
                      $sformatf("%0d flits popped from reception FIFO %0d holding %0d", rcv_n_o, k, count))
  end
  // Sticky errors: a bit falls only when a write to RegTrErrClear names it (the bits the last
  // edge's write cleared, registered for the check alone: $past would sample the bus before
  // the cycle's request settles, in a model clocked with one evaluation per cycle).
  logic [tr_pkg::TrErrBits-1:0] err_clear_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) err_clear_q <= '0;
    else         err_clear_q <= wr_clear ? wdata_i[tr_pkg::TrErrBits-1:0] : '0;
  end
  `CMN_ASSERT_NEVER(ErrorsSticky, ($past(err_q) & ~err_q & ~err_clear_q) != '0,
                    $sformatf("error bits %b cleared without a write naming them", $past(err_q) & ~err_q))

endmodule : tr_regs

`default_nettype wire
