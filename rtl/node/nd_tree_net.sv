// nd_tree_net: the node's tree side: the combining-network adapter and the barrier unit
// that shares the tree links' wires, behind the part of the node's register bus that is
// theirs (addresses 0x400-0x7ff to the barrier unit, the rest to the adapter; nd_node
// sends the torus window elsewhere). A block of its own so that a simulator can evaluate
// it apart from the torus side: the SystemC machine Verilates it as one model per node
// and skips it on cycles where it is quiescent (systemc/node.cpp). Port names are
// nd_node's, so waveforms read the same.
`default_nettype none

module nd_tree_net #(
  parameter int LinkPackets = 4,  // per VC per tree link
  parameter int InjPackets  = 8,  // per injection FIFO
  parameter int RcvPackets  = 8   // per reception FIFO
) (
  input  wire logic                           clk_i,
  input  wire logic                           rst_ni,
  // register bus (already decoded: no torus addresses)
  input  wire logic                           bus_req_i,
  input  wire logic                           bus_we_i,
  input  wire logic [cn_pkg::BusAddrBits-1:0] bus_addr_i,
  input  wire logic [cn_pkg::BusDataBits-1:0] bus_wdata_i,  // word 0 in [63:0]
  input  wire logic                           bus_priv_i,
  output logic                                bus_ready_o,
  output logic                                bus_rvalid_o,
  output logic      [cn_pkg::BusDataBits-1:0] bus_rdata_o,
  // tree link 0
  input  wire logic                           tree0_in_valid_i,
  input  wire logic                           tree0_in_vc_i,
  input  wire logic                           tree0_in_hdr_i,
  input  wire logic [cn_pkg::FlitBits-1:0]    tree0_in_data_i,
  output logic      [cn_pkg::NumVcs-1:0]      tree0_in_credit_o,   // VC v at bit v
  output logic                                tree0_out_valid_o,
  output logic                                tree0_out_vc_o,
  output logic                                tree0_out_hdr_o,
  output logic      [cn_pkg::FlitBits-1:0]    tree0_out_data_o,
  input  wire logic [cn_pkg::NumVcs-1:0]      tree0_out_credit_i,
  // tree link 1
  input  wire logic                           tree1_in_valid_i,
  input  wire logic                           tree1_in_vc_i,
  input  wire logic                           tree1_in_hdr_i,
  input  wire logic [cn_pkg::FlitBits-1:0]    tree1_in_data_i,
  output logic      [cn_pkg::NumVcs-1:0]      tree1_in_credit_o,   // VC v at bit v
  output logic                                tree1_out_valid_o,
  output logic                                tree1_out_vc_o,
  output logic                                tree1_out_hdr_o,
  output logic      [cn_pkg::FlitBits-1:0]    tree1_out_data_o,
  input  wire logic [cn_pkg::NumVcs-1:0]      tree1_out_credit_i,
  // tree link 2
  input  wire logic                           tree2_in_valid_i,
  input  wire logic                           tree2_in_vc_i,
  input  wire logic                           tree2_in_hdr_i,
  input  wire logic [cn_pkg::FlitBits-1:0]    tree2_in_data_i,
  output logic      [cn_pkg::NumVcs-1:0]      tree2_in_credit_o,   // VC v at bit v
  output logic                                tree2_out_valid_o,
  output logic                                tree2_out_vc_o,
  output logic                                tree2_out_hdr_o,
  output logic      [cn_pkg::FlitBits-1:0]    tree2_out_data_o,
  input  wire logic [cn_pkg::NumVcs-1:0]      tree2_out_credit_i,
  // barrier network, per tree link: {OR, AND} of each of the 4 channels
  input  wire logic [7:0]                     gi0_in_i,
  output logic      [7:0]                     gi0_out_o,
  input  wire logic [7:0]                     gi1_in_i,
  output logic      [7:0]                     gi1_out_o,
  input  wire logic [7:0]                     gi2_in_i,
  output logic      [7:0]                     gi2_out_o,
  // any sticky error of the adapter or the barrier unit
  output logic                                err_o
);

  logic                           to_gi, sel_gi_q, cn_rvalid, gi_rvalid, cn_err, gi_err;
  logic [cn_pkg::BusDataBits-1:0] cn_rdata;
  logic [cn_pkg::FlitBits-1:0]    gi_rdata;  // word 0 of the bus

  assign to_gi = (bus_addr_i[11:10] == 2'b01);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)        sel_gi_q <= 1'b0;
    else if (bus_req_i) sel_gi_q <= to_gi;
  end

  // Both read paths are registered in their unit; the select is registered too. The
  // barrier unit has only one-word registers: its read data is word 0 of the wide bus.
  assign bus_rvalid_o = sel_gi_q ? gi_rvalid : cn_rvalid;
  assign bus_rdata_o  = sel_gi_q ? cn_pkg::BusDataBits'(gi_rdata) : cn_rdata;
  assign err_o        = cn_err || gi_err;

  logic [cn_pkg::NumLinks*cn_pkg::FlitBits-1:0] out_data;
  assign {tree2_out_data_o, tree1_out_data_o, tree0_out_data_o} = out_data;

  cn_adapter #(
    .LinkPackets(LinkPackets), .InjPackets(InjPackets), .RcvPackets(RcvPackets)
  ) u_tree (
    .clk_i, .rst_ni,
    .bus_req_i(bus_req_i && !to_gi), .bus_we_i, .bus_addr_i, .bus_wdata_i, .bus_priv_i,
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
    .req_i(bus_req_i && to_gi), .we_i(bus_we_i), .addr_i(bus_addr_i), .wdata_i(bus_wdata_i[cn_pkg::FlitBits-1:0]),
    .priv_i(bus_priv_i), .rvalid_o(gi_rvalid), .rdata_o(gi_rdata),
    .link_in_i({gi2_in_i, gi1_in_i, gi0_in_i}),
    .link_out_o({gi2_out_o, gi1_out_o, gi0_out_o}),
    .err_o(gi_err)
  );

endmodule : nd_tree_net

`default_nettype wire
