// gi_barrier: one node's unit of the global interrupt (barrier) network. Four channels;
// each computes, over the nodes its channel route spans, both the AND and the OR of one
// input bit per node, and returns both to every node of the channel. A barrier is an AND:
// every node sets its bit, and the AND becomes 1 at every node once all have. With sense
// reversal (set for one barrier, clear for the next, waiting for the OR to fall) the
// channel needs no reset between barriers. A node outside the channel's participants
// contributes the identities (1 to the AND, 0 to the OR).
//
// Link l, each direction: 8 bits = {OR, AND} per channel, [2c +: 2] for channel c. On the
// channel's up link a node sends its subtree's reduction and receives the channel's
// result; on a down link it sends the result and receives the child's subtree reduction.
// Every output is registered: one hop costs the link latency plus one cycle.
`default_nettype none

module gi_barrier (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,
  // register bus (already decoded for this unit: req_i only for gi_pkg addresses)
  input  wire logic        req_i,
  input  wire logic        we_i,
  input  wire logic [11:0] addr_i,
  input  wire logic [63:0] wdata_i,
  input  wire logic        priv_i,
  output logic             rvalid_o,
  output logic      [63:0] rdata_o,
  // links
  input  wire logic [23:0] link_in_i,   // link l in bits [8l +: 8]
  output logic      [23:0] link_out_o,
  // any sticky error
  output logic             err_o
);

  localparam int Ch = gi_pkg::GiChannels;
  localparam int RB = gi_pkg::GiRouteBits;

  logic [Ch*RB-1:0] route_q;
  logic [Ch-1:0]    local_q;
  logic [Ch-1:0]    res_and_q, res_or_q;
  logic [1:0]       err_q;

  // ------------------------------------------------------------ registers
  logic       wr, rd, is_route, route_ok, priv_ok;
  logic [1:0] ch_idx;
  logic [2:0] new_down;
  logic [1:0] new_up;
  assign wr       = req_i && we_i;
  assign rd       = req_i && !we_i;
  assign is_route = (addr_i[11:5] == gi_pkg::RegGiRouteBase[11:5]) && (addr_i[2:0] == 3'b0);
  assign ch_idx   = addr_i[4:3];
  assign new_up   = wdata_i[gi_pkg::GiRouteUpLsb +: 2];
  assign new_down = wdata_i[gi_pkg::GiRouteDownLsb +: 3];
  assign route_ok = (wdata_i[63:RB] == '0) && !(new_up != 2'd3 && new_down[new_up]);
  assign priv_ok  = priv_i || (ch_idx < 2'(gi_pkg::GiFirstPrivCh));

  logic [63:0] rdata;
  always_comb begin
    rdata = '0;
    if (is_route) rdata[RB-1:0] = route_q[ch_idx*RB +: RB];
    else if (addr_i == gi_pkg::RegGiLocal) rdata[Ch-1:0] = local_q;
    else if (addr_i == gi_pkg::RegGiResult) begin
      rdata[gi_pkg::GiResultAndLsb +: Ch] = res_and_q;
      rdata[gi_pkg::GiResultOrLsb +: Ch]  = res_or_q;
    end else if (addr_i == gi_pkg::RegGiErr) rdata[1:0] = err_q;
  end

  // ------------------------------------------------------------ reduction
  logic [23:0] out_d;
  logic [Ch-1:0] res_and_d, res_or_d;

  for (genvar c = 0; c < Ch; c++) begin : g_ch
    logic [1:0] up;
    logic [2:0] down;
    logic       part, sub_and, sub_or, top_and, top_or;
    assign up   = route_q[c*RB + gi_pkg::GiRouteUpLsb +: 2];
    assign down = route_q[c*RB + gi_pkg::GiRouteDownLsb +: 3];
    assign part = route_q[c*RB + gi_pkg::GiRoutePartBit];
    // This node's subtree: its own bit (or the identity) and every child's subtree.
    assign sub_and = (!part || local_q[c]) &&
                     (!down[0] || link_in_i[0*8 + 2*c]) && (!down[1] || link_in_i[1*8 + 2*c]) &&
                     (!down[2] || link_in_i[2*8 + 2*c]);
    assign sub_or  = (part && local_q[c]) ||
                     (down[0] && link_in_i[0*8 + 2*c + 1]) || (down[1] && link_in_i[1*8 + 2*c + 1]) ||
                     (down[2] && link_in_i[2*8 + 2*c + 1]);
    // The channel's result: computed here at the root, received from the parent elsewhere.
    assign top_and = (up == 2'd3) ? sub_and : link_in_i[up*8 + 2*c];
    assign top_or  = (up == 2'd3) ? sub_or  : link_in_i[up*8 + 2*c + 1];
    assign res_and_d[c] = top_and;
    assign res_or_d[c]  = top_or;
    for (genvar l = 0; l < 3; l++) begin : g_link
      assign out_d[l*8 + 2*c]     = (up == 2'(l)) ? sub_and : (down[l] && top_and);
      assign out_d[l*8 + 2*c + 1] = (up == 2'(l)) ? sub_or  : (down[l] && top_or);
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      route_q    <= '0;
      local_q    <= '0;
      res_and_q  <= '0;
      res_or_q   <= '0;
      err_q      <= '0;
      link_out_o <= '0;
      rvalid_o   <= 1'b0;
      rdata_o    <= '0;
    end else begin
      if (wr && is_route) begin
        if (!priv_ok)       err_q[gi_pkg::GiErrPriv] <= 1'b1;
        else if (!route_ok) err_q[gi_pkg::GiErrBadRoute] <= 1'b1;
        else                route_q[ch_idx*RB +: RB] <= wdata_i[RB-1:0];
      end
      if (wr && addr_i == gi_pkg::RegGiLocal) local_q <= wdata_i[Ch-1:0];
      if (wr && addr_i == gi_pkg::RegGiErrClear) err_q <= err_q & ~wdata_i[1:0];
      link_out_o <= out_d;
      res_and_q  <= res_and_d;
      res_or_q   <= res_or_d;
      rvalid_o   <= rd;
      if (rd) rdata_o <= rdata;
    end
  end

  assign err_o = |err_q;

endmodule : gi_barrier

`default_nettype wire
