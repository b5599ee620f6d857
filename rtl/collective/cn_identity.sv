// SPDX-License-Identifier: Apache-2.0
// cn_identity: the identity-injection unit's value generator. Gives the identity
// element of an opcode, which the adapter feeds into every ALU input that has no
// contributor (a child link outside the class route, or a node that does not
// contribute), so the combine needs no payload from the processor for it.
`default_nettype none

module cn_identity (
  input  wire logic [2:0]  opcode_i,
  output logic      [63:0] identity_o
);

  always_comb begin
    unique case (opcode_i)
      cn_pkg::OpAnd, cn_pkg::OpMin: identity_o = '1;
      default:                      identity_o = '0;  // NONE, OR, XOR, MAX, ADD (and the reserved opcode)
    endcase
  end

endmodule : cn_identity

`default_nettype wire
