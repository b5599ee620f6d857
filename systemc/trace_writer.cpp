// Verilated headers first (see node.cpp).
#include "verilated_fst_c.h"
// clang-format off
#include "trace_writer.hpp"
#include "node.hpp"
// clang-format on

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace collnet::sim {

namespace {
std::string gtkw_path_for(const std::string& fst) {
  const auto dot = fst.rfind('.');
  const auto slash = fst.rfind('/');
  if (dot != std::string::npos && (slash == std::string::npos || dot > slash)) return fst.substr(0, dot) + ".gtkw";
  return fst + ".gtkw";
}
}  // namespace

TraceWriter::TraceWriter(sc_core::sc_module_name name, const std::string& fst_path, const std::vector<Node*>& nodes)
    : sc_module(name), clk("clk"), fst_(std::make_unique<VerilatedFstC>()), gtkw_path_(gtkw_path_for(fst_path)),
      clock_node_(nodes.at(0)) {
  for (Node* n : nodes) n->trace(*fst_);
  fst_->set_time_unit("1ns");  // one cycle per nanosecond on the waveform's time axis
  fst_->set_time_resolution("1ns");
  fst_->open(fst_path.c_str());
  if (!fst_->isOpen()) throw std::runtime_error("cannot open trace file '" + fst_path + "' for writing");

  std::vector<std::string> names;
  for (Node* n : nodes) names.emplace_back(n->name());
  std::ofstream gtkw(gtkw_path_);
  if (!gtkw) throw std::runtime_error("cannot write GTKWave view '" + gtkw_path_ + "'");
  gtkw << gtkw_text(std::filesystem::absolute(fst_path).string(), names);

  SC_METHOD(on_negedge);
  sensitive << clk.neg();
  dont_initialize();
}

TraceWriter::~TraceWriter() { close(); }

void TraceWriter::close() {
  if (fst_ && fst_->isOpen()) fst_->close();
}

void TraceWriter::on_negedge() { fst_->dump(clock_node_->cycle()); }

std::string TraceWriter::gtkw_text(const std::string& fst_path, const std::vector<std::string>& node_names) {
  std::ostringstream g;
  g << "[*] collnet machine view: the tree-link ports and ALU of every node\n";
  g << "[dumpfile] \"" << fst_path << "\"\n";
  g << "[timestart] 0\n";
  g << "[sst_width] 260\n[signals_width] 300\n";
  for (const std::string& n : node_names) {
    const std::string top = n + ".nd_tree_net.";  // the tree side of the node
    const std::string alu = top + "u_tree.g_vc[0].u_vc.u_combine.";  // the user VC's ALU
    g << "@800200\n-" << n << "\n";
    for (int l = 0; l < 3; ++l) {
      const std::string p = top + "tree" + std::to_string(l);
      g << "@800200\n-" << n << " link " << l << "\n";
      g << "@28\n" << p << "_in_valid_i\n" << p << "_in_vc_i\n" << p << "_in_hdr_i\n";
      g << "@22\n" << p << "_in_data_i[63:0]\n";
      g << "@22\n" << p << "_in_credit_o[7:0]\n" << p << "_in_ctl_i[40:0]\n";
      g << "@28\n" << p << "_out_valid_o\n" << p << "_out_vc_o\n" << p << "_out_hdr_o\n";
      g << "@22\n" << p << "_out_data_o[63:0]\n";
      g << "@22\n" << p << "_out_credit_i[7:0]\n" << p << "_out_ctl_o[40:0]\n";
      const std::string gi = top + "gi" + std::to_string(l);
      g << "@22\n" << gi << "_in_i[7:0]\n" << gi << "_out_o[7:0]\n";
      g << "@1000200\n-" << n << " link " << l << "\n";
    }
    g << "@800200\n-" << n << " ALU\n";
    g << "@28\n" << alu << "busy_o\n";
    g << "@22\n" << alu << "alu_opcode_o[2:0]\n" << alu << "alu_result_o[63:0]\n";
    g << "@28\n" << alu << "out_valid_o\n";
    g << "@1000200\n-" << n << " ALU\n";
    g << "@28\n" << top << "err_o\n";
    g << "@1000200\n-" << n << "\n";
  }
  return g.str();
}

}  // namespace collnet::sim
