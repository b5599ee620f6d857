// SPDX-License-Identifier: Apache-2.0
#include "firmware/packet.hpp"

#include <sstream>
#include <stdexcept>

namespace collnet::fw {

using namespace regmap;

namespace {
constexpr uint32_t field(uint32_t value, unsigned lsb, unsigned width) {
  return (value & ((1u << width) - 1u)) << lsb;
}
constexpr uint32_t extract(uint32_t word, unsigned lsb, unsigned width) {
  return (word >> lsb) & ((1u << width) - 1u);
}
}  // namespace

const char* to_string(AluOp op) {
  switch (op) {
    case AluOp::None: return "NONE";
    case AluOp::Or: return "OR";
    case AluOp::And: return "AND";
    case AluOp::Xor: return "XOR";
    case AluOp::Min: return "MIN";
    case AluOp::Max: return "MAX";
    case AluOp::Add: return "ADD";
  }
  return "RESERVED";
}

uint32_t Header::encode() const {
  if (cls >= kNumClasses) throw std::invalid_argument("header class " + std::to_string(cls) + " out of range 0..15");
  if (size_words < 1 || size_words > 128)
    throw std::invalid_argument("header operand size " + std::to_string(size_words) + " words out of range 1..128");
  if (tag >= (1u << kHdrTagW)) throw std::invalid_argument("header tag " + std::to_string(tag) + " exceeds 14 bits");
  return field(cls, kHdrClassLsb, kHdrClassW) | field(p2p, kHdrP2pBit, 1) | field(irq, kHdrIrqBit, 1) |
         field(static_cast<uint32_t>(op), kHdrOpLsb, kHdrOpW) | field(size_words - 1, kHdrSizeLsb, kHdrSizeW) |
         field(tag, kHdrTagLsb, kHdrTagW);
}

Header Header::decode(uint32_t word) {
  Header h;
  h.cls = extract(word, kHdrClassLsb, kHdrClassW);
  h.p2p = extract(word, kHdrP2pBit, 1);
  h.irq = extract(word, kHdrIrqBit, 1);
  h.op = static_cast<AluOp>(extract(word, kHdrOpLsb, kHdrOpW));
  h.size_words = extract(word, kHdrSizeLsb, kHdrSizeW) + 1;
  h.tag = extract(word, kHdrTagLsb, kHdrTagW);
  return h;
}

std::string Header::describe() const {
  std::ostringstream s;
  s << "{class " << cls << ", op " << to_string(op) << ", size " << size_words * 16 << " bits, tag " << tag
    << (p2p ? ", p2p" : "") << (irq ? ", irq" : "") << "}";
  return s.str();
}

uint64_t ClassRoute::encode() const {
  if (up_link > kNoUpLink) throw std::invalid_argument("class route up link " + std::to_string(up_link) + " is not 0..2 or none");
  if (down_mask > 7) throw std::invalid_argument("class route down mask " + std::to_string(down_mask) + " exceeds 3 links");
  return (uint64_t{up_link} << kRouteUpLsb) | (uint64_t{down_mask} << kRouteDownLsb) |
         (uint64_t{local_source} << kRouteSrcBit) | (uint64_t{local_destination} << kRouteDstBit);
}

ClassRoute ClassRoute::decode(uint64_t word) {
  ClassRoute r;
  r.up_link = (word >> kRouteUpLsb) & 3u;
  r.down_mask = (word >> kRouteDownLsb) & 7u;
  r.local_source = (word >> kRouteSrcBit) & 1u;
  r.local_destination = (word >> kRouteDstBit) & 1u;
  return r;
}

std::string ClassRoute::describe() const {
  std::ostringstream s;
  s << "{up " << (up_link == kNoUpLink ? std::string("none") : std::to_string(up_link)) << ", down";
  if (down_mask == 0) s << " none";
  for (unsigned l = 0; l < kNumLinks; ++l)
    if (down_mask & (1u << l)) s << ' ' << l;
  s << (local_source ? ", contributes" : "") << (local_destination ? ", receives" : "") << "}";
  return s.str();
}

}  // namespace collnet::fw
