// SPDX-License-Identifier: Apache-2.0
#include "firmware/torus_firmware.hpp"

#include <stdexcept>
#include <string>

#include "firmware/link_counters.hpp"
#include "firmware/torus_layout.hpp"
#include "firmware/tree_firmware.hpp"

namespace collnet::fw {

namespace rm = regmap;

TorusStatus TorusStatus::decode(uint64_t status, uint64_t levels) {
  TorusStatus s;
  for (unsigned k = 0; k < rm::kTrInjFifos; ++k) s.inj_free[k] = rm::get_field(status, rm::kTrStatusInjFreeLsb + rm::kTrStatusInjFreeStride * k, rm::kTrStatusInjFreeW);
  s.rcv[0] = rm::get_field(status, rm::kTrStatusRcvCountLsb, rm::kTrStatusRcvCountW);
  s.rcv[rm::kTrRcvPrio] = rm::get_field(status, rm::kTrStatusRcvCountLsb + rm::kTrStatusRcvCountStride, rm::kTrStatusRcvCountW);
  s.more = rm::get_field(status, rm::kTrStatusRcvMoreLsb, rm::kTrStatusRcvMoreW);
  if (levels != 0)  // decoded every cycle by on-chip agents, whose levels are mostly none
    for (unsigned k = 1; k < rm::kTrRcvNormalMax; ++k)
      s.rcv[k] = rm::get_field(levels, rm::kTrRcvLevelsCountLsb + rm::kTrRcvLevelsCountStride * (k - 1), rm::kTrRcvLevelsCountW);
  s.error = rm::get_field(status, rm::kTrStatusErrBit, 1);
  return s;
}

bool TorusStatus::rcv_pending() const {
  if (more != 0) return true;
  for (unsigned n : rcv)
    if (n > 0) return true;
  return false;
}

TorusStatus TorusFirmware::status() {
  const uint64_t word = bus_.read(rm::kRegTrStatus);
  // A side with one normal reception FIFO never sets RcvMore: its software reads no more.
  const bool more = rm::get_field(word, rm::kTrStatusRcvMoreLsb, rm::kTrStatusRcvMoreW) != 0;
  return TorusStatus::decode(word, more ? bus_.read(rm::kRegTrRcvLevels) : 0);
}

uint64_t TorusFirmware::errors() { return bus_.read(rm::kRegTrErr); }

void TorusFirmware::clear_errors(uint64_t bits) { bus_.write(rm::kRegTrErrClear, bits); }

void TorusFirmware::check() {
  const uint64_t e = errors();
  if (e == 0) return;
  static const char* const kNames[] = {"link protocol",       "bad destination",      "down link",
                                       "bad deposit",         "injection FIFO full",  "reception FIFO empty",
                                       "bad register access", "link layer gave up"};
  static_assert(sizeof(kNames) / sizeof(kNames[0]) == rm::kTrErrBits, "a name per RegTrErr bit");
  std::string what;
  for (unsigned b = 0; b < rm::kTrErrBits; ++b)
    if (e >> b & 1u) what += std::string(what.empty() ? "" : ", ") + kNames[b];
  if (e >> rm::kTrErrLinkDown & 1u) {
    const unsigned down = links_down(bus_, true);
    for (unsigned d = 0; d < 6; ++d)
      if (down >> d & 1)
        what += std::string("; torus link ") + TorusLayout::dir_name(d) + " is down: no acknowledgement after " +
                std::to_string(rm::kLkRetryLimit) + " retransmission timeouts";
  }
  throw HardwareError(me_.rank, e, "node " + std::to_string(me_.rank) + " torus error: " + what);
}

namespace {

void check_injection(const TorusHeader& header, const std::vector<uint64_t>& payload, unsigned fifo) {
  if (fifo >= rm::kTrInjFifos) throw std::invalid_argument("torus injection FIFO " + std::to_string(fifo) + " must be 0..2");
  if (payload.size() != rm::kChunkFlits * header.chunks)
    throw std::invalid_argument("a torus packet of " + std::to_string(header.chunks) + " chunks carries " +
                                std::to_string(rm::kChunkFlits * header.chunks) + " words, not " +
                                std::to_string(payload.size()));
}

}  // namespace

void TorusFirmware::send(const TorusHeader& header, const std::vector<uint64_t>& payload, unsigned fifo) {
  check_injection(header, payload, fifo);
  header.encode();  // throws on a bad field before any waiting
  while (status().inj_free[fifo] < header.flits()) {
  }
  inject(header, payload, fifo);
}

void TorusFirmware::inject(const TorusHeader& header, const std::vector<uint64_t>& payload, unsigned fifo) {
  check_injection(header, payload, fifo);
  const uint64_t hdr = header.encode();
  bus_.write(rm::reg_tr_inj_hdr(fifo), hdr);
  for (unsigned c = 0; c < header.chunks; ++c)
    bus_.write_vector(rm::reg_tr_inj_chunk(fifo),
                      {payload[4 * c], payload[4 * c + 1], payload[4 * c + 2], payload[4 * c + 3]});
}

void TorusFirmware::check_reception(unsigned fifo) {
  if (fifo >= rm::kTrRcvFifos)
    throw std::invalid_argument("torus reception slot " + std::to_string(fifo) + " must be 0.." +
                                std::to_string(rm::kTrRcvFifos - 1) + " (normal FIFOs from 0, the high-priority one at " +
                                std::to_string(rm::kTrRcvPrio) + ")");
}

std::optional<TorusPacket> TorusFirmware::take_packet(unsigned fifo, unsigned& held) {
  std::optional<TorusHeader>& pending = pending_[fifo];
  if (!pending) {
    if (held < 1) return std::nullopt;
    pending = TorusHeader::decode(bus_.read(rm::reg_tr_rcv_hdr(fifo)));
    held -= 1;
  }
  const unsigned need = rm::kChunkFlits * pending->chunks;
  if (held < need) return std::nullopt;
  TorusPacket p{*pending, {}};
  pending.reset();
  p.payload.reserve(need);
  for (unsigned c = 0; c < p.header.chunks; ++c) {
    const RegisterBus::Vector v = bus_.read_vector(rm::reg_tr_rcv_chunk(fifo));
    p.payload.insert(p.payload.end(), v.begin(), v.end());
  }
  held -= need;
  return p;
}

unsigned TorusFirmware::level(unsigned fifo) {
  if (fifo == 0 || fifo == rm::kTrRcvPrio) return TorusStatus::decode(bus_.read(rm::kRegTrStatus)).rcv[fifo];
  return TorusStatus::decode(0, bus_.read(rm::kRegTrRcvLevels)).rcv[fifo];
}

std::optional<TorusPacket> TorusFirmware::try_receive(unsigned fifo) {
  check_reception(fifo);
  unsigned n = level(fifo);
  return take_packet(fifo, n);
}

std::vector<TorusPacket> TorusFirmware::receive_available(unsigned fifo) {
  check_reception(fifo);
  std::vector<TorusPacket> out;
  // Only this firmware pops the FIFO, so the count read here can only grow meanwhile.
  unsigned n = level(fifo);
  while (auto p = take_packet(fifo, n)) out.push_back(std::move(*p));
  return out;
}

TorusPacket TorusFirmware::receive(unsigned fifo) {
  for (;;)
    if (auto p = try_receive(fifo)) return std::move(*p);
}

}  // namespace collnet::fw
