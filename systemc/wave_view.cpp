// SPDX-License-Identifier: Apache-2.0
#include "systemc/wave_view.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "firmware/hardware_sizes.hpp"
#include "firmware/regmap.hpp"
#include "firmware/torus_layout.hpp"

namespace collnet::sim {

namespace {

// The window GTKWave opens (its [size]) and the panes left of the waves: the signal
// search pane collapsed, the names pane wide enough for every name the view shows.
constexpr unsigned kWindowWidth = 1600, kWindowHeight = 1000;
constexpr unsigned kCollapsedSstWidth = 40, kSignalsWidth = 460, kPaneMargins = 24;
constexpr unsigned kWavePixels = kWindowWidth - kCollapsedSstWidth - kSignalsWidth - kPaneMargins;

// GTKWave's trace flags (the "@" lines): hex, decimal, binary, and with a translate
// filter process; a group's opening and closing lines, open or closed.
constexpr const char* kHex = "@22";
constexpr const char* kDecimal = "@24";
constexpr const char* kBinary = "@28";
constexpr const char* kFiltered = "@4028";  // binary digits to collnet-wave-filter
constexpr const char* kGroupOpen = "@800200", *kGroupEnd = "@1000200";
constexpr const char* kClosedGroupOpen = "@c00200", *kClosedGroupEnd = "@1401200";

class Writer {
 public:
  Writer(std::ostringstream& g, const WaveFiles& f) : g_(g), f_(f) {}

  void group(const std::string& name, bool closed = false) {
    g_ << (closed ? kClosedGroupOpen : kGroupOpen) << "\n-" << name << "\n";
    open_.push_back({name, closed});
  }
  void end_group() {
    g_ << (open_.back().second ? kClosedGroupEnd : kGroupEnd) << "\n-" << open_.back().first << "\n";
    open_.pop_back();
  }
  void trace(const char* format, const std::string& signal) { g_ << format << "\n" << signal << "\n"; }
  // A trace shown under another name.
  void named(const char* format, const std::string& name, const std::string& signal) {
    g_ << format << "\n+{" << name << "} " << signal << "\n";
  }
  // One trace named `name` made of `single` one-bit signals and then every bit of each
  // vector in `vectors` (name, width), shown through the filter (or in hex without one).
  void flits(const std::string& name, const std::vector<std::string>& single,
             const std::vector<std::pair<std::string, unsigned>>& vectors) {
    g_ << (f_.filter.empty() ? kHex : kFiltered) << "\n";
    if (!f_.filter.empty()) g_ << "^>1 " << f_.filter << "\n";
    g_ << "#{" << name << "}";
    for (const std::string& s : single) g_ << " " << s;
    for (const auto& [v, width] : vectors)
      for (unsigned i = 0; i < width; ++i) g_ << " (" << i << ")" << v;  // (0) is the top bit
    g_ << "\n";
  }
  void filtered(const std::string& signal) {
    if (f_.filter.empty()) return trace(kDecimal, signal);
    g_ << kFiltered << "\n^>1 " << f_.filter << "\n" << signal << "\n";
  }

 private:
  std::ostringstream& g_;
  const WaveFiles& f_;
  std::vector<std::pair<std::string, bool>> open_;
};

std::string range(unsigned width) { return "[" + std::to_string(width - 1) + ":0]"; }

void tree_node(Writer& w, const std::string& n, const NodeSizes& sizes) {
  const std::string side = n + ".nd_tree_net.";
  const std::string vc = side + "u_tree.g_vc[0].u_vc.";  // the user VC, the driver's traffic
  const std::string alu = vc + "u_combine.";
  w.group(n + " tree");
  for (unsigned l = 0; l < fw::regmap::kNumLinks; ++l) {
    const std::string p = side + "tree" + std::to_string(l) + "_out_";
    w.flits(n + " tree link " + std::to_string(l) + " out", {p + "valid_o", p + "hdr_o", p + "vc_o"},
            {{p + "data_o" + range(fw::regmap::kFlitBits), fw::regmap::kFlitBits}});
  }
  w.filtered(alu + "alu_opcode_o" + range(fw::regmap::kHdrOpW));
  w.trace(kBinary, alu + "busy_o");
  w.trace(kHex, alu + "alu_result_o" + range(fw::regmap::kFlitBits));
  const unsigned inj = sizes.get("tree.injection_fifo_packets"), rcv = sizes.get("tree.reception_fifo_packets");
  w.named(kDecimal, n + " injection headers", vc + "inj_hdr_count_o" + range(fw::level_bits(inj)));
  w.named(kDecimal, n + " injection payload", vc + "inj_pl_count_o" + range(fw::level_bits(inj * fw::regmap::kPayloadFlits)));
  w.named(kDecimal, n + " reception headers", vc + "rcv_hdr_count_o" + range(fw::level_bits(rcv)));
  w.named(kDecimal, n + " reception payload", vc + "rcv_pl_count_o" + range(fw::level_bits(rcv * fw::regmap::kPayloadFlits)));
  for (unsigned l = 0; l < fw::regmap::kNumLinks; ++l)
    w.named(kHex, n + " tree link " + std::to_string(l) + " credits", side + "tree" + std::to_string(l) + "_out_credit_i[7:0]");
  w.trace(kBinary, side + "err_o");
  w.group(n + " tree ports", true);
  for (unsigned l = 0; l < fw::regmap::kNumLinks; ++l) {
    const std::string p = side + "tree" + std::to_string(l);
    for (const char* dir : {"_in_", "_out_"}) {
      const bool in = dir[1] == 'i';
      w.trace(kBinary, p + dir + (in ? "valid_i" : "valid_o"));
      w.trace(kBinary, p + dir + (in ? "vc_i" : "vc_o"));
      w.trace(kBinary, p + dir + (in ? "hdr_i" : "hdr_o"));
      w.trace(kHex, p + dir + (in ? "data_i" : "data_o") + range(fw::regmap::kFlitBits));
      w.trace(kHex, p + dir + (in ? "ctl_i[40:0]" : "ctl_o[40:0]"));
    }
    const std::string gi = side + "gi" + std::to_string(l);
    w.trace(kHex, gi + "_in_i[7:0]");
    w.trace(kHex, gi + "_out_o[7:0]");
  }
  w.end_group();
  w.end_group();
}

void torus_node(Writer& w, const std::string& n, const fw::TorusLayout& layout, const NodeSizes& sizes) {
  const std::string side = n + ".nd_torus_net.";
  const std::string router = side + "u_torus.";
  const std::string credits = range(fw::regmap::kTrNumVcs * 8);
  w.group(n + " torus");
  for (unsigned d = 0; d < fw::regmap::kNumDirs; ++d) {
    if (!layout.has_link(d)) continue;
    const std::string p = side + "tor" + std::to_string(d) + "_out_";
    w.flits(n + " " + fw::TorusLayout::dir_name(d) + " out", {p + "valid_o", p + "hdr_o"},
            {{p + "vc_o" + range(fw::regmap::kTrVcW), fw::regmap::kTrVcW},
             {p + "data_o" + range(fw::regmap::kTrFlitBits), fw::regmap::kTrFlitBits}});
  }
  const std::string inj_bits = range(fw::level_bits(sizes.get("torus.injection_fifo_flits")));
  const std::string rcv_bits = range(fw::level_bits(sizes.get("torus.reception_fifo_flits")));
  for (unsigned f = 0; f < fw::regmap::kTrInjFifos; ++f)
    w.named(kDecimal, n + " injection FIFO " + std::to_string(f),
            router + "g_inj[" + std::to_string(f) + "].u_fifo.count_o" + inj_bits);
  // The normal reception FIFOs, then the high-priority one (the router's last).
  const unsigned normal = sizes.get("torus.reception_fifos");
  for (unsigned f = 0; f <= normal; ++f)
    w.named(kDecimal, n + (f == normal ? std::string(" priority reception FIFO") : " reception FIFO " + std::to_string(f)),
            router + "g_rcv[" + std::to_string(f) + "].u_fifo.count_o" + rcv_bits);
  for (unsigned d = 0; d < fw::regmap::kNumDirs; ++d)
    if (layout.has_link(d))
      w.named(kHex, n + " " + fw::TorusLayout::dir_name(d) + " credits",
              side + "tor" + std::to_string(d) + "_out_credit_i" + credits);
  w.group(n + " torus ports", true);
  for (unsigned d = 0; d < fw::regmap::kNumDirs; ++d) {
    if (!layout.has_link(d)) continue;
    const std::string p = side + "tor" + std::to_string(d);
    w.trace(kBinary, p + "_in_valid_i");
    w.trace(kBinary, p + "_in_hdr_i");
    w.trace(kHex, p + "_in_vc_i" + range(fw::regmap::kTrVcW));
    w.trace(kHex, p + "_in_data_i" + range(fw::regmap::kTrFlitBits));
    w.trace(kHex, p + "_in_credit_o" + credits);
    w.trace(kHex, p + "_in_ctl_i[40:0]");
    w.trace(kHex, p + "_out_ctl_o[40:0]");
  }
  w.end_group();
  w.end_group();
}

}  // namespace

double gtkw_zoom(uint64_t cycles, unsigned pixels) {
  const double z = -std::log2(200.0 * static_cast<double>(std::max<uint64_t>(cycles, 1)) /
                              static_cast<double>(std::max(pixels, 5u) - 4));
  return std::min(z, 0.0);  // GTKWave shows at most 200 pixels per cycle
}

std::string gtkw_text(const WaveView& view, const WaveFiles& files, const std::vector<std::string>& nodes) {
  const uint64_t last = std::max<uint64_t>(files.last_cycle, 1);
  uint64_t begin = std::min(view.begin, last), end = view.end ? std::min(view.end, last) : last;
  if (end <= begin) end = std::min(last, begin + 1);
  // A margin of a twentieth either side, inside the run.
  const uint64_t margin = (end - begin) / 20 + 1;
  begin = begin > margin ? begin - margin : 0;
  end = std::min(last, end + margin);
  const double zoom = gtkw_zoom(end - begin + 1, kWavePixels);
  // GTKWave ignores a start from which the window would run past the last cycle.
  const double shown = std::pow(2.0, -zoom) / 200.0 * kWavePixels;  // cycles across the wave area
  if (static_cast<double>(begin) > static_cast<double>(last) - shown)
    begin = static_cast<uint64_t>(std::max(0.0, std::floor(static_cast<double>(last) - shown)));

  std::ostringstream g;
  g << "[*] collnet machine view: " << nodes.size() << " node" << (nodes.size() == 1 ? "" : "s")
    << ", cycles " << view.begin << " to " << (view.end ? view.end : last) << "\n";
  g << "[dumpfile] \"" << files.fst_name << "\"\n";
  // With [savefile], GTKWave finds a relative dumpfile beside the view wherever both are.
  g << "[savefile] \"" << files.gtkw_name << "\"\n";
  g << "[timestart] " << begin << "\n";
  g << "[size] " << kWindowWidth << " " << kWindowHeight << "\n[pos] 0 0\n";
  char zline[64];
  std::snprintf(zline, sizeof zline, "*%.6f ", zoom);
  // A marker past the last cycle dumped (a run ends in the cycle its last task does) is
  // put on the last one, where GTKWave still draws it.
  const auto at = [last](uint64_t c) { return static_cast<long long>(std::min(c, last)); };
  g << zline << (view.markers.empty() ? -1 : at(view.markers.front().cycle));
  for (unsigned k = 0; k < 26; ++k) g << " " << (k < view.markers.size() ? at(view.markers[k].cycle) : -1);
  g << "\n";
  for (unsigned k = 0; k < view.markers.size() && k < 26; ++k)
    g << "[markername] " << static_cast<char>('A' + k) << view.markers[k].name << "\n";
  g << "[sst_expanded] 0\n[sst_width] " << kCollapsedSstWidth << "\n[signals_width] " << kSignalsWidth << "\n";

  Writer w(g, files);
  const fw::TorusLayout layout(files.torus);
  std::vector<WaveNetwork> networks = view.networks.empty() ? std::vector<WaveNetwork>{WaveNetwork::Tree} : view.networks;
  for (const std::string& n : nodes)
    for (WaveNetwork net : networks) {
      if (net == WaveNetwork::Tree) tree_node(w, n, files.sizes);
      else torus_node(w, n, layout, files.sizes);
    }
  return g.str();
}

}  // namespace collnet::sim
