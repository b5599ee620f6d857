// SPDX-License-Identifier: Apache-2.0
// dm_engine: the torus DMA engine (docs/dma.md), in the manner of Blue Gene/P's. Beside a
// node's router it owns Fifos of the router's injection FIFOs and as many of its reception
// FIFOs, and reaches the node's memory through a port of its own, so that whole regions
// move between memories without a processor touching a word:
//   dm_regs     the registers (window cn_pkg::WinDma): descriptors, counters, the
//               reception ring, the injection ring, events and errors;
//   dm_fetch    the injection ring: descriptors software wrote into node memory, read
//               into software's descriptor queue;
//   dm_inject   descriptors (software's queue and the remote gets', in turn) cut into
//               packets, read from memory and pushed into the injection FIFOs in turn;
//   dm_rcv_select the reception FIFOs as one, a whole packet at a time;
//   dm_receive  packets from it written into memory (a put), appended to the ring (a
//               memory FIFO packet) or queued as descriptors (a remote get).
// The memory port has a read side (the injection side's and the injection ring's, the
// ring's reads first: a response goes to whichever asked, in order) and a write side (the
// reception side's), each taking a request a cycle of up to four consecutive words; a read's words
// come back in request order, at least a cycle after the request was taken. Its latency
// and bandwidth are the memory's (the machine's model of it, which may share its bandwidth
// between the two) and are invisible here except as time.
`include "cmn_assert.svh"
`default_nettype none

module dm_engine #(
  parameter int Fifos     = 1,                    // the router's injection FIFOs it owns, and reception FIFOs
  parameter int DescSlots = dm_pkg::DmDescSlots,  // descriptors software may queue
  parameter int GetSlots  = dm_pkg::DmGetSlots,   // descriptors remote gets may queue
  parameter int RowSlots  = dm_pkg::DmRowSlots,   // memory reads in flight
  parameter int FetchSlots = dm_pkg::DmFetchSlots, // injection ring descriptors read and not yet queued
  parameter int InjFreeW  = 8,                    // an injection FIFO's free count (tr_router: $clog2(InjFlits + 1))
  parameter int RcvCntW   = 9,                    // a reception FIFO's count (tr_router: $clog2(RcvFlits + 1))
  localparam int AddrW    = $bits(dm_pkg::RegDmStatus),
  localparam int BusBits  = dm_pkg::DmDescWords * 64,
  localparam int RowBits  = dm_pkg::DmPortWords * 64,
  localparam int AW       = dm_pkg::DmAddrW
) (
  input  wire logic                  clk_i,
  input  wire logic                  rst_ni,
  // register bus (already decoded to the window; the ports named as tr_regs's)
  input  wire logic                  req_i,
  input  wire logic                  we_i,
  input  wire logic [AddrW-1:0]      addr_i,
  input  wire logic [BusBits-1:0]    wdata_i,
  output logic                       rvalid_o,
  output logic      [BusBits-1:0]    rdata_o,
  // the router's injection FIFOs for the engine (tr_router dma_inj_*: FIFO k's push bit k,
  // its free count at [k*InjFreeW])
  output logic      [Fifos-1:0]          inj_push_o,
  output logic      [2:0]                inj_n_o,
  output logic      [RowBits-1:0]        inj_data_o,
  input  wire logic [Fifos*InjFreeW-1:0] inj_free_i,
  // its reception FIFOs (tr_router dma_rcv_*: FIFO k's pop bit k, its flits at
  // [k*RowBits], its count at [k*RcvCntW])
  output logic      [Fifos-1:0]          rcv_pop_o,
  output logic      [2:0]                rcv_n_o,
  input  wire logic [Fifos*RowBits-1:0]  rcv_data_i,
  input  wire logic [Fifos*RcvCntW-1:0]  rcv_count_i,
  // the memory port: a read of mem_rd_n_o words (1..4) at byte address mem_rd_addr_o,
  // taken when mem_rd_gnt_i, its words back on mem_rd_valid_i (word j at [64*j]); a write
  // of mem_wr_n_o words at mem_wr_addr_o carrying them, taken when mem_wr_gnt_i
  output logic                       mem_rd_req_o,
  output logic      [AW-1:0]         mem_rd_addr_o,
  output logic      [2:0]            mem_rd_n_o,
  input  wire logic                  mem_rd_gnt_i,
  input  wire logic                  mem_rd_valid_i,
  input  wire logic [RowBits-1:0]    mem_rd_data_i,
  output logic                       mem_wr_req_o,
  output logic      [AW-1:0]         mem_wr_addr_o,
  output logic      [2:0]            mem_wr_n_o,
  output logic      [RowBits-1:0]    mem_wr_data_o,
  input  wire logic                  mem_wr_gnt_i,
  // an enabled condition holds (RegDmEventEn); any sticky error bit
  output logic                       event_o,
  output logic                       err_o
);

  // ------------------------------------------------------------ descriptor queues
  logic               sw_push, sw_pop, sw_full, sw_empty;
  logic [BusBits-1:0] sw_in, sw_head;
  logic [$clog2(DescSlots + 1)-1:0] sw_count;
  // Software's queue takes RegDmDesc's writes and, in the cycles without one, the injection
  // ring's descriptors.
  logic               reg_push, ring_valid, ring_take;
  logic [BusBits-1:0] reg_desc, ring_desc;
  assign ring_take = ring_valid && !reg_push && !sw_full;
  assign sw_push   = reg_push || ring_take;
  assign sw_in     = reg_push ? reg_desc : ring_desc;
  cmn_fifo #(.Width(BusBits), .Depth(DescSlots)) u_sw_desc (
    .clk_i, .rst_ni, .push_i(sw_push), .data_i(sw_in), .pop_i(sw_pop), .data_o(sw_head),
    .full_o(sw_full), .empty_o(sw_empty), .count_o(sw_count)
  );
  logic               get_push, get_pop, get_full, get_empty;
  logic [BusBits-1:0] get_in, get_head;
  logic [$clog2(GetSlots + 1)-1:0] get_count;
  cmn_fifo #(.Width(BusBits), .Depth(GetSlots)) u_get_desc (
    .clk_i, .rst_ni, .push_i(get_push), .data_i(get_in), .pop_i(get_pop), .data_o(get_head),
    .full_o(get_full), .empty_o(get_empty), .count_o(get_count)
  );

  // ------------------------------------------------------------ the three parts
  logic                      inj_dec, rcv_dec, inj_busy, rcv_busy, bad_packet, mf_err, mf_reset;
  logic [dm_pkg::DmCtrW-1:0] inj_ctr, rcv_ctr;
  logic [2:0]                inj_dec_n, rcv_dec_n;
  logic [AW-1:0]             rcv_base, mf_start, mf_end, mf_head, mf_tail;
  logic [AW-1:0]             if_start, if_end, if_tail, if_head;
  logic                      if_reset, if_bad, fetch_busy;
  logic [63:0]               rdata;
  logic [dm_pkg::DmErrBits-1:0] err;

  dm_regs #(.DescSlots(DescSlots), .GetSlots(GetSlots), .RowSlots(RowSlots)) u_regs (
    .clk_i, .rst_ni,
    .req_i, .we_i, .addr_i, .wdata_i, .rvalid_o, .rdata_o(rdata),
    .desc_push_o(reg_push), .desc_o(reg_desc), .desc_free_i(8'(DescSlots) - 8'(sw_count)),
    .gets_i(8'(get_count)), .inj_busy_i(inj_busy || fetch_busy), .rcv_busy_i(rcv_busy),
    .inj_dec_i(inj_dec), .inj_ctr_i(inj_ctr), .inj_n_i(inj_dec_n),
    .rcv_dec_i(rcv_dec), .rcv_ctr_i(rcv_ctr), .rcv_n_i(rcv_dec_n), .rcv_base_o(rcv_base),
    .mf_start_o(mf_start), .mf_end_o(mf_end), .mf_head_o(mf_head), .mf_reset_o(mf_reset), .mf_tail_i(mf_tail),
    .if_start_o(if_start), .if_end_o(if_end), .if_tail_o(if_tail), .if_reset_o(if_reset), .if_head_i(if_head),
    .if_bad_i(if_bad),
    .bad_packet_i(bad_packet), .mf_err_i(mf_err), .event_o, .err_o(err)
  );
  assign rdata_o = BusBits'(rdata);
  assign err_o       = |err;

  // ------------------------------------------------------------ the memory port's read side
  // The ring's reads go first (there are at most FetchSlots of them at a time, against the
  // injection side's stream of rows); a queue of who asked routes each response.
  logic               f_req, f_gnt, f_valid, i_req, i_gnt, i_valid;
  logic [AW-1:0]      f_addr, i_addr;
  logic [2:0]         i_n;
  assign mem_rd_req_o  = f_req || i_req;
  assign mem_rd_addr_o = f_req ? f_addr : i_addr;
  assign mem_rd_n_o    = f_req ? 3'(dm_pkg::DmDescWords) : i_n;
  assign f_gnt         = mem_rd_gnt_i && f_req;
  assign i_gnt         = mem_rd_gnt_i && !f_req;
  logic who_empty, who_full, who_ring;
  logic [$clog2(RowSlots + FetchSlots + 1)-1:0] who_count;
  cmn_fifo #(.Width(1), .Depth(RowSlots + FetchSlots)) u_who (
    .clk_i, .rst_ni, .push_i(mem_rd_gnt_i), .data_i(f_req), .pop_i(mem_rd_valid_i), .data_o(who_ring),
    .full_o(who_full), .empty_o(who_empty), .count_o(who_count)
  );
  assign f_valid = mem_rd_valid_i && who_ring;
  assign i_valid = mem_rd_valid_i && !who_ring;

  dm_fetch #(.FetchSlots(FetchSlots)) u_fetch (
    .clk_i, .rst_ni,
    .start_i(if_start), .end_i(if_end), .tail_i(if_tail), .reset_i(if_reset), .head_o(if_head),
    .rd_req_o(f_req), .rd_addr_o(f_addr), .rd_gnt_i(f_gnt), .rd_valid_i(f_valid), .rd_data_i(mem_rd_data_i),
    .desc_valid_o(ring_valid), .desc_o(ring_desc), .desc_take_i(ring_take), .bad_o(if_bad), .busy_o(fetch_busy)
  );

  dm_inject #(.RowSlots(RowSlots), .Fifos(Fifos), .FreeW(InjFreeW)) u_inject (
    .clk_i, .rst_ni,
    .sw_valid_i(!sw_empty), .sw_desc_i(sw_head), .sw_pop_o(sw_pop),
    .get_valid_i(!get_empty), .get_desc_i(get_head), .get_pop_o(get_pop),
    .rd_req_o(i_req), .rd_addr_o(i_addr), .rd_n_o(i_n), .rd_gnt_i(i_gnt),
    .rd_valid_i(i_valid), .rd_data_i(mem_rd_data_i),
    .inj_push_o, .inj_n_o, .inj_data_o, .inj_free_i,
    .dec_o(inj_dec), .dec_ctr_o(inj_ctr), .dec_n_o(inj_dec_n), .busy_o(inj_busy)
  );

  logic [RcvCntW-1:0] sel_count;
  logic [RowBits-1:0] sel_data;
  logic               sel_pop;
  logic [2:0]         sel_n;
  dm_rcv_select #(.Fifos(Fifos), .CntW(RcvCntW)) u_rcv_select (
    .clk_i, .rst_ni, .rcv_count_i, .rcv_data_i, .rcv_pop_o, .rcv_n_o,
    .count_o(sel_count), .data_o(sel_data), .pop_i(sel_pop), .n_i(sel_n)
  );

  dm_receive #(.CntW(RcvCntW)) u_receive (
    .clk_i, .rst_ni,
    .rcv_count_i(sel_count), .rcv_data_i(sel_data), .rcv_pop_o(sel_pop), .rcv_n_o(sel_n),
    .wr_req_o(mem_wr_req_o), .wr_addr_o(mem_wr_addr_o), .wr_n_o(mem_wr_n_o), .wr_data_o(mem_wr_data_o),
    .wr_gnt_i(mem_wr_gnt_i),
    .ctr_o(rcv_ctr), .ctr_base_i(rcv_base), .dec_o(rcv_dec), .dec_n_o(rcv_dec_n),
    .get_push_o(get_push), .get_desc_o(get_in), .get_full_i(get_full),
    .mf_start_i(mf_start), .mf_end_i(mf_end), .mf_head_i(mf_head), .mf_reset_i(mf_reset), .mf_tail_o(mf_tail),
    .bad_packet_o(bad_packet), .mf_err_o(mf_err), .busy_o(rcv_busy)
  );

  logic unused;
  assign unused = ^{who_full, who_count};

  // A grant answers a request.
  `CMN_ASSERT_NEVER(ReadGrantUnasked, mem_rd_gnt_i && !mem_rd_req_o, "the memory port granted no read")
  `CMN_ASSERT_NEVER(WriteGrantUnasked, mem_wr_gnt_i && !mem_wr_req_o, "the memory port granted no write")
  `CMN_ASSERT_NEVER(ResponseUnasked, mem_rd_valid_i && who_empty, "a read response arrived with no read in flight")

  // The sizes' limits are checked where they matter: dm_regs (the 8-bit fields of
  // RegDmSizes and RegDmStatus) and dm_inject.

endmodule : dm_engine

`default_nettype wire
