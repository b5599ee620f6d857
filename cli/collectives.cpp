// SPDX-License-Identifier: Apache-2.0
#include "cli/collectives.hpp"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <numeric>
#include <stdexcept>

#include <nlohmann/json.hpp>

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

// on_native with explicit lengths: `send_count` elements in, `k.recv_count` out.
template <class F>
void on_native_n(const Call& k, bool pairs, size_t send_count, F&& f) {
  Call c = k;
  c.count = send_count;
  on_native(c, pairs, std::forward<F>(f));
}

// Packed displacements of blocks of `counts` elements.
std::vector<size_t> packed(const std::vector<size_t>& counts) {
  std::vector<size_t> d(counts.size(), 0);
  for (size_t j = 1; j < counts.size(); ++j) d[j] = d[j - 1] + counts[j - 1];
  return d;
}
size_t total(const std::vector<size_t>& v) { return std::accumulate(v.begin(), v.end(), size_t{0}); }
// Column j of the pair counts: what every member sends member j.
std::vector<size_t> column(const Counts& c, size_t j) {
  std::vector<size_t> v;
  for (const auto& row : c.pair) v.push_back(row.at(j));
  return v;
}
// Elements [from, from + n) of member k's input (pairs: two words each).
std::vector<uint64_t> slice(const std::vector<uint64_t>& v, size_t from, size_t n, bool pairs) {
  const size_t s = pairs ? 2 : 1;
  return std::vector<uint64_t>(v.begin() + static_cast<long>(from * s), v.begin() + static_cast<long>((from + n) * s));
}
void append(std::vector<uint64_t>& to, const std::vector<uint64_t>& v) { to.insert(to.end(), v.begin(), v.end()); }

// Every member's contribution concatenated, member j giving `counts[j]` elements.
std::vector<uint64_t> concatenated_v(const ReferenceInputs& in, const std::vector<size_t>& counts) {
  std::vector<uint64_t> r;
  for (size_t j = 0; j < in.members; ++j) append(r, slice(in.input(j), 0, counts[j], false));
  return r;
}
// The op over all members, cut into consecutive parts of `counts` elements.
Expected scattered_reduction(const ReferenceInputs& in, const std::vector<size_t>& counts) {
  const std::vector<uint64_t> all = in.reduce_over(in.members);
  Expected out(in.members);
  size_t at = 0;
  for (size_t k = 0; k < in.members; ++k) {
    out[k] = slice(all, at, counts[k], in.pairs);
    at += counts[k];
  }
  return out;
}

}  // namespace

Counts seeded_counts_for(const Collective& c, uint64_t seed, size_t members, size_t count) {
  return c.takes_counts ? seeded_counts(seed, members, count) : Counts{};
}

Counts seeded_counts(uint64_t seed, size_t members, size_t count) {
  auto mix = [](uint64_t x) {  // splitmix64
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
  };
  auto draw = [&](uint64_t key) {
    const uint64_t x = mix(mix(seed ^ 0xc0c0c0c0ull) ^ key);
    return (x >> 32) % 6 == 0 ? size_t{0} : static_cast<size_t>(x % (2 * count + 1));
  };
  Counts c;
  c.pair.assign(members, std::vector<size_t>(members, 0));
  for (size_t i = 0; i < members; ++i) {
    c.member.push_back(draw((uint64_t{1} << 62) + i));
    for (size_t j = 0; j < members; ++j) c.pair[i][j] = draw(i * members + j);
  }
  return c;
}

Counts read_counts_file(const std::string& path, size_t members) {
  std::ifstream f(path);
  if (!f) throw std::invalid_argument("cannot read '" + path + "'");
  return read_counts(f, path, members);
}

Counts read_counts(std::istream& f, const std::string& path, size_t members) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(f);
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(path + ": not JSON: " + e.what());
  }
  auto count = [&](const nlohmann::json& v, const std::string& where) {
    if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<long long>() >= 0))
      throw std::invalid_argument(path + ": " + where + " is not a count (an integer >= 0)");
    const uint64_t x = v.get<uint64_t>();
    if (x > (uint64_t{1} << 24)) throw std::invalid_argument(path + ": " + where + " is more than 2^24 elements");
    return static_cast<size_t>(x);
  };
  if (!j.is_array() || j.size() != members)
    throw std::invalid_argument(path + ": must be an array of " + std::to_string(members) + " entries, one per rank");
  Counts c;
  c.pair.assign(members, std::vector<size_t>(members, 0));
  c.member.assign(members, 0);
  const bool matrix = members > 0 && j[0].is_array();
  for (size_t i = 0; i < members; ++i) {
    if (!matrix) {
      c.member[i] = count(j[i], "entry " + std::to_string(i));
      continue;
    }
    if (!j[i].is_array() || j[i].size() != members)
      throw std::invalid_argument(path + ": row " + std::to_string(i) + " must be an array of " + std::to_string(members) +
                                  " counts");
    for (size_t k = 0; k < members; ++k)
      c.pair[i][k] = count(j[i][k], "row " + std::to_string(i) + " entry " + std::to_string(k));
  }
  for (size_t i = 0; i < members; ++i)
    for (size_t k = 0; k < members; ++k) {
      if (!matrix) c.pair[i][k] = c.member[k];
    }
  if (matrix)
    for (size_t i = 0; i < members; ++i) c.member[i] = c.pair[i][i];
  return c;
}

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
      // The personalised and vector forms: receive buffers packed in rank order.
      {"alltoall", false, false, true, true, true,
       [](Communicator& c, const Call& k) {
         on_native_n(k, false, k.count * c.size(), [&](const void* s, void* r) { c.alltoall(s, r, k.count, k.type); });
       },
       [](const ReferenceInputs& in) {
         Expected out(in.members);
         for (size_t k = 0; k < in.members; ++k) {
           std::vector<uint64_t> r;
           for (size_t j = 0; j < in.members; ++j) append(r, slice(in.input(j), k * in.count, in.count, false));
           out[k] = r;
         }
         return out;
       },
       [](size_t count, const Counts&, unsigned, size_t n, size_t) { return Lengths{count * n, count * n}; }},
      {"alltoallv", false, false, true, true, true,
       [](Communicator& c, const Call& k) {
         const std::vector<size_t>& sc = k.counts->pair.at(c.rank());
         const std::vector<size_t> rc = column(*k.counts, c.rank());
         on_native_n(k, false, total(sc), [&](const void* s, void* r) {
           c.alltoallv(s, sc, packed(sc), r, rc, packed(rc), k.type);
         });
       },
       [](const ReferenceInputs& in) {
         Expected out(in.members);
         for (size_t k = 0; k < in.members; ++k) {
           std::vector<uint64_t> r;
           for (size_t j = 0; j < in.members; ++j)
             append(r, slice(in.input(j), packed(in.counts->pair[j])[k], in.counts->pair[j][k], false));
           out[k] = r;
         }
         return out;
       },
       [](size_t, const Counts& c, unsigned, size_t, size_t k) { return Lengths{total(c.pair[k]), total(column(c, k))}; },
       true},
      {"scatter", false, true, false, false, true,
       [](Communicator& c, const Call& k) {
         on_native_n(k, false, c.rank() == k.root ? k.count * c.size() : 0,
                     [&](const void* s, void* r) { c.scatter(s, r, k.count, k.type, k.root); });
       },
       [](const ReferenceInputs& in) {
         Expected out(in.members);
         for (size_t k = 0; k < in.members; ++k) out[k] = slice(in.input(in.root), k * in.count, in.count, false);
         return out;
       },
       [](size_t count, const Counts&, unsigned root, size_t n, size_t k) {
         return Lengths{k == root ? count * n : 0, count};
       }},
      {"scatterv", false, true, false, false, true,
       [](Communicator& c, const Call& k) {
         const std::vector<size_t>& sc = k.counts->member;
         const bool root = c.rank() == k.root;
         on_native_n(k, false, root ? total(sc) : 0, [&](const void* s, void* r) {
           c.scatterv(s, root ? sc : std::vector<size_t>{}, root ? packed(sc) : std::vector<size_t>{}, r, sc.at(c.rank()),
                      k.type, k.root);
         });
       },
       [](const ReferenceInputs& in) {
         Expected out(in.members);
         const std::vector<size_t> d = packed(in.counts->member);
         for (size_t k = 0; k < in.members; ++k) out[k] = slice(in.input(in.root), d[k], in.counts->member[k], false);
         return out;
       },
       [](size_t, const Counts& c, unsigned root, size_t, size_t k) {
         return Lengths{k == root ? total(c.member) : 0, c.member[k]};
       },
       true},
      {"gatherv", false, true, false, false, true,
       [](Communicator& c, const Call& k) {
         const std::vector<size_t>& rc = k.counts->member;
         const bool root = c.rank() == k.root;
         on_native_n(k, false, rc.at(c.rank()), [&](const void* s, void* r) {
           c.gatherv(s, rc.at(c.rank()), r, root ? rc : std::vector<size_t>{}, root ? packed(rc) : std::vector<size_t>{},
                     k.type, k.root);
         });
       },
       [](const ReferenceInputs& in) { return root_only(in.members, in.root, concatenated_v(in, in.counts->member)); },
       [](size_t, const Counts& c, unsigned root, size_t, size_t k) {
         return Lengths{c.member[k], k == root ? total(c.member) : 0};
       },
       true},
      {"allgatherv", false, false, false, true, true,
       [](Communicator& c, const Call& k) {
         const std::vector<size_t>& rc = k.counts->member;
         on_native_n(k, false, rc.at(c.rank()),
                     [&](const void* s, void* r) { c.allgatherv(s, rc.at(c.rank()), r, rc, packed(rc), k.type); });
       },
       [](const ReferenceInputs& in) { return everyone(in.members, concatenated_v(in, in.counts->member)); },
       [](size_t, const Counts& c, unsigned, size_t, size_t k) { return Lengths{c.member[k], total(c.member)}; },
       true},
      {"reduce_scatter", true, false, false, true, true,
       [](Communicator& c, const Call& k) {
         const std::vector<size_t>& rc = k.counts->member;
         on_native_n(k, driver::is_loc(k.op), total(rc),
                     [&](const void* s, void* r) { c.reduce_scatter(s, r, rc, k.type, k.op); });
       },
       [](const ReferenceInputs& in) { return scattered_reduction(in, in.counts->member); },
       [](size_t, const Counts& c, unsigned, size_t, size_t k) { return Lengths{total(c.member), c.member[k]}; },
       true},
      {"reduce_scatter_block", true, false, false, true, true,
       [](Communicator& c, const Call& k) {
         on_native_n(k, driver::is_loc(k.op), k.count * c.size(),
                     [&](const void* s, void* r) { c.reduce_scatter_block(s, r, k.count, k.type, k.op); });
       },
       [](const ReferenceInputs& in) { return scattered_reduction(in, std::vector<size_t>(in.members, in.count)); },
       [](size_t count, const Counts&, unsigned, size_t n, size_t) { return Lengths{count * n, count}; }},
  };
  return table;
}

const Collective* find_collective(const std::string& name) {
  for (const Collective& c : collectives())
    if (name == c.name) return &c;
  return nullptr;
}

void print_algorithms(std::ostream& out) {
  using namespace driver;
  out << "collective   algorithms (--algorithm; auto picks one per call)\n";
  for (unsigned i = 0; i < kNumCollectives; ++i) {
    const driver::Collective c = static_cast<driver::Collective>(i);
    std::string names;
    for (Algorithm a : algorithms_for(c)) names += std::string(names.empty() ? "" : ", ") + to_string(a);
    out << "  " << to_string(c) << std::string(11 - std::string(to_string(c)).size(), ' ') << names << "\n";
  }
  out << "\nalgorithms\n";
  for (unsigned i = 0; i < kNumAlgorithms; ++i) {
    const Algorithm a = static_cast<Algorithm>(i);
    out << "  " << to_string(a) << std::string(26 - std::string(to_string(a)).size(), ' ') << describe(a) << "\n";
  }
  out << "\nThe other collectives (alltoallv, scatterv, gatherv, reduce_scatter, reduce_scatter_block) have one each.\n";
}

std::string collective_names() {
  std::string s;
  for (const Collective& c : collectives()) s += (s.empty() ? "" : " | ") + std::string(c.name);
  return s;
}

}  // namespace collnet::cli
