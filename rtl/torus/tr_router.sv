// SPDX-License-Identifier: Apache-2.0
// tr_router: one node's torus router. Six bidirectional links (x+, x-, y+, y-, z+, z-),
// each with four virtual channels (two dynamic, escape, high priority: see tr_pkg and
// tr_route), three injection FIFOs (0 and 1 normal, 2 high priority) and RcvFifos normal
// reception FIFOs and a high-priority one. Virtual cut-through: a packet is switched to an
// output only when the next buffer has room for all of it, then streams one flit per
// cycle; an output carries one packet at a time and every input VC can stream at once.
// Each output picks among the inputs that ask for it round robin. All link outputs are
// registered.
//
// With the DMA engine (Dma > 0) the router has Dma more injection FIFOs and Dma more
// reception FIFOs, the engine's, on ports of their own (dma_*): the engine's FIFOs inject
// like the processors' (a packet is offered once all of it is there), and a packet that
// arrives carrying the engine's software tag (tr_pkg::TrDmaSwTag) goes to the engine's
// reception FIFO (d mod Dma when its last link was d, 0 when it was injected here),
// whatever its priority bit (tr_route). Without it (0) the dma_* inputs are ignored and
// its outputs are zero.
//
// Inputs ("sources"): link d's VC v is source d*Vcs+v (0..23), injection FIFO k is
// FirstInj+k (24+k; the engine's FIFO j 27+j). Outputs: links 0..5, normal reception FIFO k
// at 6+k, the high-priority FIFO at 6+RcvFifos, the engine's FIFO j at 7+RcvFifos+j. A normal packet that has arrived goes to FIFO
// (d mod RcvFifos) when its last link was d, to FIFO 0 when it was injected here, so
// packets arriving on different links can be written at once.
`include "cmn_assert.svh"
`default_nettype none

module tr_router #(
  parameter int DynFlits = 64,   // link buffer of each dynamic VC, flits (tr_link_rx checks both)
  parameter int EscSlots = 3,    // link buffer of the escape and priority VCs, packet slots
  parameter int InjFlits = tr_pkg::TrInjFlits,  // each injection FIFO, flits (a multiple of Lanes)
  parameter int RcvFlits = tr_pkg::TrRcvFlits,  // each reception FIFO, flits (a multiple of Lanes)
  parameter int RcvFifos = 1,    // normal reception FIFOs (1..TrRcvNormalMax)
  parameter int Dma      = 0,    // the DMA engine's injection FIFOs, and as many reception FIFOs (dma_*)
  localparam int InjCntW  = $clog2(InjFlits + 1),
  localparam int RcvCntW  = $clog2(RcvFlits + 1),
  localparam int Dirs     = tr_pkg::NumDirs,     // links
  localparam int Vcs      = tr_pkg::TrNumVcs,    // VCs per link
  localparam int VcW      = tr_pkg::TrVcW,
  localparam int FlitBits = tr_pkg::TrFlitBits,
  localparam int Lanes    = tr_pkg::ChunkFlits,  // flits per FIFO access: one chunk, the bus's width
  localparam int LaneW    = $clog2(Lanes + 1),   // a flit count 0..Lanes
  localparam int NumInj   = tr_pkg::TrInjFifos,  // the processors' injection FIFOs
  localparam int NumRcv   = RcvFifos + 1,        // the processors' reception FIFOs: the normal ones, then high priority
  localparam int DmaPorts = (Dma > 0) ? Dma : 1, // the dma_* ports' FIFOs (one, idle, without the engine)
  localparam int CoordsW  = tr_pkg::NumDims * tr_pkg::CoordW
) (
  input  wire logic                         clk_i,
  input  wire logic                         rst_ni,
  // configuration (static while packets move)
  input  wire logic                         bubble_i,     // the bubble rule: 1 (0 only to show, in a testbench, the deadlock it prevents)
  input  wire logic [CoordsW-1:0]           my_i,         // this node's x, y, z
  input  wire logic [CoordsW-1:0]           dims_i,       // torus size in x, y, z (1..255)
  input  wire logic [Dirs-1:0]              link_down_i,  // links not to use, whose input is dead (tr_link_rx flush_i)
  // links (link d's data in [d*FlitBits +: FlitBits], VC in [d*VcW +: VcW], credits in
  // [d*Vcs +: Vcs])
  input  wire logic [Dirs-1:0]              in_valid_i,
  input  wire logic [Dirs-1:0]              in_hdr_i,
  input  wire logic [Dirs*VcW-1:0]          in_vc_i,
  input  wire logic [Dirs*FlitBits-1:0]     in_data_i,
  output logic      [Dirs*Vcs-1:0]          in_credit_o,
  output logic      [Dirs-1:0]              out_valid_o,
  output logic      [Dirs-1:0]              out_hdr_o,
  output logic      [Dirs*VcW-1:0]          out_vc_o,
  output logic      [Dirs*FlitBits-1:0]     out_data_o,
  input  wire logic [Dirs*Vcs-1:0]          out_credit_i,
  input  wire logic [Dirs-1:0]              out_hold_i,   // start no packet on link d (its link layer's buffer is nearly full, or the link is down)
  // injection: inj_n_i (1..Lanes) flits into FIFO k, flit j of inj_data_i first (the header
  // first, then the payload); a push larger than the free space is ignored
  input  wire logic [NumInj-1:0]            inj_push_i,
  input  wire logic [LaneW-1:0]             inj_n_i,
  input  wire logic [Lanes*FlitBits-1:0]    inj_data_i,
  output logic      [NumInj*InjCntW-1:0]    inj_free_o,
  // reception: FIFO k's first Lanes flits (oldest in [k*Lanes*FlitBits +: FlitBits]), popped
  // rcv_n_i (1..Lanes) at a time; a pop of more flits than are held is ignored
  input  wire logic [NumRcv-1:0]            rcv_pop_i,
  input  wire logic [LaneW-1:0]             rcv_n_i,
  output logic      [NumRcv*Lanes*FlitBits-1:0] rcv_data_o,
  output logic      [NumRcv*RcvCntW-1:0]    rcv_count_o,
  // the DMA engine's injection and reception FIFOs, as the processors' (Dma of each)
  input  wire logic [DmaPorts-1:0]          dma_inj_push_i,
  input  wire logic [LaneW-1:0]             dma_inj_n_i,
  input  wire logic [Lanes*FlitBits-1:0]    dma_inj_data_i,
  output logic      [DmaPorts*InjCntW-1:0]  dma_inj_free_o,
  input  wire logic [DmaPorts-1:0]          dma_rcv_pop_i,
  input  wire logic [LaneW-1:0]             dma_rcv_n_i,
  output logic      [DmaPorts*Lanes*FlitBits-1:0] dma_rcv_data_o,
  output logic      [DmaPorts*RcvCntW-1:0]  dma_rcv_count_o,
  // error pulses (tr_pkg::TrErr*)
  output logic      [tr_pkg::TrRouterErrBits-1:0] err_o,
  // this cycle's performance events, link d VC v at [d*Vcs + v] (tr_perf counts them): a
  // flit leaves on the VC; the link's output is held by a packet on the VC; some input's
  // packet waits for the VC of the free link for want of credits
  output logic      [Dirs*Vcs-1:0]          perf_flit_o,
  output logic      [Dirs*Vcs-1:0]          perf_busy_o,
  output logic      [Dirs*Vcs-1:0]          perf_stall_o
);

  // sources: every link's VCs, then the injection FIFOs (the engine's last); outputs: the
  // links, then reception (the engine's last)
  localparam int InjAll   = NumInj + Dma;
  localparam int RcvAll   = NumRcv + Dma;
  localparam int FirstInj = Dirs * Vcs;
  localparam int S        = FirstInj + InjAll;
  localparam int SrcW     = $clog2(S);
  localparam int NumOut   = Dirs + RcvAll;
  localparam int OutW     = $clog2(NumOut);
  localparam int LenW     = tr_pkg::PacketFlitsW;
  localparam int DimW     = tr_pkg::DimW;
  localparam int DynVcs   = tr_pkg::TrVcEscape;  // the VCs below escape are dynamic: they count flits, the others packets
  // credit counters: flits up to DynFlits, packet slots up to EscSlots
  localparam int CntW = $clog2((DynFlits > EscSlots ? DynFlits : EscSlots) + 1);

  // ------------------------------------------------------------ sources
  logic [S-1:0]          head_valid, ready, pop;
  logic [S*FlitBits-1:0] head;
  logic [Dirs-1:0]       rx_proto_err;

  for (genvar d = 0; d < Dirs; d++) begin : g_rx
    tr_link_rx #(.DynFlits(DynFlits), .EscSlots(EscSlots)) u_rx (
      .clk_i, .rst_ni,
      .valid_i(in_valid_i[d]), .hdr_i(in_hdr_i[d]), .vc_i(in_vc_i[d*VcW +: VcW]),
      .data_i(in_data_i[d*FlitBits +: FlitBits]), .flush_i(link_down_i[d]), .credit_o(in_credit_o[d*Vcs +: Vcs]),
      .head_valid_o(head_valid[d*Vcs +: Vcs]), .head_o(head[d*Vcs*FlitBits +: Vcs*FlitBits]),
      .pop_i(pop[d*Vcs +: Vcs]), .proto_err_o(rx_proto_err[d])
    );
  end

  // Injection and reception FIFOs are as wide as the register bus (Lanes flits), so a
  // processor moves a whole 32-byte chunk per access.
  logic [InjAll*InjCntW-1:0] inj_count, inj_free;
  for (genvar k = 0; k < InjAll; k++) begin : g_inj
    logic [Lanes*FlitBits-1:0]     lanes, in_data;
    logic [(Lanes-1)*FlitBits-1:0] unused_lanes;  // the head flit is all the router reads
    logic                          in_push;
    logic [LaneW-1:0]              in_n;
    assign unused_lanes = lanes[Lanes*FlitBits-1:FlitBits];
    if (k >= NumInj) begin : g_engine
      assign {in_push, in_n, in_data} = {dma_inj_push_i[k - NumInj], dma_inj_n_i, dma_inj_data_i};
    end else begin : g_processor
      assign {in_push, in_n, in_data} = {inj_push_i[k], inj_n_i, inj_data_i};
    end
    cmn_wfifo #(.Width(FlitBits), .Lanes(Lanes), .Depth(InjFlits)) u_fifo (
      .clk_i, .rst_ni, .push_i(in_push), .push_n_i(in_n), .data_i(in_data),
      .pop_i(pop[FirstInj + k]), .pop_n_i(LaneW'(1)), .data_o(lanes),
      .count_o(inj_count[k*InjCntW +: InjCntW])
    );
    assign head[(FirstInj + k)*FlitBits +: FlitBits] = lanes[FlitBits-1:0];
    assign head_valid[FirstInj + k] = (inj_count[k*InjCntW +: InjCntW] != '0);
    assign inj_free[k*InjCntW +: InjCntW] = InjCntW'(InjFlits) - inj_count[k*InjCntW +: InjCntW];
  end
  assign inj_free_o = inj_free[NumInj*InjCntW-1:0];

  // ------------------------------------------------------------ state
  // A busy source streams its packet (to the outputs that name it in osrc_q, or nowhere
  // when it is being discarded) on VC vc_q.
  logic [S-1:0]             busy_q;
  logic [S*VcW-1:0]         vc_q;
  // (Packed, as every register here: an unpacked array written by non-blocking
  // assignments costs a simulator such as Verilator a delayed value and flag per
  // element and assignment, set and committed at every evaluation.)
  logic [S*LenW-1:0]        left_q;            // source s's flits still to move at [s*LenW +: LenW]
  logic [NumOut-1:0]        obusy_q;           // output o carries a packet from source osrc_q[o]
  logic [NumOut*SrcW-1:0]   osrc_q;
  logic [FirstInj*CntW-1:0] credits;           // link d, VC v at [(d*Vcs+v)*CntW +: CntW], for tr_route
  logic [FirstInj-1:0]      credit_spend, credit_over;

  logic [RcvAll*RcvCntW-1:0] rcv_count, rcv_free;
  for (genvar k = 0; k < RcvAll; k++) begin : g_rcv_free
    assign rcv_free[k*RcvCntW +: RcvCntW] = RcvCntW'(RcvFlits) - rcv_count[k*RcvCntW +: RcvCntW];
  end

  // ------------------------------------------------------------ routing, one per source
  logic [S-1:0]                         rt_req, rt_copy, rt_discard;
  logic [S*OutW-1:0]                    rt_out, rt_rcv;
  logic [S*VcW-1:0]                     rt_vc;
  logic [S*FlitBits-1:0]                rt_hdr;
  logic [S*tr_pkg::TrRouterErrBits-1:0] rt_err;
  logic [S*Dirs*Vcs-1:0]                rt_stall;
  logic [S*LenW-1:0]                    head_len;

  for (genvar s = 0; s < S; s++) begin : g_route
    localparam bit Inject = (s >= FirstInj);
    assign head_len[s*LenW +: LenW] = tr_pkg::packet_flits(head[s*FlitBits +: FlitBits]);
    // An injection FIFO offers a packet only once all of it is there, so a packet never
    // waits for the processor in the middle of a link.
    if (Inject) begin : g_whole
      assign ready[s] = !busy_q[s] && head_valid[s] &&
                        (32'(inj_count[(s - FirstInj)*InjCntW +: InjCntW]) >= 32'(head_len[s*LenW +: LenW]));
    end else begin : g_cut
      assign ready[s] = !busy_q[s] && head_valid[s];
    end
    // the normal reception FIFO, and the engine's, for packets that arrive from this source
    localparam int Home    = Inject ? 0 : (s / Vcs) % RcvFifos;
    localparam int DmaHome = (Inject || Dma == 0) ? 0 : (s / Vcs) % DmaPorts;
    tr_route #(.CntW(CntW), .RcvCntW(RcvCntW), .RcvFifos(RcvFifos), .Dma(Dma)) u_route (
      .bubble_i, .en_i(ready[s]), .hdr_i(head[s*FlitBits +: FlitBits]), .inject_i(Inject),
      // a link source's dimension (two links each) and VC
      .in_dim_i(Inject ? '0 : DimW'(s / (2 * Vcs))), .in_vc_i(Inject ? '0 : VcW'(s % Vcs)), .rcv_home_i(OutW'(Home)),
      .dma_home_i(OutW'(DmaHome)),
      .my_i, .dims_i, .link_down_i, .credits_i(credits), .out_busy_i(obusy_q | NumOut'(out_hold_i)), .rcv_free_i(rcv_free),
      .req_o(rt_req[s]), .out_o(rt_out[s*OutW +: OutW]), .out_vc_o(rt_vc[s*VcW +: VcW]),
      .copy_o(rt_copy[s]), .out_rcv_o(rt_rcv[s*OutW +: OutW]), .hdr_o(rt_hdr[s*FlitBits +: FlitBits]),
      .discard_o(rt_discard[s]), .discard_err_o(rt_err[s*tr_pkg::TrRouterErrBits +: tr_pkg::TrRouterErrBits]),
      .stall_o(rt_stall[s*Dirs*Vcs +: Dirs*Vcs])
    );
  end

  // ------------------------------------------------------------ allocation
  // Each output grants one of the ready sources that ask for it; a deposit packet needs
  // the grant of its link and of its reception FIFO in the same cycle. The high-priority
  // VC goes first: a link that a priority packet asks for grants only priority packets
  // (round robin among them), and a source held back so asks for nothing that cycle.
  logic [NumOut*S-1:0]    oreq, ogrant;
  logic [S-1:0]           go, asking, sprio;
  logic [NumOut-1:0]      lprio;  // a priority packet asks for this output (of the reception
                                  // outputs only the priority FIFO's, which no other packet asks for)
  logic [NumOut-1:0]      otake;
  logic [NumOut*SrcW-1:0] ogrant_idx;

  always_comb begin
    lprio = '0;
    for (int s = 0; s < S; s++) begin
      asking[s] = ready[s] && rt_req[s] && !rt_discard[s];
      sprio[s]  = rt_vc[s*VcW +: VcW] == VcW'(tr_pkg::TrVcPrio);
      if (asking[s] && sprio[s]) lprio[rt_out[s*OutW +: OutW]] = 1'b1;
    end
    oreq = '0;
    for (int s = 0; s < S; s++) begin
      if (asking[s] && (sprio[s] || !lprio[rt_out[s*OutW +: OutW]])) begin
        for (int o = 0; o < NumOut; o++) begin
          oreq[o*S + s] = (rt_out[s*OutW +: OutW] == OutW'(o)) || (rt_copy[s] && rt_rcv[s*OutW +: OutW] == OutW'(o));
        end
      end
    end
  end

  for (genvar o = 0; o < NumOut; o++) begin : g_arb
    cmn_rr_arb #(.N(S)) u_arb (
      .clk_i, .rst_ni, .req_i(oreq[o*S +: S]), .take_i(otake[o]),
      .grant_o(ogrant[o*S +: S]), .idx_o(ogrant_idx[o*SrcW +: SrcW])
    );
  end

  always_comb begin
    logic [OutW-1:0] o, r;
    go    = '0;
    otake = '0;
    o     = '0;
    r     = '0;
    for (int s = 0; s < S; s++) begin
      if (asking[s]) begin
        o     = rt_out[s*OutW +: OutW];
        r     = rt_rcv[s*OutW +: OutW];
        go[s] = ogrant[32'(o)*S + s] && (!rt_copy[s] || ogrant[32'(r)*S + s]);
        if (go[s]) otake = otake | (NumOut'(1) << o) | (rt_copy[s] ? (NumOut'(1) << r) : '0);
      end
    end
  end

  // ------------------------------------------------------------ streaming
  // A source moves one flit per cycle while it holds an output and has a flit; the
  // header moves in the cycle of the grant.
  logic [S-1:0] move, fin, start_discard;
  always_comb begin
    for (int s = 0; s < S; s++) begin
      start_discard[s] = ready[s] && rt_discard[s];
      move[s] = busy_q[s] && head_valid[s];
      fin[s]  = move[s] && (left_q[s*LenW +: LenW] == LenW'(1));
      pop[s]  = go[s] || start_discard[s] || move[s];
    end
  end

  // What each output carries this cycle.
  logic [NumOut-1:0]          ovalid, ohdr;
  logic [NumOut*VcW-1:0]      ovc;
  logic [NumOut*FlitBits-1:0] odata;
  logic [RcvAll-1:0]          unused_rcv_hdr;  // a reception FIFO takes flits, not framing
  assign unused_rcv_hdr = ohdr[NumOut-1:Dirs];
  always_comb begin
    for (int o = 0; o < NumOut; o++) begin
      logic [SrcW-1:0] g, b;
      g = ogrant_idx[o*SrcW +: SrcW];
      b = osrc_q[o*SrcW +: SrcW];
      ovalid[o]                       = 1'b0;
      ohdr[o]                         = 1'b0;
      ovc[o*VcW +: VcW]               = '0;
      odata[o*FlitBits +: FlitBits]   = '0;
      if (otake[o]) begin
        ovalid[o]                     = 1'b1;
        ohdr[o]                       = 1'b1;
        ovc[o*VcW +: VcW]             = rt_vc[32'(g)*VcW +: VcW];
        odata[o*FlitBits +: FlitBits] = rt_hdr[32'(g)*FlitBits +: FlitBits];
      end else if (obusy_q[o]) begin
        ovalid[o]                     = move[b];
        ovc[o*VcW +: VcW]             = vc_q[32'(b)*VcW +: VcW];
        odata[o*FlitBits +: FlitBits] = head[32'(b)*FlitBits +: FlitBits];
      end
    end
  end

  // ------------------------------------------------------------ performance events
  // An output is held from its grant (otake) to its packet's last flit; ovc names the VC
  // of the packet holding it all along.
  always_comb begin
    perf_stall_o = '0;
    for (int s = 0; s < S; s++) perf_stall_o = perf_stall_o | rt_stall[s*Dirs*Vcs +: Dirs*Vcs];
    for (int d = 0; d < Dirs; d++) begin
      for (int v = 0; v < Vcs; v++) begin
        perf_flit_o[d*Vcs + v] = ovalid[d] && (ovc[d*VcW +: VcW] == VcW'(v));
        perf_busy_o[d*Vcs + v] = (otake[d] || obusy_q[d]) && (ovc[d*VcW +: VcW] == VcW'(v));
      end
    end
  end

  // ------------------------------------------------------------ reception FIFOs
  logic [RcvAll*Lanes*FlitBits-1:0] rcv_data;
  for (genvar k = 0; k < RcvAll; k++) begin : g_rcv
    logic             out_pop;
    logic [LaneW-1:0] out_n;
    if (k >= NumRcv) begin : g_engine
      assign {out_pop, out_n} = {dma_rcv_pop_i[k - NumRcv], dma_rcv_n_i};
    end else begin : g_processor
      assign {out_pop, out_n} = {rcv_pop_i[k], rcv_n_i};
    end
    cmn_wfifo #(.Width(FlitBits), .Lanes(Lanes), .Depth(RcvFlits)) u_fifo (
      .clk_i, .rst_ni, .push_i(ovalid[Dirs + k]), .push_n_i(LaneW'(1)),
      .data_i((Lanes*FlitBits)'(odata[(Dirs + k)*FlitBits +: FlitBits])),
      .pop_i(out_pop), .pop_n_i(out_n),
      .data_o(rcv_data[k*Lanes*FlitBits +: Lanes*FlitBits]), .count_o(rcv_count[k*RcvCntW +: RcvCntW])
    );
  end
  assign rcv_data_o  = rcv_data[NumRcv*Lanes*FlitBits-1:0];
  assign rcv_count_o = rcv_count[NumRcv*RcvCntW-1:0];

  // The engine's FIFOs, or nothing without the engine.
  if (Dma != 0) begin : g_dma
    assign dma_inj_free_o  = inj_free[NumInj*InjCntW +: DmaPorts*InjCntW];
    assign dma_rcv_data_o  = rcv_data[NumRcv*Lanes*FlitBits +: DmaPorts*Lanes*FlitBits];
    assign dma_rcv_count_o = rcv_count[NumRcv*RcvCntW +: DmaPorts*RcvCntW];
  end else begin : g_no_dma
    logic unused_dma;
    assign unused_dma      = ^{dma_inj_push_i, dma_inj_n_i, dma_inj_data_i, dma_rcv_pop_i, dma_rcv_n_i};
    assign dma_inj_free_o  = '0;
    assign dma_rcv_data_o  = '0;
    assign dma_rcv_count_o = '0;
  end

  // ------------------------------------------------------------ credits
  // Per link and VC: spent per flit (dynamic VCs) or per packet (escape, priority) sent,
  // returned by the neighbour's pulses.
  for (genvar d = 0; d < Dirs; d++) begin : g_credits
    for (genvar v = 0; v < Vcs; v++) begin : g_vc
      assign credit_spend[d*Vcs + v] = ovalid[d] && (ovc[d*VcW +: VcW] == VcW'(v)) && ((v < DynVcs) || ohdr[d]);
      cmn_credit #(.Credits((v < DynVcs) ? DynFlits : EscSlots), .CntW(CntW)) u_credit (
        .clk_i, .rst_ni, .take_i(credit_spend[d*Vcs + v]), .return_i(out_credit_i[d*Vcs + v]),
        .count_o(credits[(d*Vcs + v)*CntW +: CntW]), .over_o(credit_over[d*Vcs + v])
      );
      // A neighbour returns a credit only for what was sent to it.
      `CMN_ASSERT_NEVER(CreditReturnedUnsent, credit_over[d*Vcs + v],
                        $sformatf("link %0d VC %0d: a credit came back with all %0d held", d, v,
                                  (v < DynVcs) ? DynFlits : EscSlots))
    end
  end

  // ------------------------------------------------------------ VC ownership
  // A link's output carries one packet at a time: from its header to its last flit the
  // output, and the VC the header names, belong to that packet, and each of its flits goes
  // out on that VC. Checked against what has left on the link, counted for the checks
  // alone: the flits the packet on it still owes and the VC it owns.
  for (genvar d = 0; d < Dirs; d++) begin : g_owner
    logic [LenW-1:0] hdr_len, owed_q;
    logic [VcW-1:0]  owner_vc_q;
    assign hdr_len = tr_pkg::packet_flits(odata[d*FlitBits +: FlitBits]);
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        owed_q     <= '0;
        owner_vc_q <= '0;
      end else if (ovalid[d]) begin
        owed_q     <= ohdr[d] ? hdr_len - LenW'(1) : owed_q - LenW'(1);
        if (ohdr[d]) owner_vc_q <= ovc[d*VcW +: VcW];
      end
    end
    `CMN_ASSERT_NEVER(OnePacketPerOutput, ovalid[d] && ohdr[d] && owed_q != '0,
                      $sformatf("link %0d: a packet started on VC %0d while the packet owning VC %0d owes %0d flits", d,
                                ovc[d*VcW +: VcW], owner_vc_q, owed_q))
    `CMN_ASSERT_NEVER(FlitOnOwnedVc, ovalid[d] && !ohdr[d] && (owed_q == '0 || ovc[d*VcW +: VcW] != owner_vc_q),
                      $sformatf("link %0d: a payload flit on VC %0d; the packet on the link owns VC %0d and owes %0d flits",
                                d, ovc[d*VcW +: VcW], owner_vc_q, owed_q))
  end

  // ------------------------------------------------------------ registers
  logic [tr_pkg::TrRouterErrBits-1:0] discard_err;
  always_comb begin
    discard_err = '0;
    for (int s = 0; s < S; s++)
      if (start_discard[s]) discard_err = discard_err | rt_err[s*tr_pkg::TrRouterErrBits +: tr_pkg::TrRouterErrBits];
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q      <= '0;
      vc_q        <= '0;
      left_q      <= '0;
      obusy_q     <= '0;
      osrc_q      <= '0;
      out_valid_o <= '0;
      out_hdr_o   <= '0;
      out_vc_o    <= '0;
      out_data_o  <= '0;
      err_o       <= '0;
    end else begin
      for (int s = 0; s < S; s++) begin
        if (go[s] || start_discard[s]) begin
          busy_q[s]            <= 1'b1;
          vc_q[s*VcW +: VcW]   <= rt_vc[s*VcW +: VcW];
          left_q[s*LenW +: LenW] <= head_len[s*LenW +: LenW] - LenW'(1);
        end else if (move[s]) begin
          left_q[s*LenW +: LenW] <= left_q[s*LenW +: LenW] - LenW'(1);
          if (fin[s]) busy_q[s] <= 1'b0;
        end
      end
      for (int o = 0; o < NumOut; o++) begin
        if (otake[o]) begin
          obusy_q[o]             <= 1'b1;
          osrc_q[o*SrcW +: SrcW] <= ogrant_idx[o*SrcW +: SrcW];
        end else if (obusy_q[o] && fin[osrc_q[o*SrcW +: SrcW]]) begin
          obusy_q[o] <= 1'b0;
        end
      end
      out_valid_o <= ovalid[Dirs-1:0];
      out_hdr_o   <= ohdr[Dirs-1:0];
      out_vc_o    <= ovc[Dirs*VcW-1:0];
      for (int d = 0; d < Dirs; d++) if (ovalid[d]) out_data_o[d*FlitBits +: FlitBits] <= odata[d*FlitBits +: FlitBits];
      err_o <= discard_err;
      err_o[tr_pkg::TrErrLinkProto] <= |rx_proto_err;
    end
  end

  // An injection FIFO offers a packet only once all of it is there, and a packet goes to a
  // reception FIFO only into room for all of it: each must hold the longest packet.
  `CMN_ASSERT_PARAM(g_check_inj_flits, InjFlits >= tr_pkg::MaxPacketFlits,
                    $sformatf("tr_router: InjFlits (%0d) must hold a whole packet (%0d flits)",
                              InjFlits, tr_pkg::MaxPacketFlits))
  `CMN_ASSERT_PARAM(g_check_rcv_fifos, RcvFifos >= 1 && RcvFifos <= tr_pkg::TrRcvNormalMax,
                    $sformatf("tr_router: RcvFifos (%0d) must be 1..%0d, one normal reception FIFO per incoming link at most",
                              RcvFifos, tr_pkg::TrRcvNormalMax))
  `CMN_ASSERT_PARAM(g_check_dma, Dma >= 0 && Dma <= tr_pkg::TrRcvNormalMax,
                    $sformatf("tr_router: Dma (%0d) must be 0 (no DMA engine) .. %0d, one reception FIFO per incoming link at most",
                              Dma, tr_pkg::TrRcvNormalMax))
  `CMN_ASSERT_PARAM(g_check_rcv_flits, RcvFlits >= tr_pkg::MaxPacketFlits,
                    $sformatf("tr_router: RcvFlits (%0d) must hold a whole packet (%0d flits)",
                              RcvFlits, tr_pkg::MaxPacketFlits))

endmodule : tr_router

`default_nettype wire
