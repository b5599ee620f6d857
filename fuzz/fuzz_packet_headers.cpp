// SPDX-License-Identifier: Apache-2.0
// Fuzz harness: every decoder of a packet header or status word from raw words, and its
// encoder where there is one (layouts: regmap/collnet.json, generated into
// firmware/regmap.hpp):
//   fw::Header (the tree packet header), fw::ClassRoute, fw::TorusHeader,
//   fw::TreeStatus and fw::TorusStatus (status registers), driver::p2p::Envelope and
//   driver::p2p::Forward (point-to-point payload words), regmap get_field/set_field,
//   fw::minimal_hints, p2p::packets_for/chunks_for.
// Decoding any word must not crash and must give fields in their ranges; encoding what was
// decoded gives the word back (its defined bits); decode(encode(x)) == x for every x that
// encode accepts (it throws std::invalid_argument for the others).
#include <array>
#include <cstdint>
#include <stdexcept>

#include "driver/p2p_envelope.hpp"
#include "firmware/packet.hpp"
#include "firmware/regmap.hpp"
#include "firmware/torus_firmware.hpp"
#include "firmware/torus_packet.hpp"
#include "firmware/tree_firmware.hpp"
#include "fuzz/fuzz_util.hpp"

namespace fw = collnet::fw;
namespace rm = collnet::fw::regmap;
namespace p2p = collnet::driver::p2p;
using collnet::fuzz::Bytes;

namespace {

void tree_header(uint32_t word, Bytes& in) {
  const fw::Header h = fw::Header::decode(word);
  FUZZ_CHECK(h.cls < rm::kNumClasses && h.size_words >= 1 && h.size_words <= 128 && h.tag < (1u << rm::kHdrTagW));
  FUZZ_CHECK(static_cast<unsigned>(h.op) < 8);
  FUZZ_CHECK(h.encode() == (word & ~((1u << rm::kHdrTagLsb) - 1)));  // bits below the tag are unused
  (void)h.describe();
  fw::Header x;
  x.cls = in.u8() % 20;
  x.p2p = in.flag();
  x.irq = in.flag();
  x.op = static_cast<fw::AluOp>(in.u8() % 8);
  x.size_words = in.u8() % 140;
  x.tag = in.u16() % (1u << 15);
  uint32_t w = 0;
  try {
    w = x.encode();
  } catch (const std::invalid_argument&) {
    FUZZ_CHECK(x.cls >= rm::kNumClasses || x.size_words < 1 || x.size_words > 128 || x.tag >= (1u << rm::kHdrTagW));
    return;
  }
  const fw::Header y = fw::Header::decode(w);
  FUZZ_CHECK(y.cls == x.cls && y.p2p == x.p2p && y.irq == x.irq && y.op == x.op && y.size_words == x.size_words &&
             y.tag == x.tag);
}

void class_route(uint64_t word, Bytes& in) {
  const fw::ClassRoute r = fw::ClassRoute::decode(word);
  FUZZ_CHECK(r.up_link <= fw::ClassRoute::kNoUpLink && r.down_mask <= 7);
  FUZZ_CHECK(r.encode() == (word & ((uint64_t{1} << rm::kRouteBits) - 1)));
  (void)r.describe();
  fw::ClassRoute x;
  x.up_link = in.u8() % 6;
  x.down_mask = in.u8() % 10;
  x.local_source = in.flag();
  x.local_destination = in.flag();
  uint64_t w = 0;
  try {
    w = x.encode();
  } catch (const std::invalid_argument&) {
    FUZZ_CHECK(x.up_link > fw::ClassRoute::kNoUpLink || x.down_mask > 7);
    return;
  }
  const fw::ClassRoute y = fw::ClassRoute::decode(w);
  FUZZ_CHECK(y.up_link == x.up_link && y.down_mask == x.down_mask && y.local_source == x.local_source &&
             y.local_destination == x.local_destination);
}

void torus_header(uint64_t word, Bytes& in) {
  const fw::TorusHeader h = fw::TorusHeader::decode(word);
  FUZZ_CHECK(h.chunks >= 1 && h.chunks <= rm::kMaxChunks && h.hints < (1u << rm::kNumDirs) && h.sw_tag < 16);
  for (unsigned k = 0; k < 3; ++k) FUZZ_CHECK(h.dst[k] < (1u << rm::kCoordW) && h.src[k] < (1u << rm::kCoordW));
  FUZZ_CHECK(h.flits() >= 1 + rm::kChunkFlits && h.flits() <= rm::kMaxPacketFlits);
  FUZZ_CHECK(h.encode() == word);  // every bit of the header is a field
  fw::TorusHeader x;
  for (unsigned k = 0; k < 3; ++k) {
    x.dst[k] = in.u16() % 300;
    x.src[k] = in.u16() % 300;
  }
  x.hints = in.u8() % 80;
  x.deposit = in.flag();
  x.deterministic = in.flag();
  x.priority = in.flag();
  x.chunks = in.u8() % 10;
  x.sw_tag = in.u8() % 20;
  uint64_t w = 0;
  try {
    w = x.encode();
  } catch (const std::invalid_argument&) {
    bool bad = x.chunks < 1 || x.chunks > rm::kMaxChunks || x.hints >= 64 || x.sw_tag >= 16;
    for (unsigned k = 0; k < 3; ++k) bad = bad || x.dst[k] > 255 || x.src[k] > 255;
    FUZZ_CHECK(bad);
    return;
  }
  const fw::TorusHeader y = fw::TorusHeader::decode(w);
  FUZZ_CHECK(y.dst == x.dst && y.src == x.src && y.hints == x.hints && y.deposit == x.deposit &&
             y.deterministic == x.deterministic && y.priority == x.priority && y.chunks == x.chunks &&
             y.sw_tag == x.sw_tag);
}

void status_words(uint64_t word) {
  const fw::TreeStatus t = fw::TreeStatus::decode(word);
  FUZZ_CHECK(t.inj_hdr_free < (1u << rm::kStatusInjHdrFreeW) && t.inj_data_free < (1u << rm::kStatusInjDataFreeW));
  FUZZ_CHECK(t.rcv_hdrs < (1u << rm::kStatusRcvHdrW) && t.rcv_data < (1u << rm::kStatusRcvDataW));
  FUZZ_CHECK(t.error == (word >> 63));
  const fw::TorusStatus s = fw::TorusStatus::decode(word);
  for (unsigned f : s.inj_free) FUZZ_CHECK(f < (1u << rm::kTrStatusInjFreeW));
  for (unsigned f : s.rcv) FUZZ_CHECK(f < (1u << rm::kTrStatusRcvCountW));
  FUZZ_CHECK(s.error == (word >> rm::kTrStatusErrBit));
}

void envelopes(uint64_t word, Bytes& in) {
  const p2p::Envelope e = p2p::Envelope::decode(word);
  FUZZ_CHECK(e.tag <= p2p::kMaxTag && e.src_task < 64 && e.dst_task < 64 && e.context < p2p::kNumContexts &&
             e.value <= p2p::kMaxBytes);
  FUZZ_CHECK(e.encode() == word);  // tag, tasks, context and value fill the word
  p2p::Envelope x;
  x.tag = in.u32() % (p2p::kMaxTag + 1);
  x.src_task = in.u8() % 64;
  x.dst_task = in.u8() % 64;
  x.context = in.u16() % p2p::kNumContexts;
  x.value = in.u64() & p2p::kMaxBytes;
  const p2p::Envelope y = p2p::Envelope::decode(x.encode());
  FUZZ_CHECK(y.tag == x.tag && y.src_task == x.src_task && y.dst_task == x.dst_task && y.context == x.context &&
             y.value == x.value);

  const p2p::Forward f = p2p::Forward::decode(word);
  FUZZ_CHECK(f.origin < (1u << 24) && f.final_node < (1u << 24) && f.sw_tag < 16 && f.chunks < 16 && f.part < 4);
  FUZZ_CHECK(f.encode() == (word & ((uint64_t{1} << 58) - 1)));
  p2p::Forward g;
  g.origin = in.u32() % (1u << 24);
  g.final_node = in.u32() % (1u << 24);
  g.sw_tag = in.u8() % 16;
  g.chunks = 1 + in.u8() % 8;
  g.part = in.u8() % 3;
  const p2p::Forward h = p2p::Forward::decode(g.encode());
  FUZZ_CHECK(h.origin == g.origin && h.final_node == g.final_node && h.sw_tag == g.sw_tag && h.chunks == g.chunks &&
             h.part == g.part);
  FUZZ_CHECK(p2p::pack32(p2p::low32(word), p2p::high32(word)) == word);

  // A message's words: at most kMaxBytes / 8 rounded up (the envelope's length field).
  const uint64_t count = in.u64() % ((p2p::kMaxBytes + 7) / 8 + 1);
  const uint64_t packets = p2p::packets_for(count);
  FUZZ_CHECK(packets >= 1 && (count == 0 || (packets - 1) * p2p::kDataWords < count));
  FUZZ_CHECK(packets * p2p::kDataWords >= count);
  const size_t data = in.u8() % (p2p::kDataWords + 1);
  const unsigned chunks = p2p::chunks_for(data);
  FUZZ_CHECK(chunks >= 1 && chunks <= rm::kMaxChunks && chunks * rm::kChunkFlits >= 1 + data);
}

void fields(uint64_t word, Bytes& in) {
  const unsigned lsb = in.u8() % 64;
  const unsigned width = 1 + in.u8() % (64 - lsb);
  const uint64_t value = in.u64();
  const uint64_t mask = rm::field_mask(width);
  FUZZ_CHECK(rm::get_field(word, lsb, width) == ((word >> lsb) & mask));
  const uint64_t set = rm::set_field(word, lsb, width, value);
  FUZZ_CHECK(rm::get_field(set, lsb, width) == (value & mask));
  FUZZ_CHECK((set & ~(mask << lsb)) == (word & ~(mask << lsb)));  // the other bits stay
}

void hints(Bytes& in) {
  const std::array<unsigned, 3> dims{1 + in.below(255), 1 + in.below(255), 1 + in.below(255)};
  std::array<unsigned, 3> from{}, to{};
  for (unsigned k = 0; k < 3; ++k) {
    from[k] = in.below(dims[k]);
    to[k] = in.below(dims[k]);
  }
  const unsigned h = fw::minimal_hints(from, to, dims);
  FUZZ_CHECK(h < 64);
  for (unsigned k = 0; k < 3; ++k) {
    const unsigned d = (h >> (2 * k)) & 3;
    FUZZ_CHECK(d != 3);                      // never both ways
    FUZZ_CHECK((d == 0) == (from[k] == to[k]));  // a way exactly where the coordinates differ
  }
  fw::TorusHeader x;
  x.dst = to;
  x.src = from;
  x.hints = h;
  FUZZ_CHECK(fw::TorusHeader::decode(x.encode()).hints == h);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) { return 0; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Bytes in(data, size);
  const uint64_t word = in.u64();
  tree_header(static_cast<uint32_t>(word), in);
  class_route(word, in);
  torus_header(word, in);
  status_words(word);
  envelopes(word, in);
  fields(word, in);
  hints(in);
  return 0;
}
