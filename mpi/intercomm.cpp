// SPDX-License-Identifier: Apache-2.0
// Intercommunicators: MPI_Intercomm_create and _merge, the remote group's calls,
// MPI_Comm_create_group (which builds communicators the same way: among their members
// only), and the collectives on an intercommunicator (intercomm.hpp).
#include "mpi/intercomm.hpp"

#include <algorithm>
#include <numeric>

#include "mpi/api_support.hpp"
#include "mpi/coprocessor_work.hpp"

using namespace collnet::mpi;
namespace drv = collnet::driver;

namespace {

constexpr unsigned kTag = 0;  // every collective message: they meet in the same order on both sides

// Part of a program's buffer: `count` elements of `t` at `at`.
struct Block {
  const TypeDesc* t = nullptr;
  uint8_t* at = nullptr;
  size_t count = 0;
  size_t bytes() const { return count * t->packed; }
};
using Blocks = std::vector<std::optional<Block>>;  // by rank of the other group

// Sends sends[j] to the other group's rank j and receives recvs[j] from it (where set),
// packed; returns the received blocks packed, by rank (for the reductions).
std::vector<std::vector<uint8_t>> exchange(Rank& r, CommEntry& c, const Blocks& sends, const Blocks& recvs,
                                           bool keep_packed = false) {
  CommEntry::Inter& x = *c.inter;
  drv::Communicator& coll = *x.coll;
  after_posted(r, coll);
  std::vector<std::vector<uint8_t>> in(x.remote_size), out(x.remote_size);
  std::vector<drv::Request> reqs;
  for (unsigned j = 0; j < x.remote_size; ++j) {
    if (!recvs[j]) continue;
    in[j].resize(recvs[j]->bytes());
    reqs.push_back(coll.irecv(in[j].data(), in[j].size(), drv::Datatype::U8, x.remote_offset + j, kTag));
  }
  for (unsigned j = 0; j < x.remote_size; ++j) {
    if (!sends[j]) continue;
    out[j].resize(sends[j]->bytes());
    pack(*sends[j]->t, sends[j]->at, sends[j]->count, out[j].data());
    r.bytes_sent += out[j].size();
    reqs.push_back(coll.isend(out[j].data(), out[j].size(), drv::Datatype::U8, x.remote_offset + j, kTag));
  }
  coll.waitall(reqs);
  for (unsigned j = 0; j < x.remote_size; ++j) {
    if (!recvs[j]) continue;
    r.bytes_received += in[j].size();
    if (!keep_packed) unpack(*recvs[j]->t, in[j].data(), recvs[j]->count, recvs[j]->at);
  }
  return in;
}

enum class Role { Root, Idle, Leaf };  // MPI_ROOT, MPI_PROC_NULL, a rank of the root's group's partner
Role role(CommEntry& c, int root) {
  if (root == MPI_ROOT) return Role::Root;
  if (root == MPI_PROC_NULL) return Role::Idle;
  if (root < 0 || root >= static_cast<int>(c.inter->remote_size))
    fail(MPI_ERR_ROOT, "root " + std::to_string(root) +
                           " is not MPI_ROOT, MPI_PROC_NULL or a rank of the remote group (size " +
                           std::to_string(c.inter->remote_size) + ")");
  return Role::Leaf;
}

Block block(const TypeDesc& t, const void* buf, size_t count, size_t index_elements = 0) {
  return Block{&t, static_cast<uint8_t*>(const_cast<void*>(buf)) + static_cast<ptrdiff_t>(index_elements) * t.extent,
               count};
}

// One block per rank of the other group: `counts[j]` (or `count`) elements of `t` at
// `displs[j]` (or j * count) elements into `buf` (a v-form's or a plain form's layout).
Blocks laid_out(const TypeDesc& t, const void* buf, unsigned n, int count, const int* counts, const int* displs,
                const char* what) {
  Blocks out(n);
  for (unsigned j = 0; j < n; ++j) {
    const int k = counts ? counts[j] : count;
    check_count(k, what);
    out[j] = block(t, buf, as_size(k), displs ? as_size(displs[j]) : j * as_size(count));
  }
  return out;
}

// The other group's contributions folded in their rank order: c0 op (c1 op (...)).
std::vector<uint8_t> fold(Rank& r, const TypeDesc& t, MPI_Datatype handle, MPI_Op op, size_t count,
                          std::vector<std::vector<uint8_t>>& parts) {
  std::vector<uint8_t> acc = std::move(parts.back());
  for (size_t j = parts.size() - 1; j-- > 0;) combine_packed(r, op, t, handle, parts[j].data(), acc.data(), count);
  return acc;
}


}  // namespace

namespace collnet::mpi::inter {

void barrier(CommEntry& c) { c.inter->coll->barrier(); }

void bcast(Rank& r, CommEntry& c, void* buf, int count, MPI_Datatype type, int root) {
  check_count(count);
  const TypeDesc& t = r.type(type);
  const Role role_here = role(c, root);
  Blocks sends(c.inter->remote_size), recvs(c.inter->remote_size);
  if (role_here != Role::Idle) check_buffer(buf, as_size(count), t);
  if (role_here == Role::Root) std::fill(sends.begin(), sends.end(), block(t, buf, as_size(count)));
  if (role_here == Role::Leaf) recvs[static_cast<size_t>(root)] = block(t, buf, as_size(count));
  exchange(r, c, sends, recvs);
}

void reduce(Rank& r, CommEntry& c, const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op,
            std::optional<int> root) {
  check_count(count);
  const TypeDesc& t = r.type(type);
  if (op == MPI_OP_NULL) fail(MPI_ERR_OP, "op is MPI_OP_NULL");
  const size_t n = as_size(count);
  const Role role_here = root ? role(c, *root) : Role::Leaf;
  const unsigned others = c.inter->remote_size;
  Blocks sends(others), recvs(others);
  const bool receives = !root || role_here == Role::Root;
  if (!root || role_here == Role::Leaf) {
    check_buffer(send, n, t, "send buffer");
    if (root)
      sends[static_cast<size_t>(*root)] = block(t, send, n);
    else
      std::fill(sends.begin(), sends.end(), block(t, send, n));
  }
  if (receives) {
    check_buffer(recv, n, t, "receive buffer");
    std::fill(recvs.begin(), recvs.end(), block(t, recv, n));
  }
  std::vector<std::vector<uint8_t>> parts = exchange(r, c, sends, recvs, true);
  if (!receives) return;
  const std::vector<uint8_t> out = fold(r, t, type, op, n, parts);
  unpack(t, out.data(), n, recv);
}

void gather(Rank& r, CommEntry& c, const void* send, int scount, MPI_Datatype stype, void* recv, int rcount,
            const int* rcounts, const int* displs, MPI_Datatype rtype, std::optional<int> root) {
  const Role role_here = root ? role(c, *root) : Role::Leaf;
  const unsigned others = c.inter->remote_size;
  Blocks sends(others), recvs(others);
  if (!root || role_here == Role::Leaf) {
    check_count(scount, "sendcount");
    const TypeDesc& st = r.type(stype, "sendtype");
    check_buffer(send, as_size(scount), st, "send buffer");
    if (root)
      sends[static_cast<size_t>(*root)] = block(st, send, as_size(scount));
    else
      std::fill(sends.begin(), sends.end(), block(st, send, as_size(scount)));
  }
  if (!root || role_here == Role::Root)
    recvs = laid_out(r.type(rtype, "recvtype"), recv, others, rcount, rcounts, displs, "recvcount");
  exchange(r, c, sends, recvs);
}

void scatter(Rank& r, CommEntry& c, const void* send, int scount, const int* scounts, const int* displs,
             MPI_Datatype stype, void* recv, int rcount, MPI_Datatype rtype, int root) {
  const Role role_here = role(c, root);
  const unsigned others = c.inter->remote_size;
  Blocks sends(others), recvs(others);
  if (role_here == Role::Root)
    sends = laid_out(r.type(stype, "sendtype"), send, others, scount, scounts, displs, "sendcount");
  if (role_here == Role::Leaf) {
    check_count(rcount, "recvcount");
    const TypeDesc& rt = r.type(rtype, "recvtype");
    check_buffer(recv, as_size(rcount), rt, "receive buffer");
    recvs[static_cast<size_t>(root)] = block(rt, recv, as_size(rcount));
  }
  exchange(r, c, sends, recvs);
}

void alltoall(Rank& r, CommEntry& c, const void* send, int scount, const int* scounts, const int* sdispls,
              MPI_Datatype stype, void* recv, int rcount, const int* rcounts, const int* rdispls, MPI_Datatype rtype) {
  if (send == MPI_IN_PLACE) fail(MPI_ERR_BUFFER, "MPI_IN_PLACE is not allowed on an intercommunicator");
  const unsigned others = c.inter->remote_size;
  exchange(r, c, laid_out(r.type(stype, "sendtype"), send, others, scount, scounts, sdispls, "sendcount"),
           laid_out(r.type(rtype, "recvtype"), recv, others, rcount, rcounts, rdispls, "recvcount"));
}

void alltoallw(Rank& r, CommEntry& c, const void* send, const int* scounts, const int* sdispls,
               const MPI_Datatype* stypes, void* recv, const int* rcounts, const int* rdispls,
               const MPI_Datatype* rtypes) {
  if (send == MPI_IN_PLACE) fail(MPI_ERR_BUFFER, "MPI_IN_PLACE is not allowed on an intercommunicator");
  const unsigned others = c.inter->remote_size;
  // Block j: counts[j] elements of types[j] at byte displacement displs[j].
  auto laid_out_w = [&](const void* buf, const int* counts, const int* displs, const MPI_Datatype* types,
                        const char* what) {
    if (others > 0 && (!counts || !displs || !types))
      fail(MPI_ERR_ARG, std::string(what) + "s, their displacements or types are null");
    Blocks out(others);
    for (unsigned j = 0; j < others; ++j) {
      check_count(counts[j], what);
      out[j] = Block{&r.type(types[j], "a datatypes entry"),
                     static_cast<uint8_t*>(const_cast<void*>(buf)) + displs[j], as_size(counts[j])};
    }
    return out;
  };
  exchange(r, c, laid_out_w(send, scounts, sdispls, stypes, "sendcount"),
           laid_out_w(recv, rcounts, rdispls, rtypes, "recvcount"));
}

void reduce_scatter(Rank& r, CommEntry& c, const void* send, void* recv, const std::vector<size_t>& counts,
                    MPI_Datatype type, MPI_Op op) {
  const TypeDesc& t = r.type(type);
  if (send == MPI_IN_PLACE) fail(MPI_ERR_BUFFER, "MPI_IN_PLACE is not allowed on an intercommunicator");
  const size_t total = std::accumulate(counts.begin(), counts.end(), size_t{0});
  const unsigned others = c.inter->remote_size;
  check_buffer(send, total, t, "send buffer");
  Blocks sends(others, block(t, send, total)), recvs(others, block(t, send, total));
  std::vector<std::vector<uint8_t>> parts = exchange(r, c, sends, recvs, true);
  const std::vector<uint8_t> out = fold(r, t, type, op, total, parts);
  const size_t me = static_cast<size_t>(comm_rank(c));
  const size_t at = std::accumulate(counts.begin(), counts.begin() + static_cast<ptrdiff_t>(me), size_t{0});
  check_buffer(recv, counts[me], t, "receive buffer");
  unpack(t, out.data() + at * t.packed, counts[me], recv);
}

}  // namespace collnet::mpi::inter

MPI_Comm collnet::mpi::inter::bridge(Rank& r, MPI_Errhandler errhandler, const std::vector<unsigned>& local,
                                     const std::vector<unsigned>& remote) {
  for (unsigned w : remote)
    if (std::find(local.begin(), local.end(), w) != local.end())
      fail(MPI_ERR_COMM, "world rank " + std::to_string(w) + " is in both groups (they must be disjoint)");
  // Both groups in one communicator, the one holding the lower world rank first.
  const unsigned lowest_mine = *std::min_element(local.begin(), local.end());
  const bool mine_first = remote.empty() || lowest_mine < *std::min_element(remote.begin(), remote.end());
  std::vector<unsigned> all;
  const std::vector<unsigned>& a = mine_first ? local : remote;
  const std::vector<unsigned>& b = mine_first ? remote : local;
  all.insert(all.end(), a.begin(), a.end());
  all.insert(all.end(), b.begin(), b.end());
  drv::Communicator both = r.task().world().of_members(all);
  auto coll = std::make_shared<drv::Communicator>(both.dup());
  CommEntry::Inter x;
  x.local_size = static_cast<unsigned>(local.size());
  x.remote_size = static_cast<unsigned>(remote.size());
  x.local_offset = mine_first ? 0 : x.remote_size;
  x.remote_offset = mine_first ? x.local_size : 0;
  x.coll = std::move(coll);
  const MPI_Comm out = r.add_comm(std::move(both));
  r.comm_slot(out).inter = std::move(x);
  r.comm_slot(out).errhandler = errhandler;
  return out;
}

extern "C" {

int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm* newcomm) {
  return api("MPI_Comm_create_group", comm, [&](Rank& r) {
    CommEntry& c = r.comm(comm);
    if (c.inter) fail(MPI_ERR_COMM, "MPI_Comm_create_group takes an intracommunicator");
    check_tag(tag, false);
    const std::vector<unsigned> g = r.group(group);
    const std::vector<unsigned> m = members(r, c);
    for (unsigned w : g)
      if (std::find(m.begin(), m.end(), w) == m.end())
        fail(MPI_ERR_GROUP, "the group holds world rank " + std::to_string(w) + ", which is not in the communicator");
    if (g.empty()) {
      *newcomm = MPI_COMM_NULL;
      return;
    }
    if (std::find(g.begin(), g.end(), r.world_rank()) == g.end())
      fail(MPI_ERR_GROUP, "this rank is not in the group (only its members call MPI_Comm_create_group)");
    const MPI_Errhandler eh = c.errhandler;
    MPI_Comm out;
    if (c.self) {
      out = r.add_comm(*c.comm);
      r.comm_slot(out).self = true;
    } else {
      out = r.add_comm(r.task().world().of_members(g));
    }
    r.comm_slot(out).errhandler = eh;
    *newcomm = out;
  });
}

int MPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm, int remote_leader, int tag,
                         MPI_Comm* newintercomm) {
  return api("MPI_Intercomm_create", local_comm, [&](Rank& r) {
    CommEntry& lc = r.comm(local_comm, "local_comm");
    if (lc.inter) fail(MPI_ERR_COMM, "local_comm is an intercommunicator");
    check_root(local_leader, comm_size(lc));
    check_tag(tag, false);
    const std::vector<unsigned> local = members(r, lc);
    // The leaders swap their groups over peer_comm; each tells its group.
    std::vector<uint64_t> remote;
    const bool leader = comm_rank(lc) == local_leader;
    if (leader) {
      CommEntry& pc = r.comm(peer_comm, "peer_comm");
      check_rank(remote_leader, comm_size(pc), "remote_leader");
      drv::Communicator& peer = *pc.comm;
      const unsigned other = pc.self ? r.world_rank() : static_cast<unsigned>(remote_leader);
      const std::vector<uint64_t> mine(local.begin(), local.end());
      uint64_t n_mine = mine.size(), n_theirs = 0;
      peer.sendrecv(&n_mine, 1, drv::Datatype::U64, other, static_cast<unsigned>(tag), &n_theirs, 1,
                    drv::Datatype::U64, other, static_cast<unsigned>(tag));
      remote.resize(n_theirs);
      peer.sendrecv(mine.data(), mine.size(), drv::Datatype::U64, other, static_cast<unsigned>(tag), remote.data(),
                    remote.size(), drv::Datatype::U64, other, static_cast<unsigned>(tag));
    }
    if (!lc.self) {
      uint64_t n = remote.size();
      lc.comm->bcast(&n, 1, drv::Datatype::U64, static_cast<unsigned>(local_leader));
      remote.resize(n);
      if (n) lc.comm->bcast(remote.data(), n, drv::Datatype::U64, static_cast<unsigned>(local_leader));
    }
    const std::vector<unsigned> theirs(remote.begin(), remote.end());
    const MPI_Comm out = inter::bridge(r, lc.errhandler, local, theirs);
    *newintercomm = out;
  });
}

int MPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm* newintracomm) {
  return api("MPI_Intercomm_merge", intercomm, [&](Rank& r) {
    CommEntry& c = r.comm(intercomm, "intercomm");
    if (!c.inter) fail(MPI_ERR_COMM, "intercomm is not an intercommunicator");
    // The group passing high = 0 first (the lower-leader group first when both pass the same).
    const unsigned n = c.comm->size();
    const int key = (high ? 1 : 0) * static_cast<int>(n) + static_cast<int>(c.comm->rank());
    const MPI_Errhandler eh = c.errhandler;
    std::optional<drv::Communicator> merged = c.comm->split(0, key);
    const MPI_Comm out = r.add_comm(std::move(*merged));
    r.comm_slot(out).errhandler = eh;
    *newintracomm = out;
  });
}

int MPI_Comm_test_inter(MPI_Comm comm, int* flag) {
  return api("MPI_Comm_test_inter", comm, [&](Rank& r) { *flag = r.comm(comm).inter.has_value(); });
}

int MPI_Comm_remote_size(MPI_Comm comm, int* size) {
  return api("MPI_Comm_remote_size", comm, [&](Rank& r) {
    CommEntry& c = r.comm(comm);
    if (!c.inter) fail(MPI_ERR_COMM, "the communicator is not an intercommunicator");
    *size = static_cast<int>(c.inter->remote_size);
  });
}

int MPI_Comm_remote_group(MPI_Comm comm, MPI_Group* group) {
  return api("MPI_Comm_remote_group", comm, [&](Rank& r) {
    CommEntry& c = r.comm(comm);
    if (!c.inter) fail(MPI_ERR_COMM, "the communicator is not an intercommunicator");
    std::vector<unsigned> g(c.inter->remote_size);
    for (unsigned j = 0; j < g.size(); ++j) g[j] = c.comm->world_rank(c.inter->remote_offset + j);
    *group = r.add_group(std::move(g));
  });
}

}  // extern "C"
