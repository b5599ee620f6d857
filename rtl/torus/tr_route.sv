// SPDX-License-Identifier: Apache-2.0
// tr_route: the routing decision for the packet at the head of one router input (a link's
// VC buffer or an injection FIFO). Purely combinational; the router instantiates one per
// input. It picks the output (a link, or a reception FIFO when the packet has arrived)
// and the output VC, and asks for it only if the whole packet fits (virtual cut-through):
//
// * Dynamic packets (minimal adaptive) may take any link that brings them closer, on
//   either dynamic VC, preferring the link and VC with the most credits; if none is free
//   they fall back to the escape VC for that hop.
// * The escape VC (deterministic packets, and dynamic packets falling back) and the
//   high-priority VC route in dimension order (x, then y, then z) along the hinted
//   directions. Their buffers are counted in packet slots (one maximum-size packet
//   each, whatever the packet's size). Bubble flow control: a packet continuing along
//   the ring it travels on needs one free slot; a packet entering a ring's escape or
//   priority VC (from injection, another dimension or a dynamic VC) needs two, so every
//   ring always keeps a free slot (see docs/torus.md). A dynamic packet on the escape VC
//   may take a dynamic VC again at the next router; deterministic and priority packets
//   never do.
// * Injection: the router writes the source coordinates into the header and, when the
//   hint bits are zero, the minimal direction of every dimension (on a tie, + or -
//   by the parity of the source's and destination's coordinates).
// * Deposit packets are also copied to the reception FIFO at every node they pass.
// * A packet that has arrived goes, in a router with the DMA engine's FIFOs (Dma of them),
//   to the engine's reception FIFO dma_home_i names for its input if it carries the
//   engine's software tag (TrDmaSwTag), whatever its priority bit; else to the
//   high-priority reception FIFO if it is a priority packet, else to the normal FIFO
//   rcv_home_i names for its input (the router's steering: by the link it arrived on).
// Packets that cannot be routed (a destination outside the torus, a link marked down on
// their dimension-order path, a malformed deposit) are discarded with an error bit.
`include "cmn_assert.svh"
`default_nettype none

module tr_route #(
  parameter int CntW    = 7,  // credit counter width
  parameter int RcvCntW = 8,  // reception free-space width
  parameter int RcvFifos = 1, // normal reception FIFOs; the high-priority one follows them
  parameter int Dma     = 0,  // the DMA engine's reception FIFOs, after the high-priority one
  localparam int NumRcv = RcvFifos + 1 + Dma,
  localparam int NumOut = tr_pkg::NumDirs + NumRcv,  // the links, then the reception FIFOs
  localparam int Dirs   = tr_pkg::NumDirs,
  localparam int Vcs    = tr_pkg::TrNumVcs,
  localparam int Dims   = tr_pkg::NumDims,
  localparam int CoordW = tr_pkg::CoordW,
  localparam int OutW   = $clog2(NumOut),
  localparam int DirW   = $clog2(tr_pkg::NumDirs),  // a link (the low bits of an output that is one)
  localparam int VcW    = tr_pkg::TrVcW,
  localparam int LenW   = tr_pkg::PacketFlitsW
) (
  input  wire logic                                bubble_i,    // the bubble rule; 0 only to show, in a testbench, the deadlock it prevents
  input  wire logic                                en_i,        // a header waits at the input: decide
  input  wire logic [tr_pkg::TrHdrBits-1:0]        hdr_i,
  input  wire logic                                inject_i,    // the input is an injection FIFO
  input  wire logic [tr_pkg::DimW-1:0]             in_dim_i,    // dimension of the input link
  input  wire logic [tr_pkg::TrVcW-1:0]            in_vc_i,     // VC of the input buffer
  input  wire logic [OutW-1:0]                     rcv_home_i,  // the normal reception FIFO of packets arriving from this input
  input  wire logic [OutW-1:0]                     dma_home_i,  // the engine's reception FIFO of its packets arriving from it
  input  wire logic [tr_pkg::NumDims*tr_pkg::CoordW-1:0] my_i,
  input  wire logic [tr_pkg::NumDims*tr_pkg::CoordW-1:0] dims_i,
  input  wire logic [Dirs-1:0]                     link_down_i,
  input  wire logic [Dirs*Vcs*CntW-1:0]            credits_i,   // link d, VC v at [(d*Vcs+v)*CntW +: CntW]:
                                                                // flits (dynamic VCs) or slots (escape, priority)
  input  wire logic [NumOut-1:0]                   out_busy_i,  // the links, then the reception FIFOs (normal, priority, DMA)
  input  wire logic [NumRcv*RcvCntW-1:0]           rcv_free_i,  // free flits of each reception FIFO
  output logic                                     req_o,       // an output can take the packet now
  output logic      [OutW-1:0]                     out_o,
  output logic      [tr_pkg::TrVcW-1:0]            out_vc_o,
  output logic                                     copy_o,      // deposit: also to reception out_rcv_o
  output logic      [OutW-1:0]                     out_rcv_o,
  output logic      [tr_pkg::TrHdrBits-1:0]        hdr_o,       // the header to send
  output logic                                     discard_o,   // drop the packet ...
  output logic      [tr_pkg::TrRouterErrBits-1:0]  discard_err_o, // ... for this reason
  // The packet can start nowhere and link d's VC v, free, lacks the credits it would need
  // for it: bit d*Vcs+v (a performance counter's event, tr_perf)
  output logic      [Dirs*Vcs-1:0]                 stall_o
);

  // Everything below is one procedural block that does nothing unless en_i: the router
  // asks only inputs with a header waiting, and an idle input costs the simulator nothing.
  always_comb begin
    logic [LenW-1:0]          len;
    logic [Dirs-1:0]          hint_in, hint_min, hint;  // a bit per direction
    logic [Dims*CoordW-1:0]   dst;
    logic                     deposit, determ, prio, to_dma, arrived, escape_only, continuing, tie_minus;
    logic                     copy, rcv_ok, esc_ok, dyn_ok, dyn_any_up, bad_dest, bad_deposit, down;
    logic [Dims-1:0]          need, plus, bad_dst;      // a bit per dimension
    logic [OutW-1:0]          rcv_out, dor_dir, dyn_dir, d;
    logic [tr_pkg::DimW-1:0]  dor_dim;
    logic [VcW-1:0]           esc_vc, dyn_vc;
    logic [RcvCntW-1:0]       rcv_free;
    logic [CntW-1:0]          esc_credits, best, c;
    logic [CoordW:0]          m, dd, kk, diff;          // a coordinate, a size, and their sums
    logic                     usable;

    // Every temporary has a value on every path (no latches), cheap constants.
    {len, hint_in, hint_min, hint, dst, deposit, determ, prio, to_dma, arrived, escape_only, continuing, tie_minus} = '0;
    {copy, rcv_ok, esc_ok, dyn_ok, dyn_any_up, bad_dest, bad_deposit, down} = '0;
    {need, plus, bad_dst, rcv_out, dor_dir, dyn_dir, dor_dim, esc_vc, dyn_vc} = '0;
    {rcv_free, esc_credits, best, c, m, dd, kk, diff, d, usable} = '0;

    req_o         = 1'b0;
    out_o         = OutW'(Dirs);  // reception 0
    out_vc_o      = VcW'(tr_pkg::TrVcEscape);
    copy_o        = 1'b0;
    out_rcv_o     = OutW'(Dirs);
    hdr_o         = hdr_i;
    discard_o     = 1'b0;
    discard_err_o = '0;
    stall_o       = '0;

    if (en_i) begin
      // ---------------------------------------------------------- header
      len     = tr_pkg::packet_flits(hdr_i);
      dst     = hdr_i[tr_pkg::TrHdrDstLsb +: tr_pkg::TrHdrDstW];
      hint_in = hdr_i[tr_pkg::TrHdrHintLsb +: tr_pkg::TrHdrHintW];
      deposit = hdr_i[tr_pkg::TrHdrDepositBit];
      determ  = hdr_i[tr_pkg::TrHdrDetermBit];
      prio    = hdr_i[tr_pkg::TrHdrPrioBit];
      to_dma  = (Dma != 0) && (tr_pkg::tr_hdr_sw_tag(hdr_i) == tr_pkg::TrHdrSwTagW'(tr_pkg::TrDmaSwTag));

      // Halfway round an even ring both ways are minimal. Which one is taken depends on the
      // pair of nodes (the parity of all six coordinates' low bits): fixed per pair, so
      // deterministic packets stay in order, and spread over pairs, so both directions
      // carry half the ties.
      tie_minus = ^{my_i[0], my_i[tr_pkg::CoordW], my_i[2*tr_pkg::CoordW],
                    dst[0], dst[tr_pkg::CoordW], dst[2*tr_pkg::CoordW]};

      // Per dimension: still to travel, the minimal direction, and the direction taken
      // (the header's hint for this dimension, or the minimal direction if it has none).
      for (int k = 0; k < Dims; k++) begin
        m  = {1'b0, my_i[k*CoordW +: CoordW]};
        dd = {1'b0, dst[k*CoordW +: CoordW]};
        kk = {1'b0, dims_i[k*CoordW +: CoordW]};
        bad_dst[k] = (dd >= kk);
        need[k]    = (dd != m);
        diff       = (dd >= m) ? dd - m : dd + kk - m;  // hops in the + direction
        hint_min[2*k]     = need[k] && ((2 * diff < kk) || (2 * diff == kk && !tie_minus));
        hint_min[2*k + 1] = need[k] && ((2 * diff > kk) || (2 * diff == kk && tie_minus));
        plus[k] = hint_in[2*k] || (!hint_in[2*k + 1] && hint_min[2*k]);
      end
      hint = (inject_i && hint_in == '0) ? hint_min : hint_in;
      if (inject_i) begin
        hdr_o[tr_pkg::TrHdrHintLsb +: tr_pkg::TrHdrHintW] = hint;
        hdr_o[tr_pkg::TrHdrSrcLsb +: tr_pkg::TrHdrSrcW]   = my_i;
      end

      // ---------------------------------------------------------- dimension order
      arrived = (need == '0);
      dor_dim = tr_pkg::DimW'(Dims - 1);  // the lowest dimension still to travel (the last if none)
      for (int k = Dims - 2; k >= 0; k--) if (need[k]) dor_dim = tr_pkg::DimW'(k);
      dor_dir = OutW'({dor_dim, 1'b0}) + OutW'(!plus[dor_dim]);  // a dimension's + then - link

      // the engine's FIFO, the priority FIFO, or the input's
      rcv_out  = to_dma ? OutW'(Dirs + RcvFifos + 1) + dma_home_i : prio ? OutW'(Dirs + RcvFifos) : OutW'(Dirs) + rcv_home_i;
      rcv_free = rcv_free_i[(32'(rcv_out) - Dirs)*RcvCntW +: RcvCntW];
      rcv_ok   = !out_busy_i[rcv_out] && (32'(rcv_free) >= 32'(len));

      // ---------------------------------------------------------- escape / priority path
      esc_vc      = prio ? VcW'(tr_pkg::TrVcPrio) : VcW'(tr_pkg::TrVcEscape);
      // A dynamic packet that fell back to the escape VC may take a dynamic VC again at
      // the next router (Duato): the escape VC stays a deadlock-free way out from every
      // buffer, which is all the argument needs (docs/torus.md).
      escape_only = prio || determ;
      continuing  = !inject_i && (in_vc_i == esc_vc) && (in_dim_i == dor_dim);
      esc_credits = credits_i[(32'(dor_dir) * Vcs + 32'(esc_vc)) * CntW +: CntW];
      copy        = deposit && !inject_i;  // the injecting node keeps no copy
      esc_ok      = !out_busy_i[dor_dir] && !link_down_i[dor_dir[DirW-1:0]] &&
                    (32'(esc_credits) >= ((continuing || !bubble_i) ? 1 : 2)) &&
                    (!copy || rcv_ok);

      // ---------------------------------------------------------- dynamic path
      dyn_ok     = 1'b0;
      dyn_any_up = 1'b0;
      dyn_dir    = '0;
      dyn_vc     = '0;
      best       = '0;
      if (!escape_only) begin
        for (int k = 0; k < Dims; k++) begin
          d          = OutW'(2*k) + OutW'(!plus[k]);
          usable     = need[k] && !link_down_i[d[DirW-1:0]];
          dyn_any_up = dyn_any_up || usable;
          for (int v = 0; v < tr_pkg::TrVcEscape; v++) begin  // the dynamic VCs
            c = credits_i[(32'(d) * Vcs + v) * CntW +: CntW];
            if (usable && !out_busy_i[d] && 32'(c) >= 32'(len) && (!dyn_ok || c > best)) begin
              dyn_ok  = 1'b1;
              dyn_dir = d;
              dyn_vc  = VcW'(v);
              best    = c;
            end
          end
        end
      end

      // ---------------------------------------------------------- decision
      bad_dest    = inject_i && (|bad_dst);
      bad_deposit = inject_i && deposit && (!determ || prio || ($countones(need) > 1));
      down        = !arrived && link_down_i[dor_dir[DirW-1:0]] && (escape_only || !dyn_any_up);

      discard_err_o[tr_pkg::TrErrBadDest]  = bad_dest;
      discard_err_o[tr_pkg::TrErrDeposit]  = !bad_dest && bad_deposit;
      discard_err_o[tr_pkg::TrErrDownLink] = !bad_dest && !bad_deposit && down;
      discard_o = |discard_err_o;

      out_o     = rcv_out;
      out_vc_o  = esc_vc;
      out_rcv_o = rcv_out;
      if (discard_o) begin
        req_o = 1'b0;
      end else if (arrived) begin
        req_o = rcv_ok;
      end else if (!escape_only && dyn_ok) begin
        req_o    = 1'b1;
        out_o    = dyn_dir;
        out_vc_o = dyn_vc;
      end else begin
        req_o    = esc_ok;
        out_o    = dor_dir;
        out_vc_o = esc_vc;
        copy_o   = copy;
      end

      // ---------------------------------------------------------- credit stalls
      // Stuck: every VC it may take on a free link that is up, and is short of credits.
      if (!discard_o && !arrived && !req_o) begin
        if (!out_busy_i[dor_dir] && !link_down_i[dor_dir[DirW-1:0]] &&
            32'(esc_credits) < ((continuing || !bubble_i) ? 1 : 2))
          stall_o[32'(dor_dir) * Vcs + 32'(esc_vc)] = 1'b1;
        if (!escape_only) begin
          for (int k = 0; k < Dims; k++) begin
            d = OutW'(2*k) + OutW'(!plus[k]);
            for (int v = 0; v < tr_pkg::TrVcEscape; v++) begin
              c = credits_i[(32'(d) * Vcs + v) * CntW +: CntW];
              if (need[k] && !link_down_i[d[DirW-1:0]] && !out_busy_i[d] && 32'(c) < 32'(len)) stall_o[32'(d) * Vcs + v] = 1'b1;
            end
          end
        end
      end

      // Immediate assertions (the block has no clock): each states what the decision must be
      // for whatever inputs it was made from, or checks inputs that are fixed (the node's
      // place, the input's kind), so an input still settling cannot trip one. The inputs:
      // the node lies inside the torus (sizes 1..255), a link input's dimension is a
      // dimension.
      for (int k = 0; k < Dims; k++) begin
        `CMN_ASSERT_I(InsideTorus, dims_i[k*CoordW +: CoordW] != '0 && my_i[k*CoordW +: CoordW] < dims_i[k*CoordW +: CoordW])
          "coordinate %0d outside the torus size %0d in dimension %0d", my_i[k*CoordW +: CoordW],
          dims_i[k*CoordW +: CoordW], k `CMN_ASSERT_I_END
      end
      `CMN_ASSERT_I(InputDim, inject_i || 32'(in_dim_i) < Dims)
        "a link input of dimension %0d", in_dim_i `CMN_ASSERT_I_END
      `CMN_ASSERT_I(HomeFifo, 32'(rcv_home_i) < RcvFifos)
        "input steered to normal reception FIFO %0d of %0d", rcv_home_i, RcvFifos `CMN_ASSERT_I_END
      `CMN_ASSERT_I(DmaHomeFifo, Dma == 0 || 32'(dma_home_i) < Dma)
        "input steered to the engine's reception FIFO %0d of %0d", dma_home_i, Dma `CMN_ASSERT_I_END
      // A packet is either discarded, for exactly one reason, or may ask for an output.
      `CMN_ASSERT_I(DiscardOneReason, !discard_o || (!req_o && $onehot(discard_err_o)))
        "discarded packet asks for output %0d or has reasons %b", out_o, discard_err_o `CMN_ASSERT_I_END
      if (req_o) begin
        `CMN_ASSERT_I(OutputFree, !out_busy_i[out_o])
          "busy output %0d requested", out_o `CMN_ASSERT_I_END
        `CMN_ASSERT_I(ReceptionIffArrived, (out_o >= OutW'(Dirs)) == arrived)
          "output %0d for a packet that has%0s arrived", out_o, arrived ? "" : " not" `CMN_ASSERT_I_END
        if (out_o < OutW'(Dirs)) begin
          // A link: not marked down, closer along the packet's direction in its dimension,
          // on a VC its kind may use (dimension order on the escape and priority VCs), with
          // room for the whole packet (virtual cut-through) and, entering a ring's escape
          // or priority VC, a slot to spare (bubble rule).
          `CMN_ASSERT_I(LinkUp, !link_down_i[out_o[DirW-1:0]])
            "packet routed onto link %0d, which is marked down", out_o `CMN_ASSERT_I_END
          `CMN_ASSERT_I(LinkCloser, need[out_o[DirW-1:1]] && (out_o[0] == !plus[out_o[DirW-1:1]]))
            "link %0d does not bring the packet closer in its direction", out_o `CMN_ASSERT_I_END
          `CMN_ASSERT_I(VcForKind,
                        prio   ? (out_vc_o == VcW'(tr_pkg::TrVcPrio)) :
                        determ ? (out_vc_o == VcW'(tr_pkg::TrVcEscape)) : (out_vc_o != VcW'(tr_pkg::TrVcPrio)))
            "VC %0d for a packet with priority %0d, deterministic %0d", out_vc_o, prio, determ `CMN_ASSERT_I_END
          `CMN_ASSERT_I(DimensionOrder, out_vc_o < VcW'(tr_pkg::TrVcEscape) || out_o[DirW-1:1] == dor_dim)
            "VC %0d on link %0d, out of dimension order (dimension %0d first)", out_vc_o, out_o,
            dor_dim `CMN_ASSERT_I_END
          `CMN_ASSERT_I(CreditsForPacket,
                        32'(credits_i[(32'(out_o) * Vcs + 32'(out_vc_o)) * CntW +: CntW]) >=
                        ((out_vc_o < VcW'(tr_pkg::TrVcEscape)) ? 32'(len) : 1))
            "packet of %0d flits sent on link %0d VC %0d with %0d credits", len, out_o, out_vc_o,
            credits_i[(32'(out_o) * Vcs + 32'(out_vc_o)) * CntW +: CntW] `CMN_ASSERT_I_END
          `CMN_ASSERT_I(BubbleRule,
                        !bubble_i || out_vc_o < VcW'(tr_pkg::TrVcEscape) ||
                        (!inject_i && in_vc_i == out_vc_o && in_dim_i == out_o[DirW-1:1]) ||
                        32'(credits_i[(32'(out_o) * Vcs + 32'(out_vc_o)) * CntW +: CntW]) >= 2)
            "packet entered the ring of link %0d VC %0d without two free slots", out_o, out_vc_o `CMN_ASSERT_I_END
        end else begin
          `CMN_ASSERT_I(ReceptionRoom, out_o == rcv_out && 32'(rcv_free) >= 32'(len))
            "packet of %0d flits to reception output %0d with %0d flits free", len, out_o, rcv_free `CMN_ASSERT_I_END
        end
        `CMN_ASSERT_I(CopyRoom, !copy_o || (!out_busy_i[out_rcv_o] && 32'(rcv_free) >= 32'(len)))
          "deposit copy of %0d flits to reception with %0d flits free or busy", len, rcv_free `CMN_ASSERT_I_END
      end
      `CMN_ASSERT_I(CopyOfDeposit, !copy_o || (deposit && !inject_i && out_o < OutW'(Dirs) && out_rcv_o == rcv_out))
        "copy to reception output %0d of a packet that leaves no copy here", out_rcv_o `CMN_ASSERT_I_END
    end
    `CMN_ASSERT_I(DecisionWithHeader, en_i || !(req_o || copy_o || discard_o || stall_o != '0))
      "a decision without a header" `CMN_ASSERT_I_END
    `CMN_ASSERT_I(StallOnlyWaiting, stall_o == '0 || !(req_o || discard_o))
      "credit stalls %b for a packet that %0s", stall_o, req_o ? "may start" : "is discarded" `CMN_ASSERT_I_END
  end

endmodule : tr_route

`default_nettype wire
