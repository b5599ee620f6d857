// SPDX-License-Identifier: Apache-2.0
// lk_pair: the two ends of one link as one testbench top (tb_lk_port.cpp), so that one
// Verilated model holds both; the wires between them stay in C++, which delays them and
// flips their bits. End a's ports are lk_port's with the prefix a_, end b's with b_.
`default_nettype none

module lk_pair #(
  localparam int DataW = 66,
  localparam int Vcs   = 2,
  localparam int CntW  = 4,
  localparam int LevelW = 8,
  localparam int CtlW  = lk_pkg::LkCtlBits
) (
  input  wire logic               clk_i,
  input  wire logic               rst_ni,
  input  wire logic               a_n_valid_i, b_n_valid_i,
  input  wire logic [DataW-1:0]   a_n_data_i, b_n_data_i,
  input  wire logic [Vcs-1:0]     a_n_credit_i, b_n_credit_i,
  input  wire logic [LevelW-1:0]  a_n_level_i, b_n_level_i,
  output logic                    a_hold_o, b_hold_o,
  output logic                    a_n_valid_o, b_n_valid_o,
  output logic      [DataW-1:0]   a_n_data_o, b_n_data_o,
  output logic      [Vcs-1:0]     a_n_credit_o, b_n_credit_o,
  output logic      [LevelW-1:0]  a_n_level_o, b_n_level_o,
  output logic                    a_w_valid_o, b_w_valid_o,
  output logic      [DataW-1:0]   a_w_data_o, b_w_data_o,
  output logic      [Vcs*CntW-1:0] a_w_cnt_o, b_w_cnt_o,
  output logic      [LevelW-1:0]  a_w_level_o, b_w_level_o,
  output logic      [CtlW-1:0]    a_w_ctl_o, b_w_ctl_o,
  input  wire logic               a_w_valid_i, b_w_valid_i,
  input  wire logic [DataW-1:0]   a_w_data_i, b_w_data_i,
  input  wire logic [Vcs*CntW-1:0] a_w_cnt_i, b_w_cnt_i,
  input  wire logic [LevelW-1:0]  a_w_level_i, b_w_level_i,
  input  wire logic [CtlW-1:0]    a_w_ctl_i, b_w_ctl_i,
  input  wire logic [15:0]        a_cpf_i, b_cpf_i,  // each end's rate, cycles per flit (8.8)
  output logic                    a_down_o, b_down_o,
  input  wire logic [2:0]         a_sel_i, b_sel_i,
  output logic      [63:0]        a_word_o, b_word_o
);

  logic [8*64-1:0] a_counters, b_counters;
  assign a_word_o = a_counters[32'(a_sel_i)*64 +: 64];
  assign b_word_o = b_counters[32'(b_sel_i)*64 +: 64];

  lk_port #(.DataW(DataW), .HdrBit(64), .Vcs(Vcs), .CntW(CntW), .LevelW(LevelW), .PacketFlits(33)) u_a (
    .clk_i, .rst_ni,
    .n_valid_i(a_n_valid_i), .n_data_i(a_n_data_i), .n_credit_i(a_n_credit_i), .n_level_i(a_n_level_i),
    .hold_o(a_hold_o), .n_valid_o(a_n_valid_o), .n_data_o(a_n_data_o), .n_credit_o(a_n_credit_o),
    .n_level_o(a_n_level_o), .w_valid_o(a_w_valid_o), .w_data_o(a_w_data_o), .w_cnt_o(a_w_cnt_o),
    .w_level_o(a_w_level_o), .w_ctl_o(a_w_ctl_o), .w_valid_i(a_w_valid_i), .w_data_i(a_w_data_i),
    .w_cnt_i(a_w_cnt_i), .w_level_i(a_w_level_i), .w_ctl_i(a_w_ctl_i), .cpf_i(a_cpf_i), .down_o(a_down_o),
    .counters_o(a_counters)
  );

  lk_port #(.DataW(DataW), .HdrBit(64), .Vcs(Vcs), .CntW(CntW), .LevelW(LevelW), .PacketFlits(33)) u_b (
    .clk_i, .rst_ni,
    .n_valid_i(b_n_valid_i), .n_data_i(b_n_data_i), .n_credit_i(b_n_credit_i), .n_level_i(b_n_level_i),
    .hold_o(b_hold_o), .n_valid_o(b_n_valid_o), .n_data_o(b_n_data_o), .n_credit_o(b_n_credit_o),
    .n_level_o(b_n_level_o), .w_valid_o(b_w_valid_o), .w_data_o(b_w_data_o), .w_cnt_o(b_w_cnt_o),
    .w_level_o(b_w_level_o), .w_ctl_o(b_w_ctl_o), .w_valid_i(b_w_valid_i), .w_data_i(b_w_data_i),
    .w_cnt_i(b_w_cnt_i), .w_level_i(b_w_level_i), .w_ctl_i(b_w_ctl_i), .cpf_i(b_cpf_i), .down_o(b_down_o),
    .counters_o(b_counters)
  );

endmodule : lk_pair

`default_nettype wire
