// SPDX-License-Identifier: Apache-2.0
// cn_inj_source: the local injection side of the combine engine, and the processor-driven
// half of the identity-injection unit. Each entry of the injection header FIFO is either
// one packet whose payload the processor writes into the payload FIFO, or a request for
// `count` identity packets with one header: those packets are offered with the identity
// of their opcode as payload, so a node contributes "nothing" to positions it does not
// own without writing a single payload word. Entries are served in the order they were
// written, so identity packets and written packets interleave as software issued them.
//
// Entry: cn_pkg::inj_entry() (header, identity flag, packet count >= 1).
`default_nettype none

module cn_inj_source
#(
  localparam int FlitBits = cn_pkg::FlitBits,
  localparam int HdrBits  = cn_pkg::HdrBits,
  localparam int CountW   = cn_pkg::InjIdentityCountW
) (
  input  wire logic                clk_i,
  input  wire logic                rst_ni,
  // injection header FIFO head
  input  wire logic                entry_valid_i,
  input  wire logic [cn_pkg::InjEntryBits-1:0] entry_i,
  output logic                     entry_pop_o,
  // injection payload FIFO head
  input  wire logic                word_valid_i,
  input  wire logic [FlitBits-1:0] word_i,
  output logic                     word_pop_o,
  // packet source for the combine engine
  output logic                     hdr_valid_o,
  output logic      [HdrBits-1:0]  hdr_o,
  input  wire logic                hdr_pop_i,
  output logic                     pl_valid_o,
  output logic      [FlitBits-1:0] pl_o,
  input  wire logic                pl_pop_i
);

  logic [CountW-1:0]   count, issued_q;   // packets of the head entry, and how many were taken
  logic                identity;
  logic                cur_identity_q;    // the packet being streamed is an identity packet
  logic [FlitBits-1:0] identity_word;

  assign hdr_o    = cn_pkg::inj_entry_hdr(entry_i);
  assign identity = cn_pkg::inj_entry_identity(entry_i);
  assign count    = cn_pkg::inj_entry_count(entry_i);

  cn_identity u_identity (.opcode_i(cn_pkg::hdr_op(hdr_o)), .identity_o(identity_word));

  logic [FlitBits-1:0] cur_identity_word_q;

  assign hdr_valid_o = entry_valid_i;
  assign entry_pop_o = hdr_pop_i && entry_valid_i && (issued_q + CountW'(1) >= count);
  assign pl_valid_o  = cur_identity_q ? 1'b1 : word_valid_i;
  assign pl_o        = cur_identity_q ? cur_identity_word_q : word_i;
  assign word_pop_o  = pl_pop_i && !cur_identity_q && word_valid_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      issued_q            <= '0;
      cur_identity_q      <= 1'b0;
      cur_identity_word_q <= '0;
    end else if (hdr_pop_i && entry_valid_i) begin
      issued_q            <= entry_pop_o ? '0 : issued_q + CountW'(1);
      cur_identity_q      <= identity;
      cur_identity_word_q <= identity_word;
    end
  end

endmodule : cn_inj_source

`default_nettype wire
