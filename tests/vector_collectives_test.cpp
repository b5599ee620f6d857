// SPDX-License-Identifier: Apache-2.0
// The personalised and vector collectives (alltoall, alltoallv, scatter, scatterv, gatherv,
// allgatherv, reduce_scatter, reduce_scatter_block) for every type, reduce_scatter for
// every op, and prod for reduce, allreduce, scan and exscan, on whole simulated machines of
// 1 to 64 nodes, with 1 and 4 tasks per node and on irregular subsets, with counts that
// include zeros, displacements in shuffled order with gaps, and the in-place forms. Every
// result is compared with one computed here, byte for byte, gaps included (a receive
// buffer starts filled with 0xa5, which the collective must leave where it writes nothing).
// One machine per test runs all of its checks one after another.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <deque>
#include <functional>
#include <numeric>
#include <random>
#include <sstream>

#include <gtest/gtest.h>

#include "driver/error.hpp"
#include "driver/job.hpp"
#include "reference/inputs.hpp"
#include "reference/verify.hpp"
#include "systemc/machine.hpp"
#include "tests/support/machine_case.hpp"
#include "tests/support/test_machine.hpp"

namespace collnet {
namespace {

using driver::Communicator;
using driver::Datatype;
using driver::Op;
using Bytes = std::vector<unsigned char>;
using Sizes = std::vector<size_t>;

constexpr unsigned char kFill = 0xa5;

// One collective on every member: its buffers, what each must hold afterwards, and how to
// call it.
struct Check {
  std::string name;
  std::vector<Bytes> send, recv, want;  // per member; want empty: nothing to compare
  std::function<void(Communicator&, unsigned k, Check&)> run;
};

struct Builder {
  unsigned n;
  std::mt19937_64 rng;
  uint64_t seed;
  std::deque<Check> checks;

  size_t elem(Datatype t, bool pairs = false) const { return driver::native_bytes(t, pairs); }

  // Raw input of member k, `count` elements, native.
  Bytes input(Datatype t, Op op, unsigned k, size_t count) {
    const bool pairs = driver::is_loc(op);
    const std::vector<uint64_t> raw = reference::seeded_input(seed + checks.size(), k, count, t, op);
    Bytes b(count * elem(t, pairs), kFill);
    driver::raw_to_native(t, pairs, raw.data(), count, b.data());
    return b;
  }
  Bytes filled(size_t elements, Datatype t, bool pairs = false) { return Bytes(elements * elem(t, pairs), kFill); }

  // Counts 0..4, a quarter of them zero.
  Sizes counts(size_t m) {
    Sizes c(m);
    for (size_t& x : c) x = rng() % 4 == 0 ? 0 : 1 + rng() % 4;
    return c;
  }
  // Displacements for blocks of `c`: in shuffled order, with gaps of 0..2 elements.
  Sizes displs(const Sizes& c) {
    std::vector<size_t> order(c.size());
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), rng);
    Sizes d(c.size());
    size_t at = rng() % 2;
    for (size_t j : order) {
      d[j] = at;
      at += c[j] + rng() % 3;
    }
    return d;
  }
  static size_t extent(const Sizes& c, const Sizes& d) {
    size_t e = 0;
    for (size_t j = 0; j < c.size(); ++j) e = std::max(e, d[j] + c[j]);
    return e;
  }
  static void copy_elems(Bytes& to, size_t to_at, const Bytes& from, size_t from_at, size_t count, size_t eb) {
    if (count > 0) std::memcpy(to.data() + to_at * eb, from.data() + from_at * eb, count * eb);
  }
  Check& add(std::string name) {
    checks.emplace_back();
    Check& c = checks.back();
    c.name = std::move(name);
    c.send.resize(n);
    c.recv.resize(n);
    c.want.resize(n);
    return c;
  }

  void alltoall(Datatype t, size_t count, bool in_place) {
    const size_t eb = elem(t);
    Check& c = add(std::string("alltoall ") + to_string(t) + " x" + std::to_string(count) + (in_place ? " in place" : ""));
    for (unsigned k = 0; k < n; ++k) c.send[k] = input(t, Op::Sum, k, count * n);
    for (unsigned k = 0; k < n; ++k) {
      c.want[k] = filled(count * n, t);
      for (unsigned j = 0; j < n; ++j) copy_elems(c.want[k], j * count, c.send[j], k * count, count, eb);
      c.recv[k] = in_place ? c.send[k] : filled(count * n, t);
    }
    c.run = [t, count, in_place](Communicator& comm, unsigned k, Check& ch) {
      comm.alltoall(in_place ? Communicator::kInPlace : ch.send[k].data(), ch.recv[k].data(), count, t);
    };
  }

  void alltoallv(Datatype t, bool in_place) {
    const size_t eb = elem(t);
    Check& c = add(std::string("alltoallv ") + to_string(t) + (in_place ? " in place" : ""));
    std::vector<Sizes> p(n);  // p[i][j]: from i to j
    for (unsigned i = 0; i < n; ++i) p[i] = counts(n);
    if (in_place)  // MPI's in-place alltoallv sends what it receives: symmetric counts
      for (unsigned i = 0; i < n; ++i)
        for (unsigned j = 0; j < i; ++j) p[i][j] = p[j][i];
    std::vector<Sizes> sd(n), rc(n), rd(n);
    for (unsigned k = 0; k < n; ++k) {
      for (unsigned j = 0; j < n; ++j) rc[k].push_back(p[j][k]);
      sd[k] = displs(p[k]);
      rd[k] = displs(rc[k]);
    }
    if (in_place)
      for (unsigned k = 0; k < n; ++k) sd[k] = rd[k];  // the data goes from the receive buffer
    for (unsigned k = 0; k < n; ++k) c.send[k] = input(t, Op::Sum, k, extent(p[k], sd[k]));
    for (unsigned k = 0; k < n; ++k) {
      // In place the gaps keep what the buffer held.
      c.want[k] = in_place ? c.send[k] : filled(extent(rc[k], rd[k]), t);
      for (unsigned j = 0; j < n; ++j) copy_elems(c.want[k], rd[k][j], c.send[j], sd[j][k], p[j][k], eb);
      c.recv[k] = in_place ? c.send[k] : filled(extent(rc[k], rd[k]), t);
    }
    c.run = [t, in_place, p, sd, rc, rd](Communicator& comm, unsigned k, Check& ch) {
      if (in_place)
        comm.alltoallv(Communicator::kInPlace, {}, {}, ch.recv[k].data(), rc[k], rd[k], t);
      else
        comm.alltoallv(ch.send[k].data(), p[k], sd[k], ch.recv[k].data(), rc[k], rd[k], t);
    };
  }

  void scatterv(Datatype t, unsigned root, bool vector, bool in_place) {
    const size_t eb = elem(t);
    const size_t count = 1 + rng() % 3;
    const Sizes sc = vector ? counts(n) : Sizes(n, count);
    Sizes d(n);
    if (vector) d = displs(sc);
    else
      for (unsigned j = 0; j < n; ++j) d[j] = j * count;
    Check& c = add(std::string(vector ? "scatterv " : "scatter ") + to_string(t) + " root " + std::to_string(root) +
                   (in_place ? " in place" : ""));
    c.send[root] = input(t, Op::Sum, root, extent(sc, d));
    for (unsigned k = 0; k < n; ++k) {
      if (k == root && in_place) continue;  // nothing received
      c.want[k] = filled(sc[k], t);
      copy_elems(c.want[k], 0, c.send[root], d[k], sc[k], eb);
      c.recv[k] = filled(sc[k], t);
    }
    c.run = [t, root, vector, in_place, sc, d, count](Communicator& comm, unsigned k, Check& ch) {
      void* recv = k == root && in_place ? Communicator::kInPlace : ch.recv[k].data();
      const void* send = k == root ? ch.send[k].data() : nullptr;
      if (vector)
        comm.scatterv(send, k == root ? sc : Sizes{}, k == root ? d : Sizes{}, recv, sc[k], t, root);
      else
        comm.scatter(send, recv, count, t, root);
    };
  }

  void gatherv(Datatype t, unsigned root, bool everyone, bool in_place) {
    const size_t eb = elem(t);
    const Sizes rc = counts(n);
    std::vector<Sizes> d(n);
    for (unsigned k = 0; k < n; ++k) d[k] = displs(rc);  // allgatherv: each rank its own layout
    Check& c = add(std::string(everyone ? "allgatherv " : "gatherv ") + to_string(t) +
                   (everyone ? "" : " root " + std::to_string(root)) + (in_place ? " in place" : ""));
    for (unsigned k = 0; k < n; ++k) c.send[k] = input(t, Op::Sum, k, rc[k]);
    for (unsigned k = 0; k < n; ++k) {
      if (!everyone && k != root) continue;
      c.want[k] = filled(extent(rc, d[k]), t);
      for (unsigned j = 0; j < n; ++j) copy_elems(c.want[k], d[k][j], c.send[j], 0, rc[j], eb);
      c.recv[k] = filled(extent(rc, d[k]), t);
      if (in_place) copy_elems(c.recv[k], d[k][k], c.send[k], 0, rc[k], eb);
    }
    c.run = [t, root, everyone, in_place, rc, d](Communicator& comm, unsigned k, Check& ch) {
      const bool ip = in_place && (everyone || k == root);
      const void* send = ip ? Communicator::kInPlace : ch.send[k].data();
      void* recv = ch.recv[k].empty() ? nullptr : ch.recv[k].data();
      if (everyone)
        comm.allgatherv(send, rc[k], recv, rc, d[k], t);
      else
        comm.gatherv(send, rc[k], recv, k == root ? rc : Sizes{}, k == root ? d[k] : Sizes{}, t, root);
    };
  }

  // The op over all members of element i of their inputs (raw; pairs: value, index).
  std::vector<uint64_t> reduced(Datatype t, Op op, const std::vector<Bytes>& in, size_t count, size_t upto) {
    const bool pairs = driver::is_loc(op);
    std::vector<std::vector<uint64_t>> raw;
    for (unsigned k = 0; k < upto; ++k) raw.push_back(driver::native_to_raw(t, pairs, in[k].data(), count));
    std::vector<uint64_t> r;
    for (size_t i = 0; i < count; ++i) {
      if (pairs) {
        std::vector<std::pair<uint64_t, uint64_t>> v;
        for (unsigned k = 0; k < upto; ++k) v.emplace_back(raw[k][2 * i], raw[k][2 * i + 1]);
        const auto best = reference::reference_loc(t, op, v);
        r.push_back(best.first);
        r.push_back(best.second);
      } else {
        std::vector<uint64_t> v;
        for (unsigned k = 0; k < upto; ++k) v.push_back(raw[k][i]);
        r.push_back(reference::reference_op(t, op, v));
      }
    }
    return r;
  }

  void reduce_scatter(Datatype t, Op op, bool block, bool in_place) {
    const bool pairs = driver::is_loc(op);
    const size_t count = 1 + rng() % 3;
    const Sizes rc = block ? Sizes(n, count) : counts(n);
    const size_t total = std::accumulate(rc.begin(), rc.end(), size_t{0});
    Check& c = add(std::string(block ? "reduce_scatter_block " : "reduce_scatter ") + to_string(t) + " " +
                   to_string(op) + (in_place ? " in place" : ""));
    for (unsigned k = 0; k < n; ++k) c.send[k] = input(t, op, k, total);
    const std::vector<uint64_t> all = reduced(t, op, c.send, total, n);
    size_t at = 0;
    for (unsigned k = 0; k < n; ++k) {
      c.recv[k] = in_place ? c.send[k] : filled(rc[k], t, pairs);
      c.want[k] = c.recv[k];
      if (rc[k]) driver::raw_to_native(t, pairs, all.data() + at * (pairs ? 2 : 1), rc[k], c.want[k].data());
      at += rc[k];
    }
    c.run = [t, op, block, in_place, rc, count](Communicator& comm, unsigned k, Check& ch) {
      const void* send = in_place ? Communicator::kInPlace : ch.send[k].data();
      void* recv = ch.recv[k].empty() ? nullptr : ch.recv[k].data();
      if (block)
        comm.reduce_scatter_block(send, recv, count, t, op);
      else
        comm.reduce_scatter(send, recv, rc, t, op);
    };
  }

  // reduce, allreduce, scan, exscan with prod.
  void prod(const std::string& which, Datatype t, unsigned root) {
    const size_t count = 1 + rng() % 4;
    Check& c = add(which + " prod " + to_string(t) + (which == "reduce" ? " root " + std::to_string(root) : ""));
    for (unsigned k = 0; k < n; ++k) c.send[k] = input(t, Op::Prod, k, count);
    for (unsigned k = 0; k < n; ++k) {
      c.recv[k] = filled(count, t);
      size_t upto = n;
      if (which == "reduce" && k != root) continue;
      if (which == "scan") upto = k + 1;
      if (which == "exscan") upto = k;
      if (upto == 0) continue;
      const std::vector<uint64_t> r = reduced(t, Op::Prod, c.send, count, upto);
      c.want[k] = c.recv[k];
      driver::raw_to_native(t, false, r.data(), count, c.want[k].data());
    }
    c.run = [which, t, root, count](Communicator& comm, unsigned k, Check& ch) {
      const void* s = ch.send[k].data();
      void* r = ch.recv[k].data();
      if (which == "reduce") comm.reduce(s, r, count, t, Op::Prod, root);
      if (which == "allreduce") comm.allreduce(s, r, count, t, Op::Prod);
      if (which == "scan") comm.scan(s, r, count, t, Op::Prod);
      if (which == "exscan") comm.exscan(s, r, count, t, Op::Prod);
    };
  }
};

using Case = test::MachineCase;

// Every check for a communicator of n ranks. On large ones the torus collectives (one
// message per pair of ranks) take fewer types.
void build(Builder& b) {
  const unsigned n = b.n;
  const auto& types = driver::all_datatypes();
  const bool big = n > 40;
  unsigned i = 0;
  for (Datatype t : types) {
    const bool torus_too = !big || i % 4 == 0;
    const unsigned root = static_cast<unsigned>(b.rng() % n);
    const bool in_place = i % 2 == 1;
    if (torus_too) {
      b.alltoall(t, i % 3, in_place);  // count 0 on every third type
      b.alltoallv(t, in_place);
      b.scatterv(t, root, false, in_place);
      b.scatterv(t, (root + 1) % n, true, !in_place);
    }
    b.gatherv(t, root, false, in_place);
    b.gatherv(t, root, true, !in_place);
    for (Op op : driver::all_ops())
      if (driver::accepts(op, t)) b.reduce_scatter(t, op, false, (i + static_cast<unsigned>(op)) % 3 == 0);
    b.reduce_scatter(t, Op::Sum, true, in_place);
    b.reduce_scatter(t, Op::Prod, true, !in_place);
    b.reduce_scatter(t, Op::Maxloc, true, false);
    for (const char* w : {"reduce", "allreduce", "scan", "exscan"}) b.prod(w, t, (root + 2) % n);
    ++i;
  }
}

std::string run_checks(const Case& c, uint64_t seed) {
  sim::Machine model(test::machine_config(c.shape, c.tasks, 20'000'000));
  driver::Job job(model);
  const unsigned world = model.nodes() * c.tasks;
  const unsigned n = c.subset.empty() ? world : static_cast<unsigned>(c.subset.size());
  Builder b{n, std::mt19937_64(seed ^ (uint64_t{n} << 32) ^ c.tasks), seed, {}};
  build(b);
  std::vector<std::string> failure(n);
  const driver::RunReport rep = job.run([&](driver::Task& t) {
    std::optional<Communicator> sub = c.subset.empty() ? std::nullopt : t.world().create(c.subset);
    if (!c.subset.empty() && !sub) return;
    Communicator& comm = sub ? *sub : t.world();
    const unsigned k = comm.rank();
    for (Check& ch : b.checks) {
      try {
        ch.run(comm, k, ch);
      } catch (const std::exception& e) {
        failure[k] = ch.name + ": " + e.what();
        throw;
      }
    }
    comm.barrier();
  });
  if (!rep.ok) return "run failed: " + rep.error;
  std::ostringstream bad;
  unsigned wrong = 0;
  for (const Check& ch : b.checks)
    for (unsigned k = 0; k < n; ++k) {
      if (ch.want[k].empty()) continue;
      if (ch.recv[k] != ch.want[k]) {
        size_t at = 0;
        while (at < ch.want[k].size() && ch.recv[k][at] == ch.want[k][at]) ++at;
        if (wrong++ < 6)
          bad << ch.name << ": rank " << k << " byte " << at << " of " << ch.want[k].size() << " expected "
              << int(ch.want[k][at]) << " got " << int(ch.recv[k][at]) << "; ";
      }
    }
  if (wrong) return std::to_string(wrong) + " wrong results: " + bad.str();
  return "ok " + std::to_string(b.checks.size()) + " collectives on " + std::to_string(n) + " ranks in " +
         std::to_string(rep.cycles) + " cycles";
}

class VectorCollectives : public ::testing::TestWithParam<Case> {};

TEST_P(VectorCollectives, EveryCollectiveTypeAndOpMatchesTheReference) {
  const Case c = GetParam();
  const uint64_t seed = 20261122;
  std::printf("[ seed     ] %llu\n", static_cast<unsigned long long>(seed));
  const auto r = test::run_isolated([&] { return run_checks(c, seed); });
  ASSERT_TRUE(r.exited) << r.report;
  EXPECT_EQ(r.report.substr(0, 3), "ok ") << r.report;
  std::printf("[ checks   ] %s\n", r.report.c_str());
}

INSTANTIATE_TEST_SUITE_P(NodesTasksAndSubsets, VectorCollectives,
                         ::testing::Values(Case{"1x1x1", 1, {}}, Case{"2x1x1", 1, {}}, Case{"3x1x1", 1, {}},
                                           Case{"7x1x1", 1, {}}, Case{"2x2x2", 1, {}}, Case{"3x3x3", 1, {}},
                                           Case{"4x4x4", 1, {}}, Case{"1x1x1", 4, {}}, Case{"2x2x2", 4, {}},
                                           Case{"3x3x3", 1, {0, 5, 6, 11, 20}},
                                           Case{"2x2x2", 4, {1, 2, 3, 12, 21, 30, 31}}),
                         test::machine_case_name<Case>);

// Misuse: each raises collnet::Error naming the call and the argument, on every rank,
// and the machine goes on to the next collective.
TEST(VectorCollectives, BadArgumentsNameTheCallAndTheArgument) {
  const auto r = test::run_isolated([]() -> std::string {
    sim::Machine model(test::machine_config("3x1x1", 2, 5'000'000));
    driver::Job job(model);
    std::vector<std::string> seen(6);
    const driver::RunReport rep = job.run([&](driver::Task& t) {
      Communicator& c = t.world();
      const unsigned n = c.size(), k = c.rank();
      std::vector<uint64_t> a(64, 1), b(64, 0);
      auto expect = [&](const std::string& want, const std::function<void()>& f) {
        try {
          f();
        } catch (const Error& e) {
          if (std::string(e.what()).find(want) == std::string::npos)
            throw Error("expected an error containing '" + want + "', got: " + e.what());
          return;
        }
        throw Error("expected an error containing '" + want + "', got none");
      };
      expect("alltoallv: recvcounts holds 2 entries", [&] {
        c.alltoallv(a.data(), Sizes(n, 1), Sizes(n, 0), b.data(), Sizes(2, 1), Sizes(2, 0), Datatype::U64);
      });
      expect("alltoall: the send buffer is null", [&] { c.alltoall(nullptr, b.data(), 2, Datatype::U64); });
      expect("allgatherv: the blocks of ranks 0 and 1 overlap", [&] {
        c.allgatherv(a.data(), 1, b.data(), Sizes(n, 1), Sizes(n, 0), Datatype::U64);
      });
      // The root's recvcounts disagree with what rank 1 sends: every rank learns it.
      expect("gatherv: rank 1 sends 2 elements but recvcounts[1] on the root is 1", [&] {
        Sizes rc(n, 1), d(n);
        for (unsigned j = 0; j < n; ++j) d[j] = 2 * j;
        c.gatherv(a.data(), k == 1 ? 2 : 1, b.data(), rc, d, Datatype::U64, 0);
      });
      expect("reduce_scatter: the send buffer is null", [&] {
        c.reduce_scatter(nullptr, b.data(), Sizes(n, 1), Datatype::U64, Op::Sum);
      });
      expect("scatterv: only the root may pass kInPlace", [&] {
        if (k == 0) throw Error("scatterv: only the root may pass kInPlace");  // the root would send
        c.scatterv(nullptr, {}, {}, Communicator::kInPlace, 1, Datatype::U64, 0);
      });
      expect("reduce_scatter_block: op band cannot reduce f64", [&] {
        c.reduce_scatter_block(a.data(), b.data(), 1, Datatype::F64, Op::Band);
      });
      // Zero counts everywhere, a one-element exchange after the errors: still in step.
      c.alltoall(a.data(), b.data(), 0, Datatype::U32);
      c.reduce_scatter(a.data(), b.data(), Sizes(n, 0), Datatype::U8, Op::Prod);
      c.alltoall(a.data(), b.data(), 1, Datatype::U64);
      if (k == 0) seen[0] = "ok";
    });
    if (!rep.ok) return "run failed: " + rep.error;
    return seen[0];
  });
  ASSERT_TRUE(r.exited) << r.report;
  EXPECT_EQ(r.report, "ok");
}

}  // namespace
}  // namespace collnet
