// SPDX-License-Identifier: Apache-2.0
// cn_alu: the combining network's dedicated ALU. Combines the three operands of one
// flit (two children and the local contribution) in a single cycle.
//
// width_i selects how a 64-bit flit is cut into operands:
//   Width16 / Width32: four 16-bit or two 32-bit lanes, each an operand of its own;
//   Width64: 64-bit words of operands one or more words long. Multi-word ADD travels
//            least significant word first and carries across words (carry_i/carry_o,
//            up to 2 for three inputs); multi-word MAX/MIN travel most significant word
//            first, and tie_i/tie_o keep which inputs are still equal to the extreme
//            on every word seen so far. first_i marks an operand's first word.
// MIN and MAX are unsigned, ADD is two's complement. Purely combinational: the combine
// engine holds the carry and tie state between flits and registers the result.
`default_nettype none

module cn_alu (
  input  wire logic [2:0]  opcode_i,
  input  wire logic [1:0]  width_i,
  input  wire logic        first_i,
  input  wire logic [1:0]  carry_i,
  input  wire logic [2:0]  tie_i,
  input  wire logic [63:0] a_i,
  input  wire logic [63:0] b_i,
  input  wire logic [63:0] c_i,
  output logic      [63:0] result_o,
  output logic      [1:0]  carry_o,
  output logic      [2:0]  tie_o
);

  // ------------------------------------------------------------ lanes (16 and 32 bits)
  logic [63:0] add16, add32, max16, max32, min16, min32;

  for (genvar i = 0; i < 4; i++) begin : g_lane16
    logic [15:0] a, b, c, mx, mn;
    assign a  = a_i[16*i +: 16];
    assign b  = b_i[16*i +: 16];
    assign c  = c_i[16*i +: 16];
    assign mx = (a > b) ? ((a > c) ? a : c) : ((b > c) ? b : c);
    assign mn = (a < b) ? ((a < c) ? a : c) : ((b < c) ? b : c);
    assign add16[16*i +: 16] = a + b + c;
    assign max16[16*i +: 16] = mx;
    assign min16[16*i +: 16] = mn;
  end

  for (genvar i = 0; i < 2; i++) begin : g_lane32
    logic [31:0] a, b, c, mx, mn;
    assign a  = a_i[32*i +: 32];
    assign b  = b_i[32*i +: 32];
    assign c  = c_i[32*i +: 32];
    assign mx = (a > b) ? ((a > c) ? a : c) : ((b > c) ? b : c);
    assign mn = (a < b) ? ((a < c) ? a : c) : ((b < c) ? b : c);
    assign add32[32*i +: 32] = a + b + c;
    assign max32[32*i +: 32] = mx;
    assign min32[32*i +: 32] = mn;
  end

  // ------------------------------------------------------------ words (64 bits, chained)
  logic [2:0]  tie;       // inputs still in the running for MAX/MIN
  logic [1:0]  cin;
  logic [65:0] sum;
  logic [63:0] ma, mb, mc, mx64, mn64, xa, xb, xc;

  assign tie = first_i ? 3'b111 : tie_i;
  assign cin = first_i ? 2'b00 : carry_i;
  assign sum = {2'b0, a_i} + {2'b0, b_i} + {2'b0, c_i} + {64'b0, cin};

  // Inputs out of the running take the value that can never win.
  assign ma   = tie[0] ? a_i : '0;
  assign mb   = tie[1] ? b_i : '0;
  assign mc   = tie[2] ? c_i : '0;
  assign mx64 = (ma > mb) ? ((ma > mc) ? ma : mc) : ((mb > mc) ? mb : mc);
  assign xa   = tie[0] ? a_i : '1;
  assign xb   = tie[1] ? b_i : '1;
  assign xc   = tie[2] ? c_i : '1;
  assign mn64 = (xa < xb) ? ((xa < xc) ? xa : xc) : ((xb < xc) ? xb : xc);

  // ------------------------------------------------------------ result
  always_comb begin
    carry_o = 2'b00;
    tie_o   = 3'b111;
    unique case (opcode_i)
      cn_pkg::OpNone, cn_pkg::OpOr: result_o = a_i | b_i | c_i;
      cn_pkg::OpAnd:                result_o = a_i & b_i & c_i;
      cn_pkg::OpXor:                result_o = a_i ^ b_i ^ c_i;
      cn_pkg::OpAdd: begin
        unique case (width_i)
          cn_pkg::Width16: result_o = add16;
          cn_pkg::Width32: result_o = add32;
          default: begin
            result_o = sum[63:0];
            carry_o  = sum[65:64];
          end
        endcase
      end
      cn_pkg::OpMax: begin
        unique case (width_i)
          cn_pkg::Width16: result_o = max16;
          cn_pkg::Width32: result_o = max32;
          default: begin
            result_o = mx64;
            tie_o    = tie & {c_i == mx64, b_i == mx64, a_i == mx64};
          end
        endcase
      end
      cn_pkg::OpMin: begin
        unique case (width_i)
          cn_pkg::Width16: result_o = min16;
          cn_pkg::Width32: result_o = min32;
          default: begin
            result_o = mn64;
            tie_o    = tie & {c_i == mn64, b_i == mn64, a_i == mn64};
          end
        endcase
      end
      default: result_o = '0;  // reserved opcode: flagged, never delivered
    endcase
  end

endmodule : cn_alu

`default_nettype wire
