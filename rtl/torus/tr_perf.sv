// SPDX-License-Identifier: Apache-2.0
// tr_perf: the torus router's performance counters and their register block. For every
// link d and VC v of the router's outputs it counts, from the router's per-cycle event bits
// (tr_router perf_*_o, link d VC v at [d*Vcs + v]):
//   TrPerfFlits  flits sent (the router's output, before the link layer: resends are the
//                link counters' LkResent);
//   TrPerfBusy   cycles the output was held by a packet on the VC, its flits and the gaps
//                of a packet cut through from a link that had not all of it yet;
//   TrPerfStall  cycles a packet at the head of some input could have taken the VC of the
//                free link but for its credits (tr_route stall_o; one count per cycle
//                however many packets wait).
// Counters are TrPerfCountW bits, wrap, and clear only at reset. Link d VC v counter k reads
// at offset 0x80*d + TrPerfVcStride*v + 8*k of the block (tr_pkg::RegTrPerf, the window's
// 0xc00-0xfff); the read data is registered and valid on rvalid_o the cycle after the
// access. A write, or a read of an address that names no counter or is not 8-byte aligned,
// returns 0 and pulses bad_o in the cycle of the access (tr_regs sets TrErrBadAccess at the
// same edge as for its own refusals). The service port reads the counter at the
// same word address (offset / 8), combinationally, for a simulator between clock edges.
`include "cmn_assert.svh"
`default_nettype none

module tr_perf #(
  localparam int Dirs = tr_pkg::NumDirs,
  localparam int Vcs  = tr_pkg::TrNumVcs,
  localparam int W    = tr_pkg::TrPerfCountW
) (
  input  wire logic                 clk_i,
  input  wire logic                 rst_ni,
  // events of this cycle
  input  wire logic [Dirs*Vcs-1:0]  flit_i,
  input  wire logic [Dirs*Vcs-1:0]  busy_i,
  input  wire logic [Dirs*Vcs-1:0]  stall_i,
  // register access (already decoded to this block)
  input  wire logic                 req_i,
  input  wire logic                 we_i,
  input  wire logic [9:0]           addr_i,  // the offset in the block
  output logic                      rvalid_o,
  output logic      [63:0]          rdata_o,
  output logic                      bad_o,
  // service port: the counter at word address sel_i (offset / 8)
  input  wire logic [6:0]           svc_sel_i,
  output logic      [63:0]          svc_word_o
);

  localparam int N = Dirs * Vcs;

  // Each counter is a register of its own (a generate block's), not an element of an
  // unpacked array: a simulator such as Verilator gives every element of an array written
  // by a non-blocking assignment a delayed value and a flag that each evaluation clears,
  // sets and commits (docs/performance.md measures what dropping them bought). `count`
  // is the read ports' view of them (counter k of link d VC v at [k][d*Vcs + v]).
  logic [W-1:0] count [tr_pkg::TrPerfCounters][N];
  for (genvar i = 0; i < N; i++) begin : g_count
    logic [W-1:0] flits_q, busy_q, stall_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        flits_q <= '0;
        busy_q  <= '0;
        stall_q <= '0;
      end else begin
        if (flit_i[i])  flits_q <= flits_q + W'(1);
        if (busy_i[i])  busy_q  <= busy_q + W'(1);
        if (stall_i[i]) stall_q <= stall_q + W'(1);
      end
    end
    assign count[tr_pkg::TrPerfFlits][i] = flits_q;
    assign count[tr_pkg::TrPerfBusy][i]  = busy_q;
    assign count[tr_pkg::TrPerfStall][i] = stall_q;
  end

  // Two read ports, the bus (0) and the service port (1), each a word address {link[2:0],
  // VC[1:0], counter[1:0]}; it names a counter if link < Dirs and counter < TrPerfCounters.
  localparam int IdxW = $clog2(N);
  logic [2*7-1:0]  sel;
  logic [1:0]      known;
  logic [2*64-1:0] word;
  assign sel = {svc_sel_i, addr_i[9:3]};
  for (genvar p = 0; p < 2; p++) begin : g_port
    logic [6:0]      a;
    logic [IdxW-1:0] i;
    logic [63:0]     w;
    assign a        = sel[p*7 +: 7];
    assign i        = IdxW'(32'(a[6:4]) * Vcs + 32'(a[3:2]));
    assign known[p] = (32'(a[6:4]) < Dirs) && (32'(a[1:0]) < tr_pkg::TrPerfCounters);
    assign w = known[p] ? 64'(count[a[1:0]][i]) : '0;
    assign word[p*64 +: 64] = w;
  end

  logic ok;
  assign ok = req_i && !we_i && known[0] && (addr_i[2:0] == 3'b0);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rvalid_o <= 1'b0;
      rdata_o  <= '0;
    end else begin
      rvalid_o <= req_i && !we_i;
      rdata_o  <= ok ? word[63:0] : '0;
    end
  end
  assign bad_o = req_i && !ok;

  assign svc_word_o = word[127:64];

  `CMN_ASSERT_PARAM(g_check, tr_pkg::RegTrPerfStride == 128 && tr_pkg::TrPerfVcStride == 32 && Vcs == 4 && Dirs <= 8,
                    $sformatf("tr_perf: blocks of %0d bytes, %0d-byte VC strides, %0d VCs, %0d links: the decode expects 128, 32, 4, 1..8",
                              tr_pkg::RegTrPerfStride, tr_pkg::TrPerfVcStride, Vcs, Dirs))

  // Per link, an output carries one packet at a time on one VC, and a flit is part of the
  // packet that holds the output.
  for (genvar d = 0; d < Dirs; d++) begin : g_check_link
    `CMN_ASSERT(OneVcHeld, $countones(busy_i[d*Vcs +: Vcs]) <= 1,
                $sformatf("link %0d held on VCs %b at once", d, busy_i[d*Vcs +: Vcs]))
    `CMN_ASSERT(FlitInHeld, (flit_i[d*Vcs +: Vcs] & ~busy_i[d*Vcs +: Vcs]) == '0,
                $sformatf("link %0d sent a flit on VC set %b outside a held output (%b)", d, flit_i[d*Vcs +: Vcs],
                          busy_i[d*Vcs +: Vcs]))
  end

endmodule : tr_perf

`default_nettype wire
