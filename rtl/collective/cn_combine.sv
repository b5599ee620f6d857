// SPDX-License-Identifier: Apache-2.0
// cn_combine: the upward half of the combining-network adapter. Waits until every
// source that the packet's class route names (the down links of the class and, if the
// node contributes, local injection) offers the same header, then streams the payloads
// through the ALU one flit per cycle towards the class's up link, or into the root's
// turnaround path when the class has no up link. ALU inputs without a source are fed
// by the identity-injection unit.
//
// Several classes may pass through a node (communicators whose members nest, such as
// the world and a subset of it): the packet that starts is the lowest-numbered source's
// whose class has a header of that class at every source of its route; a source whose
// head is of another class is simply not ready for this one. A mismatch is two headers of
// one class at sources of its route that differ (op, size or tag), seen as soon as both
// are there.
//
// Sources:      index 0 = local injection, 1..NumLinks = links 0..NumLinks-1 (packet-source
//               interface of cn_link_rx: header FIFO head + payload FIFO head, with pops).
// Destinations: 0..NumLinks-1 = the links, NumLinks (cn_pkg::RouteUpNone) = turnaround; dst_can_start_i says whether a
//               packet may start there this cycle (credit held, link not in use, the
//               link's VC arbitration granted). want_o/want_dst_o tell the arbitration
//               that a packet is ready to start and where; they never depend on
//               dst_can_start_i.
// Errors halt the engine (nothing more is combined until reset) and are reported once
// as a pulse with the expected header, the offending one and its source.
`include "cmn_assert.svh"
`default_nettype none

module cn_combine #(
  localparam int NumLinks = cn_pkg::NumLinks,
  localparam int NumSrcs  = NumLinks + 1,
  localparam int SrcW     = $clog2(NumSrcs),
  localparam int DstW     = cn_pkg::RouteUpW,  // a link, or RouteUpNone for the turnaround path
  localparam int FlitBits = cn_pkg::FlitBits,
  localparam int HdrBits  = cn_pkg::HdrBits
) (
  input  wire logic                                            clk_i,
  input  wire logic                                            rst_ni,
  input  wire logic [cn_pkg::NumClasses*cn_pkg::RouteBits-1:0] routes_i,
  // packet sources (source s in bits [s*HdrBits +: HdrBits] / [s*FlitBits +: FlitBits])
  input  wire logic [NumSrcs-1:0]                              src_hdr_valid_i,
  input  wire logic [NumSrcs*HdrBits-1:0]                      src_hdr_i,
  output logic      [NumSrcs-1:0]                              src_hdr_pop_o,
  input  wire logic [NumSrcs-1:0]                              src_pl_valid_i,
  input  wire logic [NumSrcs*FlitBits-1:0]                     src_pl_i,
  output logic      [NumSrcs-1:0]                              src_pl_pop_o,
  // destination
  input  wire logic [NumLinks:0]                               dst_can_start_i,
  output logic                                                 want_o,      // a packet is ready to start
  output logic      [DstW-1:0]                                 want_dst_o,  // ... towards this destination
  output logic                                                 out_valid_o,
  output logic                                                 out_hdr_o,
  output logic      [FlitBits-1:0]                             out_data_o,
  output logic      [DstW-1:0]                                 out_dst_o,
  output logic      [NumLinks:0]                               hold_o,  // held by a packet in flight
  // errors
  output logic                                                 err_bad_route_o,
  output logic                                                 err_mismatch_o,
  output logic                                                 err_bad_opcode_o,
  output logic                                                 err_bad_size_o,
  output logic      [HdrBits-1:0]                              err_expected_o,
  output logic      [HdrBits-1:0]                              err_got_o,
  output logic      [SrcW-1:0]                                 err_source_o,
  // observability
  output logic                                                 busy_o,
  output logic      [cn_pkg::HdrOpW-1:0]                       alu_opcode_o,
  output logic      [FlitBits-1:0]                             alu_result_o
);

  localparam int CntW = $clog2(cn_pkg::PayloadFlits);

  // The ALU has three inputs: the local contribution and at most two children (a class with
  // a down link on every link is refused by the route check, as a tree node has an up link).
  `CMN_ASSERT_PARAM(g_check_links, NumLinks == 3,
                    $sformatf("cn_combine: NumLinks (%0d) must be 3, the ALU's inputs less the local one plus the up link",
                              NumLinks))

  typedef enum logic [1:0] {StIdle, StStream, StHalt} state_e;

  state_e          state_q;
  logic [NumSrcs-1:0]        need_q;  // sources of the packet in flight
  logic [DstW-1:0]           dst_q;
  logic [cn_pkg::HdrOpW-1:0] op_q;
  logic [1:0]      width_q;    // how the ALU cuts a flit (cn_pkg::Width*)
  logic [4:0]      opmask_q;   // words per operand - 1 (Width64), a power of two - 1
  logic [1:0]      carry_q;    // ADD carry into the next word of the operand
  logic [2:0]      tie_q;      // MAX/MIN: inputs still tied on the words seen
  logic [CntW-1:0] cnt_q;

  // ------------------------------------------------------------ header stage
  logic [NumSrcs-1:0]           upward;   // source offers a header travelling up
  logic [NumSrcs-1:0]           ready;    // ... and every source of its class offers one of that class
  logic [NumSrcs-1:0]           misrouted;  // ... on a source its class route does not name
  logic [NumSrcs-1:0]           clash;    // ... and another source of its class offers a different one
  logic [cn_pkg::RouteBits-1:0] src_route [NumSrcs];  // the class route of each source's header
  logic [NumSrcs-1:0]           src_need [NumSrcs];   // ... the sources it names
  logic [cn_pkg::HdrClassW-1:0] src_class [NumSrcs];
  logic                         any_ready, any_misrouted, any_clash;
  logic [SrcW-1:0]              lead;     // the packet to start (or report)
  logic [HdrBits-1:0]           lead_hdr;
  logic [NumSrcs-1:0]           need, differs;
  logic                         bad_op, bad_size;
  logic [1:0]                   width;
  logic [4:0]                   opmask;
  logic [DstW-1:0]              dst;
  logic                         go;
  logic [SrcW-1:0]              diff_src;

  // Functions are called from continuous assignments only: Icarus Verilog 11 loops forever
  // when several always_comb processes call the same function.
  for (genvar s = 0; s < NumSrcs; s++) begin : g_src_route
    assign src_class[s] = cn_pkg::hdr_class(src_hdr_i[s*HdrBits +: HdrBits]);
    assign src_route[s] = cn_pkg::route_of(src_hdr_i[s*HdrBits +: HdrBits], routes_i);
    assign src_need[s]  = {cn_pkg::route_down(src_route[s]), src_route[s][cn_pkg::RouteSrcBit]};
  end
  assign upward[0] = src_hdr_valid_i[0];
  for (genvar l = 0; l < NumLinks; l++) begin : g_upward
    assign upward[l+1] = src_hdr_valid_i[l+1] && (cn_pkg::route_up(src_route[l+1]) != DstW'(l));
  end
  // Per source: whether all the sources its class names offer a header of its class, and
  // whether it is one of them.
  for (genvar s = 0; s < NumSrcs; s++) begin : g_src_class
    logic [NumSrcs-1:0]           same;  // sources offering a header of s's class
    logic [NumSrcs-1:0]           other;  // ... that differs from s's
    for (genvar t = 0; t < NumSrcs; t++) begin : g_same
      assign same[t]  = upward[t] && (src_class[t] == src_class[s]);
      assign other[t] = src_hdr_i[t*HdrBits +: HdrBits] != src_hdr_i[s*HdrBits +: HdrBits];
    end
    assign ready[s]     = upward[s] && src_need[s][s] && ((same & src_need[s]) == src_need[s]);
    assign misrouted[s] = upward[s] && !src_need[s][s];
    assign clash[s]     = upward[s] && src_need[s][s] && |(same & src_need[s] & other);
  end
  assign any_ready     = |ready;
  assign any_misrouted = |misrouted;
  assign any_clash     = |clash;
  // The lowest-numbered misrouted source is reported first, then the lowest-numbered source
  // whose class has a mismatch; else the lowest-numbered ready source leads (the last
  // source when none is).
  always_comb begin
    lead = SrcW'(NumSrcs - 1);
    if (any_misrouted) begin
      for (int s = NumSrcs - 2; s >= 0; s--) if (misrouted[s]) lead = SrcW'(s);
    end else if (any_clash) begin
      for (int s = NumSrcs - 2; s >= 0; s--) if (clash[s]) lead = SrcW'(s);
    end else begin
      for (int s = NumSrcs - 2; s >= 0; s--) if (ready[s]) lead = SrcW'(s);
    end
  end
  assign lead_hdr   = src_hdr_i[lead*HdrBits +: HdrBits];
  assign need       = src_need[lead];
  assign bad_op     = (cn_pkg::hdr_op(lead_hdr) > cn_pkg::OpAdd);  // opcodes above OpAdd are reserved
  assign dst        = cn_pkg::route_up(src_route[lead]);  // RouteUpNone selects the turnaround path
  assign want_dst_o = dst;

  // Operand size: 16 or 32 bits are lanes, 64 * 2^k bits are operands of 2^k words.
  always_comb begin
    width    = cn_pkg::Width64;
    opmask   = 5'd0;
    bad_size = 1'b0;
    unique case (lead_hdr[cn_pkg::HdrSizeLsb +: cn_pkg::HdrSizeW])
      7'd0:    width = cn_pkg::Width16;
      7'd1:    width = cn_pkg::Width32;
      7'd3:    opmask = 5'd0;
      7'd7:    opmask = 5'd1;
      7'd15:   opmask = 5'd3;
      7'd31:   opmask = 5'd7;
      7'd63:   opmask = 5'd15;
      7'd127:  opmask = 5'd31;
      default: bad_size = 1'b1;
    endcase
  end

  // The mismatch to report: the lowest source of the lead's class route whose header of the
  // lead's class differs from the lead's.
  always_comb begin
    for (int s = 0; s < NumSrcs; s++)
      differs[s] = upward[s] && need[s] && (src_hdr_i[s*HdrBits +: HdrBits] != lead_hdr) &&
                   (src_class[s] == src_class[lead]);
    diff_src = SrcW'(NumSrcs - 1);
    for (int s = NumSrcs - 2; s >= 0; s--) if (differs[s]) diff_src = SrcW'(s);
  end

  // A ready lead with no mismatch anywhere has every source of its route offering its
  // header. Apart from the block above so that want_o never looks as if it depended on the
  // grant.
  assign want_o = (state_q == StIdle) && any_ready && !any_misrouted && !any_clash && !bad_op && !bad_size;
  assign go     = want_o && dst_can_start_i[dst];

  // ------------------------------------------------------------ payload stage
  logic [FlitBits-1:0] identity, opnd_a, opnd_b, opnd_c, result;
  logic        flits_ready, stream, first;
  logic [1:0]  carry;
  logic [2:0]  tie;

  assign first = ((5'(cnt_q) & opmask_q) == 5'd0);  // the first word of an operand

  cn_identity u_identity (.opcode_i(op_q), .identity_o(identity));

  logic [FlitBits-1:0] pl [NumSrcs];  // source s's payload flit
  for (genvar s = 0; s < NumSrcs; s++) begin : g_pl
    assign pl[s] = src_pl_i[s*FlitBits +: FlitBits];
  end

  always_comb begin
    opnd_a = need_q[0] ? pl[0] : identity;
    unique case (need_q[3:1])
      3'b001:  begin opnd_b = pl[1];    opnd_c = identity; end
      3'b010:  begin opnd_b = pl[2];    opnd_c = identity; end
      3'b100:  begin opnd_b = pl[3];    opnd_c = identity; end
      3'b011:  begin opnd_b = pl[1];    opnd_c = pl[2];    end
      3'b101:  begin opnd_b = pl[1];    opnd_c = pl[3];    end
      3'b110:  begin opnd_b = pl[2];    opnd_c = pl[3];    end
      // 3'b111 (three children) is refused by the route check
      default: begin opnd_b = identity; opnd_c = identity; end
    endcase
    flits_ready = ((src_pl_valid_i & need_q) == need_q);
    stream      = (state_q == StStream) && flits_ready;
  end

  cn_alu u_alu (
    .opcode_i(op_q), .width_i(width_q), .first_i(first), .carry_i(carry_q), .tie_i(tie_q),
    .a_i(opnd_a), .b_i(opnd_b), .c_i(opnd_c), .result_o(result), .carry_o(carry), .tie_o(tie)
  );

  // ------------------------------------------------------------ outputs
  always_comb begin
    src_hdr_pop_o = go ? need : '0;
    src_pl_pop_o  = stream ? need_q : '0;
    out_valid_o   = go || stream;
    out_hdr_o     = go;
    out_data_o    = go ? FlitBits'(lead_hdr) : result;
    out_dst_o     = go ? dst : dst_q;
    hold_o        = (state_q == StStream) ? ((NumLinks + 1)'(1) << dst_q) : '0;
    busy_o        = (state_q != StIdle);
    alu_opcode_o  = op_q;
    alu_result_o  = result;
  end

  logic err_route, err_diff, err_op, err_size;
  assign err_route = (state_q == StIdle) && any_misrouted;
  assign err_diff  = (state_q == StIdle) && !any_misrouted && any_clash;
  assign err_op    = (state_q == StIdle) && any_ready && !any_misrouted && !any_clash && bad_op;
  assign err_size  = (state_q == StIdle) && any_ready && !any_misrouted && !any_clash && !bad_op && bad_size;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q          <= StIdle;
      need_q           <= '0;
      dst_q            <= '0;
      op_q             <= cn_pkg::OpNone;
      width_q          <= cn_pkg::Width64;
      opmask_q         <= '0;
      carry_q          <= '0;
      tie_q            <= '1;
      cnt_q            <= '0;
      err_bad_route_o  <= 1'b0;
      err_mismatch_o   <= 1'b0;
      err_bad_opcode_o <= 1'b0;
      err_bad_size_o   <= 1'b0;
      err_expected_o   <= '0;
      err_got_o        <= '0;
      err_source_o     <= '0;
    end else begin
      err_bad_route_o  <= err_route;
      err_mismatch_o   <= err_diff;
      err_bad_opcode_o <= err_op;
      err_bad_size_o   <= err_size;
      if (err_route || err_diff || err_op || err_size) begin
        state_q        <= StHalt;
        err_expected_o <= lead_hdr;
        err_got_o      <= err_diff ? src_hdr_i[diff_src*HdrBits +: HdrBits] : lead_hdr;
        err_source_o   <= err_diff ? diff_src : lead;
      end else if (go) begin
        state_q <= StStream;
        need_q  <= need;
        dst_q   <= dst;
        op_q     <= cn_pkg::hdr_op(lead_hdr);
        width_q  <= width;
        opmask_q <= opmask;
        cnt_q    <= '0;
      end else if (stream) begin
        cnt_q   <= cnt_q + 1'b1;
        carry_q <= carry;
        tie_q   <= tie;
        if (cnt_q == CntW'(cn_pkg::PayloadFlits - 1)) state_q <= StIdle;
      end
    end
  end

  logic err_any;
  assign err_any = err_bad_route_o || err_mismatch_o || err_bad_opcode_o || err_bad_size_o;

  // Pops: only what a source offers; headers only while idle, payload words only while a
  // packet streams, from every source of the packet at once or from none.
  `CMN_ASSERT(HdrPopOffered, (src_hdr_pop_o & ~src_hdr_valid_i) == '0,
              $sformatf("header popped from a source offering none (pop %b, valid %b)", src_hdr_pop_o,
                        src_hdr_valid_i))
  `CMN_ASSERT(PlPopOffered, (src_pl_pop_o & ~src_pl_valid_i) == '0,
              $sformatf("payload word popped from a source offering none (pop %b, valid %b)", src_pl_pop_o,
                        src_pl_valid_i))
  `CMN_ASSERT_NEVER(HdrPopBusy, src_hdr_pop_o != '0 && state_q != StIdle,
                    "header popped while a packet is in flight or the engine is halted")
  `CMN_ASSERT(PlPopAllSources, src_pl_pop_o == '0 || (state_q == StStream && src_pl_pop_o == need_q),
              $sformatf("payload popped from %b, not from every source of the packet (%b)", src_pl_pop_o, need_q))
  // A packet starts only where it may, on a tree route (cn_regs' route check: at most two
  // children, and the up link is not one of them), holds its one destination to its last
  // payload flit and sends every payload flit there.
  `CMN_ASSERT_NEVER(StartBlocked, out_hdr_o && !dst_can_start_i[out_dst_o],
                    $sformatf("packet started towards destination %0d, which may not start", out_dst_o))
  `CMN_ASSERT_NEVER(StartAllLinks, out_hdr_o && (&src_hdr_pop_o[NumLinks:1]),
                    $sformatf("packet combined from all %0d links (a route has at most two children)", NumLinks))
  `CMN_ASSERT_NEVER(StartUpASource,
                    out_hdr_o && out_dst_o != cn_pkg::RouteUpNone && src_hdr_pop_o[out_dst_o + 1'b1],
                    $sformatf("packet sent up link %0d, one of its sources", out_dst_o))
  `CMN_ASSERT(OneDstHeld, $onehot0(hold_o), $sformatf("more than one destination held (%b)", hold_o))
  `CMN_ASSERT_NEVER(PlToHeldDst, out_valid_o && !out_hdr_o && hold_o != ((NumLinks + 1)'(1) << out_dst_o),
                    $sformatf("payload flit to destination %0d, not the one its packet holds (%b)", out_dst_o,
                              hold_o))
  `CMN_ASSERT_NEVER(EndEarly,
                    $past(state_q) == StStream && state_q != StStream &&
                    !($past(stream) && $past(cnt_q) == CntW'(cn_pkg::PayloadFlits - 1)),
                    "packet ended before its last payload flit")
  `CMN_ASSERT(LegalState, state_q inside {StIdle, StStream, StHalt}, $sformatf("illegal state %0d", state_q))
  // Errors: one pulse, one kind, and the engine halted with it; a halted engine moves nothing.
  `CMN_ASSERT(OneError, $onehot0({err_bad_route_o, err_mismatch_o, err_bad_opcode_o, err_bad_size_o}),
              "more than one error reported at once")
  `CMN_ASSERT_NEVER(ErrorHalts, err_any && (state_q != StHalt || $past(err_any)),
                    "error reported without halting the engine, or twice")
  `CMN_ASSERT_NEVER(HaltedMoves,
                    state_q == StHalt && (want_o || out_valid_o || src_hdr_pop_o != '0 || src_pl_pop_o != '0),
                    "halted engine moved a flit")
  // Handshake outputs are never X (only a 4-state simulator can see this; Verilator has no X).
  `CMN_ASSERT_KNOWN(HandshakeKnown, {want_o, out_valid_o, out_hdr_o, src_hdr_pop_o, src_pl_pop_o, hold_o, busy_o,
                                     err_bad_route_o, err_mismatch_o, err_bad_opcode_o, err_bad_size_o})

endmodule : cn_combine

`default_nettype wire
