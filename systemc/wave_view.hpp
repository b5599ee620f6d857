// SPDX-License-Identifier: Apache-2.0
// The GTKWave view (.gtkw) written beside a machine's FST: it opens on a window of the run
// (the whole run, or a collective's cycles) with markers, shows per traced node the
// network(s) the run used, the most useful signals first (each link's flits decoded by
// collnet-wave-filter: headers as class/operation/size/tag or destination/source/size,
// payload in hex; the ALU's operation by name; FIFO levels; credits) and the raw ports in
// closed groups below, and finds its FST by a path relative to itself, so the pair can
// be moved together.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "systemc/node_sizes.hpp"

namespace collnet::sim {

enum class WaveNetwork { Tree, Torus };

struct WaveMarker {
  uint64_t cycle;
  std::string name;
};

struct WaveView {
  std::vector<WaveNetwork> networks;  // in this order; empty: as the run used them
  uint64_t begin = 0, end = 0;        // the window it opens on, in cycles (end 0: the whole run)
  std::vector<WaveMarker> markers;    // named A, B, ... (at most 26); the first is the primary
};

// What the view refers to.
struct WaveFiles {
  std::string fst_name;      // the FST, relative to the .gtkw's directory
  std::string gtkw_name;     // the .gtkw's own name
  std::string filter;        // collnet-wave-filter's path, or empty (values in hex)
  uint64_t last_cycle = 0;   // the last cycle in the FST
  std::array<unsigned, 3> torus{1, 1, 1};  // the machine's shape: which torus links exist
  NodeSizes sizes;  // the nodes' sizes: the FIFO level signals' widths, the torus's reception FIFOs
};

// The view's text for nodes named `nodes` (their scopes in the FST, as traced).
std::string gtkw_text(const WaveView& view, const WaveFiles& files, const std::vector<std::string>& nodes);

// GTKWave's zoom value that shows `cycles` cycles across a wave area `pixels` wide
// (GTKWave: time per pixel = 2^-zoom / 200).
double gtkw_zoom(uint64_t cycles, unsigned pixels);

}  // namespace collnet::sim
