// SPDX-License-Identifier: Apache-2.0
// Fuzz harness: the checks of a run's inputs, below the command line. The first byte picks
// a parser, the rest is its text (and a few bytes of parameters):
//   0 number lists (reference/number_list.hpp: --ranks, --down-nodes; split_list)
//   1 --sizes lists (parse_sizes: 8,64,1K,1M)
//   2 shapes XxYxZ (sim::Shape::parse)
//   3 member sets (reference/member_sets.hpp: a list, random:P, checkerboard, a file, ...)
//   4 names: ops, types, collectives, algorithms, orders, idle skipping, traffic patterns
//   5 machine configurations (sim::MachineConfig::validate, then the torus faults)
//   6 the reference model (reference/verify.hpp: reference_op, reference_loc, compare)
//   7 seeded inputs (reference/inputs.hpp)
//   8 regular neighbourhoods of a member set (driver/neighbourhoods.hpp, and `collnet
//     neighbourhoods` itself: cli/neighbourhoods_command.hpp, printing to a string)
// What each accepts must be what it promises (in range, no duplicates, round trips); what
// it refuses it must refuse with std::invalid_argument or collnet::Error.
#include <algorithm>
#include <cstdint>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/neighbourhoods_command.hpp"
#include "driver/algorithm.hpp"
#include "driver/datatype.hpp"
#include "driver/error.hpp"
#include "driver/neighbourhoods.hpp"
#include "driver/op.hpp"
#include "fuzz/fuzz_util.hpp"
#include "reference/collectives.hpp"
#include "reference/inputs.hpp"
#include "reference/member_sets.hpp"
#include "reference/number_list.hpp"
#include "reference/verify.hpp"
#include "systemc/machine_config.hpp"
#include "systemc/shape.hpp"
#include "workload/traffic_pattern.hpp"

using collnet::fuzz::Bytes;
namespace cli = collnet::cli;
namespace reference = collnet::reference;
namespace driver = collnet::driver;

namespace {

bool all_digits(const std::string& s) { return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos; }

// The decimal value of `s` (digits only), saturating at 2^64.
unsigned __int128 decimal(const std::string& s) {
  unsigned __int128 v = 0;
  for (char c : s) {
    v = v * 10 + static_cast<unsigned>(c - '0');
    if (v > (static_cast<unsigned __int128>(1) << 64)) return static_cast<unsigned __int128>(1) << 64;
  }
  return v;
}

void number_lists(Bytes& in) {
  const unsigned limit = in.u32() % 70000;
  const std::string text = in.rest();
  const std::vector<std::string> items = reference::split_list(text);
  FUZZ_CHECK(items.size() == static_cast<size_t>(std::count(text.begin(), text.end(), ',')) + 1);
  std::string joined;
  for (size_t i = 0; i < items.size(); ++i) joined += (i ? "," : "") + items[i];
  FUZZ_CHECK(joined == text);
  try {
    const std::vector<unsigned> list = reference::parse_number_list(text, limit, "rank");
    FUZZ_CHECK(list.size() == items.size());
    std::set<unsigned> seen;
    for (size_t i = 0; i < list.size(); ++i) {
      FUZZ_CHECK(list[i] < limit);
      FUZZ_CHECK(all_digits(items[i]) && decimal(items[i]) == list[i]);
      FUZZ_CHECK(seen.insert(list[i]).second);
    }
  } catch (const std::invalid_argument&) {
  }
}

// An item of a --sizes list: its value in bytes if it is digits with an optional k/K/M/m.
bool size_value(const std::string& item, unsigned __int128& v) {
  size_t digits = 0;
  while (digits < item.size() && item[digits] >= '0' && item[digits] <= '9') ++digits;
  if (digits == 0) return false;
  const std::string unit = item.substr(digits);
  v = decimal(item.substr(0, digits));
  if (unit == "k" || unit == "K") v <<= 10;
  else if (unit == "M" || unit == "m") v <<= 20;
  else if (!unit.empty()) return false;
  return true;
}

void sizes(Bytes& in) {
  const std::string text = in.rest();
  try {
    const std::vector<size_t> sizes = reference::parse_sizes(text);
    const std::vector<std::string> items = reference::split_list(text);
    FUZZ_CHECK(sizes.size() == items.size());
    for (size_t i = 0; i < sizes.size(); ++i) {
      FUZZ_CHECK(sizes[i] <= (size_t{64} << 20));
      // std::stoull takes leading blanks and a sign too; digits and a unit are what the
      // help promises, and for those the value must be the item's.
      unsigned __int128 v = 0;
      if (size_value(items[i], v)) FUZZ_CHECK(v == sizes[i]);
    }
  } catch (const std::invalid_argument&) {
  }
}

void shapes(Bytes& in) {
  const std::string text = in.rest();
  try {
    const collnet::sim::Shape s = collnet::sim::Shape::parse(text);
    for (unsigned d : s.dims()) FUZZ_CHECK(d >= 1 && d <= 64);
    const collnet::sim::Shape t = collnet::sim::Shape::parse(s.str());
    FUZZ_CHECK(t.x == s.x && t.y == s.y && t.z == s.z);
  } catch (const std::invalid_argument&) {
  }
}

void member_sets(Bytes& in) {
  const collnet::fw::Coord dims{1 + in.below(16), 1 + in.below(16), 1 + in.below(8)};
  const uint64_t seed = in.u64();
  const std::string spec = in.rest();
  if (spec.find('/') != std::string::npos) return;  // files: only the scratch directory's
  try {
    const std::vector<unsigned> nodes = reference::member_nodes(spec, dims, seed);
    FUZZ_CHECK(!nodes.empty());
    FUZZ_CHECK(std::is_sorted(nodes.begin(), nodes.end()));
    FUZZ_CHECK(std::adjacent_find(nodes.begin(), nodes.end()) == nodes.end());
    for (unsigned n : nodes) FUZZ_CHECK(n < dims[0] * dims[1] * dims[2]);
  } catch (const std::invalid_argument&) {
  }
}

template <class T, class Parse, class Name>
void round_trip(const std::string& text, Parse parse, Name name) {
  std::optional<T> v;
  try {
    v = parse(text);
  } catch (const std::invalid_argument&) {
  } catch (const collnet::Error&) {
  }
  if (!v) return;
  FUZZ_CHECK(parse(name(*v)) == *v);
}

void names(Bytes& in) {
  const std::string text = in.rest();
  round_trip<driver::Op>(text, driver::parse_op, [](driver::Op o) { return std::string(driver::to_string(o)); });
  round_trip<driver::Datatype>(text, driver::parse_datatype,
                               [](driver::Datatype t) { return std::string(driver::to_string(t)); });
  if (const auto c = driver::collective_named(text)) {
    FUZZ_CHECK(driver::collective_named(driver::to_string(*c)) == c);
    for (driver::Algorithm a : driver::algorithms_for(*c)) FUZZ_CHECK(driver::applies(*c, a));
  }
  if (const auto a = driver::algorithm_named(text)) FUZZ_CHECK(driver::algorithm_named(driver::to_string(*a)) == a);
  if (const auto o = driver::segment_order_named(text)) FUZZ_CHECK(driver::segment_order_named(driver::to_string(*o)) == o);
  round_trip<collnet::sim::IdleSkip>(text, collnet::sim::parse_idle_skip,
                                     [](collnet::sim::IdleSkip s) { return std::string(collnet::sim::to_string(s)); });
  round_trip<collnet::workload::Pattern>(text, collnet::workload::parse_pattern,
                                         [](collnet::workload::Pattern p) { return collnet::workload::to_string(p); });
  if (const reference::Collective* c = reference::find_collective(text)) FUZZ_CHECK(text == c->name);
}

void machines(Bytes& in) {
  collnet::sim::MachineConfig m;
  m.shape = {1 + in.below(64), 1 + in.below(64), 1 + in.below(64)};
  if (in.flag()) m.shape.x = in.u32();  // what a caller that skipped Shape::parse could pass
  m.set_link_latency(in.u16());
  m.access_cycles = in.u16();
  m.tasks_per_node = in.u8();
  m.watchdog_cycles = in.u8();
  m.threads = in.u16() % 300;
  m.lockstep = in.flag();
  if (in.flag()) m.trace_path = "t.fst";
  m.idle_skip = static_cast<collnet::sim::IdleSkip>(in.below(3));
  const double clocks[] = {700.0, 0.0, -1.0, 1e-300, __builtin_nan("")};
  m.clock_mhz = clocks[in.below(5)];
  for (unsigned n = in.below(4); n-- > 0;) m.down_nodes.push_back(in.u16() % 300);
  for (unsigned n = in.below(4); n-- > 0;) m.down_links.push_back({in.u16() % 300u, in.below(8)});
  try {
    m.validate();
  } catch (const std::invalid_argument&) {
    return;
  }
  if (m.shape.nodes() > 4096) return;  // the faults below walk every node
  const collnet::fw::TorusFaults f = m.torus_faults();
  FUZZ_CHECK(f.node_down.size() == m.shape.nodes() && f.links_down.size() == m.shape.nodes());
  for (unsigned r : m.down_nodes) FUZZ_CHECK(f.node_down[r]);
}

const driver::Datatype kTypes[] = {driver::Datatype::U8,  driver::Datatype::U16, driver::Datatype::U32,
                                   driver::Datatype::U64, driver::Datatype::I8,  driver::Datatype::I16,
                                   driver::Datatype::I32, driver::Datatype::I64, driver::Datatype::F32,
                                   driver::Datatype::F64};

void reference_model(Bytes& in) {
  const driver::Datatype t = kTypes[in.below(10)];
  const std::vector<driver::Op>& ops = driver::all_ops();
  const driver::Op op = ops[in.below(static_cast<unsigned>(ops.size()))];
  if (!driver::accepts(op, t)) return;
  const uint64_t mask = driver::raw_mask(t);
  const unsigned n = 1 + in.below(16);
  std::vector<uint64_t> values;
  for (unsigned i = 0; i < n; ++i) values.push_back(in.u64() & mask);
  if (driver::is_loc(op)) {
    std::vector<std::pair<uint64_t, uint64_t>> pairs;
    for (unsigned i = 0; i < n; ++i) pairs.push_back({values[i], in.u32()});
    const auto [v, index] = reference::reference_loc(t, op, pairs);
    bool found = false;
    for (const auto& p : pairs) found = found || (p.first == v && p.second == index);
    FUZZ_CHECK(found);  // the winner is one of the pairs
    return;
  }
  const uint64_t r = reference::reference_op(t, op, values);
  FUZZ_CHECK((r & ~mask) == 0);
  if (!driver::is_float(t)) {
    uint64_t want = op == driver::Op::Band ? mask : op == driver::Op::Prod ? 1 : 0;
    bool any = false;
    for (uint64_t v : values) {
      switch (op) {
        case driver::Op::Sum: want = (want + v) & mask; break;
        case driver::Op::Band: want &= v; break;
        case driver::Op::Bor: want |= v; break;
        case driver::Op::Bxor: want ^= v; break;
        case driver::Op::Land: any = any || v == 0; want = any ? 0 : 1; break;
        case driver::Op::Lor: want = want || v != 0; break;
        case driver::Op::Lxor: want ^= (v != 0); break;
        case driver::Op::Prod: want = (want * v) & mask; break;
        default: want = r; break;  // max, min: one of the values (below)
      }
    }
    FUZZ_CHECK(r == want);
  }
  if (op == driver::Op::Max || op == driver::Op::Min)
    FUZZ_CHECK(std::find(values.begin(), values.end(), r) != values.end() || driver::is_float(t));
  // compare(): a result against itself has no mismatch, against a changed one one.
  std::vector<std::vector<uint64_t>> results{values};
  std::vector<std::optional<std::vector<uint64_t>>> want{values};
  FUZZ_CHECK(reference::compare(results, want).count == 0);
  want[0]->back() ^= 1;
  FUZZ_CHECK(reference::compare(results, want).count == 1);
}

void seeded(Bytes& in) {
  const driver::Datatype t = kTypes[in.below(10)];
  const std::vector<driver::Op>& ops = driver::all_ops();
  const driver::Op op = ops[in.below(static_cast<unsigned>(ops.size()))];
  const uint64_t seed = in.u64();
  const unsigned rank = in.u32();
  const uint64_t count = in.below(64);
  const std::vector<uint64_t> v = reference::seeded_input(seed, rank, count, t, op);
  FUZZ_CHECK(v.size() == count * (driver::is_loc(op) ? 2 : 1));
  for (size_t i = 0; i < v.size(); i += driver::is_loc(op) ? 2 : 1) FUZZ_CHECK((v[i] & ~driver::raw_mask(t)) == 0);
  FUZZ_CHECK(reference::seeded_input(seed, rank, count, t, op) == v);  // the seed alone decides
}

void neighbourhoods(Bytes& in) {
  const collnet::fw::Coord dims{1 + in.below(8), 1 + in.below(8), 1 + in.below(6)};
  const unsigned nodes = dims[0] * dims[1] * dims[2];
  const collnet::fw::TorusLayout t(dims);
  std::vector<unsigned> members;
  if (in.flag()) {  // any subset of the nodes
    for (unsigned n = 0; n < nodes; ++n)
      if (in.u8() & 1) members.push_back(n);
  } else {  // one of the named member sets
    const char* const specs[] = {"checkerboard", "plane-holes", "l-shape", "two-boxes", "random:30", "random:90"};
    members = reference::member_nodes(specs[in.below(6)], dims, in.u8());
  }
  if (members.empty()) return;
  const driver::Neighbourhoods nb = driver::find_neighbourhoods(dims, members);
  // Every member in exactly one neighbourhood, each a gap-free rectangle of members.
  FUZZ_CHECK(nb.of_node.size() == nodes);
  std::vector<unsigned> seen;
  for (size_t k = 0; k < nb.list.size(); ++k) {
    const driver::Neighbourhood& h = nb.list[k];
    FUZZ_CHECK(h.nodes.size() == size_t{h.len_first} * h.len_second);
    for (unsigned i = 0; i < h.len_first; ++i)
      for (unsigned j = 0; j < h.len_second; ++j) {
        const unsigned node = h.at(t, i, j);
        FUZZ_CHECK(std::binary_search(h.nodes.begin(), h.nodes.end(), node));
        FUZZ_CHECK(nb.of_node[node] == static_cast<int>(k));
      }
    seen.insert(seen.end(), h.nodes.begin(), h.nodes.end());
  }
  std::sort(seen.begin(), seen.end());
  FUZZ_CHECK(seen == members);
  const unsigned root = members[in.below(static_cast<unsigned>(members.size()))];
  const std::vector<unsigned> order = nb.order(root);
  FUZZ_CHECK(order.size() == nb.list.size() && nb.of_node[root] == static_cast<int>(order.front()));
  for (unsigned k = 0; k < nb.list.size(); ++k) {
    const unsigned lr = nb.local_root(k, root, t);
    FUZZ_CHECK(nb.of_node[lr] == static_cast<int>(k));
  }
  (void)driver::draw(dims, nb, root);
  // The command, on the same members given as a list.
  cli::NeighbourhoodsOptions o;
  o.dims = dims;
  for (unsigned m : members) o.ranks += (o.ranks.empty() ? "" : ",") + std::to_string(m);
  o.root = root;
  std::ostringstream out;
  FUZZ_CHECK(cli::run_neighbourhoods(o, out) == 0);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  collnet::fuzz::absolute_arguments(argc, argv);
  collnet::fuzz::enter_scratch_dir();
  collnet::fuzz::write_scratch_file("nodes.txt", "0 1\n5, 7\n");
  collnet::fuzz::write_scratch_file("nodes.json", "[3, 2, 1]");
  collnet::fuzz::write_scratch_file("empty.txt", "");
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Bytes in(data, size);
  switch (in.u8() % 9) {
    case 0: number_lists(in); break;
    case 1: sizes(in); break;
    case 2: shapes(in); break;
    case 3: member_sets(in); break;
    case 4: names(in); break;
    case 5: machines(in); break;
    case 6: reference_model(in); break;
    case 7: seeded(in); break;
    case 8: neighbourhoods(in); break;
  }
  return 0;
}
