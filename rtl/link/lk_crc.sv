// SPDX-License-Identifier: Apache-2.0
// lk_crc: a CRC as parity trees. A CRC is linear over GF(2) apart from its initial value:
// crc(d) = crc(0) ^ XOR of crc(e_i) ^ crc(0) over the bits i set in d. So output bit k is
// the parity of d under a constant mask, computed at elaboration from lk_pkg::lk_crc (the
// bit-serial definition), plus bit k of crc(0): one XOR tree per output bit, no loop in
// hardware or in simulation. The trees work only while en_i is set (crc_o is 0 otherwise):
// a link end needs a flit's CRC only in a cycle that carries one, and a simulator then
// skips the trees of the cycles that carry nothing.
`include "cmn_assert.svh"
`default_nettype none

module lk_crc #(
  parameter int          InBits = 64,  // bits of d that count (<= lk_pkg::LkCrcInBits)
  parameter int          CrcW   = 8,   // 1..16
  parameter logic [15:0] Poly   = 16'h07
) (
  input  wire logic              en_i,
  input  wire logic [InBits-1:0] d_i,
  output logic      [CrcW-1:0]   crc_o
);

  localparam int          MaxIn = lk_pkg::LkCrcInBits;
  localparam logic [15:0] Zero  = lk_pkg::lk_crc('0, InBits, CrcW, Poly);

  // Bit i of mask k: does input bit i flip output bit k?
  /* verilator lint_off UNUSEDSIGNAL */  // k < 16
  function automatic logic [InBits-1:0] mask(input int k);
    logic [InBits-1:0] m;
    logic [15:0]       c;
    for (int i = 0; i < InBits; i++) begin
      c    = lk_pkg::lk_crc(MaxIn'(1) << i, InBits, CrcW, Poly) ^ Zero;
      m[i] = c[k];
    end
    mask = m;
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  for (genvar k = 0; k < CrcW; k++) begin : g_bit
    localparam logic [InBits-1:0] M = mask(k);
`ifdef VERILATOR
    // A multiplexer becomes logic that works out both of its inputs in the Verilated model,
    // an if in a process stays an if: the simulator skips the tree while en_i is low.
    logic b;
    always_comb begin
      b = 1'b0;
      if (en_i) b = (^(d_i & M)) ^ Zero[k];
    end
    assign crc_o[k] = b;
`else
    assign crc_o[k] = en_i ? ((^(d_i & M)) ^ Zero[k]) : 1'b0;
`endif
  end

  `CMN_ASSERT_PARAM(g_check, InBits >= 1 && InBits <= MaxIn && CrcW >= 1 && CrcW <= 16,
                    $sformatf("lk_crc: InBits (%0d) must be 1..%0d and CrcW (%0d) 1..16", InBits, MaxIn, CrcW))

endmodule : lk_crc

`default_nettype wire
