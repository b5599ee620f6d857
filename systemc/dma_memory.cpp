// SPDX-License-Identifier: Apache-2.0
#include "systemc/dma_memory.hpp"

#include <algorithm>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <string>

namespace collnet::sim {

namespace {
constexpr uint64_t kAddrLimit = uint64_t{1} << 48;  // dm_pkg::DmAddrW
constexpr uint64_t kRequestBytes = 32;             // dm_pkg::DmPortWords words of 8 bytes

std::string hex(uint64_t v) {
  std::ostringstream s;
  s << "0x" << std::hex << v;
  return s.str();
}
}  // namespace

void DmaMemory::Timing::validate() const {
  if (latency < 1 || latency > kMaxLatency)
    throw std::invalid_argument("memory.latency " + std::to_string(latency) + " must be 1.." +
                                std::to_string(kMaxLatency) + " cycles");
  if (bytes_per_cycle < 1 || bytes_per_cycle > kMaxBytesPerCycle)
    throw std::invalid_argument("memory.bytes_per_cycle " + std::to_string(bytes_per_cycle) + " must be 1.." +
                                std::to_string(kMaxBytesPerCycle));
}

DmaMemory::DmaMemory(unsigned rank, const Timing& timing) : rank_(rank), timing_(timing), tokens_(kRequestBytes) {
  timing_.validate();
}

void DmaMemory::add_region(const void* p, std::size_t bytes) {
  const uint64_t start = reinterpret_cast<uintptr_t>(p);
  if (bytes == 0) throw std::invalid_argument("node " + std::to_string(rank_) + ": an empty memory region at " + hex(start));
  if (start >= kAddrLimit || bytes > kAddrLimit - start)
    throw std::invalid_argument("node " + std::to_string(rank_) + ": the memory region at " + hex(start) + " of " +
                                std::to_string(bytes) + " bytes lies past the DMA engine's 48-bit addresses");
  regions_.push_back({start, start + bytes});
}

void DmaMemory::remove_region(const void* p, std::size_t bytes) {
  const uint64_t start = reinterpret_cast<uintptr_t>(p);
  const auto it = std::find_if(regions_.begin(), regions_.end(),
                               [&](const Region& r) { return r.start == start && r.end == start + bytes; });
  if (it == regions_.end())
    throw std::invalid_argument("node " + std::to_string(rank_) + ": no memory region of " + std::to_string(bytes) +
                                " bytes is registered at " + hex(start));
  regions_.erase(it);
}

unsigned char* DmaMemory::resolve(uint64_t addr, unsigned words, bool write) const {
  const uint64_t end = addr + 8 * uint64_t{words};
  for (const Region& r : regions_)
    if (addr >= r.start && end <= r.end) return reinterpret_cast<unsigned char*>(static_cast<uintptr_t>(addr));
  throw std::runtime_error("node " + std::to_string(rank_) + ": the DMA engine " + (write ? "writes " : "reads ") +
                           std::to_string(words) + " words at " + hex(addr) +
                           ", outside every memory region registered with it");
}

DmaMemory::Answer DmaMemory::edge(uint64_t cycle, const Request& r) {
  Answer a;
  tokens_ = std::min<uint64_t>(kRequestBytes, tokens_ + (cycle - last_cycle_) * timing_.bytes_per_cycle);
  last_cycle_ = cycle;
  if (r.req) {
    if (r.words < 1 || r.words > 4 || r.addr % 8 != 0)
      throw std::runtime_error("node " + std::to_string(rank_) + ": the DMA engine asks for " +
                               std::to_string(r.words) + " words at " + hex(r.addr) +
                               " (the port moves 1..4 words at a word's address)");
    const uint64_t bytes = 8 * uint64_t{r.words};
    if (tokens_ >= bytes) {
      tokens_ -= bytes;
      a.gnt = true;
      unsigned char* p = resolve(r.addr, r.words, r.write);
      if (r.write) {
        std::memcpy(p, r.wdata.data(), bytes);
        words_written_ += r.words;
      } else {
        Read read{cycle + timing_.latency, {}};
        std::memcpy(read.data.data(), p, bytes);
        reads_.push_back(read);
        words_read_ += r.words;
      }
    }
  }
  if (!reads_.empty() && reads_.front().due <= cycle) {
    a.rvalid = true;
    a.rdata = reads_.front().data;
    reads_.pop_front();
  }
  return a;
}

}  // namespace collnet::sim
