// SPDX-License-Identifier: Apache-2.0
// Register-level firmware for one node's torus router: packet send and receive through
// the injection and reception FIFOs (tr_pkg's register window), status and errors. Every
// call is a sequence of register accesses on the node's bus.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "firmware/personality.hpp"
#include "firmware/register_bus.hpp"
#include "firmware/torus_packet.hpp"

namespace collnet::fw {

// A snapshot of the torus FIFO levels: one RegTrStatus read, and a RegTrRcvLevels read
// when normal reception FIFOs other than 0 hold flits (a side built with more than one).
struct TorusStatus {
  std::array<unsigned, regmap::kTrInjFifos> inj_free{};  // free flits per injection FIFO
  // flits held per reception slot: normal FIFO k at k, the high-priority FIFO at kTrRcvPrio
  std::array<unsigned, regmap::kTrRcvFifos> rcv{};
  unsigned more = 0;  // RegTrStatus's RcvMore: bit k, normal FIFO k+1 holds flits
  bool error = false;

  // From RegTrStatus, and RegTrRcvLevels for the levels of normal FIFOs 1 and up (which
  // `status` alone shows only as RcvMore bits).
  static TorusStatus decode(uint64_t status, uint64_t levels = 0);
  // Some reception FIFO holds flits.
  bool rcv_pending() const;
};

struct TorusPacket {
  TorusHeader header;              // as received: the source is stamped by the router
  std::vector<uint64_t> payload;   // 4 words per chunk
};

class TorusFirmware {
 public:
  TorusFirmware(RegisterBus& bus, const Personality& personality) : bus_(bus), me_(personality) {}

  TorusStatus status();
  uint64_t errors();                 // RegTrErr (TrErr* bits)
  void clear_errors(uint64_t bits);  // write 1s to clear
  // Throws HardwareError (tree_firmware.hpp) naming the set error bits, if any.
  void check();

  // Sends one packet through injection FIFO `fifo` (0, 1 normal, 2 high priority): waits
  // for room for all of it, then writes the header and one vector per chunk. The payload
  // must be 4 words per chunk of the header (throws std::invalid_argument otherwise).
  void send(const TorusHeader& header, const std::vector<uint64_t>& payload, unsigned fifo = 0);
  // Writes one packet without looking at the FIFO: for a caller that knows from its own
  // status() read that the packet fits (it may then write several per status read, and do
  // other work instead of waiting while it does not fit). Same checks as send().
  void inject(const TorusHeader& header, const std::vector<uint64_t>& payload, unsigned fifo = 0);
  // Reception FIFOs are named by their register slot: normal FIFO k (0 up to the side's
  // count, RegTrSizes) at k, the high-priority FIFO at regmap::kTrRcvPrio.
  // The packet at the head of reception slot `fifo` once all of it has arrived, or nothing yet.
  std::optional<TorusPacket> try_receive(unsigned fifo = 0);
  // Waits for a packet (polling) and returns it.
  TorusPacket receive(unsigned fifo = 0);
  // Every packet wholly in reception FIFO `fifo` now, in arrival order, by one status read
  // (try_receive reads the status twice per packet). A packet whose header has arrived but
  // not all its chunks is left pending, as with try_receive: see mid_packet().
  std::vector<TorusPacket> receive_available(unsigned fifo = 0);
  // A header of reception FIFO `fifo` has been read and its chunks have not: the next
  // reads of that FIFO must be this firmware's, to finish the packet.
  bool mid_packet(unsigned fifo = 0) const { return fifo < regmap::kTrRcvFifos && pending_[fifo].has_value(); }

 private:
  static void check_reception(unsigned fifo);  // throws std::invalid_argument naming a bad FIFO
  // Flits held by reception slot `fifo`, by one register read: RegTrStatus for normal FIFO 0
  // and the high-priority FIFO, RegTrRcvLevels for the other normal FIFOs.
  unsigned level(unsigned fifo);
  // The packet at the head of reception FIFO `fifo` if all of it is among the `held` flits
  // (a status count), reading its header first if that is not read yet; `held` drops by
  // what is read.
  std::optional<TorusPacket> take_packet(unsigned fifo, unsigned& held);
  RegisterBus& bus_;
  const Personality& me_;
  std::optional<TorusHeader> pending_[regmap::kTrRcvFifos];  // a header read whose chunks are not all there yet
};

}  // namespace collnet::fw
