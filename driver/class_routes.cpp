// SPDX-License-Identifier: Apache-2.0
#include "driver/class_routes.hpp"

#include <algorithm>
#include <string>

#include "driver/error.hpp"
#include "firmware/tree_layout.hpp"

namespace collnet::driver {

void ClassRouteTable::set_user_classes(unsigned user_classes) {
  if (user_classes > fw::regmap::kUserClassesMax)
    throw Error("the tree adapter reports " + std::to_string(user_classes) + " user class routes, more than the " +
                std::to_string(fw::regmap::kUserClassesMax) + " classes between the world's and the system's");
  end_ = kFirstUserClass + user_classes;
}

uint32_t ClassRouteTable::free_mask() const {
  uint32_t m = 0;
  for (unsigned c = kFirstUserClass; c < end_.value_or(kFirstUserClass); ++c)
    if (!used_[c]) m |= 1u << c;
  return m;
}

namespace {

bool nest(const std::vector<unsigned>& a, const std::vector<unsigned>& b) {
  return a.size() <= b.size() ? std::includes(b.begin(), b.end(), a.begin(), a.end())
                              : std::includes(a.begin(), a.end(), b.begin(), b.end());
}

}  // namespace

bool ClassRouteTable::claim(unsigned cls, std::shared_ptr<const std::vector<unsigned>> members) {
  if (cls < kFirstUserClass || cls >= end_.value_or(kFirstUserClass) || used_[cls]) return false;
  for (const auto& other : used_)
    if (other && !nest(*other, *members)) return false;
  used_[cls] = std::move(members);
  return true;
}

void ClassRouteTable::release(unsigned cls) {
  if (cls < kFirstUserClass || cls >= kEndUserClass || !used_[cls])
    throw Error("class route " + std::to_string(cls) + " released on a node where it is not in use");
  used_[cls].reset();
}

std::vector<unsigned> route_nodes(const std::vector<unsigned>& member_nodes) {
  if (member_nodes.empty()) return {};
  const unsigned top = fw::TreeLayout::common_ancestor(member_nodes);
  std::vector<unsigned> out;
  for (unsigned n : member_nodes) {
    for (unsigned x = n; x != top; x = fw::TreeLayout::parent(x)) out.push_back(x);
  }
  out.push_back(top);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace collnet::driver
