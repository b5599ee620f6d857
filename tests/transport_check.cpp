// SPDX-License-Identifier: Apache-2.0
// Run under Open MPI's launcher (mpirun -np P, P >= 2): every Transport call between the
// processes, checked, and this executable's own MPI_* (as collnet's, exported to the
// programs mpirun loads) never called by Open MPI. Prints "transport: P processes ok".
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "systemc/transport.hpp"

// Exported like collnet's own MPI (-rdynamic): Open MPI, in its namespace, must not bind to them.
extern "C" {
#define COLLIDE(name)                                                   \
  int name() {                                                          \
    std::fprintf(stderr, "FAIL: Open MPI called the executable's " #name "\n"); \
    std::_Exit(3);                                                      \
  }
COLLIDE(MPI_Init)
COLLIDE(MPI_Init_thread)
COLLIDE(MPI_Allreduce)
COLLIDE(PMPI_Allreduce)
COLLIDE(MPI_Comm_rank)
COLLIDE(MPI_Isend)
COLLIDE(MPI_Wtime)
COLLIDE(PMPI_Wtime)
}

namespace {
int failures = 0;
void expect(bool ok, const char* what, unsigned rank) {
  if (!ok) {
    std::fprintf(stderr, "FAIL: process %u: %s\n", rank, what);
    ++failures;
  }
}
}  // namespace

int main() {
  using collnet::sim::Transport;
  if (Transport::launched_processes() < 2) {
    std::fprintf(stderr, "run under mpirun -np P with P >= 2\n");
    return 2;
  }
  try {
    auto t = Transport::join();
    const unsigned r = t->rank(), p = t->size();
    expect(p == Transport::launched_processes(), "size is OMPI_COMM_WORLD_SIZE", r);
    // A round with both ring neighbours: r sends r + 1 bytes of value r to each (the next
    // one gets nothing when r is odd: empty messages count too).
    const unsigned next = (r + 1) % p, prev = (r + p - 1) % p;
    std::vector<unsigned> peers{next};
    std::vector<Transport::Bytes> sends{Transport::Bytes(r % 2 ? 0 : r + 1, static_cast<uint8_t>(r))};
    if (prev != next) {
      peers.push_back(prev);
      sends.emplace_back(r + 1, static_cast<uint8_t>(r));
    }
    const std::vector<Transport::Bytes> got = t->exchange(peers, sends, 7);
    expect(got.size() == peers.size(), "one message per peer", r);
    if (prev != next) {
      // From next (it sent to its prev, which is r): next + 1 bytes of next.
      expect(got[0] == Transport::Bytes(next + 1, static_cast<uint8_t>(next)), "the message from the next process", r);
      expect(got[1] == Transport::Bytes(prev % 2 ? 0 : prev + 1, static_cast<uint8_t>(prev)),
             "the message from the previous process", r);
    }
    std::vector<uint64_t> v{r, uint64_t{1} << 40 | r, 5};
    t->allreduce(v, Transport::Op::Sum);
    expect(v[0] == uint64_t{p} * (p - 1) / 2 && v[2] == 5u * p, "allreduce sum", r);
    expect(t->allreduce(r * 3, Transport::Op::Max) == 3u * (p - 1), "allreduce max", r);
    expect(t->allreduce(r + 10, Transport::Op::Min) == 10u, "allreduce min", r);
    const std::vector<Transport::Bytes> all = t->gather(Transport::Bytes(r * 1000, static_cast<uint8_t>(r + 1)));
    if (r == 0) {
      expect(all.size() == p, "gather: one part per process", r);
      for (unsigned q = 0; q < all.size(); ++q)
        expect(all[q] == Transport::Bytes(q * 1000, static_cast<uint8_t>(q + 1)), "gather: process q's bytes", r);
    } else {
      expect(all.empty(), "gather: nothing away from the root", r);
    }
    const Transport::Bytes b = t->broadcast(r == 0 ? Transport::Bytes{1, 2, 3, 4, 5} : Transport::Bytes{});
    expect(b == Transport::Bytes{1, 2, 3, 4, 5}, "broadcast", r);
    t->barrier();
    const uint64_t failed = t->allreduce(static_cast<uint64_t>(failures), Transport::Op::Sum);
    if (r == 0 && failed == 0) std::printf("transport: %u processes ok\n", p);
    return failed == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "FAIL: %s\n", e.what());
    return 1;
  }
}
