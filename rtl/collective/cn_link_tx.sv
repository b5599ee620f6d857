// SPDX-License-Identifier: Apache-2.0
// cn_link_tx: send side of one combining-network link. Registers the flit it is given
// (nothing leaves the node combinationally) and keeps the sender's packet credits, one
// counter (cmn_credit) per virtual channel: a header of VC v may only be sent while a
// credit of v is held, which reserves a whole packet buffer of v at the receiver, so the
// payload that follows is never refused and one VC can never block the other. A credit
// returned while all of its VC's are held is not counted and is reported (credit_err_o).
//
// Engine side: send_i/vc_i/hdr_i/data_i, can_start_o[v] (a credit of VC v is available)
// Link side:   valid_o/vc_o/hdr_o/data_o (registered), credit_i[v] (one pulse per packet
//              buffer of VC v freed at the receiver)
`include "cmn_assert.svh"
`default_nettype none

module cn_link_tx #(
  parameter int Credits = 4,  // per VC; must equal the receiver's packet buffers per VC (cn_adapter
                              // gives both its one LinkPackets)
  localparam int CntW     = $clog2(Credits + 1),
  localparam int Vcs      = cn_pkg::NumVcs,
  localparam int FlitBits = cn_pkg::FlitBits
) (
  input  wire logic                clk_i,
  input  wire logic                rst_ni,
  input  wire logic                send_i,
  input  wire logic                vc_i,
  input  wire logic                hdr_i,
  input  wire logic [FlitBits-1:0] data_i,
  output logic      [Vcs-1:0]      can_start_o,
  output logic                     valid_o,
  output logic                     vc_o,
  output logic                     hdr_o,
  output logic      [FlitBits-1:0] data_o,
  input  wire logic [Vcs-1:0]      credit_i,
  output logic                     credit_err_o  // a credit arrived that was never taken
);

  logic [Vcs-1:0] over;

  for (genvar v = 0; v < Vcs; v++) begin : g_vc
    logic [CntW-1:0] credits;
    cmn_credit #(.Credits(Credits)) u_credit (
      .clk_i, .rst_ni, .take_i(send_i && hdr_i && (vc_i == 1'(v))), .return_i(credit_i[v]),
      .count_o(credits), .over_o(over[v])
    );
    assign can_start_o[v] = (credits != '0);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_o      <= 1'b0;
      vc_o         <= 1'b0;
      hdr_o        <= 1'b0;
      data_o       <= '0;
      credit_err_o <= 1'b0;
    end else begin
      credit_err_o <= |over;
      valid_o <= send_i;
      hdr_o   <= send_i && hdr_i;
      if (send_i) begin
        vc_o   <= vc_i;
        data_o <= data_i;
      end
    end
  end

  // A header sent without a credit of its VC trips the credit counter's own assertion.

  `CMN_ASSERT_PARAM(g_check_credits, Credits >= 1, $sformatf("cn_link_tx: Credits (%0d) must be at least 1", Credits))

endmodule : cn_link_tx

`default_nettype wire
