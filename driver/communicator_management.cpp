// SPDX-License-Identifier: Apache-2.0
// split, create, dup and free (communicator.hpp; docs/communicators.md).
#include <algorithm>
#include <map>
#include <string>

#include "driver/communicator.hpp"
#include "driver/error.hpp"
#include "driver/node_tasks.hpp"

namespace collnet::driver {

namespace {

constexpr uint64_t kNoColour = 0xffffffffu;

bool intersect(const std::vector<unsigned>& a, const std::vector<unsigned>& b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (a[i] == b[j]) return true;
    if (a[i] < b[j]) ++i; else ++j;
  }
  return false;
}

}  // namespace

void Communicator::check_live(const char* call) const {
  if (state_.freed) throw Error(std::string(call) + ": the communicator has been freed");
}

std::optional<unsigned> Communicator::rank_in(const Communicator& other, unsigned r) const {
  const std::vector<unsigned>& m = other.group_.members;
  if (other.group_.spans_world()) {
    const unsigned w = world_rank(r);
    return w < other.size() ? std::optional<unsigned>(w) : std::nullopt;
  }
  const auto it = std::find(m.begin(), m.end(), group_.task_id(r));
  if (it == m.end()) return std::nullopt;
  return static_cast<unsigned>(it - m.begin());
}

unsigned Communicator::common_context(const char* call) {
  ContextIds::Mask common{};
  allreduce(node_.contexts(task_.task).free().data(), common.data(), ContextIds::kWords, Datatype::U64, Op::Band);
  const std::optional<unsigned> context = ContextIds::lowest(common);
  if (!context)
    throw Error(std::string(call) + ": no context id is free on every rank (a rank belongs to at most " +
                std::to_string(p2p::kNumContexts) + " communicators at once, the world included)");
  return *context;
}

std::optional<Communicator> Communicator::create(std::vector<unsigned> ranks) {
  check_live("create");
  if (ranks.empty()) throw Error("create: the rank list is empty");
  std::sort(ranks.begin(), ranks.end());
  for (size_t i = 0; i < ranks.size(); ++i) {
    if (ranks[i] >= size())
      throw Error("create: rank " + std::to_string(ranks[i]) + " is not in a communicator of size " +
                  std::to_string(size()));
    if (i > 0 && ranks[i] == ranks[i - 1]) throw Error("create: rank " + std::to_string(ranks[i]) + " is listed twice");
  }
  const bool member = std::binary_search(ranks.begin(), ranks.end(), rank());
  return split(member ? 0 : kUndefined, static_cast<int>(rank()));
}

std::optional<Communicator> Communicator::split(int color, int key) {
  check_live("split");
  if (color < 0 && color != kUndefined)
    throw Error("split: colour " + std::to_string(color) + " is negative (a colour is 0 or more, or kUndefined)");

  // 1. What every rank asks for, and which user classes are free on its node.
  ClassRouteTable& table = node_.class_routes(task_);
  const uint64_t mine[3] = {color == kUndefined ? kNoColour : static_cast<uint64_t>(color),
                            static_cast<uint64_t>(static_cast<uint32_t>(key)), table.free_mask()};
  std::vector<uint64_t> all(3 * size_t{size()});
  allgather(mine, all.data(), 3, Datatype::U64);

  // 2. A context id free on every rank; the new groups are disjoint and share it.
  ContextIds& ids = node_.contexts(task_.task);
  const unsigned context = common_context("split");

  // 3. The groups, by colour; ranks in key order, ties in rank order.
  std::map<uint64_t, std::vector<unsigned>> groups;
  std::map<unsigned, uint32_t> node_free;  // the nodes of this communicator: classes free there
  std::map<unsigned, unsigned> acting;     // node -> its lowest rank here, which programs it
  for (unsigned p = 0; p < size(); ++p) {
    if (all[3 * p] != kNoColour) groups[all[3 * p]].push_back(p);
    const unsigned n = node_of(p);
    const auto f = node_free.find(n);
    node_free[n] = f == node_free.end() ? static_cast<uint32_t>(all[3 * p + 2]) : f->second & all[3 * p + 2];
    acting.emplace(n, p);
  }

  // 4. A class route per group, the same choice on every rank: the lowest class free on
  // every node of its route. The groups are disjoint, so do not nest: a group whose route
  // meets an earlier group's that has a class runs on the torus (class_routes.hpp), and so
  // does one whose route passes a node where no rank of this communicator runs (nobody
  // there to program it now).
  struct Plan {
    std::vector<unsigned> members;  // world ranks, in the new rank order
    std::shared_ptr<const std::vector<unsigned>> sorted;  // the same, sorted
    RouteLease lease;
  };
  std::vector<Plan> plans;
  std::optional<size_t> mine_at;  // this rank's group
  for (auto& [colour, ranks] : groups) {
    std::stable_sort(ranks.begin(), ranks.end(), [&](unsigned a, unsigned b) {
      return static_cast<int32_t>(all[3 * a + 1]) < static_cast<int32_t>(all[3 * b + 1]);
    });
    Plan plan;
    for (unsigned p : ranks) {
      plan.members.push_back(group_.task_id(p));
      plan.lease.member_nodes.push_back(node_of(p));
    }
    std::vector<unsigned>& mn = plan.lease.member_nodes;
    std::sort(mn.begin(), mn.end());
    mn.erase(std::unique(mn.begin(), mn.end()), mn.end());
    plan.lease.nodes = route_nodes(mn);
    uint32_t avail = 0;
    for (unsigned c = kFirstUserClass; c < kEndUserClass; ++c) avail |= 1u << c;
    for (unsigned n : plan.lease.nodes) {
      const auto f = node_free.find(n);
      avail &= f == node_free.end() ? 0 : f->second;
    }
    for (const Plan& q : plans)
      if (q.lease.cls != kNoClass && intersect(q.lease.nodes, plan.lease.nodes)) avail = 0;
    if (avail) plan.lease.cls = static_cast<unsigned>(__builtin_ctz(avail));
    std::vector<unsigned> sorted = plan.members;
    std::sort(sorted.begin(), sorted.end());
    plan.sorted = std::make_shared<const std::vector<unsigned>>(std::move(sorted));
    if (colour == mine[0]) mine_at = plans.size();
    plans.push_back(std::move(plan));
  }

  // 5. The rank acting for each node takes the classes of the routes through it and
  // programs them. A group whose class a node refuses (a communicator there that does not
  // nest with it, or another split that took the class since step 1) runs on the torus:
  // its bit is cleared in an AND over this communicator, which is also the barrier that
  // keeps packets of a class away from a node until its route is programmed.
  std::vector<uint64_t> ok((plans.size() + 63) / 64, ~uint64_t{0});
  std::vector<size_t> taken;  // groups whose class this rank took on its node
  if (acting.at(task_.node) == rank()) {
    for (size_t g = 0; g < plans.size(); ++g) {
      const RouteLease& l = plans[g].lease;
      if (l.cls == kNoClass || !std::binary_search(l.nodes.begin(), l.nodes.end(), task_.node)) continue;
      if (!table.claim(l.cls, plans[g].sorted)) {
        ok[g / 64] &= ~(uint64_t{1} << (g % 64));
        continue;
      }
      taken.push_back(g);
      task_.tree.configure_class_route(l.cls, task_.tree.subset_route(l.member_nodes));
    }
  }
  std::vector<uint64_t> all_ok(ok.size());
  allreduce(ok.data(), all_ok.data(), ok.size(), Datatype::U64, Op::Band);
  for (size_t g = 0; g < plans.size(); ++g) {
    if ((all_ok[g / 64] >> (g % 64)) & 1) continue;
    const unsigned c = plans[g].lease.cls;
    if (std::find(taken.begin(), taken.end(), g) != taken.end()) {
      table.release(c);
      task_.tree.configure_class_route(c, fw::TreeFirmware::empty_route());
    }
    plans[g].lease.cls = kNoClass;
  }

  if (!mine_at) return std::nullopt;
  ids.take(context);
  Plan& my = plans[*mine_at];
  std::shared_ptr<RouteLease> lease;
  const unsigned cls = my.lease.cls;
  if (cls != kNoClass) lease = std::make_shared<RouteLease>(std::move(my.lease));
  Membership group;
  group.size = static_cast<unsigned>(my.members.size());
  group.cls = cls;
  group.context = context;
  group.tasks_per_node = task_.tasks;
  group.members = std::move(my.members);
  group.down = group_.down;
  return Communicator(task_, node_, std::move(group), std::move(lease));
}

Communicator Communicator::of_members(const std::vector<unsigned>& members) {
  check_live("of_members");
  if (!group_.is_world()) throw Error("of_members: called on a communicator that is not the world");
  std::vector<unsigned> sorted = members;
  std::sort(sorted.begin(), sorted.end());
  for (size_t i = 0; i < sorted.size(); ++i) {
    if (sorted[i] >= size())
      throw Error("of_members: world rank " + std::to_string(sorted[i]) + " does not exist (size " +
                  std::to_string(size()) + ")");
    if (i > 0 && sorted[i] == sorted[i - 1])
      throw Error("of_members: world rank " + std::to_string(sorted[i]) + " is listed twice");
  }
  if (!std::binary_search(sorted.begin(), sorted.end(), rank()))
    throw Error("of_members: world rank " + std::to_string(rank()) + " calls it and is not in the list");
  std::vector<unsigned> tasks(members.size());
  for (size_t i = 0; i < members.size(); ++i) tasks[i] = group_.task_id(members[i]);
  // A context id free on every member: their free masks ANDed at the first, which answers.
  ContextIds& ids = node_.contexts(task_.task);
  ContextIds::Mask common = ids.free();
  const unsigned first = members.front();
  if (rank() == first) {
    for (unsigned m : members) {
      if (m == first) continue;
      ContextIds::Mask theirs{};
      recv_bytes(theirs.data(), ContextIds::kWords, sizeof(uint64_t), m, p2p::kReservedTag);
      for (size_t w = 0; w < ContextIds::kWords; ++w) common[w] &= theirs[w];
    }
    for (unsigned m : members)
      if (m != first) send_bytes(common.data(), ContextIds::kWords, sizeof(uint64_t), m, p2p::kReservedTag);
  } else {
    send_bytes(common.data(), ContextIds::kWords, sizeof(uint64_t), first, p2p::kReservedTag);
    recv_bytes(common.data(), ContextIds::kWords, sizeof(uint64_t), first, p2p::kReservedTag);
  }
  const std::optional<unsigned> context = ContextIds::lowest(common);
  if (!context)
    throw Error("of_members: no context id is free on every member (a rank belongs to at most " +
                std::to_string(p2p::kNumContexts) + " communicators at once, the world included)");
  ids.take(*context);
  Membership group;
  group.size = static_cast<unsigned>(members.size());
  group.cls = kNoClass;
  group.context = *context;
  group.tasks_per_node = task_.tasks;
  group.members = std::move(tasks);
  group.down = group_.down;
  return Communicator(task_, node_, std::move(group), nullptr);
}

Communicator Communicator::dup() {
  check_live("dup");
  const unsigned context = common_context("dup");
  node_.contexts(task_.task).take(context);
  Communicator c(*this);
  c.group_.context = context;
  c.state_ = state_.duplicate();
  if (c.lease_) ++c.lease_->holders;
  return c;
}

void Communicator::free() {
  if (group_.is_world()) throw Error("free: the world communicator cannot be freed");
  check_live("free");
  barrier();  // every rank is done with it
  node_.contexts(task_.task).give(context());
  if (lease_ && --lease_->holders == 0) {
    // The class goes back on every node of the route: the members' nodes here, the
    // others (covered by the identity-injection unit, no member to call free there) by a
    // release packet, which they apply the next time they look for a free class.
    if (group_.is_leader()) {
      node_.class_routes(task_).release(class_route());
      task_.tree.configure_class_route(class_route(), fw::TreeFirmware::empty_route());
    }
    if (rank() == 0) {
      P2pEngine& e = engine();
      for (unsigned n : lease_->nodes)
        if (!std::binary_search(lease_->member_nodes.begin(), lease_->member_nodes.end(), n))
          e.release_route(n, class_route());
      while (e.control_pending())
        if (!progress()) task_.cpu.memory_access();
    }
  }
  lease_.reset();
  state_.freed = true;
}

}  // namespace collnet::driver
