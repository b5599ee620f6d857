// SPDX-License-Identifier: Apache-2.0
// lk_port: one end of a link's link layer, between the node's network logic and the wires.
// It makes a link that flips bits deliver every flit once, in order and intact, and it
// costs no cycle when nothing goes wrong: a flit passes through in the cycle the node
// registered it, and a received flit reaches the node in the cycle it arrives.
//
// Sending (go-back-N): every flit the node sends gets the next sequence number and a CRC
// (lk_pkg::LkCtlCrc over valid, the flit and its number; 0 in a word without a flit) and
// is kept in a retransmission buffer of RetryFlits flits until the far end acknowledges
// it. The far end's
// acknowledgement is the next number it expects; a NAK (a toggle, so that a repeated word
// is not a second request) sends this end back to that number, and so does a timeout:
// lk_pkg::LkTimeout cycles with flits outstanding and no new acknowledgement. While it
// resends, the node's new flits queue behind in the buffer. After lk_pkg::LkRetryLimit
// timeouts in a row the link is declared down (down_o, sticky): it sends nothing more.
// hold_o asks the node not to start a packet: while fewer than PacketFlits + 2 buffer
// entries are free (a packet already started always fits), or once the link is down.
//
// Receiving: a flit is delivered if its CRC holds and it carries the number expected;
// otherwise it is dropped and, once per loss, a NAK is sent. Duplicates (resent flits that
// had arrived) fail the number check and are dropped.
//
// Side band: the word that travels the other way carries, besides the flit, this end's
// credits as running counts per lane (CntW bits, modulo), the level bits (the tree's
// barrier bits), Ack and Nak, under a CRC of their own. A word that fails it is ignored:
// the next intact count carries every credit returned meanwhile (passed on to the node one
// per lane and cycle), and the levels keep their last intact value.
//
// Serialisation: cpf_i is the link's rate, in cycles per flit (8.8 fixed point; 1.0 or
// less is a flit every cycle, as the link runs by default). A slower link sends a flit
// only when a rate accumulator has earned one (fractional rates average out exactly);
// meanwhile the node's flits queue in the retransmission buffer, whose hold_o bounds
// them, and the side band still goes every cycle. The accumulator saturates while the
// link has nothing to send, so an idle link end stays quiescent.
//
// Counters (lk_pkg::LkTxFlits ... LkState) are on counters_o, for the register block
// (lk_regs) and the machine's service port.
`include "cmn_assert.svh"
`default_nettype none

module lk_port #(
  parameter int DataW       = 66,  // a flit's fields besides valid
  parameter int HdrBit      = 64,  // the bit of those fields that marks a packet's first flit
  parameter int Vcs         = 2,   // credit lanes (one pulse per lane and cycle each way)
  parameter int CntW        = 4,   // bits of a lane's running count: more than the credits a lane can owe
  parameter int LevelW      = 8,   // level bits sharing the link
  parameter int PacketFlits = 33,  // the longest packet the node sends
  // the retransmission buffer, flits: a power of two, above PacketFlits + 1 and below the
  // sequence numbers (checked)
  parameter int RetryFlits  = lk_pkg::LkRetryFlits,
  localparam int SeqW  = lk_pkg::LkSeqW,
  localparam int CtlW  = lk_pkg::LkCtlBits,
  localparam int Depth = RetryFlits,
  localparam int CW    = lk_pkg::LkCountW
) (
  input  wire logic                   clk_i,
  input  wire logic                   rst_ni,
  // node side: the node's registered link outputs and its returned credits, ...
  input  wire logic                   n_valid_i,
  input  wire logic [DataW-1:0]       n_data_i,
  input  wire logic [Vcs-1:0]         n_credit_i,  // pulses: buffers freed at this end
  input  wire logic [LevelW-1:0]      n_level_i,
  output logic                        hold_o,      // do not start a packet
  // ... and what the far end sent, for the node's link inputs
  output logic                        n_valid_o,
  output logic      [DataW-1:0]       n_data_o,
  output logic      [Vcs-1:0]         n_credit_o,  // pulses: credits the far end returned
  output logic      [LevelW-1:0]      n_level_o,
  // the wires, out ...
  output logic                        w_valid_o,
  output logic      [DataW-1:0]       w_data_o,
  output logic      [Vcs*CntW-1:0]    w_cnt_o,
  output logic      [LevelW-1:0]      w_level_o,
  output logic      [CtlW-1:0]        w_ctl_o,
  // ... and in
  input  wire logic                   w_valid_i,
  input  wire logic [DataW-1:0]       w_data_i,
  input  wire logic [Vcs*CntW-1:0]    w_cnt_i,
  input  wire logic [LevelW-1:0]      w_level_i,
  input  wire logic [CtlW-1:0]        w_ctl_i,
  // the link's rate: cycles per flit, 8.8 fixed point (static)
  input  wire logic [15:0]            cpf_i,
  // status
  output logic                        down_o,
  output logic      [8*64-1:0]        counters_o  // counter word k (lk_pkg::LkTxFlits ... LkState) in [k*64 +: 64]
);

  localparam int IdxW   = $clog2(Depth);
  localparam int FlitIn = 1 + DataW + SeqW;
  localparam int SbIn   = Vcs * CntW + LevelW + SeqW + 1;
  localparam int TimerW = $clog2(lk_pkg::LkTimeout + 1);
  localparam int FailW  = $clog2(lk_pkg::LkRetryLimit + 1);

  // ------------------------------------------------------------ sending
  logic [DataW-1:0]  mem_q [Depth];
  logic [SeqW-1:0]   wr_q, send_q, ack_q, hi_q;  // next to write, to send, oldest unacknowledged, never sent
  logic [TimerW-1:0] timer_q;
  logic [FailW-1:0]  fails_q;
  logic              down_q, nak_seen_q;

  logic              backlog, tx_valid, write, first, slot;
  logic [15:0]       acc_q;  // the rate accumulator, 8.8 cycles (serialisation)
  logic [DataW-1:0]  tx_data;
  logic [SeqW-1:0]   tx_seq, held;

  assign held     = wr_q - ack_q;
  assign backlog  = (send_q != wr_q);
  assign write    = n_valid_i && !down_q;
  assign slot     = (cpf_i <= 16'h0100) || (acc_q >= cpf_i);
  assign tx_valid = !down_q && slot && (backlog || n_valid_i);
  assign tx_data  = backlog ? mem_q[send_q[IdxW-1:0]] : n_data_i;
  assign tx_seq   = backlog ? send_q : wr_q;
  assign first    = tx_valid && (tx_seq == hi_q);
  assign hold_o   = down_q || (32'(Depth) - 32'(held) < 32'(PacketFlits + 2));

  logic [lk_pkg::LkCrcW-1:0] tx_crc;
  lk_crc #(.InBits(FlitIn), .CrcW(lk_pkg::LkCrcW), .Poly(16'h1021)) u_tx_crc (
    .en_i(tx_valid), .d_i({tx_valid, tx_data, tx_seq}), .crc_o(tx_crc)
  );

  // ------------------------------------------------------------ receiving
  logic [SeqW-1:0] in_seq, in_ack;
  logic [lk_pkg::LkCrcW-1:0]   in_crc, rx_crc;
  logic [lk_pkg::LkSbCrcW-1:0] in_sbcrc, rx_sbcrc;
  logic            in_nak, flit_ok, sb_ok, accept, bad_flit, seq_drop;

  assign in_seq   = lk_pkg::lk_ctl_seq(w_ctl_i);
  assign in_crc   = lk_pkg::lk_ctl_crc(w_ctl_i);
  assign in_ack   = lk_pkg::lk_ctl_ack(w_ctl_i);
  assign in_nak   = lk_pkg::lk_ctl_nak(w_ctl_i);
  assign in_sbcrc = lk_pkg::lk_ctl_sb_crc(w_ctl_i);

  lk_crc #(.InBits(FlitIn), .CrcW(lk_pkg::LkCrcW), .Poly(16'h1021)) u_rx_crc (
    .en_i(w_valid_i), .d_i({w_valid_i, w_data_i, in_seq}), .crc_o(rx_crc)
  );
  lk_crc #(.InBits(SbIn), .CrcW(lk_pkg::LkSbCrcW), .Poly(16'h07)) u_rx_sbcrc (
    .en_i(1'b1), .d_i({w_cnt_i, w_level_i, in_ack, in_nak}), .crc_o(rx_sbcrc)
  );

  logic [SeqW-1:0] expect_q;
  logic            nak_q, nak_pend_q, alive_q, sb_bad_q;

  assign flit_ok  = (rx_crc == in_crc);
  assign sb_ok    = (rx_sbcrc == in_sbcrc);
  assign accept   = w_valid_i && flit_ok && (in_seq == expect_q);
  assign bad_flit = w_valid_i && !flit_ok;
  assign seq_drop = w_valid_i && flit_ok && (in_seq != expect_q);

  assign n_valid_o = accept;
  assign n_data_o  = w_data_i;

  // Credits: the far end's running counts, turned back into pulses.
  logic [CntW-1:0] cnt_q [Vcs];       // this end's counts, as last sent
  logic [CntW-1:0] seen_q [Vcs];      // the far end's counts, as last received intact
  logic [CntW-1:0] pend_q [Vcs];      // credits received, not yet passed on
  logic [CntW-1:0] pend_next [Vcs];
  logic [Vcs*CntW-1:0] cnt_out;
  logic [LevelW-1:0]   level_q;

  always_comb begin
    for (int v = 0; v < Vcs; v++) begin
      logic [CntW-1:0] total;
      total         = pend_q[v] + (sb_ok ? w_cnt_i[v*CntW +: CntW] - seen_q[v] : '0);
      n_credit_o[v] = (total != '0);
      pend_next[v]  = total - CntW'(n_credit_o[v]);
      cnt_out[v*CntW +: CntW] = cnt_q[v] + CntW'(n_credit_i[v]);
    end
  end
  assign n_level_o = sb_ok ? w_level_i : level_q;

  // ------------------------------------------------------------ the wire out
  logic [lk_pkg::LkSbCrcW-1:0] tx_sbcrc;
  lk_crc #(.InBits(SbIn), .CrcW(lk_pkg::LkSbCrcW), .Poly(16'h07)) u_tx_sbcrc (
    .en_i(1'b1), .d_i({cnt_out, n_level_i, expect_q, nak_q}), .crc_o(tx_sbcrc)
  );

  assign w_valid_o = tx_valid;
  assign w_data_o  = tx_data;
  assign w_cnt_o   = cnt_out;
  assign w_level_o = n_level_i;
  always_comb begin
    w_ctl_o = '0;
    w_ctl_o[lk_pkg::LkCtlSeqLsb   +: lk_pkg::LkCtlSeqW]   = tx_seq;
    w_ctl_o[lk_pkg::LkCtlCrcLsb   +: lk_pkg::LkCtlCrcW]   = tx_crc;
    w_ctl_o[lk_pkg::LkCtlAckLsb   +: lk_pkg::LkCtlAckW]   = expect_q;
    w_ctl_o[lk_pkg::LkCtlNakBit]                          = nak_q;
    w_ctl_o[lk_pkg::LkCtlSbCrcLsb +: lk_pkg::LkCtlSbCrcW] = tx_sbcrc;
  end

  // ------------------------------------------------------------ acknowledgements
  logic [SeqW-1:0] ack_off, send_next;
  logic            ack_ok, progress, nak_new, timeout;

  logic [SeqW-1:0] sent_off, send_off;  // flits sent, and up to the next to send, past the oldest unacknowledged
  assign sent_off  = hi_q - ack_q;
  assign send_off  = send_q - ack_q;
  assign ack_off   = in_ack - ack_q;
  assign ack_ok    = sb_ok && (ack_off <= held);  // a number this end has sent
  assign progress  = ack_ok && (ack_off != '0);
  assign nak_new   = sb_ok && (in_nak != nak_seen_q);
  assign send_next = send_q + SeqW'(tx_valid);
  assign timeout   = !down_q && (send_q != ack_q) && !progress && !nak_new &&
                     (32'(timer_q) == lk_pkg::LkTimeout - 1);

  // ------------------------------------------------------------ counters
  logic [CW-1:0] c_tx_flits, c_tx_packets, c_rx_flits, c_crc, c_seq, c_resent, c_timeouts;
  logic [23:0]   c_naks, c_sb_errors;

  always_ff @(posedge clk_i) begin
    if (write) mem_q[wr_q[IdxW-1:0]] <= n_data_i;
  end

  // Serialisation: a cycle earns 1.0, a flit sent spends cpf_i, and the savings stop at
  // cpf_i + 255/256 (a whole flit plus the fraction carried between flits).
  logic [16:0] acc_earned, acc_cap;
  assign acc_earned = {1'b0, acc_q} - (tx_valid ? {1'b0, cpf_i} : 17'd0) + 17'h00100;
  assign acc_cap    = {1'b0, cpf_i} + 17'h000ff;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)                     acc_q <= '1;
    else if (cpf_i > 16'h0100)       acc_q <= 16'((acc_earned > acc_cap) ? acc_cap : acc_earned);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wr_q       <= '0;
      send_q     <= '0;
      ack_q      <= '0;
      hi_q       <= '0;
      timer_q    <= '0;
      fails_q    <= '0;
      down_q     <= 1'b0;
      nak_seen_q <= 1'b0;
      expect_q   <= '0;
      nak_q      <= 1'b0;
      nak_pend_q <= 1'b0;
      alive_q    <= 1'b0;
      sb_bad_q   <= 1'b0;
      level_q    <= '0;
      for (int v = 0; v < Vcs; v++) begin
        cnt_q[v]  <= '0;
        seen_q[v] <= '0;
        pend_q[v] <= '0;
      end
      c_tx_flits   <= '0;
      c_tx_packets <= '0;
      c_rx_flits   <= '0;
      c_crc        <= '0;
      c_seq        <= '0;
      c_resent     <= '0;
      c_timeouts   <= '0;
      c_naks       <= '0;
      c_sb_errors  <= '0;
    end else begin
      // sending
      wr_q <= wr_q + SeqW'(write);
      hi_q <= hi_q + SeqW'(first);
      if (ack_ok) ack_q <= in_ack;
      if (nak_new && ack_ok)                            send_q <= in_ack;  // go back to what the far end expects
      else if (timeout)                                 send_q <= ack_q;
      else if (ack_ok && ack_off > send_next - ack_q)   send_q <= in_ack;  // acknowledged while being resent
      else                                              send_q <= send_next;
      if (sb_ok) nak_seen_q <= in_nak;
      if (down_q || send_q == ack_q || progress || nak_new || timeout) timer_q <= '0;
      else                                                             timer_q <= timer_q + 1'b1;
      if (progress)     fails_q <= '0;
      else if (timeout) fails_q <= fails_q + 1'b1;
      if (timeout && 32'(fails_q) == lk_pkg::LkRetryLimit - 1) down_q <= 1'b1;

      // receiving
      expect_q <= expect_q + SeqW'(accept);
      if (accept) begin
        nak_pend_q <= 1'b0;
      end else if ((bad_flit || seq_drop) && !nak_pend_q) begin
        nak_pend_q <= 1'b1;
        nak_q      <= !nak_q;
      end
      alive_q  <= alive_q || sb_ok;
      sb_bad_q <= !sb_ok;
      if (sb_ok) level_q <= w_level_i;
      for (int v = 0; v < Vcs; v++) begin
        cnt_q[v]  <= cnt_out[v*CntW +: CntW];
        pend_q[v] <= pend_next[v];
        if (sb_ok) seen_q[v] <= w_cnt_i[v*CntW +: CntW];
      end

      // counters
      c_tx_flits   <= c_tx_flits + CW'(first);
      c_tx_packets <= c_tx_packets + CW'(first && tx_data[HdrBit]);
      c_rx_flits   <= c_rx_flits + CW'(accept);
      c_crc        <= c_crc + CW'(bad_flit);
      c_seq        <= c_seq + CW'(seq_drop);
      c_resent     <= c_resent + CW'(tx_valid && !first);
      c_timeouts   <= c_timeouts + CW'(timeout);
      c_naks       <= c_naks + 24'(nak_new);
      c_sb_errors  <= c_sb_errors + 24'(alive_q && !sb_ok && !sb_bad_q);
    end
  end

  assign down_o = down_q;

  always_comb begin
    logic [63:0] state;
    state = '0;
    state[lk_pkg::LkStateDownBit]                              = down_q;
    state[lk_pkg::LkStateAliveBit]                             = alive_q;
    state[lk_pkg::LkStateHeldLsb +: lk_pkg::LkStateHeldW]         = lk_pkg::LkStateHeldW'(held);
    state[lk_pkg::LkStateNaksLsb +: lk_pkg::LkStateNaksW]         = c_naks;
    state[lk_pkg::LkStateSbErrorsLsb +: lk_pkg::LkStateSbErrorsW] = c_sb_errors;
    counters_o = '0;
    counters_o[32'(lk_pkg::LkTxFlits)*64 +: 64]   = 64'(c_tx_flits);
    counters_o[32'(lk_pkg::LkTxPackets)*64 +: 64] = 64'(c_tx_packets);
    counters_o[32'(lk_pkg::LkRxFlits)*64 +: 64]   = 64'(c_rx_flits);
    counters_o[32'(lk_pkg::LkCrcErrors)*64 +: 64] = 64'(c_crc);
    counters_o[32'(lk_pkg::LkSeqDrops)*64 +: 64]  = 64'(c_seq);
    counters_o[32'(lk_pkg::LkResent)*64 +: 64]    = 64'(c_resent);
    counters_o[32'(lk_pkg::LkTimeouts)*64 +: 64]  = 64'(c_timeouts);
    counters_o[32'(lk_pkg::LkState)*64 +: 64]     = state;
  end

  // The node keeps its packets within the buffer (hold_o): a write never overruns an
  // unacknowledged flit.
  `CMN_ASSERT_NEVER(BufferOverrun, write && 32'(held) == Depth,
                    "retransmission buffer overrun (the node started a packet while held)")
  // Everything sent is written, everything acknowledged was sent.
  `CMN_ASSERT(SeqOrdered, (sent_off <= held) && (send_off <= sent_off),
              $sformatf("sequence numbers out of order (ack %0d, send %0d, sent %0d, written %0d)", ack_q, send_q,
                        hi_q, wr_q))
  // The far end acknowledges only what this end sent, in order: an intact side band's Ack
  // lies between the oldest unacknowledged flit and the next one never sent.
  `CMN_ASSERT_NEVER(AckWithinSent, sb_ok && ack_off > sent_off,
                    $sformatf("acknowledgement %0d outside the flits sent and not yet acknowledged (%0d up to %0d)",
                              in_ack, ack_q, hi_q))
  // A go-back (the far end's NAK, or a timeout) resends from the oldest unacknowledged flit.
  // The last edge's go-back and loss, registered for the checks alone ($past would sample
  // the wire before the cycle's word settles, in a model clocked with one evaluation per
  // cycle); synthesis removes them.
  logic go_back_q, loss_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      go_back_q <= 1'b0;
      loss_q    <= 1'b0;
    end else begin
      go_back_q <= (nak_new && ack_ok) || timeout;
      loss_q    <= (bad_flit || seq_drop) && !nak_pend_q;
    end
  end
  `CMN_ASSERT_NEVER(ResendFromOldest, go_back_q && send_q != ack_q,
                    $sformatf("a go-back resends from %0d, the oldest unacknowledged flit is %0d", send_q, ack_q))
  // The receive side accepts only the number it expects, so it delivers the flits in
  // sequence, none skipped or repeated: each carries the count of those delivered before it.
  `CMN_ASSERT_NEVER(RxInSequence, accept && in_seq != SeqW'(c_rx_flits),
                    $sformatf("flit %0d delivered after %0d flits", in_seq, SeqW'(c_rx_flits)))
  // A NAK asks for one go-back per loss: it toggles only for a dropped flit, and not again
  // until a flit is delivered.
  `CMN_ASSERT_NEVER(NakPerLoss, nak_q != $past(nak_q) && !loss_q,
                    "a NAK sent without a new loss")
  // Down is sticky: a link declared down stays down until reset.
  `CMN_ASSERT_NEVER(DownSticky, $past(down_q) && !down_q, "a link declared down came back up")
  `CMN_ASSERT_KNOWN(OutputsKnown, {hold_o, n_valid_o, n_credit_o, w_valid_o, down_o})

  `CMN_ASSERT_PARAM(g_check_hdr, HdrBit >= 0 && HdrBit < DataW,
                    $sformatf("lk_port: HdrBit (%0d) must name one of the DataW (%0d) flit bits", HdrBit, DataW))
  `CMN_ASSERT_PARAM(g_check_crc, FlitIn <= lk_pkg::LkCrcInBits && SbIn <= lk_pkg::LkSbInBits,
                    $sformatf("lk_port: a flit (%0d bits) or side-band word (%0d bits) is wider than its CRC covers",
                              FlitIn, SbIn))
  `CMN_ASSERT_PARAM(g_check_depth, PacketFlits + 2 <= Depth,
                    $sformatf("lk_port: RetryFlits (%0d) cannot hold a packet of %0d flits and two more", Depth,
                              PacketFlits))
  // The buffer is indexed by the low bits of a flit's sequence number.
  `CMN_ASSERT_PARAM(g_check_retry, Depth >= 2 && (Depth & (Depth - 1)) == 0 && Depth < (1 << SeqW),
                    $sformatf("lk_port: RetryFlits (%0d) must be a power of two below %0d, the sequence numbers",
                              Depth, 1 << SeqW))

endmodule : lk_port

`default_nettype wire
