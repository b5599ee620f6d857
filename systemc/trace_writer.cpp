// SPDX-License-Identifier: Apache-2.0
// Verilated headers first (see node.cpp).
#include "verilated_fst_c.h"
// clang-format off
#include "systemc/trace_writer.hpp"
#include "systemc/node.hpp"
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

TraceWriter::TraceWriter(sc_core::sc_module_name name, const std::string& fst_path, const std::vector<Node*>& nodes,
                         const std::array<unsigned, 3>& torus, const NodeSizes& sizes)
    : sc_module(name), clk("clk"), fst_(std::make_unique<VerilatedFstC>()), fst_path_(fst_path),
      gtkw_path_(gtkw_path_for(fst_path)), torus_(torus), sizes_(sizes), clock_node_(nodes.at(0)) {
  for (Node* n : nodes) {
    n->trace(*fst_);
    names_.emplace_back(n->name());
  }
  fst_->set_time_unit("1ns");  // one cycle per nanosecond on the waveform's time axis
  fst_->set_time_resolution("1ns");
  fst_->open(fst_path.c_str());
  if (!fst_->isOpen()) throw std::runtime_error("cannot open trace file '" + fst_path + "' for writing");
  std::ofstream gtkw(gtkw_path_);  // fail now rather than after the run
  if (!gtkw) throw std::runtime_error("cannot write GTKWave view '" + gtkw_path_ + "'");

  SC_METHOD(on_negedge);
  sensitive << clk.neg();
  dont_initialize();
}

TraceWriter::~TraceWriter() {
  if (fst_ && fst_->isOpen()) fst_->close();
}

void TraceWriter::close(const WaveView& view) {
  if (!fst_ || !fst_->isOpen()) return;
  fst_->close();
  write_view(view);
}

void TraceWriter::write_view(const WaveView& view) {
  namespace fs = std::filesystem;
  const fs::path gtkw(gtkw_path_), fst(fst_path_);
  WaveFiles files;
  // The FST by its path from the view's directory: the pair can move together.
  files.fst_name = fs::absolute(fst).lexically_relative(fs::absolute(gtkw).parent_path()).string();
  files.gtkw_name = gtkw.filename().string();
  files.filter = wave_filter_path();
  files.last_cycle = last_cycle_;
  files.torus = torus_;
  files.sizes = sizes_;
  std::ofstream out(gtkw_path_);
  if (!out) throw std::runtime_error("cannot write GTKWave view '" + gtkw_path_ + "'");
  out << gtkw_text(view, files, names_);
}

void TraceWriter::on_negedge() {
  last_cycle_ = clock_node_->cycle();
  fst_->dump(last_cycle_);
}

std::string wave_filter_path() {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return "";
  for (const fs::path& p : {self.parent_path() / "collnet-wave-filter", self.parent_path().parent_path() / "collnet-wave-filter"})
    if (fs::exists(p, ec)) return p.string();
  return "";
}

}  // namespace collnet::sim
