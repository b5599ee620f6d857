// SPDX-License-Identifier: Apache-2.0
// cmn_assert.svh: the assertion macros every module of rtl/ uses, after lowRISC's
// prim_assert. Included with `include "cmn_assert.svh" (every caller passes rtl/common as an
// include directory). The tools that cannot take an assertion are handled here, once:
//
//   simulation (Verilator --assert)  every macro checks
//   SYNTHESIS (Yosys -DSYNTHESIS)    the assertions vanish; CMN_ASSERT_PARAM still refuses
//                                    a bad parameter at elaboration
//   __ICARUS__ (Icarus Verilog 11)   the assertions vanish (it cannot parse these
//                                    assertions, $past or elaboration-time system tasks);
//                                    CMN_ASSERT_PARAM becomes a check at time 0, which vvp
//                                    runs when it loads the design
//   CMN_ASSERT_DISABLE               the assertions vanish (the machine's models, built
//                                    with COLLNET_MACHINE_ASSERTIONS=OFF)
//
// Under Verilator a check is written as `if (fails) $error(...)` instead of `assert (holds)
// else $error(...)`: the same condition, the same message (Verilator prints "Assertion failed
// in" before both) and the same stop. Verilator 5.006 turns an assertion into C++ that marks
// the failing branch as the likely one and tests twice per check whether assertions are on;
// the `if` marks the failure unlikely (no collnet model turns assertions off at run time).
// A message that shows values is formatted only when the check fails: a clocked check's
// $sformatf goes into one string of the compilation unit (_cmn_msg) before $error prints it,
// and a combinational check hands its format and values to $error itself. A $sformatf
// inside $error would be a temporary string that the C++ of every evaluation constructs
// and destroys, failing or not: the torus side's 767 checks cost a quarter of its time so
// (docs/testbenches.md). The reset reaches a clocked check through a wire of its own
// (_cmn_on_<Name>: a leading underscore keeps it out of waveforms), so that lint does not
// take a check for a flop reset synchronously by a signal that resets others
// asynchronously. Every other tool gets the assert statement.
//
// Name names the check (UpperCamelCase, unique in its module): a message starts with the
// module's instance path, %m, and the check's name ("tb.u_link.AckWithinSent: ..."). Msg is
// a string: a literal, or $sformatf("...", values) for a message that shows values. Name is
// written into the message, not put on the assertion as a label: Verilator makes each
// labelled statement that prints %m a scope of its own, registered by name when the model is
// built, which quadrupled a node's scopes and made building a 64-node machine cost more
// than simulating an allreduce on it.
//
//   `CMN_ASSERT(Name, Prop, Msg[, Clk, RstN])  Prop holds at every rising edge of Clk (default
//       clk_i) outside reset (RstN, default rst_ni, low). An immediate assertion in an
//       always_ff block: it sees what the edge's flops sample, which Verilator 5.006's
//       concurrent assertions do not (they sample at the start of eval()); $past works in it.
//   `CMN_ASSERT_NEVER(Name, Prop, Msg[, Clk, RstN])    Prop never holds at an edge outside reset.
//   `CMN_ASSERT_KNOWN(Name, Sig[, Clk, RstN])          Sig has no X or Z bit at an edge outside
//       reset (a 4-state simulator's check: Verilator has no X, so it never fires there).
//   `CMN_ASSERT_AT_RESET(Name, Prop, Msg[, Clk, RstN]) Prop holds at every edge while in reset.
//   `CMN_ASSERT_I(Name, Prop) "format", values `CMN_ASSERT_I_END   an immediate assertion, a
//       statement inside always_comb (a block with no clock: it is checked whenever the block
//       runs). The message is $error's format and values, written between the two macros
//       (a combinational block cannot keep a formatted string without a latch).
//   `CMN_ASSERT_INIT(Name, Prop, Msg)  Prop holds at time 0 (a module item: an initial check).
//   `CMN_ASSERT_PARAM(Name, Cond, Msg)  a module item: elaboration stops with Msg unless Cond
//       holds (parameters only). Verilator cannot name the instance at elaboration, so Msg
//       names the module itself ("cmn_fifo: Depth (0) must be at least 1").
`ifndef CMN_ASSERT_SVH
`define CMN_ASSERT_SVH

`ifdef SYNTHESIS
  `define CMN_ASSERT_OFF_
`elsif __ICARUS__
  `define CMN_ASSERT_OFF_
`elsif CMN_ASSERT_DISABLE
  `define CMN_ASSERT_OFF_
`endif

`ifdef CMN_ASSERT_OFF_

`define CMN_ASSERT(Name, Prop, Msg, Clk = clk_i, RstN = rst_ni)
`define CMN_ASSERT_NEVER(Name, Prop, Msg, Clk = clk_i, RstN = rst_ni)
`define CMN_ASSERT_KNOWN(Name, Sig, Clk = clk_i, RstN = rst_ni)
`define CMN_ASSERT_AT_RESET(Name, Prop, Msg, Clk = clk_i, RstN = rst_ni)
// The message written after CMN_ASSERT_I goes to a display that never runs.
`define CMN_ASSERT_I(Name, Prop) \
  begin if (1'b0) $display("%m.%s: ", `"Name`",
`define CMN_ASSERT_I_END ); end
`define CMN_ASSERT_INIT(Name, Prop, Msg)

`elsif VERILATOR

// The message of the clocked check that fails (only failing checks write it; a design
// without clocked checks uses it nowhere).
/* verilator lint_off UNUSEDSIGNAL */
string _cmn_msg;
/* verilator lint_on UNUSEDSIGNAL */

`define CMN_ASSERT_ON_(Name, RstN) \
  logic _cmn_on_``Name; \
  assign _cmn_on_``Name = (RstN);
`define CMN_ASSERT_SAY_(Name, Msg) \
  begin \
    /* verilator lint_off BLKSEQ */ \
    _cmn_msg = Msg; \
    /* verilator lint_on BLKSEQ */ \
    $error("%m.%s: %s", `"Name`", _cmn_msg); \
  end
`define CMN_ASSERT(Name, Prop, Msg, Clk = clk_i, RstN = rst_ni) \
  `CMN_ASSERT_ON_(Name, RstN) \
  always_ff @(posedge Clk) if (_cmn_on_``Name && !(Prop)) `CMN_ASSERT_SAY_(Name, Msg)
`define CMN_ASSERT_NEVER(Name, Prop, Msg, Clk = clk_i, RstN = rst_ni) \
  `CMN_ASSERT_ON_(Name, RstN) \
  always_ff @(posedge Clk) if (_cmn_on_``Name && (Prop)) `CMN_ASSERT_SAY_(Name, Msg)
`define CMN_ASSERT_KNOWN(Name, Sig, Clk = clk_i, RstN = rst_ni) \
  `CMN_ASSERT_ON_(Name, RstN) \
  always_ff @(posedge Clk) if (_cmn_on_``Name && $isunknown(Sig)) $error("%m.%s: %s has an unknown bit", `"Name`", `"Sig`");
`define CMN_ASSERT_AT_RESET(Name, Prop, Msg, Clk = clk_i, RstN = rst_ni) \
  `CMN_ASSERT_ON_(Name, RstN) \
  always_ff @(posedge Clk) if (!_cmn_on_``Name && !(Prop)) `CMN_ASSERT_SAY_(Name, Msg)
`define CMN_ASSERT_I(Name, Prop) \
  begin if (!(Prop)) $error("%m.%s: ", `"Name`",
`define CMN_ASSERT_I_END ); end
`define CMN_ASSERT_INIT(Name, Prop, Msg) \
  initial begin if (!(Prop)) $error("%m.%s: %s", `"Name`", Msg); end

`else

`define CMN_ASSERT(Name, Prop, Msg, Clk = clk_i, RstN = rst_ni) \
  always_ff @(posedge Clk) if (RstN) assert (Prop) else $error("%m.%s: %s", `"Name`", Msg);
`define CMN_ASSERT_NEVER(Name, Prop, Msg, Clk = clk_i, RstN = rst_ni) \
  always_ff @(posedge Clk) if (RstN) assert (!(Prop)) else $error("%m.%s: %s", `"Name`", Msg);
`define CMN_ASSERT_KNOWN(Name, Sig, Clk = clk_i, RstN = rst_ni) \
  always_ff @(posedge Clk) if (RstN) assert (!$isunknown(Sig)) else $error("%m.%s: %s has an unknown bit", `"Name`", `"Sig`");
`define CMN_ASSERT_AT_RESET(Name, Prop, Msg, Clk = clk_i, RstN = rst_ni) \
  always_ff @(posedge Clk) if (!(RstN)) assert (Prop) else $error("%m.%s: %s", `"Name`", Msg);
`define CMN_ASSERT_I(Name, Prop) \
  begin assert (Prop) else $error("%m.%s: ", `"Name`",
`define CMN_ASSERT_I_END ); end
`define CMN_ASSERT_INIT(Name, Prop, Msg) \
  initial begin assert (Prop) else $error("%m.%s: %s", `"Name`", Msg); end

`endif

`ifdef __ICARUS__
`define CMN_ASSERT_PARAM(Name, Cond, Msg) \
  if (!(Cond)) begin : Name initial $fatal(1, "%m: %s", Msg); end
`else
`define CMN_ASSERT_PARAM(Name, Cond, Msg) \
  if (!(Cond)) begin : Name $fatal(1, "%s", Msg); end
`endif

`undef CMN_ASSERT_OFF_

`endif  // CMN_ASSERT_SVH
