// SPDX-License-Identifier: Apache-2.0
// tr_link_rx: the receive side of one torus link: one buffer per virtual channel (virtual
// cut-through: the sender only starts a packet its buffer has room for), framing checks
// per VC, and credits back to the sender. The dynamic VCs' buffers are counted in flits
// (a credit per flit that leaves); the escape and priority VCs' buffers in packet slots
// of tr_pkg::MaxPacketFlits flits (a credit per packet that has left), which is what
// their bubble rule counts.
//
// A link that is down (flush_i: marked down, or declared down by its link layer) brings
// nothing more: its input is ignored, and a packet it left half received on a VC is
// completed with all-zero flits, one per cycle on each such VC (its room was reserved when
// its header came in), so that it leaves the buffer and frees the outputs it holds
// further on; its destination finds it damaged (the end-to-end check of the traffic).
//
// Link in:  valid_i, hdr_i (first flit of a packet), vc_i, data_i; flush_i
// Link out: credit_o[v], a registered pulse per flit (VC 0, 1) or packet (VC 2, 3) freed
// Heads:    head_valid_o[v] / head_o (VC v in [v*64 +: 64]) / pop_i[v]
`include "cmn_assert.svh"
`default_nettype none

module tr_link_rx #(
  parameter int DynFlits = 64,  // buffer of each dynamic VC, in flits (at least one packet; checked)
  parameter int EscSlots = 3    // buffer of the escape and priority VCs, in packet slots (at least 2; checked)
) (
  input  wire logic                                           clk_i,
  input  wire logic                                           rst_ni,
  input  wire logic                                           valid_i,
  input  wire logic                                           hdr_i,
  input  wire logic [1:0]                                     vc_i,
  input  wire logic [tr_pkg::TrFlitBits-1:0]                  data_i,
  input  wire logic                                           flush_i,  // the link is down
  output logic      [tr_pkg::TrNumVcs-1:0]                    credit_o,
  output logic      [tr_pkg::TrNumVcs-1:0]                    head_valid_o,
  output logic      [tr_pkg::TrNumVcs*tr_pkg::TrFlitBits-1:0] head_o,
  input  wire logic [tr_pkg::TrNumVcs-1:0]                    pop_i,
  // a flit broke framing (header inside a packet of its VC, payload outside one) or found
  // its VC's buffer full (the sender ignored its credits); the flit is dropped
  output logic                                                proto_err_o
);

  localparam int Vcs  = tr_pkg::TrNumVcs;
  localparam int LenW = tr_pkg::PacketFlitsW;

  logic [LenW-1:0] in_left_q [Vcs];   // flits of the packet still expected in on VC v
  logic [LenW-1:0] out_left_q [Vcs];  // flits of the packet at the head still to leave
  logic [Vcs-1:0]  full, empty, push, pop, frame_err, space_err, last, fill;
  logic [tr_pkg::TrFlitBits-1:0] in_data;

  // The checks look only at the VC a flit arrives on: a cycle that brings nothing costs
  // the simulator next to nothing.
  logic ferr, serr;  // the arriving flit breaks framing, or finds its buffer full
  always_comb begin
    ferr = 1'b0;
    serr = 1'b0;
    if (valid_i && !flush_i) begin
      ferr = hdr_i ? (in_left_q[vc_i] != '0) : (in_left_q[vc_i] == '0);
      serr = !ferr && full[vc_i];
    end
  end
  for (genvar v = 0; v < Vcs; v++) begin : g_in
    logic mine;
    assign mine         = valid_i && !flush_i && (vc_i == 2'(v));
    assign frame_err[v] = mine && ferr;
    assign space_err[v] = mine && serr;
    assign fill[v]      = flush_i && (in_left_q[v] != '0);
    assign push[v]      = fill[v] || (mine && !ferr && !serr);
  end
  assign in_data = flush_i ? '0 : data_i;
  assign pop = pop_i & ~empty;

  for (genvar v = 0; v < Vcs; v++) begin : g_vc
    localparam int Depth = (v < 2) ? DynFlits : EscSlots * tr_pkg::MaxPacketFlits;
    logic [$clog2(Depth + 1)-1:0] count;  // read by the assertions only
    logic [LenW-1:0]              head_len;
    cmn_fifo #(.Width(tr_pkg::TrFlitBits), .Depth(Depth)) u_buf (
      .clk_i, .rst_ni, .push_i(push[v]), .data_i(in_data),
      .pop_i(pop[v]), .data_o(head_o[v*tr_pkg::TrFlitBits +: tr_pkg::TrFlitBits]),
      .full_o(full[v]), .empty_o(empty[v]), .count_o(count)
    );
    assign head_len = tr_pkg::packet_flits(head_o[v*tr_pkg::TrFlitBits +: tr_pkg::TrFlitBits]);
    // The flit leaving is the last of its packet (a packet has at least 5 flits, so never
    // its header).
    assign last[v] = (out_left_q[v] == LenW'(1));
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni)                              out_left_q[v] <= '0;
      else if (pop[v] && out_left_q[v] == '0)   out_left_q[v] <= head_len - LenW'(1);
      else if (pop[v])                          out_left_q[v] <= out_left_q[v] - LenW'(1);
    end
  end
  assign head_valid_o = ~empty;

  logic [1:0] unused_last;  // the dynamic VCs return a credit per flit
  assign unused_last = last[1:0];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int v = 0; v < Vcs; v++) in_left_q[v] <= '0;
      credit_o    <= '0;
      proto_err_o <= 1'b0;
    end else begin
      if (flush_i) begin
        for (int v = 0; v < Vcs; v++) if (fill[v]) in_left_q[v] <= in_left_q[v] - LenW'(1);
      end else if (|push) begin
        in_left_q[vc_i] <= hdr_i ? tr_pkg::packet_flits(data_i) - LenW'(1) : in_left_q[vc_i] - LenW'(1);
      end
      // Flit credits for the dynamic VCs, packet credits for the escape and priority VCs.
      credit_o    <= {pop[3] && last[3], pop[2] && last[2], pop[1], pop[0]};
      proto_err_o <= |(frame_err | space_err);
    end
  end

  // The length of the packet whose header comes in (tr_pkg's functions are called from
  // continuous assignments).
  logic [LenW-1:0] in_len;
  logic            in_hdr;  // a header comes in from the link (never a filler flit)
  assign in_len = tr_pkg::packet_flits(data_i);
  assign in_hdr = !flush_i && hdr_i;

  for (genvar v = 0; v < Vcs; v++) begin : g_check
    localparam int Depth = (v < 2) ? DynFlits : EscSlots * tr_pkg::MaxPacketFlits;
    // Packed copies: an element of an unpacked array in an assertion crashes Verilator 5.006.
    logic [LenW-1:0] in_left, out_left;
    assign in_left  = in_left_q[v];
    assign out_left = out_left_q[v];
    // The buffer never sees a push when full (a flit that finds it full is dropped and
    // flagged, even if the buffer is popped in the same cycle), and the framing counters
    // stay within one packet.
    `CMN_ASSERT_NEVER(PushFull, push[v] && full[v], $sformatf("VC %0d: flit pushed into its full buffer", v))
    `CMN_ASSERT(FramingInPacket, 32'(in_left) < tr_pkg::MaxPacketFlits && 32'(out_left) < tr_pkg::MaxPacketFlits,
                $sformatf("VC %0d: %0d flits of a packet still to come in, %0d to leave", v, in_left, out_left))
    // Virtual cut-through: a sender keeping to its credits starts a packet only when the
    // buffer has room for all of it (the buffer may have more room than the sender knows
    // of, never less).
    `CMN_ASSERT_NEVER(PacketWithoutRoom, push[v] && in_hdr && 32'(g_vc[v].count) + 32'(in_len) > Depth,
                      $sformatf("VC %0d: a packet of %0d flits started with %0d of %0d flits free (credits ignored)",
                                v, in_len, Depth - 32'(g_vc[v].count), Depth))
    if (v >= 2) begin : g_slots
      // The escape and priority VCs count packet slots: a packet holds one from its header
      // coming in to its last flit leaving (when its credit goes back), and a sender keeping
      // to its credits never starts a packet with every slot held.
      localparam int HeldW = $clog2(Depth + 2);
      logic [HeldW-1:0] held_q;
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) held_q <= '0;
        else         held_q <= held_q + HeldW'(push[v] && in_hdr) - HeldW'(pop[v] && last[v]);
      end
      `CMN_ASSERT_NEVER(PacketWithoutSlot, push[v] && in_hdr && 32'(held_q) >= EscSlots,
                        $sformatf("VC %0d: a packet started with all %0d packet slots held (credits ignored)", v,
                                  EscSlots))
      `CMN_ASSERT_NEVER(LastWithoutPacket, pop[v] && last[v] && held_q == '0,
                        $sformatf("VC %0d: the last flit of a packet left with no packet held", v))
    end
  end
  // Outputs to the sender and the router are never X (only a 4-state simulator can see
  // this; Verilator has no X).
  `CMN_ASSERT_KNOWN(OutputsKnown, {credit_o, head_valid_o, proto_err_o})

  `CMN_ASSERT_PARAM(g_check_dyn_flits, DynFlits >= tr_pkg::MaxPacketFlits,
                    $sformatf("tr_link_rx: DynFlits (%0d) must hold a whole packet (%0d flits)", DynFlits,
                              tr_pkg::MaxPacketFlits))
  `CMN_ASSERT_PARAM(g_check_esc_slots, EscSlots >= 2,
                    $sformatf("tr_link_rx: EscSlots (%0d) must be at least 2 (the bubble rule keeps one slot free)",
                              EscSlots))

endmodule : tr_link_rx

`default_nettype wire
