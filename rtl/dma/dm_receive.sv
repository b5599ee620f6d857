// SPDX-License-Identifier: Apache-2.0
// dm_receive: the DMA engine's reception side. It takes packets from the router's
// reception FIFO it owns, one at a time: the header (one flit), then the chunks a row (4
// flits) at a time, the first row's first word the DMA word (dm_pkg "word" layout), and
// does what the packet's kind says:
//   put       each row's data words are written at the base of counter Ctr plus the
//             packet's offset (one memory write per row), and Ctr counts down by them;
//   memory    the whole packet, header and padding too, is appended to the reception ring
//   FIFO      (RegDmMfStart .. RegDmMfEnd) once the ring has room for all of it, a write
//             never crossing the ring's end; the tail moves past it when all of it is written;
//   get       the data words are descriptors, queued for the injection side (a descriptor
//             that breaks the rules is dropped and flagged, as RegDmDesc would refuse it).
// A packet whose DMA word breaks the rules (kind 3, no words, a Size that is not the fewest
// chunks for its words, a remote get not of whole descriptors), and a memory FIFO packet the
// ring can never hold, is taken from the FIFO and dropped, and flagged. A packet waits in
// the FIFO while the memory port, the ring or the remote gets' queue has no room, holding
// the network back as a full FIFO does.
`include "cmn_assert.svh"
`default_nettype none

module dm_receive #(
  parameter int CntW = 9,  // width of the reception FIFO's count of flits
  localparam int DescBits = dm_pkg::DmDescWords * 64,
  localparam int RowBits  = dm_pkg::DmPortWords * 64,
  localparam int AW       = dm_pkg::DmAddrW
) (
  input  wire logic                      clk_i,
  input  wire logic                      rst_ni,
  // the router's reception FIFO (tr_router rcv_*): the flits held, the first four at
  // rcv_data_i (flit j at [64*j]); pop rcv_n_o of them
  input  wire logic [CntW-1:0]           rcv_count_i,
  input  wire logic [RowBits-1:0]        rcv_data_i,
  output logic                           rcv_pop_o,
  output logic      [2:0]                rcv_n_o,
  // memory writes: wr_n_o words (1..DmPortWords) at wr_addr_o, word j at [64*j], taken when wr_gnt_i
  output logic                           wr_req_o,
  output logic      [AW-1:0]             wr_addr_o,
  output logic      [2:0]                wr_n_o,
  output logic      [RowBits-1:0]        wr_data_o,
  input  wire logic                      wr_gnt_i,
  // counters: counter ctr_o's base (combinational); count it down by dec_n_o words
  output logic      [dm_pkg::DmCtrW-1:0] ctr_o,
  input  wire logic [AW-1:0]             ctr_base_i,
  output logic                           dec_o,
  output logic      [2:0]                dec_n_o,
  // the remote gets' descriptor queue
  output logic                           get_push_o,
  output logic      [DescBits-1:0]       get_desc_o,
  input  wire logic                      get_full_i,
  // the reception ring: its bounds and software's head; mf_reset_i empties it (tail to start)
  input  wire logic [AW-1:0]             mf_start_i,
  input  wire logic [AW-1:0]             mf_end_i,
  input  wire logic [AW-1:0]             mf_head_i,
  input  wire logic                      mf_reset_i,
  output logic      [AW-1:0]             mf_tail_o,
  // a packet dropped: its DMA word broke the rules; a memory FIFO packet the ring cannot hold
  output logic                           bad_packet_o,
  output logic                           mf_err_o,
  output logic                           busy_o
);

  typedef enum logic [2:0] {
    SIdle,    // waiting for a header
    SFirst,   // the header taken; waiting for the first row, whose DMA word decides
    SPut,     // writing a put's rows
    SMfHdr,   // a memory FIFO packet: waiting for room, then writing its header
    SMf,      // writing its rows into the ring
    SGet,     // collecting descriptors
    SDrop     // taking the rest of a dropped packet from the FIFO
  } state_e;
  state_e state_q;

  logic [63:0]               hdr_q;
  logic [3:0]                c_q;       // the packet's chunks (rows)
  logic [3:0]                r_q;       // rows taken from the FIFO
  logic [1:0]                lane_q;    // the next word of the row at the FIFO's head
  logic [5:0]                left_q;    // data words still to write or collect
  logic [dm_pkg::DmCtrW-1:0] ctr_q;
  logic [AW-1:0]             addr_q;    // a put's next address; a memory FIFO packet's next place
  logic [AW-1:0]             tail_q;
  logic [DescBits-64-1:0]    desc_q;    // the words of a descriptor collected so far
  logic [1:0]                dcnt_q;    // how many

  logic have_hdr, have_row;
  logic [tr_pkg::TrHdrSizeW-1:0] in_size;  // the Size of the header at the FIFO's head
  assign in_size  = tr_pkg::tr_hdr_size(rcv_data_i[63:0]);
  assign have_hdr = (rcv_count_i != '0);
  assign have_row = (32'(rcv_count_i) >= 4);

  // ------------------------------------------------------------ the DMA word
  logic [63:0]                     word;
  logic [1:0]                      w_kind;
  logic [dm_pkg::DmWordWordsW-1:0] w_words;
  logic                            w_ok;
  assign word    = rcv_data_i[63:0];
  assign w_kind  = dm_pkg::dm_word_kind(word);
  assign w_words = dm_pkg::dm_word_words(word);
  assign w_ok    = (w_kind != 2'd3) && (w_words != '0) &&
                   (dm_pkg::chunks(w_words) == c_q) &&
                   (w_kind != dm_pkg::DmKindGet || w_words[1:0] == 2'd0);

  // ------------------------------------------------------------ the ring
  // Bytes of the ring, and bytes free: one word always stays free, so that a full ring and
  // an empty one differ.
  logic [AW-1:0] ring_size, ring_used, ring_free, pkt_bytes, to_end;
  logic [tr_pkg::PacketFlitsW-1:0] pkt_flits;  // the packet's, header included
  assign pkt_flits = tr_pkg::packet_flits(hdr_q);
  assign ring_size = (mf_end_i > mf_start_i) ? mf_end_i - mf_start_i : '0;
  assign ring_used = (tail_q >= mf_head_i) ? tail_q - mf_head_i : ring_size - (mf_head_i - tail_q);
  assign ring_free = (ring_size > ring_used + AW'(8)) ? ring_size - ring_used - AW'(8) : '0;
  assign pkt_bytes = AW'(8) * AW'(pkt_flits);
  assign to_end    = mf_end_i - addr_q;
  function automatic logic [AW-1:0] ring_next(input logic [AW-1:0] p, input logic [AW-1:0] end_, input logic [AW-1:0] start);
    ring_next = (p == end_) ? start : p;
  endfunction

  // ------------------------------------------------------------ the row at the FIFO's head
  // Words lane_q.. of it, moved down to lane 0, for a write of k of them.
  logic [RowBits-1:0] shifted;
  assign shifted = rcv_data_i >> (64 * 32'(lane_q));
  logic [2:0] room_in_row, k_put, k_mf;
  assign room_in_row = 3'd4 - 3'(lane_q);
  assign k_put = (6'(room_in_row) < left_q) ? room_in_row : 3'(left_q);
  assign k_mf  = (to_end < AW'(8 * room_in_row)) ? 3'(to_end >> 3) : room_in_row;
  // Where the ring's next word goes after a write of k_mf words.
  logic [AW-1:0] mf_next;
  assign mf_next = ring_next(addr_q + AW'(8 * 32'(k_mf)), mf_end_i, mf_start_i);

  // ------------------------------------------------------------ the state machine
  logic pop_hdr, pop_row, wr, mf_hdr_go, get_take, get_full_desc, last_row;
  logic [dm_pkg::DmCtrW-1:0] w_ctr;
  assign w_ctr     = dm_pkg::dm_word_ctr(word);
  assign last_row  = (r_q == c_q - 4'd1);

  always_comb begin
    pop_hdr   = 1'b0;
    pop_row   = 1'b0;
    wr_req_o  = 1'b0;
    wr_addr_o = addr_q;
    wr_n_o    = 3'd0;
    wr_data_o = shifted;
    mf_hdr_go = 1'b0;
    get_take  = 1'b0;
    unique case (state_q)
      SIdle:  pop_hdr = have_hdr;
      SPut: begin
        wr_req_o = have_row;
        wr_n_o   = k_put;
        pop_row  = have_row && wr_gnt_i;  // a put's row is one write
      end
      SMfHdr: begin
        mf_hdr_go = ring_free >= pkt_bytes;
        wr_req_o  = mf_hdr_go;
        wr_n_o    = 3'd1;
        wr_data_o = RowBits'(hdr_q);
      end
      SMf: begin
        wr_req_o = have_row;
        wr_n_o   = k_mf;
        pop_row  = have_row && wr_gnt_i && (3'(lane_q) + k_mf == 3'd4);
      end
      SGet: begin
        get_take = have_row && !(dcnt_q == 2'd3 && get_full_i);
        pop_row  = get_take && (lane_q == 2'd3 || left_q == 6'd1);
      end
      SDrop:  pop_row = have_row;
      default: ;
    endcase
  end
  assign wr = wr_req_o && wr_gnt_i;

  assign rcv_pop_o = pop_hdr || pop_row;
  assign rcv_n_o   = pop_hdr ? 3'd1 : 3'd4;

  // Counter ctr_o: the DMA word's while it is looked at, the packet's after.
  assign ctr_o   = (state_q == SFirst) ? w_ctr : ctr_q;
  assign dec_o   = (state_q == SPut) && wr;
  assign dec_n_o = k_put;

  // A remote get's descriptor: the three words collected and this one.
  assign get_full_desc = get_take && (dcnt_q == 2'd3);
  assign get_desc_o    = {rcv_data_i[64*32'(lane_q) +: 64], desc_q};
  assign get_push_o    = get_full_desc && dm_pkg::desc_ok(get_desc_o);

  logic first_bad, first_mf_bad;
  assign first_bad    = (state_q == SFirst) && have_row && !w_ok;
  assign first_mf_bad = (state_q == SFirst) && have_row && w_ok && (w_kind == dm_pkg::DmKindMemFifo) &&
                        (ring_size < pkt_bytes + AW'(8));
  assign bad_packet_o = first_bad || (get_full_desc && !dm_pkg::desc_ok(get_desc_o));
  assign mf_err_o     = first_mf_bad;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= SIdle;
      hdr_q   <= '0;
      c_q     <= '0;
      r_q     <= '0;
      lane_q  <= '0;
      left_q  <= '0;
      ctr_q   <= '0;
      addr_q  <= '0;
      tail_q  <= '0;
      desc_q  <= '0;
      dcnt_q  <= '0;
    end else begin
      if (mf_reset_i) tail_q <= mf_start_i;
      unique case (state_q)
        SIdle: if (pop_hdr) begin
          hdr_q   <= rcv_data_i[63:0];
          c_q     <= {1'b0, in_size} + 4'd1;
          r_q     <= '0;
          state_q <= SFirst;
        end
        SFirst: if (have_row) begin
          ctr_q  <= w_ctr;
          left_q <= 6'(w_words);
          lane_q <= 2'd1;
          dcnt_q <= '0;
          if (first_bad || first_mf_bad) begin
            state_q <= SDrop;
          end else begin
            unique case (w_kind)
              dm_pkg::DmKindPut: begin
                addr_q  <= ctr_base_i + dm_pkg::dm_word_offset(word);
                state_q <= SPut;
              end
              dm_pkg::DmKindMemFifo: begin
                addr_q  <= tail_q;
                lane_q  <= 2'd0;  // the ring takes the whole packet, the DMA word too
                state_q <= SMfHdr;
              end
              default: state_q <= SGet;
            endcase
          end
        end
        SPut: if (wr) begin
          addr_q <= addr_q + AW'(8 * 32'(k_put));
          left_q <= left_q - 6'(k_put);
          lane_q <= '0;
          r_q    <= r_q + 4'd1;
          if (left_q == 6'(k_put)) state_q <= SIdle;
        end
        SMfHdr: if (wr) begin
          addr_q  <= ring_next(addr_q + AW'(8), mf_end_i, mf_start_i);
          state_q <= SMf;
        end
        SMf: if (wr) begin
          addr_q <= mf_next;
          lane_q <= lane_q + 2'(k_mf);
          if (pop_row) begin
            r_q <= r_q + 4'd1;
            if (last_row) begin
              tail_q  <= mf_next;
              state_q <= SIdle;
            end
          end
        end
        SGet: if (get_take) begin
          // The fourth word goes straight into the queue with the three held here.
          if (dcnt_q != 2'd3) desc_q[64*32'(dcnt_q) +: 64] <= rcv_data_i[64*32'(lane_q) +: 64];
          dcnt_q <= dcnt_q + 2'd1;
          lane_q <= lane_q + 2'd1;
          left_q <= left_q - 6'd1;
          if (pop_row) r_q <= r_q + 4'd1;
          if (left_q == 6'd1) state_q <= SIdle;
        end
        SDrop: if (pop_row) begin
          r_q <= r_q + 4'd1;
          if (last_row) state_q <= SIdle;
        end
        default: state_q <= SIdle;
      endcase
    end
  end

  assign mf_tail_o = tail_q;
  assign busy_o    = (state_q != SIdle);

  // ------------------------------------------------------------ checks
  // A write never leaves the ring: it stops at its end, and the next starts at its start.
  `CMN_ASSERT_NEVER(WriteOutsideRing, (state_q == SMf || state_q == SMfHdr) && wr_req_o &&
                                      (wr_addr_o < mf_start_i || wr_addr_o + AW'(8 * 32'(wr_n_o)) > mf_end_i),
                    "a memory FIFO write outside the ring")
  // Every memory write moves at least one word.
  `CMN_ASSERT_NEVER(EmptyWrite, wr_req_o && wr_n_o == 3'd0, "a memory write of no words")
  // A row is taken from the FIFO only once all of it is there.
  `CMN_ASSERT_NEVER(PopShortRow, pop_row && !have_row, "a row popped before all of it arrived")

  `CMN_ASSERT_PARAM(g_check_cnt, CntW >= 6 && CntW <= 16,
                    $sformatf("dm_receive: CntW (%0d) must be 6..16", CntW))

endmodule : dm_receive

`default_nettype wire
