// SPDX-License-Identifier: Apache-2.0
// The reference model's table of collectives, each entry's fields set by name.
#include "reference/collectives.hpp"

namespace collnet::reference {

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

// A new entry of `table`, its fields to be set by name.
Collective& add(std::vector<Collective>& table, const char* name) {
  table.emplace_back();
  table.back().name = name;
  return table.back();
}

// The collectives whose buffers are --count elements long (count per member for the
// gathers' results).
void add_whole_buffer_collectives(std::vector<Collective>& t) {
  add(t, "barrier").moves_data = false;
  {
    Collective& c = add(t, "bcast");
    c.takes_root = true;
    c.expect = [](const ReferenceInputs& in) { return everyone(in.members, in.input(in.root)); };
  }
  {
    Collective& c = add(t, "reduce");
    c.takes_op = c.takes_root = true;
    c.expect = [](const ReferenceInputs& in) { return root_only(in.members, in.root, in.reduce_over(in.members)); };
  }
  {
    Collective& c = add(t, "allreduce");
    c.takes_op = true;
    c.expect = [](const ReferenceInputs& in) { return everyone(in.members, in.reduce_over(in.members)); };
  }
  {
    Collective& c = add(t, "gather");
    c.takes_root = c.recv_per_member = c.grows_with_members = true;
    c.expect = [](const ReferenceInputs& in) { return root_only(in.members, in.root, concatenated(in)); };
  }
  {
    Collective& c = add(t, "allgather");
    c.recv_per_member = c.grows_with_members = true;
    c.expect = [](const ReferenceInputs& in) { return everyone(in.members, concatenated(in)); };
  }
  {
    Collective& c = add(t, "scan");
    c.takes_op = c.grows_with_members = true;
    c.expect = [](const ReferenceInputs& in) { return prefixes(in, true); };
  }
  {
    Collective& c = add(t, "exscan");
    c.takes_op = c.grows_with_members = true;
    c.expect = [](const ReferenceInputs& in) { return prefixes(in, false); };
  }
}

// The personalised forms: a block from every member to every member (alltoall, and
// alltoallv with counts per pair) or from the root to each (scatter); receive buffers
// packed in rank order.
void add_personalised_collectives(std::vector<Collective>& t) {
  {
    Collective& c = add(t, "alltoall");
    c.recv_per_member = c.grows_with_members = true;
    c.expect = [](const ReferenceInputs& in) {
      Expected out(in.members);
      for (size_t k = 0; k < in.members; ++k) {
        std::vector<uint64_t> r;
        for (size_t j = 0; j < in.members; ++j) append(r, slice(in.input(j), k * in.count, in.count, false));
        out[k] = r;
      }
      return out;
    };
    c.lengths = [](size_t count, const Counts&, unsigned, size_t n, size_t) { return Lengths{count * n, count * n}; };
  }
  {
    Collective& c = add(t, "alltoallv");
    c.recv_per_member = c.grows_with_members = c.takes_counts = true;
    c.expect = [](const ReferenceInputs& in) {
      Expected out(in.members);
      for (size_t k = 0; k < in.members; ++k) {
        std::vector<uint64_t> r;
        for (size_t j = 0; j < in.members; ++j)
          append(r, slice(in.input(j), packed(in.counts->pair[j])[k], in.counts->pair[j][k], false));
        out[k] = r;
      }
      return out;
    };
    c.lengths = [](size_t, const Counts& counts, unsigned, size_t, size_t k) {
      return Lengths{total(counts.pair[k]), total(sent_to(counts, k))};
    };
  }
  {
    Collective& c = add(t, "scatter");
    c.takes_root = true;
    c.expect = [](const ReferenceInputs& in) {
      Expected out(in.members);
      for (size_t k = 0; k < in.members; ++k) out[k] = slice(in.input(in.root), k * in.count, in.count, false);
      return out;
    };
    c.lengths = [](size_t count, const Counts&, unsigned root, size_t n, size_t k) {
      return Lengths{k == root ? count * n : 0, count};
    };
  }
}

// The vector forms with a count per member (scatterv, gatherv, allgatherv, reduce_scatter),
// receive buffers packed in rank order; and reduce_scatter_block, which cuts its reduction
// into equal parts.
void add_vector_collectives(std::vector<Collective>& t) {
  {
    Collective& c = add(t, "scatterv");
    c.takes_root = c.takes_counts = true;
    c.expect = [](const ReferenceInputs& in) {
      Expected out(in.members);
      const std::vector<size_t> d = packed(in.counts->member);
      for (size_t k = 0; k < in.members; ++k) out[k] = slice(in.input(in.root), d[k], in.counts->member[k], false);
      return out;
    };
    c.lengths = [](size_t, const Counts& counts, unsigned root, size_t, size_t k) {
      return Lengths{k == root ? total(counts.member) : 0, counts.member[k]};
    };
  }
  {
    Collective& c = add(t, "gatherv");
    c.takes_root = c.takes_counts = true;
    c.expect = [](const ReferenceInputs& in) {
      return root_only(in.members, in.root, concatenated_v(in, in.counts->member));
    };
    c.lengths = [](size_t, const Counts& counts, unsigned root, size_t, size_t k) {
      return Lengths{counts.member[k], k == root ? total(counts.member) : 0};
    };
  }
  {
    Collective& c = add(t, "allgatherv");
    c.grows_with_members = c.takes_counts = true;
    c.expect = [](const ReferenceInputs& in) { return everyone(in.members, concatenated_v(in, in.counts->member)); };
    c.lengths = [](size_t, const Counts& counts, unsigned, size_t, size_t k) {
      return Lengths{counts.member[k], total(counts.member)};
    };
  }
  {
    Collective& c = add(t, "reduce_scatter");
    c.takes_op = c.grows_with_members = c.takes_counts = true;
    c.expect = [](const ReferenceInputs& in) { return scattered_reduction(in, in.counts->member); };
    c.lengths = [](size_t, const Counts& counts, unsigned, size_t, size_t k) {
      return Lengths{total(counts.member), counts.member[k]};
    };
  }
  {
    Collective& c = add(t, "reduce_scatter_block");
    c.takes_op = c.grows_with_members = true;
    c.expect = [](const ReferenceInputs& in) {
      return scattered_reduction(in, std::vector<size_t>(in.members, in.count));
    };
    c.lengths = [](size_t count, const Counts&, unsigned, size_t n, size_t) { return Lengths{count * n, count}; };
  }
}

}  // namespace

const std::vector<Collective>& collectives() {
  static const std::vector<Collective> table = [] {
    std::vector<Collective> t;
    add_whole_buffer_collectives(t);
    add_personalised_collectives(t);
    add_vector_collectives(t);
    return t;
  }();
  return table;
}

const Collective* find_collective(const std::string& name) {
  for (const Collective& c : collectives())
    if (name == c.name) return &c;
  return nullptr;
}

Lengths member_lengths(const Collective& c, size_t count, const Counts& counts, unsigned root, size_t members,
                       size_t k) {
  if (c.lengths) return c.lengths(count, counts, root, members, k);
  return Lengths{count, c.recv_per_member ? count * members : count};
}

Counts seeded_counts_for(const Collective& c, uint64_t seed, size_t members, size_t count) {
  return c.takes_counts ? seeded_counts(seed, members, count) : Counts{};
}

std::string collective_names() {
  std::string s;
  for (const Collective& c : collectives()) s += (s.empty() ? "" : " | ") + std::string(c.name);
  return s;
}

}  // namespace collnet::reference
