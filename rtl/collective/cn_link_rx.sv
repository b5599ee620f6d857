// SPDX-License-Identifier: Apache-2.0
// cn_link_rx: receive side of one combining-network link (also used for the root's
// internal turnaround path). Splits the incoming flit stream into a header FIFO and a
// payload FIFO and presents them as a packet source to the combine and broadcast
// engines. A packet is owned by the engine that popped its header until its last
// payload flit is popped; only then is the next header offered, and one packet credit
// is returned to the sender (virtual cut-through: a credit is room for a whole packet).
//
// Link in:  valid_i, hdr_i (1 = header flit, header in the low cn_pkg::HdrBits of data_i), data_i
// Link out: credit_o, a registered one-cycle pulse per freed packet buffer
`include "cmn_assert.svh"
`default_nettype none

module cn_link_rx #(
  parameter int Packets = 4,  // packet buffers = credits granted to the sender
  localparam int FlitBits = cn_pkg::FlitBits,
  localparam int HdrBits  = cn_pkg::HdrBits
) (
  input  wire logic                clk_i,
  input  wire logic                rst_ni,
  // link
  input  wire logic                valid_i,
  input  wire logic                hdr_i,
  input  wire logic [FlitBits-1:0] data_i,
  output logic                     credit_o,
  // packet source
  output logic                     hdr_valid_o,
  output logic      [HdrBits-1:0]  hdr_o,
  input  wire logic                hdr_pop_i,
  output logic                     pl_valid_o,
  output logic      [FlitBits-1:0] pl_o,
  input  wire logic                pl_pop_i,
  // a flit broke framing (header inside a packet, payload outside one) or arrived
  // without buffer space (credit violation); the flit is dropped, never delivered
  output logic                     proto_err_o
);

  localparam int CntW = $clog2(cn_pkg::PayloadFlits + 1);

  logic            hdr_full, hdr_empty, pl_full, pl_empty;
  logic [CntW-1:0] in_left_q, out_left_q;  // payload flits still expected in / owed out
  logic            hdr_push, pl_push, frame_err, space_err;

  // Framing: a header opens a packet of PayloadFlits payload flits.
  assign frame_err = valid_i && (hdr_i ? (in_left_q != '0) : (in_left_q == '0));
  assign space_err = valid_i && !frame_err && (hdr_i ? hdr_full : pl_full);
  assign hdr_push  = valid_i && hdr_i && !frame_err && !space_err;
  assign pl_push   = valid_i && !hdr_i && !frame_err && !space_err;

  logic [FlitBits-HdrBits-1:0] unused_hi;  // a header flit carries the header in its low half
  assign unused_hi = data_i[FlitBits-1:HdrBits];
  logic [$clog2(Packets + 1)-1:0]                        hdr_count;  // for the checks below
  logic [$clog2(Packets * cn_pkg::PayloadFlits + 1)-1:0] pl_count;

  cmn_fifo #(.Width(HdrBits), .Depth(Packets)) u_hdr_fifo (
    .clk_i, .rst_ni,
    .push_i(hdr_push), .data_i(data_i[HdrBits-1:0]),
    .pop_i(hdr_pop_i && hdr_valid_o), .data_o(hdr_o),
    .full_o(hdr_full), .empty_o(hdr_empty), .count_o(hdr_count)
  );

  cmn_fifo #(.Width(FlitBits), .Depth(Packets * cn_pkg::PayloadFlits)) u_pl_fifo (
    .clk_i, .rst_ni,
    .push_i(pl_push), .data_i(data_i),
    .pop_i(pl_pop_i && pl_valid_o), .data_o(pl_o),
    .full_o(pl_full), .empty_o(pl_empty), .count_o(pl_count)
  );

  // A header is offered only when no packet is being drained.
  assign hdr_valid_o = !hdr_empty && (out_left_q == '0);
  assign pl_valid_o  = !pl_empty && (out_left_q != '0);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      in_left_q   <= '0;
      out_left_q  <= '0;
      credit_o    <= 1'b0;
      proto_err_o <= 1'b0;
    end else begin
      if (hdr_push)     in_left_q <= CntW'(cn_pkg::PayloadFlits);
      else if (pl_push) in_left_q <= in_left_q - 1'b1;

      credit_o <= 1'b0;
      if (hdr_pop_i && hdr_valid_o) begin
        out_left_q <= CntW'(cn_pkg::PayloadFlits);
      end else if (pl_pop_i && pl_valid_o) begin
        out_left_q <= out_left_q - 1'b1;
        if (out_left_q == CntW'(1)) credit_o <= 1'b1;
      end

      proto_err_o <= frame_err || space_err;
    end
  end

  // Credits: the sender holds a credit per free packet buffer, so a header comes in only
  // while one is free. The packets held are the headers waiting and the packet being
  // drained, whose credit goes back with its last payload flit. (A header that finds its
  // FIFO full is the link's error, proto_err_o; one that finds room in the FIFOs while every
  // buffer is held means the sender ignored its credits.)
  `CMN_ASSERT_NEVER(HeaderWithinCredits, hdr_push && 32'(hdr_count) + 32'(out_left_q != '0) >= Packets,
                    $sformatf("a header came in with all %0d packet buffers held (credits ignored)", Packets))
  // The payload buffer holds exactly the payload of the packets it holds: PayloadFlits per
  // header that came in and was not yet popped, less what is still to come in of the packet
  // arriving, plus what is still to leave of the packet being drained.
  `CMN_ASSERT(PayloadMatchesHeaders,
              32'(pl_count) + 32'(in_left_q) == cn_pkg::PayloadFlits * 32'(hdr_count) + 32'(out_left_q),
              $sformatf("%0d payload flits held for %0d headers, %0d flits to come in and %0d to leave", pl_count,
                        hdr_count, in_left_q, out_left_q))
  `CMN_ASSERT_KNOWN(OutputsKnown, {credit_o, hdr_valid_o, pl_valid_o, proto_err_o})

endmodule : cn_link_rx

`default_nettype wire
