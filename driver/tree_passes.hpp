// SPDX-License-Identifier: Apache-2.0
// Passes over a communicator's class route: a message streamed through the combining
// network from every node, after the tasks of each node have met and combined theirs
// (the node's leader drives the adapter), and the barriers that meet the same way.
#pragma once

#include <cstdint>
#include <vector>

#include "driver/collective_context.hpp"
#include "driver/encoding.hpp"
#include "driver/reduction.hpp"

namespace collnet::driver::tree {

// Streams one message over the class route from this task, no node-local combining.
std::vector<uint64_t> stream(CollectiveContext& c, const Encoding& e, const std::vector<uint64_t>& message,
                             WordRange owned, uint64_t descriptor);
// One pass: this rank's message (owning words `owned`, the identity elsewhere) combined
// with every other rank's; returns the combined message on every rank.
std::vector<uint64_t> pass(CollectiveContext& c, const Encoding& e, std::vector<uint64_t> message, WordRange owned,
                           uint64_t descriptor);

// Both passes of a reduction over the tree.
class OverTree final : public Combining {
 public:
  explicit OverTree(uint64_t descriptor) : descriptor_(descriptor) {}
  std::vector<uint64_t> exponents(CollectiveContext& c, const Encoding& e, std::vector<uint64_t> msg,
                                  WordRange owned) const override {
    return pass(c, e, std::move(msg), owned, descriptor_);
  }
  std::vector<uint64_t> values(CollectiveContext& c, const Encoding& e, std::vector<uint64_t> msg,
                               WordRange owned) const override {
    return pass(c, e, std::move(msg), owned, descriptor_);
  }

 private:
  uint64_t descriptor_;
};

// The barrier: the node's tasks meet, then the leader joins the barrier network (the
// world) or a one-word OR over the class route (any other communicator).
void barrier_pass(CollectiveContext& c);

}  // namespace collnet::driver::tree
