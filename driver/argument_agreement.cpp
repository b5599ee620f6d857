// SPDX-License-Identifier: Apache-2.0
#include "driver/argument_agreement.hpp"

#include <string>

#include "driver/error.hpp"
#include "driver/reduction.hpp"

namespace collnet::driver {

void check_live(const CollectiveContext& c) {
  if (c.state.freed) throw Error(std::string(c.call.name) + ": the communicator has been freed");
}

void agree(CollectiveContext& c, size_t count, Datatype type, Op op, unsigned root) {
  check_live(c);
  c.state.last = {};  // every data collective starts here
  c.agreed = (uint64_t{count} << 24) ^ (static_cast<uint64_t>(type) << 16) ^ (static_cast<uint64_t>(op) << 8) ^
             (uint64_t{root} * 0x9e3779b97f4a7c15ull);
  if (!c.state.check_arguments) return;
  // MAX of each argument and of its complement: the largest and the smallest value.
  const uint64_t args[4] = {count, static_cast<uint64_t>(type), static_cast<uint64_t>(op), root};
  const char* names[4] = {"count", "type", "op", "root"};
  std::vector<uint64_t> msg(8);
  for (unsigned k = 0; k < 4; ++k) {
    msg[2 * k] = args[k];
    msg[2 * k + 1] = ~args[k];
  }
  const std::vector<uint64_t> r =
      DefaultCombining(kAgree).values(c, Encoding{fw::AluOp::Max, 64}, msg, {0, msg.size()});
  for (unsigned k = 0; k < 4; ++k) {
    const uint64_t hi = r[2 * k], lo = ~r[2 * k + 1];
    if (hi == lo) continue;
    std::string range = std::to_string(lo) + " to " + std::to_string(hi);
    if (k == 1)
      range = std::string(to_string(static_cast<Datatype>(lo))) + " to " + to_string(static_cast<Datatype>(hi));
    if (k == 2) range = std::string(to_string(static_cast<Op>(lo))) + " to " + to_string(static_cast<Op>(hi));
    throw Error(std::string(c.call.name) + ": the ranks passed different " + names[k] + " (from " + range + ")");
  }
}

void agree_counts(CollectiveContext& c, const char* name, const std::vector<size_t>& v) {
  if (!c.state.check_arguments) return;
  // MAX of each entry and of its complement: the largest and the smallest value passed.
  const unsigned n = c.size();
  std::vector<uint64_t> msg(2 * n);
  for (unsigned j = 0; j < n; ++j) {
    msg[2 * j] = v[j];
    msg[2 * j + 1] = ~uint64_t{v[j]};
  }
  const std::vector<uint64_t> r = DefaultCombining(describe(kAgreeCounts, n, Datatype::U64, Op::Max, 0))
                                      .values(c, Encoding{fw::AluOp::Max, 64}, msg, {0, msg.size()});
  for (unsigned j = 0; j < n; ++j)
    if (r[2 * j] != ~r[2 * j + 1])
      throw Error(std::string(c.call.name) + ": the ranks passed different " + name + "[" + std::to_string(j) +
                  "] (from " + std::to_string(~r[2 * j + 1]) + " to " + std::to_string(r[2 * j]) + ")");
}

}  // namespace collnet::driver
