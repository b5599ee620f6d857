// SPDX-License-Identifier: Apache-2.0
#include "firmware/dma_firmware.hpp"

#include <stdexcept>
#include <string>

#include "firmware/tree_firmware.hpp"

namespace collnet::fw {

namespace rm = regmap;

bool DmaFirmware::has_engine() {
  if (has_ < 0) has_ = static_cast<int>(rm::get_field(bus_.read(rm::kRegTrSizes), rm::kTrSizesDmaLsb, rm::kTrSizesDmaW));
  return has_ > 0;
}

void DmaFirmware::need_engine() {
  if (!has_engine())
    throw std::logic_error("node " + std::to_string(me_.rank) +
                           " has no torus DMA engine (its torus side was built without one: torus.dma 0)");
}

namespace {
void check_counter(unsigned k) {
  if (k >= rm::kDmCounters)
    throw std::invalid_argument("DMA counter " + std::to_string(k) + " is not 0.." + std::to_string(rm::kDmCounters - 1));
}
}  // namespace

void DmaFirmware::set_counter(unsigned k, uint64_t base, uint32_t words) {
  need_engine();
  check_counter(k);
  if (base % 8 != 0 || base >> rm::kDmAddrW)
    throw std::invalid_argument("DMA counter " + std::to_string(k) + ": base " + std::to_string(base) +
                                " is not an 8-byte aligned 48-bit address");
  bus_.write(rm::reg_dm_ctr_base(k), base);
  bus_.write(rm::reg_dm_ctr_count(k), words);
}

uint32_t DmaFirmware::count(unsigned k) {
  need_engine();
  check_counter(k);
  return static_cast<uint32_t>(bus_.read(rm::reg_dm_ctr_count(k)));
}

bool DmaFirmware::reached_zero(unsigned k) {
  need_engine();
  check_counter(k);
  return (bus_.read(rm::kRegDmZero) >> k) & 1u;
}

void DmaFirmware::set_events(uint64_t enables) {
  need_engine();
  bus_.write(rm::kRegDmEventEn, enables);
}

unsigned DmaFirmware::free_slots() {
  need_engine();
  return static_cast<unsigned>(rm::get_field(bus_.read(rm::kRegDmStatus), rm::kDmStatusDescFreeLsb, rm::kDmStatusDescFreeW));
}

void DmaFirmware::queue(const DmaDescriptor& d) {
  const DmaDescriptor::Words w = d.encode();
  while (free_slots() == 0) {
  }
  bus_.write_vector(rm::kRegDmDesc, w);
}

void DmaFirmware::set_ring(uint64_t start, unsigned slots) {
  need_engine();
  const uint64_t bytes = uint64_t{slots} * 8 * rm::kDmDescWords;
  if (slots < 2 || start % (8 * rm::kDmDescWords) != 0 || (start + bytes) >> rm::kDmAddrW)
    throw std::invalid_argument("DMA injection ring at " + std::to_string(start) + " of " + std::to_string(slots) +
                                " descriptors: it needs at least 2, from a 32-byte aligned 48-bit address");
  bus_.write(rm::kRegDmIfStart, start);
  bus_.write(rm::kRegDmIfEnd, start + bytes);
}

uint64_t DmaFirmware::ring_head() {
  need_engine();
  return bus_.read(rm::kRegDmIfHead);
}

void DmaFirmware::set_ring_tail(uint64_t tail) {
  need_engine();
  bus_.write(rm::kRegDmIfTail, tail);
}

void DmaFirmware::check() {
  need_engine();
  const uint64_t e = bus_.read(rm::kRegDmErr);
  if (e == 0) return;
  static const char* const kNames[] = {"a descriptor refused",       "a descriptor written to a full queue",
                                       "a malformed packet dropped", "a counter counted past zero",
                                       "a bad register access",      "a memory FIFO packet the ring cannot hold",
                                       "an injection ring tail outside the ring"};
  static_assert(sizeof(kNames) / sizeof(kNames[0]) == rm::kDmErrBits, "a name per RegDmErr bit");
  std::string what;
  for (unsigned b = 0; b < rm::kDmErrBits; ++b)
    if (e >> b & 1u) what += std::string(what.empty() ? "" : ", ") + kNames[b];
  throw HardwareError(me_.rank, e, "node " + std::to_string(me_.rank) + " DMA engine error: " + what);
}

}  // namespace collnet::fw
