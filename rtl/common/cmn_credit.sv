// SPDX-License-Identifier: Apache-2.0
// cmn_credit: a sender's count of the credits it holds for one buffer at a receiver: the
// one credit counter every link sender reuses (cn_link_tx per VC, tr_router per link and
// VC). At reset it holds Credits, the receiver's buffers (packets or flits); take_i spends
// one (a packet or flit sent), return_i gives one back (the receiver freed a buffer), and a
// take and a return in the same cycle cancel. A return while every credit is held and none
// is taken names a buffer the receiver does not have: it is not counted, and over_o says so
// in that cycle (the sender reports it as the link's error, or asserts that it never
// happens). Taking a credit at zero is the sender's bug, caught by an assertion.
`include "cmn_assert.svh"
`default_nettype none

module cmn_credit #(
  parameter int Credits = 4,                    // credits held at reset: the receiver's buffers
  parameter int CntW    = $clog2(Credits + 1)   // count_o's width (wider to share one with other counters)
) (
  input  wire logic            clk_i,
  input  wire logic            rst_ni,
  input  wire logic            take_i,    // spend one credit (only while count_o != 0)
  input  wire logic            return_i,  // one credit back from the receiver
  output logic      [CntW-1:0] count_o,   // credits held
  output logic                 over_o     // a return with every credit held: not counted
);

  logic [CntW-1:0] count_q;

  assign over_o  = return_i && !take_i && (count_q == CntW'(Credits));
  assign count_o = count_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) count_q <= CntW'(Credits);
    else         count_q <= count_q - CntW'(take_i) + CntW'(return_i && !over_o);
  end

  `CMN_ASSERT_NEVER(TakeAtZero, take_i && count_q == '0, "a credit taken with none held")
  // (Constant when Credits is the count's largest value, 2^CntW - 1: nothing to check then.)
  /* verilator lint_off CMPCONST */
  `CMN_ASSERT(CountWithinCredits, 32'(count_q) <= Credits,
              $sformatf("%0d credits held, more than the receiver's %0d buffers", count_q, Credits))
  /* verilator lint_on CMPCONST */

  `CMN_ASSERT_PARAM(g_check_credits, Credits >= 1, $sformatf("cmn_credit: Credits (%0d) must be at least 1", Credits))
  `CMN_ASSERT_PARAM(g_check_width, CntW >= $clog2(Credits + 1),
                    $sformatf("cmn_credit: CntW (%0d) cannot count to Credits (%0d)", CntW, Credits))

endmodule : cmn_credit

`default_nettype wire
