// SPDX-License-Identifier: Apache-2.0
// cmn_delay: a delay line of Stages registers (a shift register, reset to 0). What enters
// on d_i at one clock edge leaves on q_o Stages edges later; Stages = 0 is a plain wire
// (the clock and reset are then not used). The machine puts one on each direction of a
// link, behind the sender's output register, so the link delays everything it carries by
// Stages + 1 cycles.
`include "cmn_assert.svh"
`default_nettype none

module cmn_delay #(
  parameter int Width  = 64,
  parameter int Stages = 1
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,
  input  wire logic [Width-1:0] d_i,
  output logic      [Width-1:0] q_o
);

  if (Stages == 0) begin : g_wire
    logic unused_clk_rst;
    assign unused_clk_rst = clk_i ^ rst_ni;
    assign q_o = d_i;
  end else begin : g_pipe
    logic [Width-1:0] pipe_q [Stages];  // stage 0 is the newest

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        for (int s = 0; s < Stages; s++) pipe_q[s] <= '0;
      end else begin
        pipe_q[0] <= d_i;
        for (int s = 1; s < Stages; s++) pipe_q[s] <= pipe_q[s-1];
      end
    end

    assign q_o = pipe_q[Stages-1];
  end

  `CMN_ASSERT_PARAM(g_check_stages, Stages >= 0, $sformatf("cmn_delay: Stages (%0d) must be at least 0", Stages))
  `CMN_ASSERT_PARAM(g_check_width, Width >= 1, $sformatf("cmn_delay: Width (%0d) must be at least 1", Width))

endmodule : cmn_delay

`default_nettype wire
