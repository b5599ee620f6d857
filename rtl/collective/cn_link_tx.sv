// cn_link_tx: send side of one combining-network link. Registers the flit it is given
// (nothing leaves the node combinationally) and keeps the sender's packet credits: a
// header may only be sent while a credit is held, which reserves a whole packet buffer
// at the receiver, so the payload that follows is never refused.
//
// Engine side: send_i/hdr_i/data_i, can_start_o (a credit is available)
// Link side:   valid_o/hdr_o/data_o (registered), credit_i (one pulse per packet buffer)
`default_nettype none

module cn_link_tx #(
  parameter int Credits = 4,  // must equal the receiver's packet buffers
  localparam int CntW = $clog2(Credits + 1)
) (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,
  input  wire logic        send_i,
  input  wire logic        hdr_i,
  input  wire logic [63:0] data_i,
  output logic             can_start_o,
  output logic             valid_o,
  output logic             hdr_o,
  output logic [63:0]      data_o,
  input  wire logic        credit_i,
  output logic             credit_err_o  // a credit arrived that was never taken
);

  logic [CntW-1:0] credits_q;
  logic            take;

  assign can_start_o = (credits_q != '0);
  assign take        = send_i && hdr_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      credits_q    <= CntW'(Credits);
      valid_o      <= 1'b0;
      hdr_o        <= 1'b0;
      data_o       <= '0;
      credit_err_o <= 1'b0;
    end else begin
      credit_err_o <= 1'b0;
      if (take && !credit_i)      credits_q <= credits_q - 1'b1;
      else if (credit_i && !take) begin
        if (credits_q == CntW'(Credits)) credit_err_o <= 1'b1;
        else                             credits_q <= credits_q + 1'b1;
      end
      valid_o <= send_i;
      hdr_o   <= send_i && hdr_i;
      if (send_i) data_o <= data_i;
    end
  end

`ifndef SYNTHESIS
`ifndef __ICARUS__  // Icarus Verilog 11 cannot parse concurrent assertions
  assert property (@(posedge clk_i) disable iff (!rst_ni) !(take && !can_start_o))
    else $error("cn_link_tx: header sent without a credit");
`endif
`endif

endmodule : cn_link_tx

`default_nettype wire
