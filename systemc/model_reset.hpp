// How every Verilated top of the project (a node, the flat machine) is reset: a falling
// edge of rst_ni (the asynchronous reset), held over one clock edge, released with the
// clock low.
#pragma once

namespace collnet::sim {

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

}  // namespace collnet::sim
