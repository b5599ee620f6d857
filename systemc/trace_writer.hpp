// FST tracing of the machine: every node's RTL goes into one FST file (one scope per node,
// named after the node), dumped once per cycle after the rising edge, so the waveform's
// time axis counts cycles (1 ns = 1 cycle). Beside it, a GTKWave save file groups the
// adapter ports of each node.
#pragma once

#include <systemc>

#include <memory>
#include <string>
#include <vector>

class VerilatedFstC;

namespace collnet::sim {

class Node;

class TraceWriter : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(TraceWriter);
  TraceWriter(sc_core::sc_module_name name, const std::string& fst_path, const std::vector<Node*>& nodes);
  ~TraceWriter() override;

  sc_core::sc_in<bool> clk;

  void close();
  const std::string& gtkw_path() const { return gtkw_path_; }

  // The GTKWave save file text for these node names and FST path.
  static std::string gtkw_text(const std::string& fst_path, const std::vector<std::string>& node_names);

 private:
  void on_negedge();

  std::unique_ptr<VerilatedFstC> fst_;
  std::string gtkw_path_;
  const Node* clock_node_;
};

}  // namespace collnet::sim
