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
constexpr uint64_t kBucketBytes = 64;              // a read's and a write's dm_pkg::DmPortWords words

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

DmaMemory::DmaMemory(unsigned rank, const Timing& timing) : rank_(rank), timing_(timing), tokens_(kBucketBytes) {
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

void DmaMemory::check(const Access& a, bool write) const {
  if (a.words < 1 || a.words > 4 || a.addr % 8 != 0)
    throw std::runtime_error("node " + std::to_string(rank_) + ": the DMA engine asks to " + (write ? "write " : "read ") +
                             std::to_string(a.words) + " words at " + hex(a.addr) +
                             " (the port moves 1..4 words at a word's address)");
}

DmaMemory::Answer DmaMemory::edge(uint64_t cycle, const Request& r) {
  Answer a;
  tokens_ = std::min<uint64_t>(kBucketBytes, tokens_ + (cycle - last_cycle_) * timing_.bytes_per_cycle);
  last_cycle_ = cycle;
  if (r.read.req) check(r.read, false);
  if (r.write.req) check(r.write, true);
  // In turn when both ask: the side not served first last time goes first; each is granted
  // while the bucket holds its bytes.
  const bool both = r.read.req && r.write.req;
  const bool write_first = both ? write_first_ : r.write.req;
  for (const bool write : {write_first, !write_first}) {
    const Access& x = write ? r.write : r.read;
    const uint64_t bytes = 8 * uint64_t{x.words};
    if (!x.req || tokens_ < bytes) break;
    tokens_ -= bytes;
    (write ? a.write_gnt : a.read_gnt) = true;
  }
  if (both) write_first_ = !write_first;
  // The read first: it reads the memory as it was before this edge's write.
  if (a.read_gnt) {
    unsigned char* p = resolve(r.read.addr, r.read.words, false);
    Read read{cycle + timing_.latency, {}};
    std::memcpy(read.data.data(), p, 8 * r.read.words);
    reads_.push_back(read);
    words_read_ += r.read.words;
  }
  if (a.write_gnt) {
    unsigned char* p = resolve(r.write.addr, r.write.words, true);
    std::memcpy(p, r.wdata.data(), 8 * r.write.words);
    words_written_ += r.write.words;
  }
  if (!reads_.empty() && reads_.front().due <= cycle) {
    a.rvalid = true;
    a.rdata = reads_.front().data;
    reads_.pop_front();
  }
  return a;
}

}  // namespace collnet::sim
