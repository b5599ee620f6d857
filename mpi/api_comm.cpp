// SPDX-License-Identifier: Apache-2.0
// mpi.h: communicators and groups. A communicator is the driver's (driver/communicator.hpp,
// docs/communicators.md); a group is a list of world ranks kept by the rank that made it.
#include <algorithm>
#include <cstdio>
#include <string>

#include "mpi/api_support.hpp"
#include "mpi/coprocessor_work.hpp"
#include "mpi/attributes.hpp"
#include "mpi/intercomm.hpp"

using namespace collnet::mpi;
namespace drv = collnet::driver;

std::vector<unsigned> collnet::mpi::members(Rank& r, CommEntry& c) {
  if (c.self) return {r.world_rank()};
  const unsigned first = c.inter ? c.inter->local_offset : 0;
  std::vector<unsigned> m(c.inter ? c.inter->local_size : c.comm->size());
  for (unsigned i = 0; i < m.size(); ++i) m[i] = c.comm->world_rank(first + i);
  return m;
}

namespace {

int index_of(const std::vector<unsigned>& v, unsigned w) {
  auto it = std::find(v.begin(), v.end(), w);
  return it == v.end() ? MPI_UNDEFINED : static_cast<int>(it - v.begin());
}

bool contains(const std::vector<unsigned>& v, unsigned w) { return std::find(v.begin(), v.end(), w) != v.end(); }

// MPI_IDENT, MPI_SIMILAR or MPI_UNEQUAL for two lists of world ranks.
int compare_lists(std::vector<unsigned> a, std::vector<unsigned> b) {
  if (a == b) return MPI_IDENT;
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  return a == b ? MPI_SIMILAR : MPI_UNEQUAL;
}

// The group's ranks `ranks[0..n)` checked: in range and (`distinct`) no repeats.
std::vector<unsigned> picked(const std::vector<unsigned>& g, int n, const int ranks[], const char* what) {
  check_count(n, "n");
  std::vector<bool> seen(g.size());
  std::vector<unsigned> out;
  for (int i = 0; i < n; ++i) {
    const int k = ranks[i];
    if (k < 0 || static_cast<size_t>(k) >= g.size())
      fail(MPI_ERR_RANK, std::string(what) + "[" + std::to_string(i) + "] = " + std::to_string(k) +
                             " is not a rank of the group (size " + std::to_string(g.size()) + ")");
    if (seen[k]) fail(MPI_ERR_RANK, std::string(what) + " names rank " + std::to_string(k) + " twice");
    seen[k] = true;
    out.push_back(static_cast<unsigned>(k));
  }
  return out;
}

// The group ranks `ranges[0..n)` name, each (first, last, stride), in order; every one in
// range and (like picked) none twice.
std::vector<int> expanded(const std::vector<unsigned>& g, int n, const int ranges[][3]) {
  check_count(n, "n");
  std::vector<int> out;
  for (int i = 0; i < n; ++i) {
    const int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
    const std::string which = "ranges[" + std::to_string(i) + "] (" + std::to_string(first) + ", " +
                              std::to_string(last) + ", " + std::to_string(stride) + ")";
    if (stride == 0) fail(MPI_ERR_ARG, which + " has stride 0");
    if ((stride > 0 && first > last) || (stride < 0 && first < last))
      fail(MPI_ERR_ARG, which + " steps away from its last rank");
    for (long k = first; stride > 0 ? k <= last : k >= last; k += stride) {
      if (k < 0 || static_cast<size_t>(k) >= g.size())
        fail(MPI_ERR_RANK, which + " names rank " + std::to_string(k) + ", not a rank of the group (size " +
                               std::to_string(g.size()) + ")");
      out.push_back(static_cast<int>(k));
    }
  }
  return out;
}

// MPI_Comm_dup's work: a communicator of the same ranks, with its error handler and topology.
MPI_Comm duplicate(Rank& r, MPI_Comm comm) {
  CommEntry& c = r.comm(comm);
  const bool self = c.self;
  const MPI_Errhandler eh = c.errhandler;  // add_comm may move c
  const std::optional<Cartesian> cart = c.cart;
  const std::optional<Graph> graph = c.graph;
  std::optional<CommEntry::Inter> inter = c.inter;
  if (inter) inter->coll = std::make_shared<collnet::driver::Communicator>(inter->coll->dup());
  const MPI_Comm out = r.add_comm(self ? *c.comm : c.comm->dup());
  r.comm_slot(out).inter = std::move(inter);
  r.comm_slot(out).self = self;
  r.comm_slot(out).errhandler = eh;
  r.comm_slot(out).cart = cart;
  r.comm_slot(out).graph = graph;
  copy_comm_attributes(r, comm, out);
  return out;
}

// MPI_Comm_free's work, and MPI_Comm_disconnect's (`wait`: every member first reaches it,
// so that nothing sent on the communicator is still on its way).
void free_comm(Rank& r, MPI_Comm* comm, bool wait) {
  if (!comm) fail(MPI_ERR_ARG, "comm is null");
  settle_posted(r);  // a collective posted on it may still use it
  CommEntry& c = r.comm(*comm);
  if (*comm == MPI_COMM_WORLD || *comm == MPI_COMM_SELF)
    fail(MPI_ERR_COMM, std::string("cannot free ") + (*comm == MPI_COMM_WORLD ? "MPI_COMM_WORLD" : "MPI_COMM_SELF"));
  if (wait && !c.self) c.comm->barrier();  // over both groups of an intercommunicator
  delete_comm_attributes(r, *comm);
  if (!c.self) c.comm->free();
  if (c.inter) c.inter->coll->free();
  r.comm_slot(*comm) = CommEntry{};
  *comm = MPI_COMM_NULL;
}

// MPI_Comm_spawn's and _spawn_multiple's refusal (as mpi.h call `name`): `total`
// processes asked for where the universe (the ranks mpirun started) has no room left.
int spawn(const char* name, MPI_Comm comm, int root, long total, MPI_Comm* intercomm, int* errcodes) {
  return api(name, comm, [&](Rank& r) {
    CommEntry& c = r.comm(comm);
    if (c.inter) fail(MPI_ERR_COMM, "processes are spawned from an intracommunicator");
    check_root(root, comm_size(c));
    if (!intercomm) fail(MPI_ERR_ARG, "intercomm is null");
    *intercomm = MPI_COMM_NULL;
    if (errcodes != MPI_ERRCODES_IGNORE)
      for (long i = 0; i < total; ++i) errcodes[i] = MPI_ERR_SPAWN;
    fail(MPI_ERR_SPAWN, "cannot start " + std::to_string(total) +
                            " more processes: collnet runs the ranks collnet mpirun started (MPI_UNIVERSE_SIZE " +
                            std::to_string(r.task().world().size()) + ", all of them running); start them with -n");
  });
}

}  // namespace

namespace {

// MPI_Comm_split (and MPI_Comm_create) on an intercommunicator (MPI-3.1 §6.4.2): each group
// splits by colour, ranked by key (ties by rank), and the part of one group with a colour
// pairs with the other group's part of the same colour in a new intercommunicator; a rank
// without a colour, or whose colour the other group lacks, gets MPI_COMM_NULL.
MPI_Comm split_inter(Rank& r, CommEntry& c, bool member, int color, int key) {
  const CommEntry::Inter x = *c.inter;
  const MPI_Errhandler eh = c.errhandler;
  drv::Communicator& both = *x.coll;  // both groups, each in its rank order
  const std::vector<int64_t> mine{member ? color : -1, key};
  std::vector<int64_t> all(2 * both.size());
  both.allgather(mine.data(), all.data(), 2, drv::Datatype::I64);
  // One group's ranks of colour `color`, in the new rank order, as world ranks.
  const auto part = [&](unsigned first, unsigned n) {
    std::vector<std::pair<int64_t, unsigned>> keyed;  // (key, position in its group)
    for (unsigned i = 0; i < n; ++i)
      if (all[2 * (first + i)] == color) keyed.emplace_back(all[2 * (first + i) + 1], i);
    std::sort(keyed.begin(), keyed.end());
    std::vector<unsigned> world;
    for (const auto& k : keyed) world.push_back(both.world_rank(first + k.second));
    return world;
  };
  if (!member) return MPI_COMM_NULL;
  const std::vector<unsigned> local = part(x.local_offset, x.local_size), remote = part(x.remote_offset, x.remote_size);
  if (remote.empty()) return MPI_COMM_NULL;
  return inter::bridge(r, eh, local, remote);
}

}  // namespace

MPI_Comm collnet::mpi::split_comm(Rank& r, MPI_Comm parent, bool member, int color, int key) {
  CommEntry& c = r.comm(parent);
  if (c.inter) return split_inter(r, c, member, color, key);
  const MPI_Errhandler eh = c.errhandler;  // add_comm may move c
  MPI_Comm out = MPI_COMM_NULL;
  if (c.self) {
    if (!member) return MPI_COMM_NULL;
    // A communicator of this rank alone: it shares MPI_COMM_SELF's transport.
    out = r.add_comm(*c.comm);
    r.comm_slot(out).self = true;
  } else {
    std::optional<collnet::driver::Communicator> n =
        c.comm->split(member ? color : collnet::driver::Communicator::kUndefined, key);
    if (!n) return MPI_COMM_NULL;
    out = r.add_comm(std::move(*n));
  }
  r.comm_slot(out).errhandler = eh;
  return out;
}

extern "C" {

int MPI_Comm_rank(MPI_Comm comm, int* rank) {
  return api("MPI_Comm_rank", comm, [&](Rank& r) { *rank = comm_rank(r.comm(comm)); });
}

int MPI_Comm_size(MPI_Comm comm, int* size) {
  return api("MPI_Comm_size", comm, [&](Rank& r) { *size = comm_size(r.comm(comm)); });
}

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm* newcomm) {
  return api("MPI_Comm_split", comm, [&](Rank& r) {
    r.comm(comm);
    if (color < 0 && color != MPI_UNDEFINED)
      fail(MPI_ERR_ARG, "colour " + std::to_string(color) + " is negative (and not MPI_UNDEFINED)");
    *newcomm = split_comm(r, comm, color != MPI_UNDEFINED, color, key);
  });
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm* newcomm) {
  return api("MPI_Comm_dup", comm, [&](Rank& r) { *newcomm = duplicate(r, comm); });
}

int MPI_Comm_get_parent(MPI_Comm* parent) {
  // No rank was spawned (collnet runs the ranks mpirun started, and no MPI_Comm_spawn):
  // MPI_COMM_NULL, as MPI-3.1 10.3.2 says for a process not spawned.
  return api("MPI_Comm_get_parent", MPI_COMM_WORLD, [&](Rank&) {
    if (!parent) fail(MPI_ERR_ARG, "parent is null");
    *parent = MPI_COMM_NULL;
  });
}

int MPI_Comm_spawn(const char* command, char* argv[], int maxprocs, MPI_Info info, int root, MPI_Comm comm,
                   MPI_Comm* intercomm, int array_of_errcodes[]) {
  (void)command, (void)argv, (void)info;
  return spawn("MPI_Comm_spawn", comm, root, std::max(maxprocs, 0), intercomm, array_of_errcodes);
}

int MPI_Comm_spawn_multiple(int count, char* array_of_commands[], char** array_of_argv[], const int array_of_maxprocs[],
                            const MPI_Info array_of_info[], int root, MPI_Comm comm, MPI_Comm* intercomm,
                            int array_of_errcodes[]) {
  (void)array_of_commands, (void)array_of_argv, (void)array_of_info;
  long total = 0;
  for (int i = 0; i < count && array_of_maxprocs; ++i) total += std::max(array_of_maxprocs[i], 0);
  return spawn("MPI_Comm_spawn_multiple", comm, root, total, intercomm, array_of_errcodes);
}

int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm* newcomm) {
  return api("MPI_Comm_dup_with_info", comm, [&](Rank& r) {
    if (info != MPI_INFO_NULL) r.info(info);  // hints are checked, then ignored
    *newcomm = duplicate(r, comm);
  });
}

int MPI_Comm_set_info(MPI_Comm comm, MPI_Info info) {
  return api("MPI_Comm_set_info", comm, [&](Rank& r) {
    r.comm(comm);
    if (info != MPI_INFO_NULL) r.info(info);  // hints are checked, then ignored
  });
}

int MPI_Comm_get_info(MPI_Comm comm, MPI_Info* info_used) {
  // The hints collnet uses: none, so a new, empty info object (the caller frees it).
  return api("MPI_Comm_get_info", comm, [&](Rank& r) {
    r.comm(comm);
    if (!info_used) fail(MPI_ERR_ARG, "info_used is null");
    *info_used = r.add_info({});
  });
}

int MPI_Comm_idup(MPI_Comm comm, MPI_Comm* newcomm, MPI_Request* request) {
  // Done when it returns, as the non-blocking collectives are.
  return api("MPI_Comm_idup", comm, [&](Rank& r) {
    *newcomm = duplicate(r, comm);
    complete_request(r, request);
  });
}

int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm* newcomm) {
  return api("MPI_Comm_split_type", comm, [&](Rank& r) {
    if (info != MPI_INFO_NULL) r.info(info);  // hints are checked, then ignored
    if (split_type != MPI_COMM_TYPE_SHARED && split_type != MPI_UNDEFINED)
      fail(MPI_ERR_ARG, "split_type " + std::to_string(split_type) +
                            " is neither MPI_COMM_TYPE_SHARED nor MPI_UNDEFINED");
    r.comm(comm);
    // The ranks that share memory are a node's tasks.
    *newcomm = split_comm(r, comm, split_type == MPI_COMM_TYPE_SHARED, static_cast<int>(r.task().node()), key);
  });
}

int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm* newcomm) {
  return api("MPI_Comm_create", comm, [&](Rank& r) {
    CommEntry& c = r.comm(comm);
    const std::vector<unsigned> g = r.group(group);
    const std::vector<unsigned> m = members(r, c);
    for (unsigned w : g)
      if (!contains(m, w))
        fail(MPI_ERR_GROUP, "the group holds world rank " + std::to_string(w) + ", which is not in the communicator");
    // The driver ranks a created communicator in increasing order of the parent's ranks;
    // MPI ranks it in the group's order: a split with the group index as key does that.
    const int mine = index_of(g, r.world_rank());
    *newcomm = split_comm(r, comm, mine != MPI_UNDEFINED, 0, mine);
  });
}

int MPI_Comm_free(MPI_Comm* comm) {
  return api("MPI_Comm_free", comm ? *comm : MPI_COMM_NULL, [&](Rank& r) { free_comm(r, comm, false); });
}

int MPI_Comm_disconnect(MPI_Comm* comm) {
  return api("MPI_Comm_disconnect", comm ? *comm : MPI_COMM_NULL, [&](Rank& r) { free_comm(r, comm, true); });
}

int MPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int* result) {
  return api("MPI_Comm_compare", comm1, [&](Rank& r) {
    CommEntry& a = r.comm(comm1, "comm1");
    CommEntry& b = r.comm(comm2, "comm2");
    if (comm1 == comm2) {
      *result = MPI_IDENT;
      return;
    }
    const int lists = compare_lists(members(r, a), members(r, b));
    *result = lists == MPI_IDENT ? MPI_CONGRUENT : lists;
  });
}

int MPI_Comm_group(MPI_Comm comm, MPI_Group* group) {
  return api("MPI_Comm_group", comm, [&](Rank& r) { *group = r.add_group(members(r, r.comm(comm))); });
}

int MPI_Comm_get_attr(MPI_Comm comm, int keyval, void* attribute_val, int* flag) {
  return api("MPI_Comm_get_attr", comm, [&](Rank& r) {
    CommEntry& c = r.comm(comm);
    if (keyval >= Rank::kFirstKeyval) {  // the program's own
      auto it = c.attributes.find(keyval);
      *flag = it != c.attributes.end();
      if (*flag) *static_cast<void**>(attribute_val) = it->second;
      return;
    }
    if (keyval == MPI_LASTUSEDCODE) {  // the rank's own: MPI_Add_error_class/_code move it
      *flag = 1;
      *static_cast<int**>(attribute_val) = &r.last_used_code;
      return;
    }
    int* v = r.runtime().attribute(keyval);
    *flag = v != nullptr;
    if (v) *static_cast<int**>(attribute_val) = v;
  });
}

int MPI_Comm_set_name(MPI_Comm comm, const char* name) {
  return api("MPI_Comm_set_name", comm, [&](Rank& r) { r.comm(comm).name = std::string(name).substr(0, MPI_MAX_OBJECT_NAME - 1); });
}

int MPI_Comm_get_name(MPI_Comm comm, char* name, int* resultlen) {
  return api("MPI_Comm_get_name", comm, [&](Rank& r) {
    const std::string& n = r.comm(comm).name;
    std::snprintf(name, MPI_MAX_OBJECT_NAME, "%s", n.c_str());
    *resultlen = static_cast<int>(n.size());
  });
}

int MPI_Group_size(MPI_Group group, int* size) {
  return api("MPI_Group_size", MPI_COMM_WORLD, [&](Rank& r) { *size = static_cast<int>(r.group(group).size()); });
}

int MPI_Group_rank(MPI_Group group, int* rank) {
  return api("MPI_Group_rank", MPI_COMM_WORLD, [&](Rank& r) { *rank = index_of(r.group(group), r.world_rank()); });
}

int MPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group* newgroup) {
  return api("MPI_Group_incl", MPI_COMM_WORLD, [&](Rank& r) {
    const std::vector<unsigned> g = r.group(group);
    std::vector<unsigned> out;
    for (unsigned k : picked(g, n, ranks, "ranks")) out.push_back(g[k]);
    *newgroup = r.add_group(std::move(out));
  });
}

int MPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group* newgroup) {
  return api("MPI_Group_excl", MPI_COMM_WORLD, [&](Rank& r) {
    const std::vector<unsigned> g = r.group(group);
    std::vector<bool> out_of(g.size());
    for (unsigned k : picked(g, n, ranks, "ranks")) out_of[k] = true;
    std::vector<unsigned> out;
    for (size_t i = 0; i < g.size(); ++i)
      if (!out_of[i]) out.push_back(g[i]);
    *newgroup = r.add_group(std::move(out));
  });
}

int MPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group* newgroup) {
  return api("MPI_Group_range_incl", MPI_COMM_WORLD, [&](Rank& r) {
    const std::vector<unsigned> g = r.group(group);
    const std::vector<int> ks = expanded(g, n, ranges);
    std::vector<unsigned> out;
    for (unsigned k : picked(g, static_cast<int>(ks.size()), ks.data(), "the ranges' ranks")) out.push_back(g[k]);
    *newgroup = r.add_group(std::move(out));
  });
}

int MPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group* newgroup) {
  return api("MPI_Group_range_excl", MPI_COMM_WORLD, [&](Rank& r) {
    const std::vector<unsigned> g = r.group(group);
    const std::vector<int> ks = expanded(g, n, ranges);
    std::vector<bool> out_of(g.size());
    for (unsigned k : picked(g, static_cast<int>(ks.size()), ks.data(), "the ranges' ranks")) out_of[k] = true;
    std::vector<unsigned> out;
    for (size_t i = 0; i < g.size(); ++i)
      if (!out_of[i]) out.push_back(g[i]);
    *newgroup = r.add_group(std::move(out));
  });
}

int MPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[], MPI_Group group2, int ranks2[]) {
  return api("MPI_Group_translate_ranks", MPI_COMM_WORLD, [&](Rank& r) {
    const std::vector<unsigned> a = r.group(group1), b = r.group(group2);
    check_count(n, "n");
    for (int i = 0; i < n; ++i) {
      if (ranks1[i] == MPI_PROC_NULL) {
        ranks2[i] = MPI_PROC_NULL;
        continue;
      }
      if (ranks1[i] < 0 || static_cast<size_t>(ranks1[i]) >= a.size())
        fail(MPI_ERR_RANK, "ranks1[" + std::to_string(i) + "] = " + std::to_string(ranks1[i]) +
                               " is not a rank of group1 (size " + std::to_string(a.size()) + ")");
      ranks2[i] = index_of(b, a[ranks1[i]]);
    }
  });
}

int MPI_Group_compare(MPI_Group group1, MPI_Group group2, int* result) {
  return api("MPI_Group_compare", MPI_COMM_WORLD,
             [&](Rank& r) { *result = compare_lists(r.group(group1), r.group(group2)); });
}

int MPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group* newgroup) {
  return api("MPI_Group_union", MPI_COMM_WORLD, [&](Rank& r) {
    std::vector<unsigned> out = r.group(group1);
    for (unsigned w : r.group(group2))
      if (!contains(out, w)) out.push_back(w);
    *newgroup = r.add_group(std::move(out));
  });
}

int MPI_Group_intersection(MPI_Group group1, MPI_Group group2, MPI_Group* newgroup) {
  return api("MPI_Group_intersection", MPI_COMM_WORLD, [&](Rank& r) {
    const std::vector<unsigned>& b = r.group(group2);
    std::vector<unsigned> out;
    for (unsigned w : r.group(group1))
      if (contains(b, w)) out.push_back(w);
    *newgroup = r.add_group(std::move(out));
  });
}

int MPI_Group_difference(MPI_Group group1, MPI_Group group2, MPI_Group* newgroup) {
  return api("MPI_Group_difference", MPI_COMM_WORLD, [&](Rank& r) {
    const std::vector<unsigned>& b = r.group(group2);
    std::vector<unsigned> out;
    for (unsigned w : r.group(group1))
      if (!contains(b, w)) out.push_back(w);
    *newgroup = r.add_group(std::move(out));
  });
}

int MPI_Group_free(MPI_Group* group) {
  return api("MPI_Group_free", MPI_COMM_WORLD, [&](Rank& r) { r.free_group(*group); });
}

}  // extern "C"
