// SPDX-License-Identifier: Apache-2.0
// cn_regs: the adapter's register block on the node's register bus. Holds the class routes
// (the world's, class 0; the user classes 1..UserClasses; the system's, FirstPrivClass and
// up: a class between them has no route, its register is unmapped) and the sticky error
// state, and turns register accesses into pushes into the injection FIFOs and pops from the
// reception FIFOs. Every access completes in the cycle it is presented (ready_o is constant
// 1); read data is registered and valid on rvalid_o the cycle after. The data path is
// cn_pkg::BusDataBits wide: ordinary registers use word 0 ([63:0]), the vector registers
// push or pop cn_pkg::VectorWords payload words at once. A refused access (full FIFO, too
// few words for a vector, unprivileged write to a system class or to the system VC's
// registers, malformed route, unmapped address) changes nothing but its error bit. Each VC
// has its own FIFO stacks; the addressed VC is chosen by the register window
// (cn_pkg::RegSysVcOffset), the error state and routes are shared.
// Addresses and fields: cn_pkg, generated from regmap/collnet.json like firmware/regmap.hpp.
`include "cmn_assert.svh"
`default_nettype none

module cn_regs
#(
  parameter int InjPackets = 8,
  parameter int RcvPackets = 8,
  // Reported in RegSizes only (the link buffers and link ends are elsewhere on the side).
  parameter int LinkPackets = 4,
  parameter int RetryFlits  = 128,  // lk_pkg::LkRetryFlits
  parameter int UserClasses = cn_pkg::UserClassesMax,  // user class routes, 0..UserClassesMax
  localparam int InjHdrCntW = $clog2(InjPackets + 1),
  localparam int InjPlCntW  = $clog2(InjPackets * cn_pkg::PayloadFlits + 1),
  localparam int RcvHdrCntW = $clog2(RcvPackets + 1),
  localparam int RcvPlCntW  = $clog2(RcvPackets * cn_pkg::PayloadFlits + 1),
  localparam int WordsW     = $clog2(cn_pkg::VectorWords + 1),  // a payload word count 0..VectorWords
  localparam int WordBits   = cn_pkg::FlitBits,  // a register, and a payload word of the bus
  localparam int HdrBits    = cn_pkg::HdrBits,
  localparam int IdCountW   = cn_pkg::InjIdentityCountW  // RegInjIdentity's packet count
) (
  input  wire logic                                            clk_i,
  input  wire logic                                            rst_ni,
  // register bus
  input  wire logic                                            req_i,
  input  wire logic                                            we_i,
  input  wire logic [cn_pkg::BusAddrBits-1:0]                  addr_i,
  input  wire logic [cn_pkg::BusDataBits-1:0]                  wdata_i,
  input  wire logic                                            priv_i,
  output logic                                                 ready_o,
  output logic                                                 rvalid_o,
  output logic      [cn_pkg::BusDataBits-1:0]                  rdata_o,
  // class routes
  output logic      [cn_pkg::NumClasses*cn_pkg::RouteBits-1:0] routes_o,
  // injection FIFOs, one stack per VC (VC v's count in [v*W +: W])
  output logic      [cn_pkg::NumVcs-1:0]                       inj_hdr_push_o,
  output logic      [cn_pkg::NumVcs-1:0]                       inj_pl_push_o,
  output logic      [WordsW-1:0]                               inj_pl_n_o,   // words pushed
  output logic      [cn_pkg::BusDataBits-1:0]                  inj_data_o,   // word k at [k*WordBits +: WordBits]
  output logic      [cn_pkg::InjEntryBits-1:0]                 inj_entry_o,  // cn_pkg::inj_entry()
  input  wire logic [cn_pkg::NumVcs-1:0]                       inj_hdr_full_i,
  input  wire logic [cn_pkg::NumVcs*InjHdrCntW-1:0]            inj_hdr_count_i,
  input  wire logic [cn_pkg::NumVcs*InjPlCntW-1:0]             inj_pl_count_i,
  // reception FIFOs, one stack per VC (VC v's header in [v*HdrBits +: HdrBits], payload head in
  // [v*BusDataBits +: BusDataBits])
  output logic      [cn_pkg::NumVcs-1:0]                       rcv_hdr_pop_o,
  output logic      [cn_pkg::NumVcs-1:0]                       rcv_pl_pop_o,
  output logic      [WordsW-1:0]                               rcv_pl_n_o,   // words popped
  input  wire logic [cn_pkg::NumVcs*HdrBits-1:0]               rcv_hdr_i,
  input  wire logic [cn_pkg::NumVcs*cn_pkg::BusDataBits-1:0]   rcv_pl_i,     // the head's word k at [k*WordBits +: WordBits]
  input  wire logic [cn_pkg::NumVcs*RcvHdrCntW-1:0]            rcv_hdr_count_i,
  input  wire logic [cn_pkg::NumVcs*RcvPlCntW-1:0]             rcv_pl_count_i,
  // errors
  input  wire logic [cn_pkg::ErrBits-1:0]                      err_set_i,
  input  wire logic [HdrBits-1:0]                              err_expected_i,
  input  wire logic [HdrBits-1:0]                              err_got_i,
  input  wire logic [2:0]                                      err_source_i,  // [2] VC, [1:0] source
  output logic      [cn_pkg::ErrBits-1:0]                      err_o
);

  // The classes with a route (built): 0, 1..UserClasses, FirstPrivClass and up. Another
  // class's route is empty (a packet of it is flagged as not routed here, ErrBadRoute) and
  // its register unmapped: it has no register bits (g_route).
  logic [cn_pkg::NumClasses-1:0] built;
  logic [cn_pkg::RouteBits-1:0]  route_q [cn_pkg::NumClasses];
  logic [cn_pkg::RouteBits-1:0]  route_built [cn_pkg::NumClasses];  // route_q where built, else empty
  logic [cn_pkg::ErrBits-1:0]   err_q;
  logic [WordBits-1:0]          info_q;
  logic [2:0]                   source_q;

  assign err_o   = err_q;
  assign ready_o = 1'b1;

  // ------------------------------------------------------------ decode
  // The system VC's FIFO registers answer at the user VC's offsets + RegSysVcOffset, and
  // only to privileged accesses; `faddr` is the address with the window folded away.
  logic                           wr, rd, in_sys, denied, vc;
  logic [cn_pkg::BusAddrBits-1:0] faddr;
  logic                           is_route, route_hit;
  logic [3:0]                     route_idx;
  assign in_sys    = cn_pkg::in_win_cn_sys_vc(addr_i);
  assign denied    = req_i && in_sys && !priv_i;
  assign vc        = in_sys;
  assign faddr     = in_sys ? (addr_i - cn_pkg::RegSysVcOffset) : addr_i;
  assign wr        = req_i && we_i && !denied;
  assign rd        = req_i && !we_i && !denied;
  assign is_route  = cn_pkg::in_reg_route_base(addr_i);
  assign route_idx = cn_pkg::reg_route_base_index(addr_i);
  assign route_hit = is_route && built[route_idx];

  // A class route is a tree route: the up link is not also a down link and at most two
  // links go down (the ALU has two child inputs); bits above the route must be zero.
  // Functions are called from continuous assignments only: Icarus Verilog 11 loops forever
  // when several always_comb processes call the same function.
  logic [cn_pkg::RouteBits-1:0] new_route;
  logic [2:0]                   new_down;
  logic [1:0]                   new_up;
  logic                         route_shape_ok, route_priv_ok;
  assign new_route      = wdata_i[cn_pkg::RouteBits-1:0];
  assign new_down       = cn_pkg::route_down(new_route);
  assign new_up         = cn_pkg::route_up(new_route);
  assign route_shape_ok = (wdata_i[WordBits-1:cn_pkg::RouteBits] == '0) &&
                          !(new_up != cn_pkg::RouteUpNone && new_down[new_up]) &&
                          (new_down != '1);
  assign route_priv_ok = priv_i || (32'(route_idx) < cn_pkg::FirstPrivClass);

  logic wr_inj_hdr, wr_inj_pl, wr_inj_vec, wr_inj_id, wr_clear, wr_route, wr_bad;
  logic [IdCountW-1:0] id_count;
  logic rd_status, rd_rcv_hdr, rd_rcv_pl, rd_rcv_vec, rd_known;
  assign wr_inj_hdr = wr && (faddr == cn_pkg::RegInjHdr);
  assign wr_inj_pl  = wr && (faddr == cn_pkg::RegInjData);
  assign wr_inj_vec = wr && (faddr == cn_pkg::RegInjVector);
  assign wr_inj_id  = wr && (faddr == cn_pkg::RegInjIdentity);
  assign wr_clear   = wr && (addr_i == cn_pkg::RegErrClear);
  assign wr_route   = wr && route_hit;
  assign wr_bad     = wr && !(wr_inj_hdr || wr_inj_pl || wr_inj_vec || wr_inj_id || wr_clear || wr_route);
  assign id_count   = wdata_i[cn_pkg::InjIdentityCountLsb +: cn_pkg::InjIdentityCountW];
  assign rd_status  = rd && (faddr == cn_pkg::RegStatus);
  assign rd_rcv_hdr = rd && (faddr == cn_pkg::RegRcvHdr);
  assign rd_rcv_pl  = rd && (faddr == cn_pkg::RegRcvData);
  assign rd_rcv_vec = rd && (faddr == cn_pkg::RegRcvVector);
  assign rd_known   = rd_status || rd_rcv_hdr || rd_rcv_pl || rd_rcv_vec || route_hit ||
                      (addr_i == cn_pkg::RegId) || (addr_i == cn_pkg::RegErr) || (addr_i == cn_pkg::RegSizes) ||
                      (addr_i == cn_pkg::RegErrInfo) || (addr_i == cn_pkg::RegErrSource);

  // The FIFO levels of the addressed VC.
  logic                  inj_hdr_full;
  logic [InjHdrCntW-1:0] inj_hdr_count;
  logic [InjPlCntW-1:0]  inj_pl_count;
  logic [RcvHdrCntW-1:0] rcv_hdr_count;
  logic [RcvPlCntW-1:0]  rcv_pl_count;
  logic [HdrBits-1:0]    rcv_hdr;
  logic [cn_pkg::BusDataBits-1:0] rcv_pl;
  assign inj_hdr_full  = inj_hdr_full_i[vc];
  assign inj_hdr_count = inj_hdr_count_i[vc*InjHdrCntW +: InjHdrCntW];
  assign inj_pl_count  = inj_pl_count_i[vc*InjPlCntW +: InjPlCntW];
  assign rcv_hdr_count = rcv_hdr_count_i[vc*RcvHdrCntW +: RcvHdrCntW];
  assign rcv_pl_count  = rcv_pl_count_i[vc*RcvPlCntW +: RcvPlCntW];
  assign rcv_hdr       = rcv_hdr_i[vc*HdrBits +: HdrBits];
  assign rcv_pl        = rcv_pl_i[vc*cn_pkg::BusDataBits +: cn_pkg::BusDataBits];

  // Payload words: a vector moves all its words or none, so a packet's payload never
  // splits at an unexpected place and a refused access can simply be repeated.
  logic [InjPlCntW-1:0] inj_pl_free;
  logic                 inj_pl_room, inj_vec_room, rcv_pl_any, rcv_vec_any;
  assign inj_pl_free  = InjPlCntW'(InjPackets * cn_pkg::PayloadFlits) - inj_pl_count;
  assign inj_pl_room  = (inj_pl_free != '0);
  assign inj_vec_room = (32'(inj_pl_free) >= cn_pkg::VectorWords);
  assign rcv_pl_any   = (rcv_pl_count != '0);
  assign rcv_vec_any  = (32'(rcv_pl_count) >= cn_pkg::VectorWords);

  // A header entry: one written packet, or id_count identity packets (none if 0).
  logic inj_hdr_push, inj_pl_push, rcv_hdr_pop, rcv_pl_pop;
  assign inj_hdr_push   = (wr_inj_hdr || (wr_inj_id && id_count != '0)) && !inj_hdr_full;
  // Exactly one VC's FIFOs are addressed: VC 1 (system) in the window, VC 0 (user) outside it.
  assign inj_hdr_push_o = {inj_hdr_push && vc, inj_hdr_push && !vc};
  assign inj_pl_push_o  = {inj_pl_push && vc, inj_pl_push && !vc};
  assign rcv_hdr_pop_o  = {rcv_hdr_pop && vc, rcv_hdr_pop && !vc};
  assign rcv_pl_pop_o   = {rcv_pl_pop && vc, rcv_pl_pop && !vc};
  assign inj_pl_push    = (wr_inj_pl && inj_pl_room) || (wr_inj_vec && inj_vec_room);
  assign inj_pl_n_o     = wr_inj_vec ? WordsW'(cn_pkg::VectorWords) : WordsW'(1);
  assign inj_data_o     = wdata_i;
  assign rcv_hdr_pop    = rd_rcv_hdr && (rcv_hdr_count != '0);
  assign rcv_pl_pop     = (rd_rcv_pl && rcv_pl_any) || (rd_rcv_vec && rcv_vec_any);
  assign rcv_pl_n_o     = rd_rcv_vec ? WordsW'(cn_pkg::VectorWords) : WordsW'(1);

  assign inj_entry_o = cn_pkg::inj_entry(wr_inj_id ? id_count : IdCountW'(1), wr_inj_id, wdata_i[HdrBits-1:0]);

  // RegStatus, its field widths from cn_pkg (generated from regmap/collnet.json).
  localparam int HdrFreeW  = cn_pkg::StatusInjHdrFreeW;
  localparam int DataFreeW = cn_pkg::StatusInjDataFreeW;
  localparam int RcvHdrW   = cn_pkg::StatusRcvHdrW;
  localparam int RcvDataW  = cn_pkg::StatusRcvDataW;
  logic [WordBits-1:0] status;
  always_comb begin
    status = '0;
    status[cn_pkg::StatusInjHdrFreeLsb  +: HdrFreeW]  = HdrFreeW'(InjPackets) - HdrFreeW'(inj_hdr_count);
    status[cn_pkg::StatusInjDataFreeLsb +: DataFreeW] = DataFreeW'(InjPackets * cn_pkg::PayloadFlits) -
                                                        DataFreeW'(inj_pl_count);
    status[cn_pkg::StatusRcvHdrLsb      +: RcvHdrW]   = RcvHdrW'(rcv_hdr_count);
    status[cn_pkg::StatusRcvDataLsb     +: RcvDataW]  = RcvDataW'(rcv_pl_count);
    status[cn_pkg::StatusErrBit]                      = |err_q;
  end

  // RegSizes: the side's sizes as built (its parameters), for software to read.
  localparam logic [63:0] SizesWord =
      (64'(LinkPackets) << cn_pkg::SizesLinkPacketsLsb) | (64'(InjPackets) << cn_pkg::SizesInjPacketsLsb) |
      (64'(RcvPackets) << cn_pkg::SizesRcvPacketsLsb) | (64'(RetryFlits) << cn_pkg::SizesRetryFlitsLsb) |
      (64'(UserClasses) << cn_pkg::SizesUserClassesLsb);

  logic [WordBits-1:0] rword, rcv_word;
  assign rcv_word = rcv_pl[WordBits-1:0];
  always_comb begin
    rword = '0;
    if (route_hit)       rword = WordBits'(route_built[route_idx]);
    else if (rd_status)  rword = status;
    else if (rd_rcv_hdr) rword = (rcv_hdr_count != '0) ? WordBits'(rcv_hdr) : '0;
    else if (rd_rcv_pl)  rword = rcv_pl_any ? rcv_word : '0;
    else unique case (addr_i)
      cn_pkg::RegId:        rword = cn_pkg::RegIdValue;
      cn_pkg::RegSizes:     rword = SizesWord;
      cn_pkg::RegErr:       rword = WordBits'(err_q);
      cn_pkg::RegErrInfo:   rword = info_q;
      cn_pkg::RegErrSource: rword = WordBits'(source_q);
      default:              rword = '0;
    endcase
  end

  // Ordinary registers answer in word 0; only a vector read fills the upper words.
  logic [cn_pkg::BusDataBits-1:0] rdata;
  assign rdata = rd_rcv_vec ? (rcv_vec_any ? rcv_pl : '0)
                                                  : cn_pkg::BusDataBits'(rword);

  // ------------------------------------------------------------ error bits
  logic [cn_pkg::ErrBits-1:0] err_new;
  always_comb begin
    err_new = err_set_i;
    err_new[cn_pkg::ErrInjOverflow]  = err_set_i[cn_pkg::ErrInjOverflow] ||
                                       ((wr_inj_hdr || (wr_inj_id && id_count != '0)) && inj_hdr_full) ||
                                       (wr_inj_pl && !inj_pl_room) || (wr_inj_vec && !inj_vec_room);
    err_new[cn_pkg::ErrRcvUnderflow] = err_set_i[cn_pkg::ErrRcvUnderflow] ||
                                       (rd_rcv_hdr && rcv_hdr_count == '0) ||
                                       (rd_rcv_pl && !rcv_pl_any) || (rd_rcv_vec && !rcv_vec_any);
    err_new[cn_pkg::ErrPriv]         = err_set_i[cn_pkg::ErrPriv] || denied ||
                                       (wr_route && !route_priv_ok);
    err_new[cn_pkg::ErrBadRouteCfg]  = err_set_i[cn_pkg::ErrBadRouteCfg] ||
                                       (wr_route && route_priv_ok && !route_shape_ok);
    err_new[cn_pkg::ErrBadAddr]      = err_set_i[cn_pkg::ErrBadAddr] || wr_bad || (rd && !rd_known);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      err_q    <= '0;
      info_q   <= '0;
      source_q <= '0;
      rvalid_o <= 1'b0;
      rdata_o  <= '0;
    end else begin
      err_q <= (err_q & ~(wr_clear ? wdata_i[cn_pkg::ErrBits-1:0] : '0)) | err_new;
      // The first header error since the last clear keeps its details.
      if ((err_set_i[cn_pkg::ErrHdrMismatch] || err_set_i[cn_pkg::ErrBadRoute] ||
           err_set_i[cn_pkg::ErrBadOpcode] || err_set_i[cn_pkg::ErrBadSize]) &&
          !(err_q[cn_pkg::ErrHdrMismatch] || err_q[cn_pkg::ErrBadRoute] ||
            err_q[cn_pkg::ErrBadOpcode] || err_q[cn_pkg::ErrBadSize])) begin
        info_q   <= {err_got_i, err_expected_i};
        source_q <= err_source_i;
      end
      rvalid_o <= req_i && !we_i;  // a refused read answers too, with zeros
      if (req_i && !we_i) rdata_o <= denied ? '0 : rdata;
    end
  end

  `CMN_ASSERT_PARAM(g_check_classes, UserClasses >= 0 && UserClasses <= cn_pkg::UserClassesMax,
                    $sformatf("cn_regs: UserClasses (%0d) must be 0..%0d, the classes between the world's and the system's",
                              UserClasses, cn_pkg::UserClassesMax))

  // A route register for each class built, none for the others.
  for (genvar c = 0; c < cn_pkg::NumClasses; c++) begin : g_route
    if (c <= UserClasses || c >= cn_pkg::FirstPrivClass) begin : g_built
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni)                                                                   route_q[c] <= '0;
        else if (wr_route && route_priv_ok && route_shape_ok && route_idx == 4'(c)) route_q[c] <= new_route;
      end
      assign built[c]       = 1'b1;
      assign route_built[c] = route_q[c];
    end else begin : g_none
      assign built[c]       = 1'b0;
      assign route_built[c] = '0;
    end
    assign routes_o[c*cn_pkg::RouteBits +: cn_pkg::RouteBits] = route_built[c];
  end

  // RegStatus reports the FIFO levels in fields of fixed width: the depths must fit them.
  `CMN_ASSERT_PARAM(g_check_inj, InjPackets < (1 << HdrFreeW) && InjPackets * cn_pkg::PayloadFlits < (1 << DataFreeW),
                    $sformatf("cn_regs: InjPackets (%0d) is too deep for RegStatus's %0d-bit header and %0d-bit payload fields",
                              InjPackets, HdrFreeW, DataFreeW))
  `CMN_ASSERT_PARAM(g_check_rcv, RcvPackets < (1 << RcvHdrW) && RcvPackets * cn_pkg::PayloadFlits < (1 << RcvDataW),
                    $sformatf("cn_regs: RcvPackets (%0d) is too deep for RegStatus's %0d-bit header and %0d-bit payload fields",
                              RcvPackets, RcvHdrW, RcvDataW))

  // The FIFOs behind the block: each reports a level within its depth, and the block pushes
  // only into room for every word it pushes and pops only what is held, on each VC.
  for (genvar v = 0; v < cn_pkg::NumVcs; v++) begin : g_fifo_check
    logic [InjHdrCntW-1:0] inj_hdr_n;
    logic [InjPlCntW-1:0]  inj_pl_n;
    logic [RcvHdrCntW-1:0] rcv_hdr_n;
    logic [RcvPlCntW-1:0]  rcv_pl_n;
    assign inj_hdr_n = inj_hdr_count_i[v*InjHdrCntW +: InjHdrCntW];
    assign inj_pl_n  = inj_pl_count_i[v*InjPlCntW +: InjPlCntW];
    assign rcv_hdr_n = rcv_hdr_count_i[v*RcvHdrCntW +: RcvHdrCntW];
    assign rcv_pl_n  = rcv_pl_count_i[v*RcvPlCntW +: RcvPlCntW];
    // (Constant where a depth is its count's largest value, 2^k - 1: nothing to check then.)
    /* verilator lint_off CMPCONST */
    `CMN_ASSERT(LevelsWithinDepth,
                32'(inj_hdr_n) <= InjPackets && 32'(inj_pl_n) <= InjPackets * cn_pkg::PayloadFlits &&
                32'(rcv_hdr_n) <= RcvPackets && 32'(rcv_pl_n) <= RcvPackets * cn_pkg::PayloadFlits,
                $sformatf("VC %0d: levels of %0d and %0d (injection), %0d and %0d (reception) beyond the depths", v,
                          inj_hdr_n, inj_pl_n, rcv_hdr_n, rcv_pl_n))
    /* verilator lint_on CMPCONST */
    `CMN_ASSERT_NEVER(InjHdrPushFull, inj_hdr_push_o[v] && 32'(inj_hdr_n) >= InjPackets,
                      $sformatf("VC %0d: header pushed into an injection FIFO holding %0d of %0d", v, inj_hdr_n,
                                InjPackets))
    `CMN_ASSERT_NEVER(InjPlPushFull,
                      inj_pl_push_o[v] && 32'(inj_pl_n) + 32'(inj_pl_n_o) > InjPackets * cn_pkg::PayloadFlits,
                      $sformatf("VC %0d: %0d payload words pushed into an injection FIFO holding %0d of %0d", v,
                                inj_pl_n_o, inj_pl_n, InjPackets * cn_pkg::PayloadFlits))
    `CMN_ASSERT_NEVER(RcvHdrPopEmpty, rcv_hdr_pop_o[v] && rcv_hdr_n == '0,
                      $sformatf("VC %0d: header popped from an empty reception FIFO", v))
    `CMN_ASSERT_NEVER(RcvPlPopEmpty, rcv_pl_pop_o[v] && 32'(rcv_pl_n) < 32'(rcv_pl_n_o),
                      $sformatf("VC %0d: %0d payload words popped from a reception FIFO holding %0d", v, rcv_pl_n_o,
                                rcv_pl_n))
  end

  // Every class route held is a tree route (the combine and broadcast engines rely on it),
  // whatever was written.
  for (genvar c = 0; c < cn_pkg::NumClasses; c++) begin : g_route_check
    logic [cn_pkg::RouteBits-1:0] route;
    logic [2:0]                   down;
    logic [1:0]                   up;
    assign route = routes_o[c*cn_pkg::RouteBits +: cn_pkg::RouteBits];
    assign down  = cn_pkg::route_down(route);
    assign up    = cn_pkg::route_up(route);
    `CMN_ASSERT(RouteIsTree, !(up != cn_pkg::RouteUpNone && down[up]) && down != '1,
                $sformatf("class %0d holds route %b, not a tree route", c, route))
  end

  // Sticky errors: a bit falls only when a write to RegErrClear names it (the bits the last
  // edge's write cleared, registered for the check alone: $past would sample the bus before
  // the cycle's request settles, in a model clocked with one evaluation per cycle).
  logic [cn_pkg::ErrBits-1:0] err_clear_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) err_clear_q <= '0;
    else         err_clear_q <= wr_clear ? wdata_i[cn_pkg::ErrBits-1:0] : '0;
  end
  `CMN_ASSERT_NEVER(ErrorsSticky, ($past(err_q) & ~err_q & ~err_clear_q) != '0,
                    $sformatf("error bits %b cleared without a write naming them", $past(err_q) & ~err_q))

endmodule : cn_regs

`default_nettype wire
