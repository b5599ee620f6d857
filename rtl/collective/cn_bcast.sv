// SPDX-License-Identifier: Apache-2.0
// cn_bcast: the downward half of the combining-network adapter. Takes a packet that
// travels down its class (from the class's up link, or from the root's turnaround
// path) and copies it, one flit per cycle, to every down link of the class and to the
// local reception FIFOs if the node receives. A flit moves only when every
// destination can take it, so all copies stay in lock step.
//
// Sources:      index 0 = turnaround, 1..NumLinks = links 0..NumLinks-1 (cn_link_rx packet
//               sources).
// Destinations: the links (dst_can_start_i: credit held, link free, VC arbitration
//               granted; a packet starts only when every link of its class may start)
//               and reception (rcv_hdr_space_i / rcv_pl_space_i). want_o/want_links_o
//               ask the arbitration for links without depending on dst_can_start_i.
`include "cmn_assert.svh"
`default_nettype none

module cn_bcast #(
  localparam int NumLinks = cn_pkg::NumLinks,
  localparam int NumSrcs  = NumLinks + 1,
  localparam int SrcW     = $clog2(NumSrcs),
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
  // destinations
  input  wire logic [NumLinks-1:0]                             dst_can_start_i,
  output logic                                                 want_o,        // a packet is ready to start
  output logic      [NumLinks-1:0]                             want_links_o,  // ... on these links
  output logic                                                 out_valid_o,
  output logic                                                 out_hdr_o,
  output logic      [FlitBits-1:0]                             out_data_o,
  output logic      [NumLinks-1:0]                             out_links_o,  // links that take this flit
  output logic      [NumLinks-1:0]                             hold_o,       // held by a packet in flight
  // local reception
  input  wire logic                                            rcv_hdr_space_i,
  input  wire logic                                            rcv_pl_space_i,
  output logic                                                 rcv_hdr_push_o,
  output logic                                                 rcv_pl_push_o,
  // observability
  output logic                                                 busy_o
);

  localparam int CntW = $clog2(cn_pkg::PayloadFlits);

  logic            stream_q;
  logic [SrcW-1:0]     src_q;
  logic [NumLinks-1:0] links_q;
  logic            rcv_q;
  logic [CntW-1:0] cnt_q;

  logic [NumSrcs-1:0]           downward;
  logic [SrcW-1:0]              lead;
  logic [cn_pkg::RouteBits-1:0] lead_route;
  logic [NumLinks-1:0]          links;
  logic                         rcv, go, stream;

  // Functions are called from continuous assignments only: Icarus Verilog 11 loops forever
  // when several always_comb processes call the same function.
  assign downward[0] = src_hdr_valid_i[0];
  for (genvar l = 0; l < NumLinks; l++) begin : g_downward
    assign downward[l+1] = src_hdr_valid_i[l+1] &&
                           (cn_pkg::route_up(cn_pkg::route_of(src_hdr_i[(l+1)*HdrBits +: HdrBits], routes_i)) ==
                            cn_pkg::RouteUpW'(l));
  end
  // The lowest-numbered source with a header wins (the last one when none has).
  always_comb begin
    lead = SrcW'(NumSrcs - 1);
    for (int s = NumSrcs - 2; s >= 0; s--) if (downward[s]) lead = SrcW'(s);
  end
  assign lead_route = cn_pkg::route_of(src_hdr_i[lead*HdrBits +: HdrBits], routes_i);
  assign links      = cn_pkg::route_down(lead_route);

  // want_o is apart from the block below so that it never looks as if it depended on the grant.
  assign rcv          = lead_route[cn_pkg::RouteDstBit];
  assign want_o       = !stream_q && (|downward) && (!rcv || rcv_hdr_space_i);
  assign want_links_o = links;
  assign go           = want_o && ((dst_can_start_i & links) == links);

  always_comb begin
    stream = stream_q && src_pl_valid_i[src_q] && (!rcv_q || rcv_pl_space_i);

    src_hdr_pop_o = go ? (NumSrcs'(1) << lead) : '0;
    src_pl_pop_o  = stream ? (NumSrcs'(1) << src_q) : '0;
    out_valid_o   = go || stream;
    out_hdr_o     = go;
    out_data_o    = go ? FlitBits'(src_hdr_i[lead*HdrBits +: HdrBits]) : src_pl_i[src_q*FlitBits +: FlitBits];
    out_links_o   = go ? links : stream ? links_q : '0;
    hold_o        = stream_q ? links_q : '0;
    rcv_hdr_push_o = go && rcv;
    rcv_pl_push_o  = stream && rcv_q;
    busy_o         = stream_q;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      stream_q <= 1'b0;
      src_q    <= '0;
      links_q  <= '0;
      rcv_q    <= 1'b0;
      cnt_q    <= '0;
    end else if (go) begin
      stream_q <= 1'b1;
      src_q    <= lead;
      links_q  <= links;
      rcv_q    <= rcv;
      cnt_q    <= '0;
    end else if (stream) begin
      cnt_q <= cnt_q + 1'b1;
      if (cnt_q == CntW'(cn_pkg::PayloadFlits - 1)) stream_q <= 1'b0;
    end
  end

  // Pops: only what a source offers, one source at a time; a header only between packets,
  // payload words only while a packet streams.
  `CMN_ASSERT(HdrPopOffered, (src_hdr_pop_o & ~src_hdr_valid_i) == '0,
              $sformatf("header popped from a source offering none (pop %b, valid %b)", src_hdr_pop_o,
                        src_hdr_valid_i))
  `CMN_ASSERT(PlPopOffered, (src_pl_pop_o & ~src_pl_valid_i) == '0,
              $sformatf("payload word popped from a source offering none (pop %b, valid %b)", src_pl_pop_o,
                        src_pl_valid_i))
  `CMN_ASSERT(OneSource, $onehot0(src_hdr_pop_o | src_pl_pop_o),
              $sformatf("more than one source popped (headers %b, payload %b)", src_hdr_pop_o, src_pl_pop_o))
  `CMN_ASSERT_NEVER(HdrPopBusy, src_hdr_pop_o != '0 && stream_q, "header popped while a packet is in flight")
  `CMN_ASSERT_NEVER(PlPopIdle, src_pl_pop_o != '0 && !stream_q, "payload word popped outside a packet")
  // A packet starts only when every link of its class may start, on a tree route (cn_regs'
  // route check: at most two down links, never back down the link it came from), and its
  // copies move in lock step on the links it holds until its last payload flit.
  `CMN_ASSERT_NEVER(StartBlocked, out_hdr_o && (out_links_o & ~dst_can_start_i) != '0,
                    $sformatf("packet started on links %b, of which only %b may start", out_links_o,
                              dst_can_start_i))
  `CMN_ASSERT_NEVER(StartBack, out_hdr_o && (out_links_o & src_hdr_pop_o[NumLinks:1]) != '0,
                    $sformatf("packet sent back down the link it came from (links %b, source %b)", out_links_o,
                              src_hdr_pop_o))
  `CMN_ASSERT_NEVER(StartAllLinks, out_hdr_o && (&out_links_o),
                    $sformatf("packet copied to all %0d links (a route has at most two down links)", NumLinks))
  `CMN_ASSERT_NEVER(PlToHeldLinks, out_valid_o && !out_hdr_o && out_links_o != hold_o,
                    $sformatf("payload flit to links %b, not the links its packet holds (%b)", out_links_o, hold_o))
  `CMN_ASSERT_NEVER(EndEarly,
                    $past(stream_q) && !stream_q && !($past(stream) && $past(cnt_q) == CntW'(cn_pkg::PayloadFlits - 1)),
                    "packet ended before its last payload flit")
  // Reception: no push into a full FIFO.
  `CMN_ASSERT_NEVER(RcvHdrFull, rcv_hdr_push_o && !rcv_hdr_space_i, "header pushed into a full reception FIFO")
  `CMN_ASSERT_NEVER(RcvPlFull, rcv_pl_push_o && !rcv_pl_space_i, "payload word pushed into a full reception FIFO")
  // Handshake outputs are never X (only a 4-state simulator can see this; Verilator has no X).
  `CMN_ASSERT_KNOWN(HandshakeKnown, {want_o, out_valid_o, out_hdr_o, out_links_o, hold_o, src_hdr_pop_o, src_pl_pop_o,
                                     rcv_hdr_push_o, rcv_pl_push_o, busy_o})

endmodule : cn_bcast

`default_nettype wire
