// SPDX-License-Identifier: Apache-2.0
// Class routes as resources. The combining network has up to fw::regmap::kUserClassesMax
// user class routes (classes 1..11; class 0 is the world's, 12..15 the system's), as many
// as the adapter was built with (RegSizes.UserClasses, the size tree.class_routes), and each
// node holds one entry per class: a class can serve two communicators at once only if
// their routes share no node. A communicator (communicator.hpp) is given a class when one
// is free on every node its route passes, and gives it back when it is freed; when none
// is, it runs its collectives on the torus instead.
//
// Two communicators whose routes meet at a node must also nest (the members of one
// contain the other's, as the world contains every subset): the node's combining unit
// takes packets in order from each link, and two collectives that run at the same time
// on communicators that do not nest can reach a node in opposite orders on two links,
// each waiting for a packet behind the other's (rtl/collective/cn_combine.sv). Nested
// ones cannot: a correct program calls them in the same order on the ranks they share.
//
// ClassRouteTable is a node's record of which of its entries are in use (node memory,
// shared by the node's tasks). RouteLease is what a communicator and its duplicates hold
// of their class: the route's nodes and how many live communicators share it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "firmware/regmap.hpp"

namespace collnet::driver {

inline constexpr unsigned kFirstUserClass = 1;
inline constexpr unsigned kEndUserClass = fw::regmap::kFirstPrivClass;  // one past the last
inline constexpr unsigned kNoClass = ~0u;

class ClassRouteTable {
 public:
  // The user classes the node's adapter has (1..user_classes); until set, none.
  bool sized() const { return end_.has_value(); }
  void set_user_classes(unsigned user_classes);
  // Bit c set: user class c is free on this node.
  uint32_t free_mask() const;
  // Takes class `cls` on this node for a communicator of `members` (sorted world ranks);
  // false, taking nothing, if it is in use or a class in use here serves members that do
  // not nest with these.
  bool claim(unsigned cls, std::shared_ptr<const std::vector<unsigned>> members);
  // Gives it back; collnet::Error if it was not taken.
  void release(unsigned cls);

 private:
  std::optional<unsigned> end_;  // one past the last user class the adapter has, once known
  // Per class: the members of the communicators on it, or null when it is free.
  std::vector<std::shared_ptr<const std::vector<unsigned>>> used_ =
      std::vector<std::shared_ptr<const std::vector<unsigned>>>(kEndUserClass);
};

// The nodes a class route spanning `member_nodes` (sorted, distinct) passes through on the
// machine's tree of `nodes` nodes: every member's path up to their common ancestor, sorted.
std::vector<unsigned> route_nodes(const std::vector<unsigned>& member_nodes);

struct RouteLease {
  unsigned cls = kNoClass;
  std::vector<unsigned> nodes;         // on the route, sorted
  std::vector<unsigned> member_nodes;  // of those, the ones with a member (sorted)
  unsigned holders = 1;                // live communicators on it (dup adds one)
};

}  // namespace collnet::driver
