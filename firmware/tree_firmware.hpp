// SPDX-License-Identifier: Apache-2.0
// Register-level firmware for one node's combining-network adapter: class-route
// configuration, packet injection and reception, status and error reporting. Every call
// is a sequence of register accesses on the node's bus; nothing here knows about ranks
// of a communicator or collectives (that is the driver's job).
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "firmware/packet.hpp"
#include "firmware/personality.hpp"
#include "firmware/register_bus.hpp"

namespace collnet::fw {

// A hardware error read back from the adapter's sticky error registers.
class HardwareError : public std::runtime_error {
 public:
  HardwareError(unsigned node, uint64_t bits, const std::string& what)
      : std::runtime_error(what), node_(node), bits_(bits) {}
  unsigned node() const { return node_; }
  uint64_t bits() const { return bits_; }

 private:
  unsigned node_;
  uint64_t bits_;
};

// A snapshot of the FIFO levels (one RegStatus read).
struct TreeStatus {
  unsigned inj_hdr_free = 0;
  unsigned inj_data_free = 0;
  unsigned rcv_hdrs = 0;
  unsigned rcv_data = 0;
  bool error = false;

  static TreeStatus decode(uint64_t word);
};

// The adapter's two virtual channels. Each has its own FIFO stacks; the system VC's
// registers need the privileged bit (its firmware makes every access privileged).
enum class Vc : unsigned { User = regmap::kVcUser, System = regmap::kVcSystem };
const char* vc_name(Vc vc);

// One node's adapter as seen through one VC: the FIFO accesses (status, push, pop,
// identity) go to that VC's registers; routes and errors are shared by both VCs.
class TreeFirmware {
 public:
  TreeFirmware(RegisterBus& bus, const Personality& personality, Vc vc = Vc::User)
      : bus_(bus), me_(personality), vc_(vc) {}

  // Checks the adapter answers with the expected identification; throws otherwise.
  void probe();
  // The user class routes the adapter was built with (RegSizes.UserClasses): classes
  // 1..this have a route register. One register read.
  unsigned user_classes();

  // Programs class route `cls`; throws HardwareError if the adapter refused it
  // (unprivileged write to a system class, or not a tree route).
  void configure_class_route(unsigned cls, const ClassRoute& route, bool privileged = false);
  ClassRoute read_class_route(unsigned cls);

  // The route of the whole-machine tree for this node (all nodes contribute and receive).
  ClassRoute machine_tree_route() const;
  // This node's route for a class spanning `members` (sorted, distinct world ranks): the
  // part of the machine tree below the members' common ancestor that leads to a member.
  // Members contribute and receive; other nodes on the route are covered by the identity
  // unit; nodes off the route get an empty route (nothing of the class reaches them).
  ClassRoute subset_route(const std::vector<unsigned>& members) const;
  // The route of a node nothing of the class reaches (what subset_route gives a node off
  // the route, and what a freed class is set back to).
  static ClassRoute empty_route();

  TreeStatus status();

  // Raw FIFO access; callers check status() for room and data first.
  void push_header(const Header& h) { bus_.write(fifo_reg(regmap::kRegInjHdr), h.encode(), privileged()); }
  void push_word(uint64_t w) { bus_.write(fifo_reg(regmap::kRegInjData), w, privileged()); }
  // `n` payload words, w[0] first: one vector access per whole group of
  // regmap::kVectorWords words, one single-word access per word of the remainder.
  void push_words(const uint64_t* w, size_t n);
  // Asks the identity-injection unit for `packets` (1..65535) packets with header `h` whose
  // payload is the identity of h's opcode; takes one header slot, no payload words.
  void push_identity(const Header& h, unsigned packets);
  Header pop_header() {
    return Header::decode(static_cast<uint32_t>(bus_.read(fifo_reg(regmap::kRegRcvHdr), privileged())));
  }
  uint64_t pop_word() { return bus_.read(fifo_reg(regmap::kRegRcvData), privileged()); }
  // The next `n` received payload words into w[0..n): accesses as for push_words.
  void pop_words(uint64_t* w, size_t n);

  // Reads the sticky error state and throws HardwareError describing it if any bit is set.
  void check_errors();
  void clear_errors(uint64_t mask) { bus_.write(regmap::kRegErrClear, mask); }

  const Personality& personality() const { return me_; }
  Vc vc() const { return vc_; }

 private:
  // A FIFO register of this firmware's VC.
  uint32_t fifo_reg(uint32_t user_addr) const {
    return vc_ == Vc::System ? user_addr + regmap::kRegSysVcOffset : user_addr;
  }
  bool privileged() const { return vc_ == Vc::System; }

  RegisterBus& bus_;
  Personality me_;
  Vc vc_;
};

// Names of the set bits of RegErr, comma separated.
std::string describe_error_bits(uint64_t bits);

}  // namespace collnet::fw
