// SPDX-License-Identifier: Apache-2.0
// cmn_rr_arb: round-robin arbiter. Grants one of the requesters, searching from the one
// after the last requester whose grant was taken; take_i says the grant was used this
// cycle (a grant may be offered and not taken, which leaves the order unchanged).
`default_nettype none

module cmn_rr_arb #(
  parameter int N = 4,
  localparam int IdxW = (N > 1) ? $clog2(N) : 1
) (
  input  wire logic            clk_i,
  input  wire logic            rst_ni,
  input  wire logic [N-1:0]    req_i,
  input  wire logic            take_i,
  output logic      [N-1:0]    grant_o,  // one-hot, or zero if nobody requests
  output logic      [IdxW-1:0] idx_o     // index of the grant (valid when grant_o != 0)
);

  logic [IdxW-1:0] last_q;  // the requester served last

  // The lowest requester above last_q, or else the lowest one: mask, isolate the lowest
  // set bit, encode. Nothing is computed without a request.
  always_comb begin
    logic [N-1:0] above, pick;
    grant_o = '0;
    idx_o   = '0;
    above   = '0;
    pick    = '0;
    if (|req_i) begin
      above   = req_i & ({N{1'b1}} << (32'(last_q) + 1));
      pick    = (|above) ? above : req_i;
      grant_o = pick & (~pick + N'(1));
      for (int i = 0; i < N; i++) begin
        if (grant_o[i]) idx_o = IdxW'(i);
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)                      last_q <= IdxW'(N - 1);
    else if (take_i && (|req_i))      last_q <= idx_o;
  end

endmodule : cmn_rr_arb

`default_nettype wire
