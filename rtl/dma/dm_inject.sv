// SPDX-License-Identifier: Apache-2.0
// dm_inject: the DMA engine's injection side. It takes descriptors from two queues, the
// one software writes (RegDmDesc) and the one remote gets fill, holding one of each at a
// time, and cuts each into packets of up to DmMaxWords data words, a packet of one and
// then one of the other when both hold one (so a short descriptor of one queue never
// waits for all of a long one of the other: a remote get software asks for goes out while
// the engine answers another node's get of a mebibyte), reads the
// words through the memory port and pushes every packet into one of the router's injection
// FIFOs it owns (Fifos of them, each packet into the next one in turn with room for all of
// it, so that the router drains them at once): the header alone, then the packet's chunks
// a row (4 flits) at a time, the first row the DMA word and the first three data words,
// the last row padded with zeros.
//
// Two halves, decoupled by a queue of entries (one per push, in order):
//   the request half starts a packet once an injection FIFO has room for all of it beside
//   what earlier packets have reserved there, queues its header entry, then one entry per row,
//   issuing the row's memory read as it does (up to RowSlots reads in flight);
//   the push half pushes the entry at the queue's head: a header at once, a row when its
//   read data has come back (into a response queue, since the memory port's responses
//   cannot wait). A row pushed counts the descriptor's local counter down by its words.
// So the reads of later packets go on while the earlier ones' data comes back, and the
// memory port's latency costs a packet nothing once the pipe is full.
`include "cmn_assert.svh"
`default_nettype none

module dm_inject #(
  parameter int RowSlots = dm_pkg::DmRowSlots,  // memory reads in flight
  parameter int Fifos    = 1,                   // the router's injection FIFOs it owns
  parameter int FreeW    = 8,                   // width of an injection FIFO's free count
  localparam int DescBits = dm_pkg::DmDescWords * 64,
  localparam int RowBits  = dm_pkg::DmPortWords * 64
) (
  input  wire logic                       clk_i,
  input  wire logic                       rst_ni,
  // descriptors: software's queue and the remote gets' queue (heads, first-word fall-through)
  input  wire logic                       sw_valid_i,
  input  wire logic [DescBits-1:0]        sw_desc_i,
  output logic                            sw_pop_o,
  input  wire logic                       get_valid_i,
  input  wire logic [DescBits-1:0]        get_desc_i,
  output logic                            get_pop_o,
  // memory reads: a request of rd_n_o words (1..DmPortWords) from rd_addr_o, taken when
  // rd_gnt_i; the words come back in request order on rd_valid_i, word j at [64*j]
  output logic                            rd_req_o,
  output logic      [dm_pkg::DmAddrW-1:0] rd_addr_o,
  output logic      [2:0]                 rd_n_o,
  input  wire logic                       rd_gnt_i,
  input  wire logic                       rd_valid_i,
  input  wire logic [RowBits-1:0]         rd_data_i,
  // the router's injection FIFOs (tr_router dma_inj_*): inj_n_o flits (1..4) into FIFO k
  // (inj_push_o[k]), flit j at [64*j]; FIFO k's free flits at [k*FreeW +: FreeW]
  output logic      [Fifos-1:0]           inj_push_o,
  output logic      [2:0]                 inj_n_o,
  output logic      [RowBits-1:0]         inj_data_o,
  input  wire logic [Fifos*FreeW-1:0]     inj_free_i,
  // the local counter: count counter dec_ctr_o down by dec_n_o words
  output logic                            dec_o,
  output logic      [dm_pkg::DmCtrW-1:0]  dec_ctr_o,
  output logic      [2:0]                 dec_n_o,
  output logic                            busy_o
);

  localparam int SlotW  = $clog2(RowSlots + 1);
  localparam int ResvW  = (FreeW > 6) ? FreeW + 1 : 7;
  localparam int FifoW  = (Fifos > 1) ? $clog2(Fifos) : 1;

  // ------------------------------------------------------------ the descriptors in hand
  // One from each queue (index kSw: software's, kGet: the remote gets'), each with packets
  // still to start; queue q's fields at [q*W +: W].
  localparam int kSw = 0, kGet = 1;
  localparam int AddrW = dm_pkg::DmAddrW, CountW = dm_pkg::DmCountW;
  logic [1:0]          cur_q;      // descriptor q has a packet to start
  logic [2*64-1:0]     cur_w0_q;   // its word 0
  logic [2*AddrW-1:0]  addr_q;     // the first word of its next packet
  logic [2*CountW-1:0] left_q;     // words not yet in a started packet
  logic [2*AddrW-1:0]  off_q;      // the offset its next packet carries
  logic                turn_get_q; // the remote gets' descriptor goes first next time

  // ------------------------------------------------------------ the packet being requested
  logic                          pkt_q;      // a packet is started and not all its rows requested
  logic [dm_pkg::DmWordWordsW-1:0] n_q;      // its data words
  logic [3:0]                    c_q;        // its chunks (rows)
  logic [3:0]                    row_q;      // the next row to request (0..c_q-1)
  logic [dm_pkg::DmAddrW-1:0]    pkt_addr_q; // the next word it reads
  logic [dm_pkg::DmCtrW-1:0]     pkt_ctr_q;  // the local counter its rows count down

  // ------------------------------------------------------------ entries (one per push)
  // {FIFO, header?, first row?, words read (0 for a header), counter, word}: a header
  // entry's word is the header, a first row's the DMA word.
  localparam int EntryBits = FifoW + 1 + 1 + 3 + dm_pkg::DmCtrW + 64;
  logic                  ent_push, ent_pop, ent_full, ent_empty;
  logic [EntryBits-1:0]  ent_in, ent_head;
  logic [$clog2(RowSlots + 2 + 1)-1:0] ent_count;
  cmn_fifo #(.Width(EntryBits), .Depth(RowSlots + 2)) u_entries (
    .clk_i, .rst_ni, .push_i(ent_push), .data_i(ent_in), .pop_i(ent_pop), .data_o(ent_head),
    .full_o(ent_full), .empty_o(ent_empty), .count_o(ent_count)
  );

  // Read data back from memory, waiting for its entry to reach the head. Reads are issued
  // only while the reads in flight and the rows waiting here stay within RowSlots, so it
  // never overflows.
  logic                rsp_pop, rsp_full, rsp_empty;
  logic [RowBits-1:0]  rsp_head;
  logic [SlotW-1:0]    rsp_count;
  cmn_fifo #(.Width(RowBits), .Depth(RowSlots)) u_responses (
    .clk_i, .rst_ni, .push_i(rd_valid_i), .data_i(rd_data_i), .pop_i(rsp_pop), .data_o(rsp_head),
    .full_o(rsp_full), .empty_o(rsp_empty), .count_o(rsp_count)
  );
  logic [SlotW-1:0] inflight_q;  // reads granted whose data has not been pushed

  // ------------------------------------------------------------ request half
  // Each queue's head is taken as soon as that queue's descriptor has started its last packet.
  logic [1:0]            load;
  logic [2*DescBits-1:0] new_desc;  // queue q's head at [q*DescBits +: DescBits]
  assign new_desc   = {get_desc_i, sw_desc_i};
  assign load       = ~cur_q & {get_valid_i, sw_valid_i};
  assign sw_pop_o   = load[kSw];
  assign get_pop_o  = load[kGet];

  // The descriptor the next packet comes from: the one holding packets, or by turns.
  logic              sel;
  logic [63:0]       sel_w0;
  logic [AddrW-1:0]  sel_addr, sel_off;
  logic [CountW-1:0] sel_left;
  assign sel      = cur_q[kGet] && (turn_get_q || !cur_q[kSw]);
  // Two-way multiplexers (a part-select at `sel*W` costs Yosys a shifter: 330 cells more).
  assign sel_w0   = sel ? cur_w0_q[kGet*64 +: 64] : cur_w0_q[kSw*64 +: 64];
  assign sel_addr = sel ? addr_q[kGet*AddrW +: AddrW] : addr_q[kSw*AddrW +: AddrW];
  assign sel_off  = sel ? off_q[kGet*AddrW +: AddrW] : off_q[kSw*AddrW +: AddrW];
  assign sel_left = sel ? left_q[kGet*CountW +: CountW] : left_q[kSw*CountW +: CountW];

  // The next packet: its data words, chunks and flits.
  logic [dm_pkg::DmWordWordsW-1:0] next_n;
  logic [3:0]                      next_c;
  logic [ResvW-1:0]                next_flits;
  logic [Fifos*ResvW-1:0]          resv_q;          // FIFO k's reserved flits at [k*ResvW +: ResvW]
  logic [tr_pkg::PacketFlitsW-1:0] next_pkt_flits;  // its flits, header included (from its header)
  assign next_n     = (32'(sel_left) > dm_pkg::DmMaxWords) ? dm_pkg::DmWordWordsW'(dm_pkg::DmMaxWords)
                                                           : dm_pkg::DmWordWordsW'(sel_left);
  assign next_c     = dm_pkg::chunks(next_n);
  assign next_flits = ResvW'(next_pkt_flits);
  // The FIFO for the next packet: the next in turn with room for all of it beside the
  // flits reserved there by packets started and not all pushed.
  logic [Fifos-1:0] room_ok;
  logic [FifoW-1:0] pick;
  logic             fits, start;
  for (genvar k = 0; k < Fifos; k++) begin : g_room
    logic [ResvW-1:0] free, resv;
    assign free       = ResvW'(inj_free_i[k*FreeW +: FreeW]);
    assign resv       = resv_q[k*ResvW +: ResvW];
    assign room_ok[k] = (free > resv) && (free - resv >= next_flits);
  end
  logic [Fifos-1:0] unused_grant;
  cmn_rr_arb #(.N(Fifos)) u_turn (
    .clk_i, .rst_ni, .req_i(room_ok), .take_i(start), .grant_o(unused_grant), .idx_o(pick)
  );
  assign fits = |room_ok;

  // The header of the next packet and the DMA word it carries.
  logic [63:0] hdr, dma_word;
  always_comb begin
    hdr = '0;
    hdr[tr_pkg::TrHdrDstLsb +: tr_pkg::TrHdrDstW]     = dm_pkg::dm_desc_dst(sel_w0);
    hdr[tr_pkg::TrHdrDetermBit]                       = dm_pkg::dm_desc_determ(sel_w0);
    hdr[tr_pkg::TrHdrPrioBit]                         = dm_pkg::dm_desc_prio(sel_w0);
    hdr[tr_pkg::TrHdrSizeLsb +: tr_pkg::TrHdrSizeW]   = tr_pkg::TrHdrSizeW'(next_c - 4'd1);
    hdr[tr_pkg::TrHdrSwTagLsb +: tr_pkg::TrHdrSwTagW] = tr_pkg::TrHdrSwTagW'(dm_pkg::DmSwTag);
    dma_word = '0;
    dma_word[dm_pkg::DmWordKindLsb +: dm_pkg::DmWordKindW]     = dm_pkg::dm_desc_kind(sel_w0);
    dma_word[dm_pkg::DmWordWordsLsb +: dm_pkg::DmWordWordsW]   = next_n;
    dma_word[dm_pkg::DmWordCtrLsb +: dm_pkg::DmWordCtrW]       = dm_pkg::dm_desc_remote_ctr(sel_w0);
    dma_word[dm_pkg::DmWordOffsetLsb +: dm_pkg::DmWordOffsetW] = sel_off;
  end
  assign next_pkt_flits = tr_pkg::packet_flits(hdr);
  // The DMA word goes with the packet's first row; it is kept from the packet's start.
  logic [63:0] dma_word_q;

  // A row r covers payload words 4r..4r+3 (payload word 0 is the DMA word, data word j is
  // payload word j + 1): data words lo..hi-1, never none (the last row holds the last word).
  logic [5:0] row_lo, row_hi, row_words;
  assign row_lo    = (row_q == 4'd0) ? 6'd0 : 6'(4 * row_q) - 6'd1;
  assign row_hi    = (6'(4 * row_q) + 6'd3 < 6'(n_q)) ? 6'(4 * row_q) + 6'd3 : 6'(n_q);
  assign row_words = row_hi - row_lo;

  logic issue;
  // Start a packet: its header entry goes into the queue now.
  assign start = |cur_q && !pkt_q && !ent_full && fits;
  // Request the next row: its read, and its entry once the read is taken.
  assign rd_req_o  = pkt_q && !ent_full && (32'(inflight_q) < RowSlots);
  assign issue     = rd_req_o && rd_gnt_i;
  assign rd_addr_o = pkt_addr_q;
  assign rd_n_o    = row_words[2:0];

  assign ent_push = start || issue;
  logic [FifoW-1:0] pkt_fifo_q;  // the packet's FIFO
  assign ent_in   = start ? {pick, 1'b1, 1'b0, 3'd0, dm_pkg::DmCtrW'(0), hdr}
                          : {pkt_fifo_q, 1'b0, row_q == 4'd0, row_words[2:0], pkt_ctr_q, dma_word_q};

  logic pkt_last_row;
  assign pkt_last_row = (row_q == c_q - 4'd1);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cur_q      <= '0;
      cur_w0_q   <= '0;
      addr_q     <= '0;
      left_q     <= '0;
      off_q      <= '0;
      turn_get_q <= 1'b0;
      pkt_q      <= 1'b0;
      n_q        <= '0;
      c_q        <= '0;
      row_q      <= '0;
      pkt_addr_q <= '0;
      pkt_ctr_q  <= '0;
      dma_word_q <= '0;
      pkt_fifo_q <= '0;
    end else begin
      for (int q = 0; q < 2; q++) begin
        if (load[q]) begin
          cur_q[q]                  <= 1'b1;
          cur_w0_q[q*64 +: 64]      <= new_desc[q*DescBits +: 64];
          addr_q[q*AddrW +: AddrW]  <= new_desc[q*DescBits + dm_pkg::DmDescAddrWord*64 +: AddrW];
          left_q[q*CountW +: CountW] <= new_desc[q*DescBits + dm_pkg::DmDescWordsWord*64 +: CountW];
          off_q[q*AddrW +: AddrW]   <= new_desc[q*DescBits + dm_pkg::DmDescOffsetWord*64 +: AddrW];
        end
      end
      if (start) begin
        pkt_q      <= 1'b1;
        n_q        <= next_n;
        c_q        <= next_c;
        row_q      <= '0;
        pkt_addr_q <= sel_addr;
        pkt_ctr_q  <= dm_pkg::dm_desc_local_ctr(sel_w0);
        dma_word_q <= dma_word;
        pkt_fifo_q <= pick;
        turn_get_q <= !sel;
        addr_q[sel*AddrW +: AddrW]   <= sel_addr + AddrW'(8 * next_n);
        left_q[sel*CountW +: CountW] <= sel_left - CountW'(next_n);
        off_q[sel*AddrW +: AddrW]    <= sel_off + AddrW'(8 * next_n);
        // Its last packet started: the queue's next descriptor may come in.
        if (sel_left == CountW'(next_n)) cur_q[sel] <= 1'b0;
      end
      if (issue) begin
        pkt_addr_q <= pkt_addr_q + dm_pkg::DmAddrW'(8 * row_words);
        row_q      <= row_q + 4'd1;
        if (pkt_last_row) pkt_q <= 1'b0;
      end
    end
  end

  // ------------------------------------------------------------ push half
  logic [FifoW-1:0] e_fifo;
  logic       e_hdr, e_first;
  logic [2:0] e_words;
  logic [dm_pkg::DmCtrW-1:0] e_ctr;
  logic [63:0] e_word;
  assign {e_fifo, e_hdr, e_first, e_words, e_ctr, e_word} = ent_head;

  logic push;
  assign push    = !ent_empty && (e_hdr || !rsp_empty);
  assign ent_pop = push;
  assign rsp_pop = push && !e_hdr;

  // A row's flits: the words read, after the DMA word in the first row; zeros past them.
  logic [RowBits-1:0] row;
  always_comb begin
    row = '0;
    for (int j = 0; j < dm_pkg::DmPortWords; j++) begin
      if (e_first) begin
        if (j == 0)                  row[0 +: 64]      = e_word;
        else if (3'(j) <= e_words)   row[j*64 +: 64]   = rsp_head[(j-1)*64 +: 64];
      end else if (3'(j) < e_words) begin
        row[j*64 +: 64] = rsp_head[j*64 +: 64];
      end
    end
  end

  assign inj_push_o = push ? Fifos'(1) << e_fifo : '0;
  assign inj_n_o    = e_hdr ? 3'd1 : 3'd4;
  assign inj_data_o = e_hdr ? RowBits'(e_word) : row;
  assign dec_o      = push && !e_hdr;
  assign dec_ctr_o  = e_ctr;
  assign dec_n_o    = e_words;

  // Flits reserved in each injection FIFO: a packet's all at its start, less each push.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      resv_q     <= '0;
      inflight_q <= '0;
    end else begin
      for (int k = 0; k < Fifos; k++)
        resv_q[k*ResvW +: ResvW] <= resv_q[k*ResvW +: ResvW] + ((start && pick == FifoW'(k)) ? next_flits : '0) -
                                    (inj_push_o[k] ? ResvW'(inj_n_o) : '0);
      inflight_q <= inflight_q + SlotW'(issue) - SlotW'(rsp_pop);
    end
  end

  assign busy_o = |cur_q || pkt_q || !ent_empty || (inflight_q != '0);

  logic unused;
  // The descriptor's unused high bits are zero (dm_pkg::desc_ok).
  assign unused = ^{rsp_full, ent_count, sw_desc_i[255:240], sw_desc_i[191:160], sw_desc_i[127:112],
                    get_desc_i[255:240], get_desc_i[191:160], get_desc_i[127:112]};

  // ------------------------------------------------------------ checks
  // The memory port answers only reads it was asked for, and never more than fit.
  `CMN_ASSERT_NEVER(ResponseUnasked, rd_valid_i && (32'(inflight_q) <= 32'(rsp_count)),
                    "a read response arrived with no read in flight")
  // The flits reserved for packets started and not all pushed are always free in their
  // injection FIFO (nothing else pushes into it), so no push finds it without room.
  for (genvar k = 0; k < Fifos; k++) begin : g_resv
    `CMN_ASSERT_NEVER(ReserveOverFree, resv_q[k*ResvW +: ResvW] > ResvW'(inj_free_i[k*FreeW +: FreeW]),
                      $sformatf("injection FIFO %0d: %0d flits reserved, %0d free", k, resv_q[k*ResvW +: ResvW],
                                inj_free_i[k*FreeW +: FreeW]))
  end

  `CMN_ASSERT_PARAM(g_check_fifos, Fifos >= 1 && Fifos <= tr_pkg::TrRcvNormalMax,
                    $sformatf("dm_inject: Fifos (%0d) must be 1..%0d", Fifos, tr_pkg::TrRcvNormalMax))
  `CMN_ASSERT_PARAM(g_check_rows, RowSlots >= 1 && RowSlots <= 255,
                    $sformatf("dm_inject: RowSlots (%0d) must be 1..255", RowSlots))

endmodule : dm_inject

`default_nettype wire
