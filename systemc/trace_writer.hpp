// SPDX-License-Identifier: Apache-2.0
// FST tracing of the machine: every traced node's RTL goes into one FST file (one scope per
// node, named after the node), dumped once per cycle after the rising edge, so the
// waveform's time axis counts cycles (1 ns = 1 cycle). Beside it, a GTKWave view
// (wave_view.hpp) that opens on the run, or on the window its owner sets.
#pragma once

#include <systemc>

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "systemc/wave_view.hpp"

class VerilatedFstC;

namespace collnet::sim {

class Node;

class TraceWriter : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(TraceWriter);
  // Traces `nodes` (the first one's clock counts the cycles) of a machine of shape `torus`
  // whose nodes have `sizes`.
  TraceWriter(sc_core::sc_module_name name, const std::string& fst_path, const std::vector<Node*>& nodes,
              const std::array<unsigned, 3>& torus, const NodeSizes& sizes);
  ~TraceWriter() override;

  sc_core::sc_in<bool> clk;

  // Closes the FST and writes the view, `view` (its networks given: close() has no say in
  // them) over the whole run unless write_view() comes later.
  void close(const WaveView& view);
  // (Re)writes the .gtkw with `view`: after close(), once the owner knows the window.
  void write_view(const WaveView& view);
  const std::string& gtkw_path() const { return gtkw_path_; }
  uint64_t last_cycle() const { return last_cycle_; }

 private:
  void on_negedge();

  std::unique_ptr<VerilatedFstC> fst_;
  std::string fst_path_, gtkw_path_;
  std::vector<std::string> names_;
  std::array<unsigned, 3> torus_;
  NodeSizes sizes_;
  const Node* clock_node_;
  uint64_t last_cycle_ = 0;
};

// The path of collnet-wave-filter beside the running program (or where it is installed
// with it), or empty when there is none: the views then show values in hex.
std::string wave_filter_path();

}  // namespace collnet::sim
