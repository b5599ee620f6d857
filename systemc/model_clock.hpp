// SPDX-License-Identifier: Apache-2.0
// How the project's Verilated tops (a node's two sides, the flat machine) are reset and
// clocked.
#pragma once

namespace collnet::sim {

// A falling edge of rst_ni (the asynchronous reset), held over one clock edge, released
// with the clock low.
template <class Model>
void reset_model(Model& m) {
  m.clk_i = 0;
  m.rst_ni = 1;
  m.eval();
  m.rst_ni = 0;
  m.eval();
  m.clk_i = 1;
  m.eval();
  m.clk_i = 0;
  m.eval();
  m.rst_ni = 1;
  m.eval();
}

// One clock cycle in one evaluation: the inputs the caller has just set, then a rising
// edge. Verilator settles the logic fed by the inputs before it runs the edge's processes,
// so the flops and the RTL's assertions (immediate ones in always_ff blocks) sample exactly
// what a falling-edge evaluation followed by a rising-edge one would have given them; the
// falling-edge evaluation would only recompute that input logic a second time (a fifth of
// a node's simulation time). The model detects an edge against the clock value it saw last, which
// is kept in the root's trigger state: marking it low stands for the falling edge.
// (That member's name is Verilator 5.006's, the version Debian 12 ships; another
// version that names it differently fails to compile here, not silently.) Only for a model
// Verilated in one piece, such as a node's side: the blocks of a hierarchically Verilated
// model keep records of their own, and the flat engine clocks it with both edges.
template <class Model>
void clock_cycle(Model& m) {
  m.rootp->__Vtrigrprev__TOP__clk_i = 0;
  m.clk_i = 1;
  m.eval();
}

}  // namespace collnet::sim
