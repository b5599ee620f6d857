// SPDX-License-Identifier: Apache-2.0
#include "systemc/wave_filter.hpp"

#include <cstdint>
#include <cstdio>

#include "firmware/packet.hpp"
#include "firmware/regmap.hpp"
#include "firmware/torus_layout.hpp"
#include "firmware/torus_packet.hpp"

namespace collnet::sim {

namespace {

constexpr size_t kTreeBits = 3 + fw::regmap::kFlitBits;
constexpr size_t kTorusBits = 2 + fw::regmap::kTrVcW + fw::regmap::kTrFlitBits;
static_assert(kTreeBits != kTorusBits, "the two links' flits must differ in width");

bool to_number(const std::string& bits, size_t from, size_t count, uint64_t& out) {
  out = 0;
  for (size_t i = from; i < from + count; ++i) {
    if (bits[i] != '0' && bits[i] != '1') return false;
    out = out << 1 | static_cast<uint64_t>(bits[i] - '0');
  }
  return true;
}

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string tree_header(uint64_t data, unsigned vc) {
  const fw::Header h = fw::Header::decode(static_cast<uint32_t>(data & 0xffffffffu));
  return "?yellow?HDR class " + std::to_string(h.cls) + " " + fw::to_string(h.op) + " " +
         std::to_string(h.size_words * 16) + "b tag " + std::to_string(h.tag) + (h.p2p ? " p2p" : "") +
         (vc ? " sys" : "");
}

std::string coords(const std::array<unsigned, 3>& c) {
  return "(" + std::to_string(c[0]) + "," + std::to_string(c[1]) + "," + std::to_string(c[2]) + ")";
}

std::string torus_header(uint64_t data, unsigned vc) {
  const fw::TorusHeader h = fw::TorusHeader::decode(data);
  std::string s = "?cyan?HDR " + coords(h.src) + "->" + coords(h.dst) + " " + std::to_string(h.chunks * 32) +
                  "B vc" + std::to_string(vc) + (h.deterministic ? " det" : " adapt");
  if (h.deposit) s += " deposit";
  if (h.priority) s += " prio";
  if (h.sw_tag) s += " tag " + std::to_string(h.sw_tag);
  return s;
}

}  // namespace

std::string wave_filter_line(const std::string& bits) {
  uint64_t v = 0;
  if (bits.size() == fw::regmap::kHdrOpW) {
    if (!to_number(bits, 0, bits.size(), v)) return bits;
    return fw::to_string(static_cast<fw::AluOp>(v));
  }
  const bool tree = bits.size() == kTreeBits, torus = bits.size() == kTorusBits;
  if (!tree && !torus) return bits;
  const size_t vc_bits = tree ? 1 : fw::regmap::kTrVcW;
  uint64_t valid = 0, hdr = 0, vc = 0, data = 0;
  if (!to_number(bits, 0, 1, valid) || !to_number(bits, 1, 1, hdr)) return bits;
  if (!valid) return " ";  // idle: an empty box (an empty reply would show the bits)
  if (!to_number(bits, 2, vc_bits, vc) || !to_number(bits, 2 + vc_bits, 64, data)) return bits;
  if (!hdr) return hex(data);
  return tree ? tree_header(data, static_cast<unsigned>(vc)) : torus_header(data, static_cast<unsigned>(vc));
}

}  // namespace collnet::sim
