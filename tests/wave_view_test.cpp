// SPDX-License-Identifier: Apache-2.0
// The GTKWave views of a trace (systemc/wave_view.hpp) and the filter that decodes their
// flits (systemc/wave_filter.hpp), without GTKWave: tests/waves_test.py opens them in it.
#include <gtest/gtest.h>

#include <string>

#include "firmware/packet.hpp"
#include "firmware/torus_packet.hpp"
#include "systemc/wave_filter.hpp"
#include "systemc/wave_view.hpp"

namespace collnet::sim {
namespace {

std::string bits(uint64_t v, unsigned width) {
  std::string s;
  for (unsigned i = width; i-- > 0;) s += ((v >> i) & 1) ? '1' : '0';
  return s;
}

TEST(WaveFilter, DecodesATreeHeaderFlitByItsFields) {
  fw::Header h;
  h.cls = 3;
  h.op = fw::AluOp::Max;
  h.size_words = 8;
  h.tag = 77;
  // {valid, hdr, vc, data}: the header in the flit's low half, garbage above it.
  const std::string flit = "110" + bits(0xdead0000'00000000ull | h.encode(), 64);
  EXPECT_EQ(wave_filter_line(flit), "?yellow?HDR class 3 MAX 128b tag 77");
  EXPECT_EQ(wave_filter_line("111" + bits(h.encode(), 64)), "?yellow?HDR class 3 MAX 128b tag 77 sys");
  EXPECT_EQ(wave_filter_line("100" + bits(0x0123456789abcdefull, 64)), "0123456789abcdef") << "payload in hex";
  EXPECT_EQ(wave_filter_line("010" + bits(h.encode(), 64)), " ") << "not valid: an idle link";
}

TEST(WaveFilter, DecodesATorusHeaderFlitWithSourceDestinationAndRouting) {
  fw::TorusHeader h;
  h.dst = {3, 1, 2};
  h.src = {0, 4, 1};
  h.chunks = 2;
  h.deterministic = true;
  h.sw_tag = 5;
  EXPECT_EQ(wave_filter_line("11" + bits(2, 2) + bits(h.encode(), 64)), "?cyan?HDR (0,4,1)->(3,1,2) 64B vc2 det tag 5");
  h.deterministic = false;
  h.deposit = h.priority = true;
  h.sw_tag = 0;
  EXPECT_EQ(wave_filter_line("11" + bits(0, 2) + bits(h.encode(), 64)),
            "?cyan?HDR (0,4,1)->(3,1,2) 64B vc0 adapt deposit prio");
}

TEST(WaveFilter, NamesAluOpcodesAndLeavesAnythingElseAsItCame) {
  EXPECT_EQ(wave_filter_line("110"), "ADD");
  EXPECT_EQ(wave_filter_line("000"), "NONE");
  EXPECT_EQ(wave_filter_line("111"), "RESERVED");
  for (const std::string& odd : {std::string("1x0"), std::string("10101"), std::string(""),
                                 "1z0" + std::string(64, '0')})
    EXPECT_EQ(wave_filter_line(odd), odd);
}

TEST(WaveView, ZoomShowsTheWindowAcrossTheWaveArea) {
  // GTKWave's own zoom for cycles 500..1500 in 726 pixels (its Zoom Range writes this).
  EXPECT_NEAR(gtkw_zoom(1001, 726), -8.115228, 1e-6);
  EXPECT_EQ(gtkw_zoom(3, 1156), 0.0) << "never more than 200 pixels a cycle";
}

TEST(WaveView, FindsItsFstBesideItselfOpensOnTheWindowAndMarksIt) {
  WaveFiles f;
  f.fst_name = "demo.fst";
  f.gtkw_name = "demo.gtkw";
  f.filter = "/opt/collnet/bin/collnet-wave-filter";
  f.last_cycle = 5000;
  f.torus = {2, 2, 1};
  const std::string g = gtkw_text({{WaveNetwork::Tree}, 1000, 2000, {{1000, "allreduce starts"}, {9999, "ends"}}}, f,
                                  {"node0", "node3"});
  EXPECT_NE(g.find("[dumpfile] \"demo.fst\"\n[savefile] \"demo.gtkw\"\n"), std::string::npos) << g;
  EXPECT_NE(g.find("[timestart] 949\n"), std::string::npos) << "a twentieth before the window\n" << g;
  EXPECT_NE(g.find("*-7.684984" /* 2^7.684984 = 200 x 1103 cycles / 1072 pixels */), std::string::npos) << g;
  EXPECT_NE(g.find(" 1000 1000 5000 -1"), std::string::npos) << "primary and A at the start, B clamped to the end\n"
                                                             << g;
  EXPECT_NE(g.find("[markername] Aallreduce starts\n[markername] Bends\n"), std::string::npos) << g;
  EXPECT_NE(g.find("^>1 /opt/collnet/bin/collnet-wave-filter\n#{node3 tree link 2 out} node3.nd_tree_net.tree2_out_valid_o"),
            std::string::npos)
      << g;
  EXPECT_EQ(g.find("torus"), std::string::npos) << "a tree view shows no torus";
  EXPECT_LT(g.find("-node0 tree"), g.find("-node3 tree"));
}

TEST(WaveView, ATorusViewShowsTheLinksThatExistAndNoFilterMeansHex) {
  WaveFiles f;
  f.fst_name = "../traces/t.fst";
  f.gtkw_name = "t.gtkw";
  f.last_cycle = 300;
  f.torus = {4, 2, 1};  // no z links
  const std::string g = gtkw_text({{WaveNetwork::Torus}, 0, 0, {}}, f, {"node5"});
  EXPECT_NE(g.find("[dumpfile] \"../traces/t.fst\""), std::string::npos);
  EXPECT_NE(g.find("[timestart] 0\n"), std::string::npos);
  for (const char* d : {"x+", "x-", "y+", "y-"}) EXPECT_NE(g.find(std::string("#{node5 ") + d + " out}"), std::string::npos) << d;
  EXPECT_EQ(g.find("z+ out"), std::string::npos) << g;
  EXPECT_EQ(g.find("^>"), std::string::npos) << "no filter program: no filter lines";
  EXPECT_EQ(g.find("nd_tree_net"), std::string::npos) << "a torus view shows no tree";
  EXPECT_NE(g.find("(0)node5.nd_torus_net.tor0_out_vc_o[1:0] (1)node5.nd_torus_net.tor0_out_vc_o[1:0] "
                   "(0)node5.nd_torus_net.tor0_out_data_o[63:0]"),
            std::string::npos);
}

// The FIFO levels are named at the widths the nodes' sizes give them, and a torus built
// with more normal reception FIFOs shows each, the high-priority one last.
TEST(WaveView, FifoLevelsFollowTheNodesSizes) {
  WaveFiles f;
  f.fst_name = "v.fst";
  f.gtkw_name = "v.gtkw";
  f.last_cycle = 100;
  f.torus = {2, 2, 2};
  const std::string plain = gtkw_text({{WaveNetwork::Tree, WaveNetwork::Torus}, 0, 0, {}}, f, {"node0"});
  EXPECT_NE(plain.find("u_vc.inj_hdr_count_o[3:0]"), std::string::npos) << "8 packets: 4 bits";
  EXPECT_NE(plain.find("u_vc.rcv_pl_count_o[8:0]"), std::string::npos) << "256 words: 9 bits";
  EXPECT_NE(plain.find("+{node0 reception FIFO 0} node0.nd_torus_net.u_torus.g_rcv[0].u_fifo.count_o[8:0]"),
            std::string::npos)
      << plain;
  EXPECT_NE(plain.find("+{node0 priority reception FIFO} node0.nd_torus_net.u_torus.g_rcv[1].u_fifo.count_o[8:0]"),
            std::string::npos);
  f.sizes.set("tree.injection_fifo_packets", 16);
  f.sizes.set("tree.reception_fifo_packets", 2);
  f.sizes.set("torus.reception_fifos", 3);
  f.sizes.set("torus.reception_fifo_flits", 64);
  f.sizes.set("torus.injection_fifo_flits", 252);
  const std::string g = gtkw_text({{WaveNetwork::Tree, WaveNetwork::Torus}, 0, 0, {}}, f, {"node0"});
  EXPECT_NE(g.find("u_vc.inj_hdr_count_o[4:0]"), std::string::npos);
  EXPECT_NE(g.find("u_vc.inj_pl_count_o[9:0]"), std::string::npos) << "512 words: 10 bits";
  EXPECT_NE(g.find("u_vc.rcv_hdr_count_o[1:0]"), std::string::npos);
  EXPECT_NE(g.find("u_vc.rcv_pl_count_o[6:0]"), std::string::npos);
  EXPECT_NE(g.find("g_inj[2].u_fifo.count_o[7:0]"), std::string::npos);
  for (unsigned k = 0; k < 3; ++k)
    EXPECT_NE(g.find("+{node0 reception FIFO " + std::to_string(k) + "} node0.nd_torus_net.u_torus.g_rcv[" +
                     std::to_string(k) + "].u_fifo.count_o[6:0]"),
              std::string::npos)
        << g;
  EXPECT_NE(g.find("+{node0 priority reception FIFO} node0.nd_torus_net.u_torus.g_rcv[3].u_fifo.count_o[6:0]"),
            std::string::npos);
}

}  // namespace
}  // namespace collnet::sim
