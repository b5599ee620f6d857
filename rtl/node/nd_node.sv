// nd_node: the node top that the machine instantiates once per node: the combining-network
// adapter, the barrier unit and the torus router behind the node's register bus
// (addresses 0x400-0x7ff go to the barrier unit, 0x800-0xbff to the torus, the rest to
// the adapter). Every output is driven by a register inside a block, so a node is
// evaluated once per clock edge and links are pure delays between nodes.
// Ports are flat, one group per link (valid, VC, header flag, data forward; one credit
// per VC back), so that waveform viewers group them cleanly.
`default_nettype none

module nd_node (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,
  // register bus
  input  wire logic        bus_req_i,
  input  wire logic        bus_we_i,
  input  wire logic [11:0] bus_addr_i,
  input  wire logic [cn_pkg::BusDataBits-1:0] bus_wdata_i,  // word 0 in [63:0]
  input  wire logic        bus_priv_i,
  output logic             bus_ready_o,
  output logic             bus_rvalid_o,
  output logic      [cn_pkg::BusDataBits-1:0] bus_rdata_o,
  // tree link 0
  input  wire logic        tree0_in_valid_i,
  input  wire logic        tree0_in_vc_i,
  input  wire logic        tree0_in_hdr_i,
  input  wire logic [63:0] tree0_in_data_i,
  output logic      [1:0]  tree0_in_credit_o,   // VC v at bit v
  output logic             tree0_out_valid_o,
  output logic             tree0_out_vc_o,
  output logic             tree0_out_hdr_o,
  output logic      [63:0] tree0_out_data_o,
  input  wire logic [1:0]  tree0_out_credit_i,
  // tree link 1
  input  wire logic        tree1_in_valid_i,
  input  wire logic        tree1_in_vc_i,
  input  wire logic        tree1_in_hdr_i,
  input  wire logic [63:0] tree1_in_data_i,
  output logic      [1:0]  tree1_in_credit_o,   // VC v at bit v
  output logic             tree1_out_valid_o,
  output logic             tree1_out_vc_o,
  output logic             tree1_out_hdr_o,
  output logic      [63:0] tree1_out_data_o,
  input  wire logic [1:0]  tree1_out_credit_i,
  // tree link 2
  input  wire logic        tree2_in_valid_i,
  input  wire logic        tree2_in_vc_i,
  input  wire logic        tree2_in_hdr_i,
  input  wire logic [63:0] tree2_in_data_i,
  output logic      [1:0]  tree2_in_credit_o,   // VC v at bit v
  output logic             tree2_out_valid_o,
  output logic             tree2_out_vc_o,
  output logic             tree2_out_hdr_o,
  output logic      [63:0] tree2_out_data_o,
  input  wire logic [1:0]  tree2_out_credit_i,
  // barrier network, per tree link: {OR, AND} of each of the 4 channels
  input  wire logic [7:0]  gi0_in_i,
  output logic      [7:0]  gi0_out_o,
  input  wire logic [7:0]  gi1_in_i,
  output logic      [7:0]  gi1_out_o,
  input  wire logic [7:0]  gi2_in_i,
  output logic      [7:0]  gi2_out_o,
  // torus link 0 (x+)
  input  wire logic        tor0_in_valid_i,
  input  wire logic        tor0_in_hdr_i,
  input  wire logic [1:0]  tor0_in_vc_i,
  input  wire logic [63:0] tor0_in_data_i,
  output logic      [3:0]  tor0_in_credit_o,  // VC v at bit v
  output logic             tor0_out_valid_o,
  output logic             tor0_out_hdr_o,
  output logic      [1:0]  tor0_out_vc_o,
  output logic      [63:0] tor0_out_data_o,
  input  wire logic [3:0]  tor0_out_credit_i,
  // torus link 1 (x-)
  input  wire logic        tor1_in_valid_i,
  input  wire logic        tor1_in_hdr_i,
  input  wire logic [1:0]  tor1_in_vc_i,
  input  wire logic [63:0] tor1_in_data_i,
  output logic      [3:0]  tor1_in_credit_o,  // VC v at bit v
  output logic             tor1_out_valid_o,
  output logic             tor1_out_hdr_o,
  output logic      [1:0]  tor1_out_vc_o,
  output logic      [63:0] tor1_out_data_o,
  input  wire logic [3:0]  tor1_out_credit_i,
  // torus link 2 (y+)
  input  wire logic        tor2_in_valid_i,
  input  wire logic        tor2_in_hdr_i,
  input  wire logic [1:0]  tor2_in_vc_i,
  input  wire logic [63:0] tor2_in_data_i,
  output logic      [3:0]  tor2_in_credit_o,  // VC v at bit v
  output logic             tor2_out_valid_o,
  output logic             tor2_out_hdr_o,
  output logic      [1:0]  tor2_out_vc_o,
  output logic      [63:0] tor2_out_data_o,
  input  wire logic [3:0]  tor2_out_credit_i,
  // torus link 3 (y-)
  input  wire logic        tor3_in_valid_i,
  input  wire logic        tor3_in_hdr_i,
  input  wire logic [1:0]  tor3_in_vc_i,
  input  wire logic [63:0] tor3_in_data_i,
  output logic      [3:0]  tor3_in_credit_o,  // VC v at bit v
  output logic             tor3_out_valid_o,
  output logic             tor3_out_hdr_o,
  output logic      [1:0]  tor3_out_vc_o,
  output logic      [63:0] tor3_out_data_o,
  input  wire logic [3:0]  tor3_out_credit_i,
  // torus link 4 (z+)
  input  wire logic        tor4_in_valid_i,
  input  wire logic        tor4_in_hdr_i,
  input  wire logic [1:0]  tor4_in_vc_i,
  input  wire logic [63:0] tor4_in_data_i,
  output logic      [3:0]  tor4_in_credit_o,  // VC v at bit v
  output logic             tor4_out_valid_o,
  output logic             tor4_out_hdr_o,
  output logic      [1:0]  tor4_out_vc_o,
  output logic      [63:0] tor4_out_data_o,
  input  wire logic [3:0]  tor4_out_credit_i,
  // torus link 5 (z-)
  input  wire logic        tor5_in_valid_i,
  input  wire logic        tor5_in_hdr_i,
  input  wire logic [1:0]  tor5_in_vc_i,
  input  wire logic [63:0] tor5_in_data_i,
  output logic      [3:0]  tor5_in_credit_o,  // VC v at bit v
  output logic             tor5_out_valid_o,
  output logic             tor5_out_hdr_o,
  output logic      [1:0]  tor5_out_vc_o,
  output logic      [63:0] tor5_out_data_o,
  input  wire logic [3:0]  tor5_out_credit_i,
  // torus configuration, static while the machine runs (registered inside)
  input  wire logic [23:0] tor_coord_i,      // this node's x, y, z (8 bits each, x lowest)
  input  wire logic [23:0] tor_dims_i,       // the torus size in x, y, z
  input  wire logic [5:0]  tor_link_down_i,  // torus links not to use
  // RegTrStatus as wires (FIFO levels), for an on-chip agent that streams packets
  output logic      [63:0] tor_status_o,
  // any sticky error in the node
  output logic             err_o
);

  // The tree adapter's buffer sizes, in packets. Fixed rather than parameters: the node
  // has no parameters, so that a hierarchical Verilation of the flat machine can compile
  // it once as a block (Verilator 5.006 re-elaborates a parameterized block in its parent).
  localparam int LinkPackets = 4;  // per VC per tree link
  localparam int InjPackets  = 8;  // per injection FIFO
  localparam int RcvPackets  = 8;  // per reception FIFO

  // A whole machine in one model (nd_machine) holds many nodes: one copy of the node's
  // code serves them all instead of one inlined copy per node.
  /*verilator no_inline_module*/

  // ------------------------------------------------------------ register bus decode
  logic                           to_gi, to_tr, cn_rvalid, gi_rvalid, tr_rvalid, cn_err, gi_err;
  logic [1:0]                     sel_q;  // 0 adapter, 1 barrier, 2 torus
  logic [cn_pkg::BusDataBits-1:0] cn_rdata, tr_rdata;
  logic [63:0]                    gi_rdata;
  logic [tr_pkg::TrErrBits-1:0]   tr_err;

  assign to_gi = (bus_addr_i[11:10] == 2'b01);
  assign to_tr = (bus_addr_i[11:10] == 2'b10);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)        sel_q <= 2'd0;
    else if (bus_req_i) sel_q <= to_tr ? 2'd2 : to_gi ? 2'd1 : 2'd0;
  end

  // Every read path is registered in its unit; the select is registered too. The barrier
  // unit has only 64-bit registers: its read data is word 0 of the wide bus.
  always_comb begin
    unique case (sel_q)
      2'd1:    begin bus_rvalid_o = gi_rvalid; bus_rdata_o = {{(cn_pkg::BusDataBits - 64){1'b0}}, gi_rdata}; end
      2'd2:    begin bus_rvalid_o = tr_rvalid; bus_rdata_o = tr_rdata; end
      default: begin bus_rvalid_o = cn_rvalid; bus_rdata_o = cn_rdata; end
    endcase
  end
  assign err_o = cn_err || gi_err || (|tr_err);

  logic [3*64-1:0] out_data;

  assign {tree2_out_data_o, tree1_out_data_o, tree0_out_data_o} = out_data;

  cn_adapter #(
    .LinkPackets(LinkPackets), .InjPackets(InjPackets), .RcvPackets(RcvPackets)
  ) u_tree (
    .clk_i, .rst_ni,
    .bus_req_i(bus_req_i && !to_gi && !to_tr), .bus_we_i, .bus_addr_i, .bus_wdata_i, .bus_priv_i,
    .bus_ready_o, .bus_rvalid_o(cn_rvalid), .bus_rdata_o(cn_rdata),
    .link_in_valid_i({tree2_in_valid_i, tree1_in_valid_i, tree0_in_valid_i}),
    .link_in_vc_i({tree2_in_vc_i, tree1_in_vc_i, tree0_in_vc_i}),
    .link_in_hdr_i({tree2_in_hdr_i, tree1_in_hdr_i, tree0_in_hdr_i}),
    .link_in_data_i({tree2_in_data_i, tree1_in_data_i, tree0_in_data_i}),
    .link_in_credit_o({tree2_in_credit_o, tree1_in_credit_o, tree0_in_credit_o}),
    .link_out_valid_o({tree2_out_valid_o, tree1_out_valid_o, tree0_out_valid_o}),
    .link_out_vc_o({tree2_out_vc_o, tree1_out_vc_o, tree0_out_vc_o}),
    .link_out_hdr_o({tree2_out_hdr_o, tree1_out_hdr_o, tree0_out_hdr_o}),
    .link_out_data_o(out_data),
    .link_out_credit_i({tree2_out_credit_i, tree1_out_credit_i, tree0_out_credit_i}),
    .err_o(cn_err)
  );

  gi_barrier u_barrier (
    .clk_i, .rst_ni,
    .req_i(bus_req_i && to_gi), .we_i(bus_we_i), .addr_i(bus_addr_i), .wdata_i(bus_wdata_i[63:0]),
    .priv_i(bus_priv_i), .rvalid_o(gi_rvalid), .rdata_o(gi_rdata),
    .link_in_i({gi2_in_i, gi1_in_i, gi0_in_i}),
    .link_out_o({gi2_out_o, gi1_out_o, gi0_out_o}),
    .err_o(gi_err)
  );

  // ------------------------------------------------------------ torus
  // The configuration pins are registered once at the node's edge: the router's routing
  // logic then depends on state only, never directly on pins.
  logic [23:0] tor_coord_q, tor_dims_q;
  logic [5:0]  tor_link_down_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      tor_coord_q     <= '0;
      tor_dims_q      <= {8'd1, 8'd1, 8'd1};
      tor_link_down_q <= '0;
    end else begin
      tor_coord_q     <= tor_coord_i;
      tor_dims_q      <= tor_dims_i;
      tor_link_down_q <= tor_link_down_i;
    end
  end

  logic [5:0]    tr_in_valid, tr_in_hdr, tr_out_valid, tr_out_hdr;
  logic [6*2-1:0] tr_in_vc, tr_out_vc;
  logic [6*64-1:0] tr_in_data, tr_out_data;
  logic [6*4-1:0] tr_in_credit, tr_out_credit;
  assign tr_in_valid   = {tor5_in_valid_i, tor4_in_valid_i, tor3_in_valid_i, tor2_in_valid_i, tor1_in_valid_i, tor0_in_valid_i};
  assign tr_in_hdr     = {tor5_in_hdr_i, tor4_in_hdr_i, tor3_in_hdr_i, tor2_in_hdr_i, tor1_in_hdr_i, tor0_in_hdr_i};
  assign tr_in_vc      = {tor5_in_vc_i, tor4_in_vc_i, tor3_in_vc_i, tor2_in_vc_i, tor1_in_vc_i, tor0_in_vc_i};
  assign tr_in_data    = {tor5_in_data_i, tor4_in_data_i, tor3_in_data_i, tor2_in_data_i, tor1_in_data_i, tor0_in_data_i};
  assign tr_out_credit = {tor5_out_credit_i, tor4_out_credit_i, tor3_out_credit_i, tor2_out_credit_i, tor1_out_credit_i, tor0_out_credit_i};
  assign {tor5_in_credit_o, tor4_in_credit_o, tor3_in_credit_o, tor2_in_credit_o, tor1_in_credit_o, tor0_in_credit_o} = tr_in_credit;
  assign {tor5_out_valid_o, tor4_out_valid_o, tor3_out_valid_o, tor2_out_valid_o, tor1_out_valid_o, tor0_out_valid_o} = tr_out_valid;
  assign {tor5_out_hdr_o, tor4_out_hdr_o, tor3_out_hdr_o, tor2_out_hdr_o, tor1_out_hdr_o, tor0_out_hdr_o} = tr_out_hdr;
  assign {tor5_out_vc_o, tor4_out_vc_o, tor3_out_vc_o, tor2_out_vc_o, tor1_out_vc_o, tor0_out_vc_o} = tr_out_vc;
  assign {tor5_out_data_o, tor4_out_data_o, tor3_out_data_o, tor2_out_data_o, tor1_out_data_o, tor0_out_data_o} = tr_out_data;

  logic [tr_pkg::TrInjFifos-1:0] tr_inj_push;
  logic [2:0]                    tr_inj_n, tr_rcv_n;
  logic [4*64-1:0]               tr_inj_data;
  logic [3*8-1:0]                tr_inj_free;
  logic [tr_pkg::TrRcvFifos-1:0] tr_rcv_pop;
  logic [2*4*64-1:0]             tr_rcv_data;
  logic [2*9-1:0]                tr_rcv_count;
  logic [tr_pkg::TrRouterErrBits-1:0] tr_router_err;

  tr_router u_torus (
    .clk_i, .rst_ni,
    .my_i(tor_coord_q), .dims_i(tor_dims_q), .link_down_i(tor_link_down_q),
    .in_valid_i(tr_in_valid), .in_hdr_i(tr_in_hdr), .in_vc_i(tr_in_vc), .in_data_i(tr_in_data),
    .in_credit_o(tr_in_credit),
    .out_valid_o(tr_out_valid), .out_hdr_o(tr_out_hdr), .out_vc_o(tr_out_vc), .out_data_o(tr_out_data),
    .out_credit_i(tr_out_credit),
    .inj_push_i(tr_inj_push), .inj_n_i(tr_inj_n), .inj_data_i(tr_inj_data), .inj_free_o(tr_inj_free),
    .rcv_pop_i(tr_rcv_pop), .rcv_n_i(tr_rcv_n), .rcv_data_o(tr_rcv_data), .rcv_count_o(tr_rcv_count),
    .err_o(tr_router_err)
  );

  tr_regs #(.BusBits(cn_pkg::BusDataBits)) u_torus_regs (
    .clk_i, .rst_ni,
    .req_i(bus_req_i && to_tr), .we_i(bus_we_i), .addr_i(bus_addr_i), .wdata_i(bus_wdata_i),
    .rvalid_o(tr_rvalid), .rdata_o(tr_rdata),
    .my_i(tor_coord_q), .dims_i(tor_dims_q), .link_down_i(tor_link_down_q),
    .inj_push_o(tr_inj_push), .inj_n_o(tr_inj_n), .inj_data_o(tr_inj_data), .inj_free_i(tr_inj_free),
    .rcv_pop_o(tr_rcv_pop), .rcv_n_o(tr_rcv_n), .rcv_data_i(tr_rcv_data), .rcv_count_i(tr_rcv_count),
    .router_err_i(tr_router_err), .err_o(tr_err), .status_o(tor_status_o)
  );

endmodule : nd_node

`default_nettype wire
