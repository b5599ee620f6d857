// SPDX-License-Identifier: Apache-2.0
// A node's memory as its torus DMA engine sees it: the other end of dm_engine's memory port
// (nd_torus_net dma_mem_*, docs/dma.md). The engine's byte addresses are the host
// addresses of the node's tasks' memory, and the port reaches only the regions registered
// with it (a task's send and receive buffers, its windows): an access outside them is an
// error that names the node and the address, never a stray host access. The port has a
// read side and a write side, each asking for up to four words a cycle; the memory takes a
// request when its bandwidth allows (a token bucket refilled by bytes_per_cycle a cycle,
// holding at most a read's and a write's 64 bytes, shared by the two sides: the side not
// served last goes first), writes at once, and answers a read `latency` cycles after
// taking it, in order. Nothing here depends on the host: the same requests at the same
// cycles get the same answers.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

#include "firmware/memory_regions.hpp"

namespace collnet::sim {

class DmaMemory final : public fw::MemoryRegions {
 public:
  // What a machine file's "memory" section sets (MachineConfig::memory).
  struct Timing {
    static constexpr unsigned kMaxLatency = 1000;
    static constexpr unsigned kMaxBytesPerCycle = 64;  // a read and a write of four words a cycle: the port's most
    unsigned latency = 20;          // cycles from a read's grant to its data, 1..kMaxLatency
    unsigned bytes_per_cycle = 64;  // the memory's bandwidth, reads and writes together, 1..kMaxBytesPerCycle
    // Throws std::invalid_argument naming the field and its bounds.
    void validate() const;
  };

  // The port's outputs (the engine's requests) as of the last evaluation, and the inputs
  // for the next edge.
  struct Access {
    bool req = false;
    uint64_t addr = 0;
    unsigned words = 0;  // 1..4
  };
  struct Request {
    Access read, write;
    std::array<uint64_t, 4> wdata{};  // the write's words
  };
  struct Answer {
    bool read_gnt = false, write_gnt = false, rvalid = false;
    std::array<uint64_t, 4> rdata{};
  };

  DmaMemory(unsigned rank, const Timing& timing);

  // Registers `bytes` at `p` (host memory the caller keeps alive until it removes it) as
  // memory the engine may read and write. Regions may overlap; each registration is
  // removed by one remove_region with the same arguments. Throws std::invalid_argument for
  // an empty region or one past the port's 48-bit addresses.
  void add_region(const void* p, std::size_t bytes) override;
  void remove_region(const void* p, std::size_t bytes) override;
  std::size_t regions() const { return regions_.size(); }

  // At the clock edge of `cycle` (cycles only increase): grants what `r` asks for as the
  // bandwidth allows (a write is done then; a read is read then, before the write, and
  // answered `latency` cycles later), and answers the oldest read that is due. Throws
  // std::runtime_error naming the node, for an access outside every registered region or a
  // request the port does not take (no words, more than four, an address that is not a
  // word's).
  Answer edge(uint64_t cycle, const Request& r);
  // Reads still to answer.
  bool busy() const { return !reads_.empty(); }

  // Words moved through the port (for reports).
  uint64_t words_read() const { return words_read_; }
  uint64_t words_written() const { return words_written_; }

 private:
  unsigned char* resolve(uint64_t addr, unsigned words, bool write) const;
  void check(const Access& a, bool write) const;

  struct Region {
    uint64_t start, end;  // [start, end)
  };
  struct Read {
    uint64_t due;
    std::array<uint64_t, 4> data;
  };
  unsigned rank_;
  Timing timing_;
  std::vector<Region> regions_;
  std::deque<Read> reads_;
  uint64_t tokens_ = 0;      // bytes the bandwidth allows now (at most a read's and a write's 64)
  uint64_t last_cycle_ = 0;  // the cycle tokens_ is counted at
  bool write_first_ = false;  // the side to serve first when both ask
  uint64_t words_read_ = 0, words_written_ = 0;
};

}  // namespace collnet::sim
