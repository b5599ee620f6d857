// nd_torus_net: the node's torus side: the six-link router and its register block (the
// register bus's window 0x800-0xbff), with the node's torus configuration registered at
// its edge. A block of its own so that a simulator can evaluate it apart from the tree
// side: the SystemC machine Verilates it as one model per node and skips it on cycles
// where it is quiescent (systemc/node.cpp). Port names are nd_node's, so waveforms read
// the same.
`default_nettype none

module nd_torus_net (
  input  wire logic                                      clk_i,
  input  wire logic                                      rst_ni,
  // register bus (already decoded: torus addresses only)
  input  wire logic                                      bus_req_i,
  input  wire logic                                      bus_we_i,
  input  wire logic [cn_pkg::BusAddrBits-1:0]            bus_addr_i,
  input  wire logic [cn_pkg::BusDataBits-1:0]            bus_wdata_i,
  output logic                                           bus_rvalid_o,
  output logic      [cn_pkg::BusDataBits-1:0]            bus_rdata_o,
  // torus link 0 (x+)
  input  wire logic                                      tor0_in_valid_i,
  input  wire logic                                      tor0_in_hdr_i,
  input  wire logic [tr_pkg::TrVcW-1:0]                  tor0_in_vc_i,
  input  wire logic [tr_pkg::TrFlitBits-1:0]             tor0_in_data_i,
  output logic      [tr_pkg::TrNumVcs-1:0]               tor0_in_credit_o,  // VC v at bit v
  output logic                                           tor0_out_valid_o,
  output logic                                           tor0_out_hdr_o,
  output logic      [tr_pkg::TrVcW-1:0]                  tor0_out_vc_o,
  output logic      [tr_pkg::TrFlitBits-1:0]             tor0_out_data_o,
  input  wire logic [tr_pkg::TrNumVcs-1:0]               tor0_out_credit_i,
  // torus link 1 (x-)
  input  wire logic                                      tor1_in_valid_i,
  input  wire logic                                      tor1_in_hdr_i,
  input  wire logic [tr_pkg::TrVcW-1:0]                  tor1_in_vc_i,
  input  wire logic [tr_pkg::TrFlitBits-1:0]             tor1_in_data_i,
  output logic      [tr_pkg::TrNumVcs-1:0]               tor1_in_credit_o,  // VC v at bit v
  output logic                                           tor1_out_valid_o,
  output logic                                           tor1_out_hdr_o,
  output logic      [tr_pkg::TrVcW-1:0]                  tor1_out_vc_o,
  output logic      [tr_pkg::TrFlitBits-1:0]             tor1_out_data_o,
  input  wire logic [tr_pkg::TrNumVcs-1:0]               tor1_out_credit_i,
  // torus link 2 (y+)
  input  wire logic                                      tor2_in_valid_i,
  input  wire logic                                      tor2_in_hdr_i,
  input  wire logic [tr_pkg::TrVcW-1:0]                  tor2_in_vc_i,
  input  wire logic [tr_pkg::TrFlitBits-1:0]             tor2_in_data_i,
  output logic      [tr_pkg::TrNumVcs-1:0]               tor2_in_credit_o,  // VC v at bit v
  output logic                                           tor2_out_valid_o,
  output logic                                           tor2_out_hdr_o,
  output logic      [tr_pkg::TrVcW-1:0]                  tor2_out_vc_o,
  output logic      [tr_pkg::TrFlitBits-1:0]             tor2_out_data_o,
  input  wire logic [tr_pkg::TrNumVcs-1:0]               tor2_out_credit_i,
  // torus link 3 (y-)
  input  wire logic                                      tor3_in_valid_i,
  input  wire logic                                      tor3_in_hdr_i,
  input  wire logic [tr_pkg::TrVcW-1:0]                  tor3_in_vc_i,
  input  wire logic [tr_pkg::TrFlitBits-1:0]             tor3_in_data_i,
  output logic      [tr_pkg::TrNumVcs-1:0]               tor3_in_credit_o,  // VC v at bit v
  output logic                                           tor3_out_valid_o,
  output logic                                           tor3_out_hdr_o,
  output logic      [tr_pkg::TrVcW-1:0]                  tor3_out_vc_o,
  output logic      [tr_pkg::TrFlitBits-1:0]             tor3_out_data_o,
  input  wire logic [tr_pkg::TrNumVcs-1:0]               tor3_out_credit_i,
  // torus link 4 (z+)
  input  wire logic                                      tor4_in_valid_i,
  input  wire logic                                      tor4_in_hdr_i,
  input  wire logic [tr_pkg::TrVcW-1:0]                  tor4_in_vc_i,
  input  wire logic [tr_pkg::TrFlitBits-1:0]             tor4_in_data_i,
  output logic      [tr_pkg::TrNumVcs-1:0]               tor4_in_credit_o,  // VC v at bit v
  output logic                                           tor4_out_valid_o,
  output logic                                           tor4_out_hdr_o,
  output logic      [tr_pkg::TrVcW-1:0]                  tor4_out_vc_o,
  output logic      [tr_pkg::TrFlitBits-1:0]             tor4_out_data_o,
  input  wire logic [tr_pkg::TrNumVcs-1:0]               tor4_out_credit_i,
  // torus link 5 (z-)
  input  wire logic                                      tor5_in_valid_i,
  input  wire logic                                      tor5_in_hdr_i,
  input  wire logic [tr_pkg::TrVcW-1:0]                  tor5_in_vc_i,
  input  wire logic [tr_pkg::TrFlitBits-1:0]             tor5_in_data_i,
  output logic      [tr_pkg::TrNumVcs-1:0]               tor5_in_credit_o,  // VC v at bit v
  output logic                                           tor5_out_valid_o,
  output logic                                           tor5_out_hdr_o,
  output logic      [tr_pkg::TrVcW-1:0]                  tor5_out_vc_o,
  output logic      [tr_pkg::TrFlitBits-1:0]             tor5_out_data_o,
  input  wire logic [tr_pkg::TrNumVcs-1:0]               tor5_out_credit_i,
  // torus configuration, static while the machine runs (registered inside)
  input  wire logic [tr_pkg::NumDims*tr_pkg::CoordW-1:0] tor_coord_i,      // this node's x, y, z (8 bits each, x lowest)
  input  wire logic [tr_pkg::NumDims*tr_pkg::CoordW-1:0] tor_dims_i,       // the torus size in x, y, z
  input  wire logic [tr_pkg::NumDirs-1:0]                tor_link_down_i,  // torus links not to use
  // RegTrStatus as wires (FIFO levels), for an on-chip agent that streams packets
  output logic      [63:0]                               tor_status_o,
  // any sticky error bit of the router or its registers
  output logic                                           err_o
);

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
  logic [tr_pkg::TrErrBits-1:0]       tr_err;

  tr_router u_torus (
    .clk_i, .rst_ni,
    .bubble_i(1'b1), .my_i(tor_coord_q), .dims_i(tor_dims_q), .link_down_i(tor_link_down_q),
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
    .req_i(bus_req_i), .we_i(bus_we_i), .addr_i(bus_addr_i), .wdata_i(bus_wdata_i),
    .rvalid_o(bus_rvalid_o), .rdata_o(bus_rdata_o),
    .my_i(tor_coord_q), .dims_i(tor_dims_q), .link_down_i(tor_link_down_q),
    .inj_push_o(tr_inj_push), .inj_n_o(tr_inj_n), .inj_data_o(tr_inj_data), .inj_free_i(tr_inj_free),
    .rcv_pop_o(tr_rcv_pop), .rcv_n_o(tr_rcv_n), .rcv_data_i(tr_rcv_data), .rcv_count_i(tr_rcv_count),
    .router_err_i(tr_router_err), .err_o(tr_err), .status_o(tor_status_o)
  );

  assign err_o = |tr_err;

endmodule : nd_torus_net

`default_nettype wire
