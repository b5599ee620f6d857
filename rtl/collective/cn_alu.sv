// cn_alu: the combining network's dedicated ALU. Combines the three operands of one
// flit (two children and the local contribution) in a single cycle. Operands are
// 64-bit lanes; MIN and MAX are unsigned, ADD is two's complement modulo 2^64.
// Purely combinational: the adapter registers its result on the link.
`default_nettype none

module cn_alu (
  input  wire logic [2:0]  opcode_i,
  input  wire logic [63:0] a_i,
  input  wire logic [63:0] b_i,
  input  wire logic [63:0] c_i,
  output logic      [63:0] result_o
);

  logic [63:0] max_ab, min_ab;

  assign max_ab = (a_i > b_i) ? a_i : b_i;
  assign min_ab = (a_i < b_i) ? a_i : b_i;

  always_comb begin
    unique case (opcode_i)
      cn_pkg::OpNone, cn_pkg::OpOr: result_o = a_i | b_i | c_i;
      cn_pkg::OpAnd:                result_o = a_i & b_i & c_i;
      cn_pkg::OpXor:                result_o = a_i ^ b_i ^ c_i;
      cn_pkg::OpMax:                result_o = (max_ab > c_i) ? max_ab : c_i;
      cn_pkg::OpMin:                result_o = (min_ab < c_i) ? min_ab : c_i;
      cn_pkg::OpAdd:                result_o = a_i + b_i + c_i;
      default:                      result_o = '0;  // reserved opcode: flagged, never delivered
    endcase
  end

endmodule : cn_alu

`default_nettype wire
