#include "collectives.hpp"

#include <algorithm>
#include <cstring>

namespace collnet::cli {

namespace {

// Runs `f(send, recv)` on native copies of the call's buffers (the receive buffer starting
// as the raw one, laid out natively too), then reads the receive buffer back.
template <class F>
void on_native(const Call& k, bool pairs, F&& f) {
  const size_t b = driver::native_bytes(k.type, pairs);
  std::vector<unsigned char> send(k.count * b), recv(k.recv_count * b);
  driver::raw_to_native(k.type, pairs, k.send, k.count, send.data());
  driver::raw_to_native(k.type, pairs, k.recv, k.recv_count, recv.data());
  f(send.data(), recv.data());
  const std::vector<uint64_t> back = driver::native_to_raw(k.type, pairs, recv.data(), k.recv_count);
  std::copy(back.begin(), back.end(), k.recv);
}

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
         on_native(k, false, [&](const void* send, void* recv) {
           std::memcpy(recv, send, k.count * driver::bytes(k.type));  // in place: the buffer starts as the input
           c.bcast(recv, k.count, k.type, k.root);
         });
       },
       [](const ReferenceInputs& in) { return everyone(in.members, in.input(in.root)); }},
      {"reduce", true, true, false, false, true,
       [](Communicator& c, const Call& k) { on_native(k, driver::is_loc(k.op), [&](const void* s, void* r) { c.reduce(s, r, k.count, k.type, k.op, k.root); }); },
       [](const ReferenceInputs& in) { return root_only(in.members, in.root, in.reduce_over(in.members)); }},
      {"allreduce", true, false, false, false, true,
       [](Communicator& c, const Call& k) { on_native(k, driver::is_loc(k.op), [&](const void* s, void* r) { c.allreduce(s, r, k.count, k.type, k.op); }); },
       [](const ReferenceInputs& in) { return everyone(in.members, in.reduce_over(in.members)); }},
      {"gather", false, true, true, true, true,
       [](Communicator& c, const Call& k) { on_native(k, false, [&](const void* s, void* r) { c.gather(s, r, k.count, k.type, k.root); }); },
       [](const ReferenceInputs& in) { return root_only(in.members, in.root, concatenated(in)); }},
      {"allgather", false, false, true, true, true,
       [](Communicator& c, const Call& k) { on_native(k, false, [&](const void* s, void* r) { c.allgather(s, r, k.count, k.type); }); },
       [](const ReferenceInputs& in) { return everyone(in.members, concatenated(in)); }},
      {"scan", true, false, false, true, true,
       [](Communicator& c, const Call& k) { on_native(k, driver::is_loc(k.op), [&](const void* s, void* r) { c.scan(s, r, k.count, k.type, k.op); }); },
       [](const ReferenceInputs& in) { return prefixes(in, true); }},
      {"exscan", true, false, false, true, true,
       [](Communicator& c, const Call& k) { on_native(k, driver::is_loc(k.op), [&](const void* s, void* r) { c.exscan(s, r, k.count, k.type, k.op); }); },
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
