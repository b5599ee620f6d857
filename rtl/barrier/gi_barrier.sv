// SPDX-License-Identifier: Apache-2.0
// gi_barrier: one node's unit of the global interrupt (barrier) network. Four channels;
// each computes, over the nodes its channel route spans, both the AND and the OR of one
// input bit per node, and returns both to every node of the channel. A barrier is an AND:
// every node sets its bit, and the AND becomes 1 at every node once all have. With sense
// reversal (set for one barrier, clear for the next, waiting for the OR to fall) the
// channel needs no reset between barriers. A node outside the channel's participants
// contributes the identities (1 to the AND, 0 to the OR).
//
// Link l, each direction: LinkBits (8) bits = {OR, AND} per channel, [2c +: 2] for channel c. On the
// channel's up link a node sends its subtree's reduction and receives the channel's
// result; on a down link it sends the result and receives the child's subtree reduction.
// Every output is registered: one hop costs the barrier wire's latency plus one cycle.
`include "cmn_assert.svh"
`default_nettype none

module gi_barrier #(
  localparam int NumLinks = gi_pkg::GiRouteDownW,   // the tree's links: a down-mask bit each
  localparam int LinkBits = 2 * gi_pkg::GiChannels, // {OR, AND} per channel
  localparam int WordBits = 64,                     // a register of the unit
  localparam int AddrBits = $bits(gi_pkg::RegGiLocal)  // a register bus address
) (
  input  wire logic                           clk_i,
  input  wire logic                           rst_ni,
  // register bus (already decoded for this unit: req_i only for gi_pkg addresses)
  input  wire logic                           req_i,
  input  wire logic                           we_i,
  input  wire logic [AddrBits-1:0]            addr_i,
  input  wire logic [WordBits-1:0]            wdata_i,
  input  wire logic                           priv_i,
  output logic                                rvalid_o,
  output logic      [WordBits-1:0]            rdata_o,
  // links
  input  wire logic [NumLinks*LinkBits-1:0]   link_in_i,   // link l in bits [l*LinkBits +: LinkBits]
  output logic      [NumLinks*LinkBits-1:0]   link_out_o,
  // any sticky error
  output logic                                err_o
);

  localparam int Ch = gi_pkg::GiChannels;
  localparam int RB = gi_pkg::GiRouteBits;
  localparam logic [gi_pkg::GiRouteUpW-1:0] UpNone = gi_pkg::GiRouteUpW'(NumLinks);  // the root of the channel

  logic [Ch*RB-1:0] route_q;
  logic [Ch-1:0]    local_q;
  logic [Ch-1:0]    res_and_q, res_or_q;
  logic [1:0]       err_q;

  // ------------------------------------------------------------ registers
  logic                          wr, rd, is_route, route_ok, priv_ok;
  logic [1:0]                    ch_idx;
  logic [NumLinks-1:0]           new_down;
  logic [gi_pkg::GiRouteUpW-1:0] new_up;
  assign wr       = req_i && we_i;
  assign rd       = req_i && !we_i;
  assign is_route = gi_pkg::in_reg_gi_route_base(addr_i);
  assign ch_idx   = gi_pkg::reg_gi_route_base_index(addr_i);
  assign new_up   = gi_pkg::gi_route_up(wdata_i[RB-1:0]);
  assign new_down = gi_pkg::gi_route_down(wdata_i[RB-1:0]);
  assign route_ok = (wdata_i[WordBits-1:RB] == '0) && !(new_up != UpNone && new_down[new_up]);
  assign priv_ok  = priv_i || (ch_idx < 2'(gi_pkg::GiFirstPrivCh));

  logic [WordBits-1:0] rdata;
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
  logic [NumLinks*LinkBits-1:0] out_d;
  logic [Ch-1:0] res_and_d, res_or_d;

  for (genvar c = 0; c < Ch; c++) begin : g_ch
    logic [gi_pkg::GiRouteUpW-1:0] up;
    logic [NumLinks-1:0]           down, child_and, child_or;
    logic                          part, sub_and, sub_or, top_and, top_or;
    assign up   = gi_pkg::gi_route_up(route_q[c*RB +: RB]);
    assign down = gi_pkg::gi_route_down(route_q[c*RB +: RB]);
    assign part = route_q[c*RB + gi_pkg::GiRoutePartBit];
    // This node's subtree: its own bit (or the identity) and every child's subtree.
    for (genvar l = 0; l < NumLinks; l++) begin : g_child
      assign child_and[l] = !down[l] || link_in_i[l*LinkBits + 2*c];
      assign child_or[l]  =  down[l] && link_in_i[l*LinkBits + 2*c + 1];
    end
    assign sub_and = (!part || local_q[c]) && (&child_and);
    assign sub_or  = (part && local_q[c]) || (|child_or);
    // The channel's result: computed here at the root, received from the parent elsewhere.
    assign top_and = (up == UpNone) ? sub_and : link_in_i[up*LinkBits + 2*c];
    assign top_or  = (up == UpNone) ? sub_or  : link_in_i[up*LinkBits + 2*c + 1];
    assign res_and_d[c] = top_and;
    assign res_or_d[c]  = top_or;
    for (genvar l = 0; l < NumLinks; l++) begin : g_link
      assign out_d[l*LinkBits + 2*c]     = (up == gi_pkg::GiRouteUpW'(l)) ? sub_and : (down[l] && top_and);
      assign out_d[l*LinkBits + 2*c + 1] = (up == gi_pkg::GiRouteUpW'(l)) ? sub_or  : (down[l] && top_or);
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

  // A channel's state moves only by the register writes that may move it: its route
  // changes only when a privileged-enough tree route is written to it, and it is always a
  // tree route (its up link is not one of its down links); the nodes' bits change only when
  // RegGiLocal is written. The writes of the last edge are registered for the checks alone
  // ($past would sample the bus before the cycle's request settles, in a model clocked with
  // one evaluation per cycle); synthesis removes them.
  logic [Ch-1:0] route_wr_q;
  logic          local_wr_q;
  logic [1:0]    err_clear_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      route_wr_q  <= '0;
      local_wr_q  <= 1'b0;
      err_clear_q <= '0;
    end else begin
      for (int c = 0; c < Ch; c++) route_wr_q[c] <= wr && is_route && ch_idx == 2'(c) && priv_ok && route_ok;
      local_wr_q  <= wr && addr_i == gi_pkg::RegGiLocal;
      err_clear_q <= (wr && addr_i == gi_pkg::RegGiErrClear) ? wdata_i[1:0] : 2'b0;
    end
  end
  for (genvar c = 0; c < Ch; c++) begin : g_check_ch
    logic [gi_pkg::GiRouteUpW-1:0] up;
    logic [NumLinks-1:0]           down;
    assign up   = gi_pkg::gi_route_up(route_q[c*RB +: RB]);
    assign down = gi_pkg::gi_route_down(route_q[c*RB +: RB]);
    `CMN_ASSERT(RouteIsTree, up == UpNone || !down[up],
                $sformatf("channel %0d holds route %b: its up link is one of its down links", c, route_q[c*RB +: RB]))
    `CMN_ASSERT_NEVER(RouteWrittenLegally,
                      route_q[c*RB +: RB] != $past(route_q[c*RB +: RB]) && !route_wr_q[c],
                      $sformatf("channel %0d's route changed from %b to %b without a write that may change it", c,
                                $past(route_q[c*RB +: RB]), route_q[c*RB +: RB]))
  end
  `CMN_ASSERT_NEVER(LocalWrittenLegally, local_q != $past(local_q) && !local_wr_q,
                    $sformatf("the node's bits changed from %b to %b without a write to RegGiLocal", $past(local_q),
                              local_q))
  // Sticky errors: a bit rises only with a refused route write, falls only when a write to
  // RegGiErrClear names it.
  `CMN_ASSERT_NEVER(ErrorsSticky,
                    ($past(err_q) & ~err_q & ~err_clear_q) != '0,
                    $sformatf("error bits %b cleared without a write naming them", $past(err_q) & ~err_q))
  // In reset no barrier bit leaves the node.
  `CMN_ASSERT_AT_RESET(QuietInReset, link_out_o == '0, $sformatf("barrier bits %b sent in reset", link_out_o))

endmodule : gi_barrier

`default_nettype wire
