#include "collectives.hpp"

#include <algorithm>

namespace collnet::cli {

namespace {

// Every member holds `r`.
Expected everyone(size_t n, const std::vector<uint64_t>& r) { return Expected(n, r); }
// Only the root holds `r`.
Expected root_only(size_t n, unsigned root, const std::vector<uint64_t>& r) {
  Expected out(n);
  out.at(root) = r;
  return out;
}
// Every member's input after another's, masked: what a gather collects.
std::vector<uint64_t> concatenated(const ReferenceInputs& in) {
  std::vector<uint64_t> r;
  for (size_t k = 0; k < in.members; ++k)
    for (uint64_t x : in.input(k)) r.push_back(x);
  return r;
}
// Member k holds the op over members [0, k + inclusive).
Expected prefixes(const ReferenceInputs& in, bool inclusive) {
  Expected out(in.members);
  for (size_t k = inclusive ? 0 : 1; k < in.members; ++k) out[k] = in.reduce_over(inclusive ? k + 1 : k);
  return out;
}

}  // namespace

const std::vector<Collective>& collectives() {
  using driver::Communicator;
  static const std::vector<Collective> table = {
      {"barrier", false, false, false, false, false, [](Communicator& c, const Call&) { c.barrier(); }, nullptr},
      {"bcast", false, true, false, false, true,
       [](Communicator& c, const Call& k) {
         std::copy(k.send, k.send + k.count, k.recv);  // in place: every rank's buffer starts as its input
         c.bcast(k.recv, k.count, k.type, k.root);
       },
       [](const ReferenceInputs& in) { return everyone(in.members, in.input(in.root)); }},
      {"reduce", true, true, false, false, true,
       [](Communicator& c, const Call& k) { c.reduce(k.send, k.recv, k.count, k.type, k.op, k.root); },
       [](const ReferenceInputs& in) { return root_only(in.members, in.root, in.reduce_over(in.members)); }},
      {"allreduce", true, false, false, false, true,
       [](Communicator& c, const Call& k) { c.allreduce(k.send, k.recv, k.count, k.type, k.op); },
       [](const ReferenceInputs& in) { return everyone(in.members, in.reduce_over(in.members)); }},
      {"gather", false, true, true, true, true,
       [](Communicator& c, const Call& k) { c.gather(k.send, k.recv, k.count, k.type, k.root); },
       [](const ReferenceInputs& in) { return root_only(in.members, in.root, concatenated(in)); }},
      {"allgather", false, false, true, true, true,
       [](Communicator& c, const Call& k) { c.allgather(k.send, k.recv, k.count, k.type); },
       [](const ReferenceInputs& in) { return everyone(in.members, concatenated(in)); }},
      {"scan", true, false, false, true, true,
       [](Communicator& c, const Call& k) { c.scan(k.send, k.recv, k.count, k.type, k.op); },
       [](const ReferenceInputs& in) { return prefixes(in, true); }},
      {"exscan", true, false, false, true, true,
       [](Communicator& c, const Call& k) { c.exscan(k.send, k.recv, k.count, k.type, k.op); },
       [](const ReferenceInputs& in) { return prefixes(in, false); }},
  };
  return table;
}

const Collective* find_collective(const std::string& name) {
  for (const Collective& c : collectives())
    if (name == c.name) return &c;
  return nullptr;
}

std::string collective_names() {
  std::string s;
  for (const Collective& c : collectives()) s += (s.empty() ? "" : " | ") + std::string(c.name);
  return s;
}

}  // namespace collnet::cli
