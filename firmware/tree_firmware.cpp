// SPDX-License-Identifier: Apache-2.0
#include "firmware/tree_firmware.hpp"

#include <algorithm>
#include <sstream>

#include "firmware/link_counters.hpp"
#include "firmware/tree_layout.hpp"

namespace collnet::fw {

using namespace regmap;

TreeStatus TreeStatus::decode(uint64_t w) {
  TreeStatus s;
  s.inj_hdr_free = get_field(w, kStatusInjHdrFreeLsb, kStatusInjHdrFreeW);
  s.inj_data_free = get_field(w, kStatusInjDataFreeLsb, kStatusInjDataFreeW);
  s.rcv_hdrs = get_field(w, kStatusRcvHdrLsb, kStatusRcvHdrW);
  s.rcv_data = get_field(w, kStatusRcvDataLsb, kStatusRcvDataW);
  s.error = get_field(w, kStatusErrBit, 1);
  return s;
}

std::string describe_error_bits(uint64_t bits) {
  static const char* const names[kErrBits] = {
      "injection overflow", "reception underflow", "header mismatch", "bad opcode",        "unexpected link",
      "privilege violation", "unmapped address",   "bad class route", "link protocol error",
      "bad operand size",    "link down"};
  static_assert(sizeof(names) / sizeof(names[0]) == kErrBits, "a name per RegErr bit");
  std::string out;
  for (unsigned b = 0; b < kErrBits; ++b) {
    if (bits & (1ull << b)) {
      if (!out.empty()) out += ", ";
      out += names[b];
    }
  }
  return out.empty() ? "none" : out;
}

const char* vc_name(Vc vc) { return vc == Vc::System ? "system VC" : "user VC"; }

void TreeFirmware::probe() {
  const uint64_t id = bus_.read(kRegId);
  if (id != kRegIdValue) {
    std::ostringstream s;
    s << "node " << me_.rank << ": tree adapter identification 0x" << std::hex << id << ", expected 0x" << kRegIdValue;
    throw HardwareError(me_.rank, 0, s.str());
  }
}

unsigned TreeFirmware::user_classes() {
  return static_cast<unsigned>(get_field(bus_.read(kRegSizes), kSizesUserClassesLsb, kSizesUserClassesW));
}

void TreeFirmware::configure_class_route(unsigned cls, const ClassRoute& route, bool privileged) {
  if (cls >= kNumClasses) throw std::invalid_argument("class " + std::to_string(cls) + " out of range 0..15");
  bus_.write(reg_route_base(cls), route.encode(), privileged);
  const uint64_t err = bus_.read(kRegErr);
  const uint64_t refused = err & ((1ull << kErrPriv) | (1ull << kErrBadRouteCfg));
  if (refused) {
    clear_errors(refused);
    throw HardwareError(me_.rank, refused,
                        "node " + std::to_string(me_.rank) + ": class route " + std::to_string(cls) + " " +
                            route.describe() + " refused: " + describe_error_bits(refused));
  }
}

ClassRoute TreeFirmware::read_class_route(unsigned cls) { return ClassRoute::decode(bus_.read(reg_route_base(cls))); }

ClassRoute TreeFirmware::machine_tree_route() const {
  ClassRoute r;
  r.up_link = me_.tree_up_link < 0 ? ClassRoute::kNoUpLink : static_cast<unsigned>(me_.tree_up_link);
  r.down_mask = me_.tree_down_links;
  r.local_source = true;
  r.local_destination = true;
  return r;
}

void TreeFirmware::push_identity(const Header& h, unsigned packets) {
  if (packets < 1 || packets > field_mask(kInjIdentityCountW))
    throw std::invalid_argument("identity injection of " + std::to_string(packets) + " packets: must be 1.." + std::to_string(field_mask(kInjIdentityCountW)));
  bus_.write(fifo_reg(kRegInjIdentity), (uint64_t{packets} << kInjIdentityCountLsb) | h.encode(), privileged());
}

ClassRoute TreeFirmware::empty_route() {
  ClassRoute r;  // up link 0, no down links, neither source nor destination
  r.up_link = 0;
  return r;
}

ClassRoute TreeFirmware::subset_route(const std::vector<unsigned>& members) const {
  const TreeLayout tree(me_.nodes);
  const unsigned top = TreeLayout::common_ancestor(members);
  auto leads_to_member = [&](unsigned node) {
    for (unsigned m : members)
      if (TreeLayout::in_subtree(m, node)) return true;
    return false;
  };
  ClassRoute r = empty_route();
  if (!TreeLayout::in_subtree(me_.rank, top) || !leads_to_member(me_.rank)) return r;
  r.up_link = me_.rank == top ? ClassRoute::kNoUpLink : TreeLayout::kUpLink;
  for (unsigned link = 1; link <= 2; ++link)
    if (tree.has_child(me_.rank, link) && leads_to_member(TreeLayout::child(me_.rank, link))) r.down_mask |= 1u << link;
  const bool member = std::binary_search(members.begin(), members.end(), me_.rank);
  r.local_source = member;
  r.local_destination = member;
  return r;
}

TreeStatus TreeFirmware::status() { return TreeStatus::decode(bus_.read(fifo_reg(kRegStatus), privileged())); }

static_assert(std::tuple_size<RegisterBus::Vector>::value == kVectorWords, "a vector access moves a vector register");

void TreeFirmware::push_words(const uint64_t* w, size_t n) {
  size_t i = 0;
  for (; i + kVectorWords <= n; i += kVectorWords) {
    RegisterBus::Vector v;
    std::copy(w + i, w + i + kVectorWords, v.begin());
    bus_.write_vector(fifo_reg(kRegInjVector), v, privileged());
  }
  for (; i < n; ++i) push_word(w[i]);
}

void TreeFirmware::pop_words(uint64_t* w, size_t n) {
  size_t i = 0;
  for (; i + kVectorWords <= n; i += kVectorWords) {
    const RegisterBus::Vector v = bus_.read_vector(fifo_reg(kRegRcvVector), privileged());
    std::copy(v.begin(), v.end(), w + i);
  }
  for (; i < n; ++i) w[i] = pop_word();
}

void TreeFirmware::check_errors() {
  const uint64_t bits = bus_.read(kRegErr);
  if (bits == 0) return;
  std::ostringstream s;
  s << "node " << me_.rank << ": tree adapter error: " << describe_error_bits(bits);
  const uint64_t header_errors =
      (1ull << kErrHdrMismatch) | (1ull << kErrBadRoute) | (1ull << kErrBadOpcode) | (1ull << kErrBadSize);
  if (bits & header_errors) {
    const uint64_t info = bus_.read(kRegErrInfo);
    const uint64_t source_reg = bus_.read(kRegErrSource);
    const unsigned source = source_reg & 3;
    const Vc vc = (source_reg >> kErrSourceVcBit) & 1 ? Vc::System : Vc::User;
    s << " (from " << (source == 0 ? std::string("local injection") : "link " + std::to_string(source - 1))
      << " on the " << vc_name(vc)
      << ": expected " << Header::decode(static_cast<uint32_t>(info)).describe() << ", got "
      << Header::decode(static_cast<uint32_t>(info >> 32)).describe() << ")";
  }
  if (bits & (1ull << kErrLinkDown)) {
    const unsigned down = links_down(bus_, false);
    for (unsigned l = 0; l < kNumLinks; ++l)
      if (down >> l & 1)
        s << "; tree link " << l << " (" << (static_cast<int>(l) == me_.tree_up_link ? "to the parent" : "to a child")
          << ") is down: no acknowledgement after " << kLkRetryLimit << " retransmission timeouts";
  }
  throw HardwareError(me_.rank, bits, s.str());
}

}  // namespace collnet::fw
