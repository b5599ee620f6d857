// SPDX-License-Identifier: Apache-2.0
// nd_machine: the whole machine as one flat module, X*Y*Z copies of nd_node and every link
// between them, so that one Verilated model (or one synthesis run) holds the machine.
// Rank r sits at x = r % X, y = (r / X) % Y, z = r / (X*Y) (x fastest); every port array
// is indexed by rank.
//
// Torus: direction d = 2 * dimension + (1 towards lower coordinates), as in tr_pkg. Link d
// of node r meets link d ^ 1 of its neighbour one step in direction d (with wrap-around;
// in a dimension of size 2 both directions reach the same neighbour over two separate
// links). A dimension of size 1 has no links: their inputs are 0.
// Tree (heap order, as the SystemC machine's TreeWiring): rank 0 is the root, the children
// of rank i are 2i+1 on i's tree link 1 and 2i+2 on its tree link 2, the parent is on
// link 0. Unconnected tree links (the root's link 0, missing children) get 0 on every
// input. The barrier network's bits share the tree links.
//
// Link timing matches the SystemC machine's LinkWire: what a node's output register holds
// after clock edge c is sampled by the receiver at edge c + LinkLatency. The output
// register is the link's first cycle; a cmn_delay of LinkLatency - 1 registers adds the
// rest (none for LinkLatency = 1: a wire). Each direction of a link is one bundle through
// one delay line: the sender's flit (valid, header flag, VC, data), the running credit
// counts the sender returns for the link's other direction, on the tree the barrier bits,
// and the link layer's control word (sequence number, CRCs, acknowledgement: lk_port).
//
// The shape is set with parameters, or, where they cannot be overridden, with the macros
// ND_MACHINE_X, _Y, _Z and _LINK_LATENCY as their defaults: a hierarchical Verilation
// (nd_node compiled once as a block, rtl/node/nd_machine_hier.vlt) hands -G overrides to
// the block too, which has no such parameters.
`include "cmn_assert.svh"
`default_nettype none

`ifndef ND_MACHINE_X
`define ND_MACHINE_X 2
`endif
`ifndef ND_MACHINE_Y
`define ND_MACHINE_Y 2
`endif
`ifndef ND_MACHINE_Z
`define ND_MACHINE_Z 2
`endif
`ifndef ND_MACHINE_LINK_LATENCY
`define ND_MACHINE_LINK_LATENCY 4
`endif

module nd_machine #(
  parameter int X           = `ND_MACHINE_X,  // torus size in x, y, z (1..255 each)
  parameter int Y           = `ND_MACHINE_Y,
  parameter int Z           = `ND_MACHINE_Z,
  parameter int LinkLatency = `ND_MACHINE_LINK_LATENCY,  // cycles from a node's output register to its neighbour (>= 1)
  localparam int N          = X * Y * Z
) (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,
  // register bus of every node
  input  wire logic        bus_req_i       [N],
  input  wire logic        bus_we_i        [N],
  input  wire logic        bus_priv_i      [N],
  input  wire logic [cn_pkg::BusAddrBits-1:0] bus_addr_i [N],
  input  wire logic [cn_pkg::BusDataBits-1:0] bus_wdata_i [N],  // word 0 in [63:0]
  output logic             bus_rvalid_o    [N],
  output logic      [cn_pkg::BusDataBits-1:0] bus_rdata_o [N],
  // torus links of each node not to use (bit d: direction d)
  input  wire logic [5:0]  tor_link_down_i [N],
  // RegTrStatus of each node as wires
  output logic      [63:0] tor_status_o    [N],
  // any sticky error in a node
  output logic             err_o           [N],
  // some torus link output (any node, any direction) carries a flit this cycle
  output logic             moving_o
);

  // One direction of a link as it leaves the sender, before the delay line.
  // Torus: {valid, hdr, vc[1:0], data[63:0], credit counts[31:0], control word}.
  localparam int CtlW     = lk_pkg::LkCtlBits;
  localparam int TorCntW  = tr_pkg::TrNumVcs * lk_pkg::LkTorusCntW;
  localparam int TreeCntW = cn_pkg::NumVcs * lk_pkg::LkTreeCntW;
  localparam int TorBits  = 1 + 1 + 2 + 64 + TorCntW + CtlW;
  // Tree: {valid, vc, hdr, data[63:0], credit counts[7:0], barrier[7:0], control word}.
  localparam int TreeBits = 1 + 1 + 1 + 64 + TreeCntW + 8 + CtlW;
  localparam int Stages   = LinkLatency - 1;

  // The nodes see copies of the bus inputs and link-down bits made in one always_comb, not
  // the ports themselves. Verilator 5.006 declares a top-level unpacked array port as a
  // plain C array but the copy it keeps for $sampled as a VlUnpacked, so once the nodes are
  // inlined an assertion that reads a bus input (cmn_wfifo's push count comes from the bus
  // address) makes C++ that does not compile. Verilator does not fold a process of several
  // assignments into its readers: the assertions sample these internal arrays instead.
  logic                           node_req       [N];
  logic                           node_we        [N];
  logic                           node_priv      [N];
  logic [cn_pkg::BusAddrBits-1:0] node_addr      [N];
  logic [cn_pkg::BusDataBits-1:0] node_wdata     [N];
  logic [5:0]                     node_link_down [N];

  always_comb begin
    for (int r = 0; r < N; r++) begin
      node_req[r]       = bus_req_i[r];
      node_we[r]        = bus_we_i[r];
      node_priv[r]      = bus_priv_i[r];
      node_addr[r]      = bus_addr_i[r];
      node_wdata[r]     = bus_wdata_i[r];
      node_link_down[r] = tor_link_down_i[r];
    end
  end

  logic [TorBits-1:0]  tor_tx  [N][6];  // node r's torus link d, outgoing
  logic [TreeBits-1:0] tree_tx [N][3];  // node r's tree link l, outgoing
  logic [N-1:0]        node_moving;
  logic [N-1:0]        unused_bus_ready;  // nd_node drives its bus_ready_o constant

  for (genvar r = 0; r < N; r++) begin : g_node
    localparam int PosX = r % X;
    localparam int PosY = (r / X) % Y;
    localparam int PosZ = r / (X * Y);

    logic [2:0]      tree_in_valid, tree_in_vc, tree_in_hdr, tree_out_valid, tree_out_vc, tree_out_hdr;
    logic [3*64-1:0] tree_in_data, tree_out_data;
    logic [3*TreeCntW-1:0] tree_in_credit, tree_out_credit;
    logic [3*CtlW-1:0]     tree_in_ctl, tree_out_ctl;
    logic [3*8-1:0]  gi_in, gi_out;
    logic [5:0]      tor_in_valid, tor_in_hdr, tor_out_valid, tor_out_hdr;
    logic [6*2-1:0]  tor_in_vc, tor_out_vc;
    logic [6*64-1:0] tor_in_data, tor_out_data;
    logic [6*TorCntW-1:0] tor_in_credit, tor_out_credit;
    logic [6*CtlW-1:0]    tor_in_ctl, tor_out_ctl;

    // ---------------------------------------------------------------- torus links
    for (genvar d = 0; d < 6; d++) begin : g_tor
      localparam int Dim     = d / 2;
      localparam int Size    = (Dim == 0) ? X : (Dim == 1) ? Y : Z;
      localparam int Pos     = (Dim == 0) ? PosX : (Dim == 1) ? PosY : PosZ;
      localparam int Stride  = (Dim == 0) ? 1 : (Dim == 1) ? X : X * Y;
      localparam int PeerPos = (d % 2 == 0) ? (Pos + 1) % Size : (Pos + Size - 1) % Size;
      localparam int Peer    = r + (PeerPos - Pos) * Stride;  // the neighbour in direction d

      logic [TorBits-1:0] rx;

      assign tor_tx[r][d] = {tor_out_valid[d], tor_out_hdr[d], tor_out_vc[d*2 +: 2], tor_out_data[d*64 +: 64],
                             tor_in_credit[d*TorCntW +: TorCntW], tor_out_ctl[d*CtlW +: CtlW]};
      assign {tor_in_valid[d], tor_in_hdr[d], tor_in_vc[d*2 +: 2], tor_in_data[d*64 +: 64],
              tor_out_credit[d*TorCntW +: TorCntW], tor_in_ctl[d*CtlW +: CtlW]} = rx;

      if (Size == 1) begin : g_none
        logic [TorBits-1:0] unused_tx;
        assign unused_tx = tor_tx[r][d];
        assign rx        = '0;
      end else begin : g_link
        cmn_delay #(.Width(TorBits), .Stages(Stages)) u_delay (
          .clk_i, .rst_ni, .d_i(tor_tx[Peer][d ^ 1]), .q_o(rx)
        );
      end
    end

    // ---------------------------------------------------------------- tree links
    for (genvar l = 0; l < 3; l++) begin : g_tree
      localparam int  Peer     = (l == 0) ? (r - 1) / 2 : 2 * r + l;  // parent or child
      localparam int  PeerLink = (l == 0) ? 2 - r % 2 : 0;             // its link to this node
      localparam bit  Linked   = (l == 0) ? (r > 0) : (Peer < N);

      logic [TreeBits-1:0] rx;

      assign tree_tx[r][l] = {tree_out_valid[l], tree_out_vc[l], tree_out_hdr[l], tree_out_data[l*64 +: 64],
                              tree_in_credit[l*TreeCntW +: TreeCntW], gi_out[l*8 +: 8], tree_out_ctl[l*CtlW +: CtlW]};
      assign {tree_in_valid[l], tree_in_vc[l], tree_in_hdr[l], tree_in_data[l*64 +: 64],
              tree_out_credit[l*TreeCntW +: TreeCntW], gi_in[l*8 +: 8], tree_in_ctl[l*CtlW +: CtlW]} = rx;

      if (!Linked) begin : g_none
        logic [TreeBits-1:0] unused_tx;
        assign unused_tx = tree_tx[r][l];
        assign rx        = '0;
      end else begin : g_link
        cmn_delay #(.Width(TreeBits), .Stages(Stages)) u_delay (
          .clk_i, .rst_ni, .d_i(tree_tx[Peer][PeerLink]), .q_o(rx)
        );
      end
    end

    assign node_moving[r] = |tor_out_valid;

    nd_node u_node (
      .clk_i, .rst_ni,
      .bus_req_i(node_req[r]), .bus_we_i(node_we[r]), .bus_addr_i(node_addr[r]),
      .bus_wdata_i(node_wdata[r]), .bus_priv_i(node_priv[r]),
      .bus_ready_o(unused_bus_ready[r]), .bus_rvalid_o(bus_rvalid_o[r]), .bus_rdata_o(bus_rdata_o[r]),
      // tree links
      .tree0_in_valid_i(tree_in_valid[0]), .tree0_in_vc_i(tree_in_vc[0]), .tree0_in_hdr_i(tree_in_hdr[0]),
      .tree0_in_data_i(tree_in_data[0*64 +: 64]), .tree0_in_credit_o(tree_in_credit[0*TreeCntW +: TreeCntW]),
      .tree0_out_valid_o(tree_out_valid[0]), .tree0_out_vc_o(tree_out_vc[0]), .tree0_out_hdr_o(tree_out_hdr[0]),
      .tree0_out_data_o(tree_out_data[0*64 +: 64]), .tree0_out_credit_i(tree_out_credit[0*TreeCntW +: TreeCntW]),
      .tree0_in_ctl_i(tree_in_ctl[0*CtlW +: CtlW]), .tree0_out_ctl_o(tree_out_ctl[0*CtlW +: CtlW]),
      .tree1_in_valid_i(tree_in_valid[1]), .tree1_in_vc_i(tree_in_vc[1]), .tree1_in_hdr_i(tree_in_hdr[1]),
      .tree1_in_data_i(tree_in_data[1*64 +: 64]), .tree1_in_credit_o(tree_in_credit[1*TreeCntW +: TreeCntW]),
      .tree1_out_valid_o(tree_out_valid[1]), .tree1_out_vc_o(tree_out_vc[1]), .tree1_out_hdr_o(tree_out_hdr[1]),
      .tree1_out_data_o(tree_out_data[1*64 +: 64]), .tree1_out_credit_i(tree_out_credit[1*TreeCntW +: TreeCntW]),
      .tree1_in_ctl_i(tree_in_ctl[1*CtlW +: CtlW]), .tree1_out_ctl_o(tree_out_ctl[1*CtlW +: CtlW]),
      .tree2_in_valid_i(tree_in_valid[2]), .tree2_in_vc_i(tree_in_vc[2]), .tree2_in_hdr_i(tree_in_hdr[2]),
      .tree2_in_data_i(tree_in_data[2*64 +: 64]), .tree2_in_credit_o(tree_in_credit[2*TreeCntW +: TreeCntW]),
      .tree2_out_valid_o(tree_out_valid[2]), .tree2_out_vc_o(tree_out_vc[2]), .tree2_out_hdr_o(tree_out_hdr[2]),
      .tree2_out_data_o(tree_out_data[2*64 +: 64]), .tree2_out_credit_i(tree_out_credit[2*TreeCntW +: TreeCntW]),
      .tree2_in_ctl_i(tree_in_ctl[2*CtlW +: CtlW]), .tree2_out_ctl_o(tree_out_ctl[2*CtlW +: CtlW]),
      // barrier network
      .gi0_in_i(gi_in[0*8 +: 8]), .gi0_out_o(gi_out[0*8 +: 8]),
      .gi1_in_i(gi_in[1*8 +: 8]), .gi1_out_o(gi_out[1*8 +: 8]),
      .gi2_in_i(gi_in[2*8 +: 8]), .gi2_out_o(gi_out[2*8 +: 8]),
      // torus links
      .tor0_in_valid_i(tor_in_valid[0]), .tor0_in_hdr_i(tor_in_hdr[0]), .tor0_in_vc_i(tor_in_vc[0*2 +: 2]),
      .tor0_in_data_i(tor_in_data[0*64 +: 64]), .tor0_in_credit_o(tor_in_credit[0*TorCntW +: TorCntW]),
      .tor0_out_valid_o(tor_out_valid[0]), .tor0_out_hdr_o(tor_out_hdr[0]), .tor0_out_vc_o(tor_out_vc[0*2 +: 2]),
      .tor0_out_data_o(tor_out_data[0*64 +: 64]), .tor0_out_credit_i(tor_out_credit[0*TorCntW +: TorCntW]),
      .tor0_in_ctl_i(tor_in_ctl[0*CtlW +: CtlW]), .tor0_out_ctl_o(tor_out_ctl[0*CtlW +: CtlW]),
      .tor1_in_valid_i(tor_in_valid[1]), .tor1_in_hdr_i(tor_in_hdr[1]), .tor1_in_vc_i(tor_in_vc[1*2 +: 2]),
      .tor1_in_data_i(tor_in_data[1*64 +: 64]), .tor1_in_credit_o(tor_in_credit[1*TorCntW +: TorCntW]),
      .tor1_out_valid_o(tor_out_valid[1]), .tor1_out_hdr_o(tor_out_hdr[1]), .tor1_out_vc_o(tor_out_vc[1*2 +: 2]),
      .tor1_out_data_o(tor_out_data[1*64 +: 64]), .tor1_out_credit_i(tor_out_credit[1*TorCntW +: TorCntW]),
      .tor1_in_ctl_i(tor_in_ctl[1*CtlW +: CtlW]), .tor1_out_ctl_o(tor_out_ctl[1*CtlW +: CtlW]),
      .tor2_in_valid_i(tor_in_valid[2]), .tor2_in_hdr_i(tor_in_hdr[2]), .tor2_in_vc_i(tor_in_vc[2*2 +: 2]),
      .tor2_in_data_i(tor_in_data[2*64 +: 64]), .tor2_in_credit_o(tor_in_credit[2*TorCntW +: TorCntW]),
      .tor2_out_valid_o(tor_out_valid[2]), .tor2_out_hdr_o(tor_out_hdr[2]), .tor2_out_vc_o(tor_out_vc[2*2 +: 2]),
      .tor2_out_data_o(tor_out_data[2*64 +: 64]), .tor2_out_credit_i(tor_out_credit[2*TorCntW +: TorCntW]),
      .tor2_in_ctl_i(tor_in_ctl[2*CtlW +: CtlW]), .tor2_out_ctl_o(tor_out_ctl[2*CtlW +: CtlW]),
      .tor3_in_valid_i(tor_in_valid[3]), .tor3_in_hdr_i(tor_in_hdr[3]), .tor3_in_vc_i(tor_in_vc[3*2 +: 2]),
      .tor3_in_data_i(tor_in_data[3*64 +: 64]), .tor3_in_credit_o(tor_in_credit[3*TorCntW +: TorCntW]),
      .tor3_out_valid_o(tor_out_valid[3]), .tor3_out_hdr_o(tor_out_hdr[3]), .tor3_out_vc_o(tor_out_vc[3*2 +: 2]),
      .tor3_out_data_o(tor_out_data[3*64 +: 64]), .tor3_out_credit_i(tor_out_credit[3*TorCntW +: TorCntW]),
      .tor3_in_ctl_i(tor_in_ctl[3*CtlW +: CtlW]), .tor3_out_ctl_o(tor_out_ctl[3*CtlW +: CtlW]),
      .tor4_in_valid_i(tor_in_valid[4]), .tor4_in_hdr_i(tor_in_hdr[4]), .tor4_in_vc_i(tor_in_vc[4*2 +: 2]),
      .tor4_in_data_i(tor_in_data[4*64 +: 64]), .tor4_in_credit_o(tor_in_credit[4*TorCntW +: TorCntW]),
      .tor4_out_valid_o(tor_out_valid[4]), .tor4_out_hdr_o(tor_out_hdr[4]), .tor4_out_vc_o(tor_out_vc[4*2 +: 2]),
      .tor4_out_data_o(tor_out_data[4*64 +: 64]), .tor4_out_credit_i(tor_out_credit[4*TorCntW +: TorCntW]),
      .tor4_in_ctl_i(tor_in_ctl[4*CtlW +: CtlW]), .tor4_out_ctl_o(tor_out_ctl[4*CtlW +: CtlW]),
      .tor5_in_valid_i(tor_in_valid[5]), .tor5_in_hdr_i(tor_in_hdr[5]), .tor5_in_vc_i(tor_in_vc[5*2 +: 2]),
      .tor5_in_data_i(tor_in_data[5*64 +: 64]), .tor5_in_credit_o(tor_in_credit[5*TorCntW +: TorCntW]),
      .tor5_out_valid_o(tor_out_valid[5]), .tor5_out_hdr_o(tor_out_hdr[5]), .tor5_out_vc_o(tor_out_vc[5*2 +: 2]),
      .tor5_out_data_o(tor_out_data[5*64 +: 64]), .tor5_out_credit_i(tor_out_credit[5*TorCntW +: TorCntW]),
      .tor5_in_ctl_i(tor_in_ctl[5*CtlW +: CtlW]), .tor5_out_ctl_o(tor_out_ctl[5*CtlW +: CtlW]),
      // torus configuration
      .tor_coord_i({8'(PosZ), 8'(PosY), 8'(PosX)}), .tor_dims_i({8'(Z), 8'(Y), 8'(X)}),
      .tor_link_down_i(node_link_down[r]),
      .tor_status_o(tor_status_o[r]), .tree_cpf_i(16'h0100), .torus_cpf_i(16'h0100), .err_o(err_o[r])
    );
  end

  assign moving_o = |node_moving;

  `CMN_ASSERT_PARAM(g_check_shape, X >= 1 && X <= 255 && Y >= 1 && Y <= 255 && Z >= 1 && Z <= 255,
                    $sformatf("nd_machine: X, Y and Z (%0d, %0d, %0d) must be 1..255", X, Y, Z))
  `CMN_ASSERT_PARAM(g_check_latency, LinkLatency >= 1,
                    $sformatf("nd_machine: LinkLatency (%0d) must be at least 1", LinkLatency))

endmodule : nd_machine

`default_nettype wire
