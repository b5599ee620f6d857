// SPDX-License-Identifier: Apache-2.0
// A node's synthetic-traffic agent: an on-chip packet engine on the node's register bus,
// one access per cycle, that creates packets by a Bernoulli process at the offered rate,
// queues them at the source (an unbounded queue, so the offered load is what is created),
// writes each into a normal injection FIFO with room for all of it (the header, then one
// vector write per chunk), and reads arriving packets out of the normal reception FIFO
// (the header, then a vector read per chunk), checking each against what was sent. It
// sees the FIFO levels on the node's status wires; when it could both send and receive it
// alternates. Packet latency runs from creation to the cycle the last chunk is read.
//
// Payload: word 0 is the source rank and sequence number, word 1 the creation cycle, the
// rest a hash of both; the header carries the destination, the source (stamped by the
// router) and the routing mode. So the receiver can tell a lost, duplicated, misrouted or
// corrupted packet.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <random>
#include <vector>

#include "firmware/bus_port.hpp"
#include "firmware/regmap.hpp"
#include "firmware/torus_layout.hpp"
#include "firmware/torus_packet.hpp"
#include "firmware/torus_routes.hpp"
#include "workload/traffic_ledger.hpp"
#include "workload/traffic_pattern.hpp"

namespace collnet::workload {

enum class Routing { Dor, Adaptive };

struct TrafficSpec {
  Pattern pattern = Pattern::Uniform;
  double rate = 0.1;        // offered flits per node per cycle (header included)
  unsigned chunks = 1;      // chunks per packet (packet flits = 1 + 4 * chunks)
  Routing routing = Routing::Adaptive;
  unsigned hotspot = 0;
  double hotspot_fraction = 0.1;
  uint64_t seed = 1;
};

using fw::TorusRoute;

class TrafficAgent : public fw::EdgeAgent {
 public:
  TrafficAgent(unsigned rank, const fw::TorusLayout& layout, const TrafficSpec& spec, const TrafficPattern& pattern,
               TrafficLedger& ledger, const std::vector<TorusRoute>* routes);

  void after_edge(uint64_t cycle, fw::BusPort& port) override;
  // Stops creating packets (the run drains).
  void stop() { generating_ = false; }
  // While paused the agent starts no packet (its own or one it forwards) but finishes the
  // one it is writing, goes on creating packets into its queue and reads what arrives:
  // what the control system does while the network drains after a link went down.
  void pause() { paused_ = true; }
  // Between a pause and the next edge, with the network drained: routes to every node
  // from now on (`routes`, per destination; kept by the caller), and the queue replaced by
  // `resend`, this node's packets not delivered so far, oldest first (those lost with the
  // link, and those that were still waiting here); forwarded packets still queued here
  // are dropped (their sources send them again). Resumes sending. Returns how many of
  // `resend` were still waiting in the queue (the rest were lost in the network).
  size_t restart(const std::vector<TorusRoute>* routes, const std::vector<TrafficLedger::Outstanding>& resend);
  // This node went down: it creates and sends nothing more (its queue is dropped; the
  // ledger abandons its packets).
  void go_down() {
    generating_ = false;
    paused_ = true;
    queue_.clear();
  }

  static uint64_t payload_word(uint64_t id, uint64_t created, unsigned i);

 private:
  struct Pending {
    unsigned dst;     // the final destination
    unsigned hop_to;  // where this injection goes (dst, or a node to forward through)
    uint64_t created;
    uint64_t seq;
    unsigned src;     // the original source (differs from rank_ for a forwarded packet)
  };
  enum class Read { None, Header, Chunk, Levels };

  void finish_read(uint64_t cycle, const std::array<uint64_t, 4>& data);
  void deliver(uint64_t cycle);
  Pending route(unsigned dst, uint64_t created, uint64_t seq, unsigned src) const;

  unsigned rank_;
  fw::TorusLayout layout_;
  fw::Coord coord_;
  TrafficSpec spec_;
  const TrafficPattern& pattern_;
  TrafficLedger& ledger_;
  const std::vector<TorusRoute>* routes_;  // per destination from this node, or null: hardware routes
  std::mt19937_64 rng_;
  std::bernoulli_distribution create_;
  bool generating_ = true;
  bool paused_ = false;
  uint64_t next_seq_ = 0;
  std::deque<Pending> queue_;

  // sending: the packet being written and its chunks still to write
  Pending tx_{};
  unsigned tx_fifo_ = 0, tx_chunks_left_ = 0, tx_chunk_ = 0;
  unsigned next_fifo_ = 0;
  // receiving: the packet being read
  Read pending_ = Read::None;
  unsigned rx_fifo_ = 0, rx_next_ = 0;  // the normal reception FIFO being read; where to look first next
  std::array<unsigned, fw::regmap::kTrRcvNormalMax> known_{};  // flits known held per normal reception FIFO
  fw::TorusHeader rx_hdr_{};
  unsigned rx_chunks_left_ = 0;
  std::vector<uint64_t> rx_words_;
  bool rx_turn_ = true;  // who goes first when both could
};

}  // namespace collnet::workload
