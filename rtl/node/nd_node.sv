// nd_node: the node top that the machine instantiates once per node. Today it holds the
// combining-network adapter behind the node's register bus; the torus router and the
// barrier unit join it here. Every output is driven by a register inside a block, so a
// node is evaluated once per clock edge and links are pure delays between nodes.
// Ports are flat, one group per tree link, so that waveform viewers group them cleanly.
`default_nettype none

module nd_node #(
  parameter int LinkPackets = 4,
  parameter int InjPackets  = 8,
  parameter int RcvPackets  = 8
) (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,
  // register bus
  input  wire logic        bus_req_i,
  input  wire logic        bus_we_i,
  input  wire logic [11:0] bus_addr_i,
  input  wire logic [63:0] bus_wdata_i,
  input  wire logic        bus_priv_i,
  output logic             bus_ready_o,
  output logic             bus_rvalid_o,
  output logic      [63:0] bus_rdata_o,
  // tree link 0
  input  wire logic        tree0_in_valid_i,
  input  wire logic        tree0_in_hdr_i,
  input  wire logic [63:0] tree0_in_data_i,
  output logic             tree0_in_credit_o,
  output logic             tree0_out_valid_o,
  output logic             tree0_out_hdr_o,
  output logic      [63:0] tree0_out_data_o,
  input  wire logic        tree0_out_credit_i,
  // tree link 1
  input  wire logic        tree1_in_valid_i,
  input  wire logic        tree1_in_hdr_i,
  input  wire logic [63:0] tree1_in_data_i,
  output logic             tree1_in_credit_o,
  output logic             tree1_out_valid_o,
  output logic             tree1_out_hdr_o,
  output logic      [63:0] tree1_out_data_o,
  input  wire logic        tree1_out_credit_i,
  // tree link 2
  input  wire logic        tree2_in_valid_i,
  input  wire logic        tree2_in_hdr_i,
  input  wire logic [63:0] tree2_in_data_i,
  output logic             tree2_in_credit_o,
  output logic             tree2_out_valid_o,
  output logic             tree2_out_hdr_o,
  output logic      [63:0] tree2_out_data_o,
  input  wire logic        tree2_out_credit_i,
  // any sticky error in the node
  output logic             err_o
);

  logic [3*64-1:0] out_data;

  assign {tree2_out_data_o, tree1_out_data_o, tree0_out_data_o} = out_data;

  cn_adapter #(
    .LinkPackets(LinkPackets), .InjPackets(InjPackets), .RcvPackets(RcvPackets)
  ) u_tree (
    .clk_i, .rst_ni,
    .bus_req_i, .bus_we_i, .bus_addr_i, .bus_wdata_i, .bus_priv_i,
    .bus_ready_o, .bus_rvalid_o, .bus_rdata_o,
    .link_in_valid_i({tree2_in_valid_i, tree1_in_valid_i, tree0_in_valid_i}),
    .link_in_hdr_i({tree2_in_hdr_i, tree1_in_hdr_i, tree0_in_hdr_i}),
    .link_in_data_i({tree2_in_data_i, tree1_in_data_i, tree0_in_data_i}),
    .link_in_credit_o({tree2_in_credit_o, tree1_in_credit_o, tree0_in_credit_o}),
    .link_out_valid_o({tree2_out_valid_o, tree1_out_valid_o, tree0_out_valid_o}),
    .link_out_hdr_o({tree2_out_hdr_o, tree1_out_hdr_o, tree0_out_hdr_o}),
    .link_out_data_o(out_data),
    .link_out_credit_i({tree2_out_credit_i, tree1_out_credit_i, tree0_out_credit_i}),
    .err_o
  );

endmodule : nd_node

`default_nettype wire
