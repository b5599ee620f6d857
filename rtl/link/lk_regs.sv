// SPDX-License-Identifier: Apache-2.0
// lk_regs: the read-only counter blocks of a side's link ends on the node's register bus.
// Link l's block is at Base + l * lk_pkg::RegLkTreeStride, its word k (lk_pkg::LkTxFlits ..
// LkState) at + 8 * k, from that link end's counters (lk_port's counters_o). The side
// sends this block every access in its link area (Base up to the end of the 0x200 bytes
// above it). Read data is registered and valid on rvalid_o the cycle after the access; a
// write, or a read of an address that names no link or is not 8-byte aligned, returns 0
// and pulses bad_o in the cycle of the access, so that the side's register block sets its
// bad-access error bit at the same edge as for its own refused accesses (a read of the
// error register right after sees it).
`include "cmn_assert.svh"
`default_nettype none

module lk_regs #(
  parameter int Links = 3,
  localparam int Stride = lk_pkg::RegLkTreeStride  // the torus blocks use the same stride (checked)
) (
  input  wire logic                clk_i,
  input  wire logic                rst_ni,
  input  wire logic                req_i,
  input  wire logic                we_i,
  input  wire logic [8:0]          addr_i,   // the offset in the link area
  output logic                     rvalid_o,
  output logic      [63:0]         rdata_o,
  output logic                     bad_o,
  input  wire logic [Links*8*64-1:0] counters_i  // link l's word k in [(l*8+k)*64 +: 64]
);

  localparam int LinkW = 3;  // addr_i[8:6]: 8 blocks of 64 bytes

  logic [LinkW-1:0] link;
  logic             known;
  assign link  = addr_i[8 -: LinkW];
  assign known = (32'(link) < Links) && (addr_i[2:0] == 3'b0);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rvalid_o <= 1'b0;
      rdata_o  <= '0;
    end else begin
      rvalid_o <= req_i && !we_i;
      rdata_o  <= (req_i && !we_i && known) ? counters_i[(32'(link)*8 + 32'(addr_i[5:3]))*64 +: 64] : '0;
    end
  end
  assign bad_o = req_i && (we_i || !known);

  `CMN_ASSERT_PARAM(g_check, Stride == 64 && lk_pkg::RegLkTorusStride == Stride && Links >= 1 && Links <= 8,
                    $sformatf("lk_regs: %0d link blocks of %0d bytes: expected 1..8 blocks of 64 bytes", Links, Stride))

endmodule : lk_regs

`default_nettype wire
