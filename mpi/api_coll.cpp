// SPDX-License-Identifier: Apache-2.0
// mpi.h: collectives. Each maps onto the driver's collective of the same name
// (driver/communicator.hpp), which rides the combining network where the communicator
// has a class route and the operation maps onto it, and runs a torus algorithm
// otherwise. Data moves as packed bytes in the widest element that divides a block;
// reductions with a predefined op move the type's own elements (so float sums are the
// tree's); a user-defined op (MPI_Op_create) is applied here, in rank order, to the
// contributions an allgather or gather brings. The non-blocking forms complete before
// they return. On MPI_COMM_SELF every collective is a local copy.
#include <algorithm>
#include <numeric>
#include <string>

#include "driver/local_combine.hpp"
#include "mpi/api_support.hpp"
#include "mpi/coprocessor_work.hpp"
#include "mpi/host_ops.hpp"
#include "mpi/intercomm.hpp"

using namespace collnet::mpi;
namespace drv = collnet::driver;

namespace {

bool in_place(const void* p) { return p == MPI_IN_PLACE; }

drv::Op driver_op(MPI_Op op) {
  switch (op) {
    case MPI_MAX: return drv::Op::Max;
    case MPI_MIN: return drv::Op::Min;
    case MPI_SUM: return drv::Op::Sum;
    case MPI_PROD: return drv::Op::Prod;
    case MPI_LAND: return drv::Op::Land;
    case MPI_BAND: return drv::Op::Band;
    case MPI_LOR: return drv::Op::Lor;
    case MPI_BOR: return drv::Op::Bor;
    case MPI_LXOR: return drv::Op::Lxor;
    case MPI_BXOR: return drv::Op::Bxor;
    case MPI_MAXLOC: return drv::Op::Maxloc;
    default: return drv::Op::Minloc;
  }
}

const char* op_name(MPI_Op op) {
  static const char* const names[] = {"MPI_OP_NULL", "MPI_MAX", "MPI_MIN",  "MPI_SUM",  "MPI_PROD",
                                      "MPI_LAND",    "MPI_BAND", "MPI_LOR", "MPI_BOR", "MPI_LXOR",
                                      "MPI_BXOR",    "MPI_MAXLOC", "MPI_MINLOC"};
  return op >= 0 && op <= MPI_MINLOC ? names[op] : "a user op";
}

// How a reduction of `t` by `op` runs: the driver's op (predefined) or the user's function.
// A predefined op on long double or complex numbers runs as the processors' function
// (host_ops.hpp) over the packed basic elements: `flat` is their basic type.
struct Reduction {
  const UserOp* user = nullptr;
  drv::Op op = drv::Op::Sum;
  const TypeDesc* flat = nullptr;
  // The type and count the user's (or the host's) function folds, for `count` of `t`.
  const TypeDesc& fold_type(const TypeDesc& t) const { return flat ? *flat : t; }
  size_t fold_count(const TypeDesc& t, size_t count) const { return flat ? count * t.basics : count; }
};

Reduction reduction(Rank& r, MPI_Op op, const TypeDesc& t) {
  Reduction red;
  red.user = r.user_op(op);
  if (red.user) return red;
  if (t.host != TypeDesc::Host::None) {
    red.user = host_op(op, t.host);
    if (!red.user) fail(MPI_ERR_OP, std::string(op_name(op)) + " cannot reduce " + t.name);
    red.flat = &host_basic_type(t.host);
    return red;
  }
  red.op = driver_op(op);
  if (!t.elem)
    fail(MPI_ERR_TYPE, std::string(op_name(op)) + " reduces datatypes of one basic type; " + t.name +
                           " is not one (use MPI_Op_create)");
  if (drv::is_loc(red.op) != t.pairs)
    fail(MPI_ERR_OP, std::string(op_name(op)) + (t.pairs ? " cannot reduce (value, index) pairs (" + t.name + ")"
                                                         : " reduces (value, index) pairs (MPI_2INT, MPI_DOUBLE_INT, ...), not " + t.name));
  if (!drv::accepts(red.op, *t.elem))
    fail(MPI_ERR_OP, std::string(op_name(op)) + " cannot reduce " + t.name);
  return red;
}

// ------------------------------------------------ buffers in a user's layout

// A scratch buffer holding `count` elements of `t` as a program's buffer would.
struct Typed {
  std::vector<uint8_t> bytes;
  ptrdiff_t shift = 0;  // where element 0 starts in `bytes`
  Typed(const TypeDesc& t, size_t count) {
    ptrdiff_t lo = 0, hi = 0;
    for (const TypeDesc::Run& run : t.runs) {
      lo = std::min(lo, run.offset);
      hi = std::max(hi, run.offset + static_cast<ptrdiff_t>(run.bytes));
    }
    shift = -lo;
    const ptrdiff_t span = count ? static_cast<ptrdiff_t>(count - 1) * t.extent + hi - lo : 0;
    bytes.assign(static_cast<size_t>(std::max<ptrdiff_t>(span, 0)) + 1, 0);
  }
  uint8_t* base() { return bytes.data() + shift; }
};

// Calls a user op's function (or, for the types the ALU lacks, the processors' own): code
// the rank's processor runs, so it takes simulated time as the code between calls does.
void apply(Rank& r, const UserOp& u, void* in, void* inout, size_t count, MPI_Datatype type) {
  if (count == 0) return;  // nothing to combine: the program's function is not called
  int len = static_cast<int>(count);
  r.user_code([&] { u.fn(in, inout, &len, &type); });
}

// Folds the packed contributions of ranks 0..last (each `count` elements of `t`) with the
// user's function in rank order (c0 op (c1 op (... op c_last))); the result, packed.
std::vector<uint8_t> fold(Rank& r, const UserOp& u, const TypeDesc& t, MPI_Datatype handle, size_t count,
                          const uint8_t* contributions, size_t last) {
  const size_t block = count * t.packed;
  Typed acc(t, count), in(t, count);
  unpack(t, contributions + last * block, count, acc.base());
  for (size_t i = last; i-- > 0;) {
    unpack(t, contributions + i * block, count, in.base());
    apply(r, u, in.base(), acc.base(), count, handle);
  }
  std::vector<uint8_t> out(block);
  pack(t, acc.base(), count, out.data());
  return out;
}

// A user op's reduction of every rank's `count` elements (`mine`, packed) along a binomial
// tree, never through one node's memory: in step k a rank whose lowest set bit (of its
// position in the tree) is bit k sends what it holds - the ranks from it to 2^k - 1 above
// it, folded - to the rank 2^k below, which folds it after its own (fn(mine, theirs):
// lower ranks first), so a non-commutative op is applied in rank order. A commutative op's
// tree is rooted at `root`; a non-commutative one's at rank 0, which sends the result on.
// Without a root (allreduce) the result is broadcast. Returns the result, packed, on the
// ranks that receive it. The messages go on the tag the driver's collectives reserve, in
// the same order between any two ranks on every rank, so they never meet another call's.
std::vector<uint8_t> tree_fold(Rank& r, CommEntry& c, const UserOp& u, const TypeDesc& t, MPI_Datatype handle, size_t count,
                               const uint8_t* mine, std::optional<int> root) {
  const size_t bytes = count * t.packed;
  std::vector<uint8_t> packed(mine, mine + bytes);
  if (c.self) return packed;
  drv::Communicator& comm = *c.comm;
  after_posted(r, comm);
  const unsigned n = comm.size(), rank = comm.rank(), tag = drv::Communicator::kMaxTag;
  const unsigned top = root && u.commute ? static_cast<unsigned>(*root) : 0;  // the tree's root
  const unsigned pos = (rank + n - top) % n;
  Typed acc(t, count), in(t, count);
  unpack(t, packed.data(), count, acc.base());
  for (unsigned mask = 1; mask < n; mask <<= 1) {
    if (pos & mask) {
      pack(t, acc.base(), count, packed.data());
      comm.send(packed.data(), bytes, drv::Datatype::U8, (pos - mask + top) % n, tag);
      break;
    }
    if (pos + mask < n) {
      comm.recv(packed.data(), bytes, drv::Datatype::U8, (pos + mask + top) % n, tag);
      unpack(t, packed.data(), count, in.base());
      apply(r, u, acc.base(), in.base(), count, handle);  // in = acc op in: the lower ranks' first
      std::swap(acc, in);
    }
  }
  if (pos == 0) pack(t, acc.base(), count, packed.data());
  if (!root) {
    if (bytes > 0) comm.bcast(packed.data(), bytes / drv::bytes(unit_for(bytes)), unit_for(bytes), top);
    return packed;
  }
  if (static_cast<unsigned>(*root) != top) {
    if (rank == top) comm.send(packed.data(), bytes, drv::Datatype::U8, static_cast<unsigned>(*root), tag);
    if (rank == static_cast<unsigned>(*root)) comm.recv(packed.data(), bytes, drv::Datatype::U8, top, tag);
  }
  return packed;
}

// Every rank's `bytes` at `data`, gathered in rank order on `root` (or all ranks).
std::vector<uint8_t> gather_bytes(CommEntry& c, const uint8_t* data, size_t bytes, std::optional<int> root) {
  const drv::Datatype unit = unit_for(bytes);
  const size_t n = bytes / drv::bytes(unit), size = static_cast<size_t>(comm_size(c));
  const bool receives = !root || static_cast<int>(c.comm->rank()) == *root || c.self;
  std::vector<uint8_t> all(receives ? bytes * size : 0);
  if (c.self) {
    std::copy(data, data + bytes, all.begin());
  } else if (root) {
    c.comm->gather(data, receives ? all.data() : nullptr, n, unit, static_cast<unsigned>(*root));
  } else {
    c.comm->allgather(data, all.data(), n, unit);
  }
  return all;
}

// ------------------------------------------------ the collectives, checked

struct Ctx {
  Rank& r;
  CommEntry& c;
  int size, rank;
};

Ctx ctx(Rank& r, MPI_Comm comm) {
  CommEntry& c = r.comm(comm);
  if (c.inter) fail(MPI_ERR_COMM, "the call is not defined or not supported on an intercommunicator (intercomm.hpp)");
  return Ctx{r, c, comm_size(c), comm_rank(c)};
}

void barrier(Rank& r, MPI_Comm comm) {
  CommEntry& c = r.comm(comm);
  if (c.inter)
    inter::barrier(c);
  else if (!c.self)
    c.comm->barrier();
}

void bcast(Rank& r, MPI_Comm comm, void* buf, int count, MPI_Datatype type, int root) {
  if (CommEntry& ic = r.comm(comm); ic.inter) return inter::bcast(r, ic, buf, count, type, root);
  Ctx x = ctx(r, comm);
  check_count(count);
  const TypeDesc& t = r.type(type);
  check_root(root, x.size);
  check_buffer(buf, as_size(count), t);
  if (x.c.self) return;
  Unpacked room(t, buf, as_size(count));
  if (x.rank == root && !room.copy.empty()) pack(t, buf, as_size(count), room.data);
  const drv::Datatype unit = unit_for(room.bytes);
  x.c.comm->bcast(room.data, room.bytes / drv::bytes(unit), unit, static_cast<unsigned>(root));
  if (x.rank != root) room.finish();
  (x.rank == root ? r.bytes_sent : r.bytes_received) += room.bytes;
}

// Reduce (root) or allreduce (no root).
void reduce(Rank& r, MPI_Comm comm, const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op,
            std::optional<int> root) {
  if (CommEntry& ic = r.comm(comm); ic.inter) return inter::reduce(r, ic, send, recv, count, type, op, root);
  Ctx x = ctx(r, comm);
  check_count(count);
  const TypeDesc& t = r.type(type);
  if (root) check_root(*root, x.size);
  const bool receives = !root || x.rank == *root;
  const Reduction red = reduction(r, op, t);
  if (in_place(send) && !receives) fail(MPI_ERR_BUFFER, "MPI_IN_PLACE is the send buffer of the root only");
  const void* src = in_place(send) ? recv : send;
  check_buffer(src, as_size(count), t, "send buffer");
  if (receives) check_buffer(recv, as_size(count), t, "receive buffer");
  const size_t n = as_size(count);
  Packed in(t, src, n, in_place(send));
  r.bytes_sent += in.bytes;
  if (receives) r.bytes_received += in.bytes;
  if (red.user) {
    const std::vector<uint8_t> out =
        tree_fold(r, x.c, *red.user, red.fold_type(t), type, red.fold_count(t, n), in.data, root);
    if (receives) unpack(t, out.data(), n, recv);
    return;
  }
  if (x.c.self) {
    unpack(t, in.data, n, recv);
    return;
  }
  Unpacked out(t, receives ? recv : nullptr, receives ? n : 0);
  if (root)
    x.c.comm->reduce(in.data, receives ? out.data : nullptr, n * t.basics, *t.elem, red.op, static_cast<unsigned>(*root));
  else
    x.c.comm->allreduce(in.data, out.data, n * t.basics, *t.elem, red.op);
  if (receives) out.finish();
}

void scan(Rank& r, MPI_Comm comm, const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op,
          bool inclusive) {
  Ctx x = ctx(r, comm);
  check_count(count);
  const TypeDesc& t = r.type(type);
  const Reduction red = reduction(r, op, t);
  const void* src = in_place(send) ? recv : send;
  check_buffer(src, as_size(count), t, "send buffer");
  check_buffer(recv, as_size(count), t, "receive buffer");
  const size_t n = as_size(count);
  Packed in(t, src, n, in_place(send));
  r.bytes_sent += in.bytes;
  r.bytes_received += in.bytes;
  if (red.user) {
    std::vector<uint8_t> all = gather_bytes(x.c, in.data, in.bytes, std::nullopt);
    if (!inclusive && x.rank == 0) return;
    const std::vector<uint8_t> out =
        fold(r, *red.user, red.fold_type(t), type, red.fold_count(t, n), all.data(),
             static_cast<size_t>(inclusive ? x.rank : x.rank - 1));
    unpack(t, out.data(), n, recv);
    return;
  }
  if (x.c.self) {
    if (inclusive) unpack(t, in.data, n, recv);
    return;
  }
  Unpacked out(t, recv, n);
  if (!inclusive && x.rank == 0 && !out.copy.empty()) pack(t, recv, n, out.data);  // left as it was
  if (inclusive)
    x.c.comm->scan(in.data, out.data, n * t.basics, *t.elem, red.op);
  else
    x.c.comm->exscan(in.data, out.data, n * t.basics, *t.elem, red.op);
  if (inclusive || x.rank > 0) out.finish();
}

// Checks that a block of `count` `t` matches the expected bytes (MPI's type signatures).
void check_match(size_t sent_bytes, size_t room_bytes, const char* what) {
  if (sent_bytes > room_bytes)
    fail(MPI_ERR_TRUNCATE, std::string(what) + ": a block of " + std::to_string(sent_bytes) +
                               " bytes does not fit the " + std::to_string(room_bytes) + " bytes received");
}

void gather(Rank& r, MPI_Comm comm, const void* send, int scount, MPI_Datatype stype, void* recv, int rcount,
            MPI_Datatype rtype, std::optional<int> root) {
  if (CommEntry& ic = r.comm(comm); ic.inter) return inter::gather(r, ic, send, scount, stype, recv, rcount, nullptr, nullptr, rtype, root);
  Ctx x = ctx(r, comm);
  if (root) check_root(*root, x.size);
  const bool receives = !root || x.rank == *root;
  if (in_place(send) && !receives) fail(MPI_ERR_BUFFER, "MPI_IN_PLACE is the send buffer of the root only");
  const TypeDesc* rt = receives ? &r.type(rtype, "recvtype") : nullptr;
  if (receives) check_count(rcount, "recvcount");
  // The block this rank contributes, packed.
  std::optional<Packed> in;
  if (in_place(send)) {
    in.emplace(*rt, static_cast<uint8_t*>(recv) + x.rank * as_size(rcount) * rt->extent, as_size(rcount), true);
  } else {
    check_count(scount, "sendcount");
    const TypeDesc& st = r.type(stype, "sendtype");
    check_buffer(send, as_size(scount), st, "send buffer");
    in.emplace(st, send, as_size(scount));
  }
  if (receives) {
    check_match(in->bytes, as_size(rcount) * rt->packed, "recvcount");
    check_buffer(recv, as_size(rcount) * x.size, *rt, "receive buffer");
  }
  r.bytes_sent += in->bytes;
  const std::vector<uint8_t> all = gather_bytes(x.c, in->data, in->bytes, root);
  if (!receives) return;
  r.bytes_received += all.size();
  // Block j (in->bytes packed) goes to rank j's place, rcount elements of rtype apart.
  for (int j = 0; j < x.size; ++j)
    unpack(*rt, all.data() + j * in->bytes, in->bytes / std::max<size_t>(rt->packed, 1),
           static_cast<uint8_t*>(recv) + j * as_size(rcount) * rt->extent);
}

void scatter(Rank& r, MPI_Comm comm, const void* send, int scount, MPI_Datatype stype, void* recv, int rcount,
             MPI_Datatype rtype, int root) {
  if (CommEntry& ic = r.comm(comm); ic.inter) return inter::scatter(r, ic, send, scount, nullptr, nullptr, stype, recv, rcount, rtype, root);
  Ctx x = ctx(r, comm);
  check_root(root, x.size);
  const bool sends = x.rank == root;
  if (in_place(recv) && !sends) fail(MPI_ERR_BUFFER, "MPI_IN_PLACE is the receive buffer of the root only");
  const TypeDesc* rt = nullptr;
  size_t block = 0;
  if (!in_place(recv)) {
    check_count(rcount, "recvcount");
    rt = &r.type(rtype, "recvtype");
    check_buffer(recv, as_size(rcount), *rt, "receive buffer");
    block = as_size(rcount) * rt->packed;
  }
  std::optional<Packed> all;
  if (sends) {
    check_count(scount, "sendcount");
    const TypeDesc& st = r.type(stype, "sendtype");
    check_buffer(send, as_size(scount) * x.size, st, "send buffer");
    if (!in_place(recv)) check_match(as_size(scount) * st.packed, block, "recvcount");
    block = as_size(scount) * st.packed;
    all.emplace(st, send, as_size(scount) * x.size);
    r.bytes_sent += all->bytes;
  }
  if (x.c.self) {
    if (!in_place(recv)) unpack(*rt, all->data, block / std::max<size_t>(rt->packed, 1), recv);
    return;
  }
  const drv::Datatype unit = unit_for(block);
  const size_t n = block / drv::bytes(unit);
  if (in_place(recv)) {
    x.c.comm->scatter(all->data, drv::Communicator::kInPlace, n, unit, static_cast<unsigned>(root));
    return;
  }
  Unpacked room(*rt, recv, as_size(rcount));
  x.c.comm->scatter(sends ? all->data : nullptr, room.data, n, unit, static_cast<unsigned>(root));
  room.finish();
  r.bytes_received += room.bytes;
}

// With `request` (MPI_Ialltoall outside coprocessor mode, on an intracommunicator), where
// the blocks go by the torus DMA engines (driver::Communicator::start_alltoall), it only
// starts them and makes *request the request that finishes it, and returns true;
// otherwise it returns false having moved nothing. Without, it runs at once.
bool alltoall(Rank& r, MPI_Comm comm, const void* send, int scount, MPI_Datatype stype, void* recv, int rcount,
              MPI_Datatype rtype, MPI_Request* request = nullptr) {
  if (CommEntry& ic = r.comm(comm); ic.inter) {
    inter::alltoall(r, ic, send, scount, nullptr, nullptr, stype, recv, rcount, nullptr, nullptr, rtype);
    return false;
  }
  Ctx x = ctx(r, comm);
  check_count(rcount, "recvcount");
  const TypeDesc& rt = r.type(rtype, "recvtype");
  check_buffer(recv, as_size(rcount) * x.size, rt, "receive buffer");
  const size_t total = as_size(rcount) * x.size;
  // The blocks this rank sends, packed (in place: from the receive buffer, copied).
  std::optional<Packed> in;
  if (in_place(send)) {
    in.emplace(rt, recv, total, true);
  } else {
    check_count(scount, "sendcount");
    const TypeDesc& st = r.type(stype, "sendtype");
    check_buffer(send, as_size(scount) * x.size, st, "send buffer");
    check_match(as_size(scount) * st.packed, as_size(rcount) * rt.packed, "recvcount");
    in.emplace(st, send, as_size(scount) * x.size);
  }
  r.bytes_sent += in->bytes;
  r.bytes_received += in->bytes;
  if (x.c.self) {
    unpack(rt, in->data, total, recv);
    return false;
  }
  const size_t block = in->bytes / static_cast<size_t>(x.size);
  const drv::Datatype unit = unit_for(block);
  if (request && rt.contiguous() && !in_place(send) && !x.c.self) {
    if (auto p = x.c.comm->start_alltoall(in->data, recv, block / drv::bytes(unit), unit)) {
      RequestEntry e;
      e.pending = std::move(p);
      e.dcomm = x.c.comm;
      e.keep = x.c.owned;
      // A packed copy of the blocks lives until it ends (moving the vector keeps its data).
      e.buffer = std::make_shared<std::vector<uint8_t>>(std::move(in->copy));
      *request = r.add_request(std::move(e));
      return true;
    }
  }
  if (request) return false;
  Unpacked room(rt, recv, total);
  x.c.comm->alltoall(in->data, room.data, block / drv::bytes(unit), unit);
  room.finish();
  return false;
}

// ------------------------------------------------ the vector forms (bytes as the unit)

std::vector<size_t> prefix(const std::vector<size_t>& v) {
  std::vector<size_t> out(v.size());
  size_t at = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    out[i] = at;
    at += v[i];
  }
  return out;
}

// Blocks of a program's buffer as one packed area (block j at packed offset poffs[j]):
// counts[j] elements of types[j] at byte displacement displs[j]. The v-forms' blocks are
// of one type at displacements in extents; MPI_Alltoallw's of a type each at byte
// displacements.
struct VBlocks {
  std::vector<const TypeDesc*> types;
  uint8_t* buf;
  std::vector<size_t> counts, bytes, poffs;
  std::vector<ptrdiff_t> displs;
  std::vector<uint8_t> area;
  VBlocks(const TypeDesc& type, void* b, const int* c, const int* d, int n, const char* what)
      : types(static_cast<size_t>(n), &type), buf(static_cast<uint8_t*>(b)) {
    for (int i = 0; i < n; ++i) displs.push_back(static_cast<ptrdiff_t>(d[i]) * type.extent);
    sized(c, what);
  }
  VBlocks(Rank& r, void* b, const int* c, const int* d, const MPI_Datatype* t, int n, const char* what)
      : buf(static_cast<uint8_t*>(b)), displs(d, d + n) {
    for (int i = 0; i < n; ++i) types.push_back(&r.type(t[i], "a datatypes entry"));
    sized(c, what);
  }
  void pack_all() {
    for (size_t j = 0; j < counts.size(); ++j) pack_block(j);
  }
  void pack_block(size_t j) { pack(*types[j], buf + displs[j], counts[j], area.data() + poffs[j]); }
  void unpack_all(std::optional<size_t> skip = std::nullopt) {
    for (size_t j = 0; j < counts.size(); ++j)
      if (j != skip) unpack(*types[j], area.data() + poffs[j], counts[j], buf + displs[j]);
  }

 private:
  void sized(const int* c, const char* what) {
    for (size_t i = 0; i < types.size(); ++i) {
      if (c[i] < 0)
        fail(MPI_ERR_COUNT, std::string(what) + "[" + std::to_string(i) + "] = " + std::to_string(c[i]) + " is negative");
      counts.push_back(as_size(c[i]));
      bytes.push_back(counts.back() * types[i]->packed);
    }
    poffs = prefix(bytes);
    area.resize(poffs.empty() ? 0 : poffs.back() + bytes.back());
  }
};

// MPI_Alltoallv's and MPI_Alltoallw's exchange of the packed blocks (from the receive
// buffer's when `sv` is empty: MPI_IN_PLACE).
void exchange_blocks(Rank& r, const Ctx& x, std::optional<VBlocks>& sv, VBlocks& rv) {
  if (sv)
    sv->pack_all();
  else
    rv.pack_all();  // the data comes from the receive buffer
  r.bytes_sent += (sv ? *sv : rv).area.size();
  r.bytes_received += rv.area.size();
  if (x.c.self) {
    if (sv) {
      if (sv->bytes[0] != rv.bytes[0])
        fail(MPI_ERR_TRUNCATE, "this rank sends itself " + std::to_string(sv->bytes[0]) + " bytes and receives " +
                                   std::to_string(rv.bytes[0]));
      std::copy(sv->area.begin(), sv->area.end(), rv.area.begin());
    }
  } else {
    x.c.comm->alltoallv(sv ? static_cast<const void*>(sv->area.data()) : drv::Communicator::kInPlace,
                        sv ? sv->bytes : std::vector<size_t>(x.size), sv ? sv->poffs : std::vector<size_t>(x.size),
                        rv.area.data(), rv.bytes, rv.poffs, drv::Datatype::U8);
  }
  rv.unpack_all();
}

void alltoallw(Rank& r, MPI_Comm comm, const void* send, const int* scounts, const int* sdispls,
               const MPI_Datatype* stypes, void* recv, const int* rcounts, const int* rdispls,
               const MPI_Datatype* rtypes) {
  if (CommEntry& ic = r.comm(comm); ic.inter)
    return inter::alltoallw(r, ic, send, scounts, sdispls, stypes, recv, rcounts, rdispls, rtypes);
  Ctx x = ctx(r, comm);
  if (!rcounts || !rdispls || !rtypes) fail(MPI_ERR_ARG, "recvcounts, rdispls or recvtypes is null");
  VBlocks rv(r, recv, rcounts, rdispls, rtypes, x.size, "recvcounts");
  std::optional<VBlocks> sv;
  if (!in_place(send)) {
    if (!scounts || !sdispls || !stypes) fail(MPI_ERR_ARG, "sendcounts, sdispls or sendtypes is null");
    sv.emplace(r, const_cast<void*>(send), scounts, sdispls, stypes, x.size, "sendcounts");
  }
  exchange_blocks(r, x, sv, rv);
}

// MPI_Reduce_scatter's counts, checked.
std::vector<size_t> scatter_counts(Rank& r, MPI_Comm comm, const int* recvcounts) {
  if (!recvcounts) fail(MPI_ERR_ARG, "recvcounts is null");
  std::vector<size_t> counts;
  const int size = comm_size(r.comm(comm));
  for (int i = 0; i < size; ++i) {
    check_count(recvcounts[i], "a recvcounts entry");
    counts.push_back(as_size(recvcounts[i]));
  }
  return counts;
}

void gatherv(Rank& r, MPI_Comm comm, const void* send, int scount, MPI_Datatype stype, void* recv, const int* rcounts,
             const int* displs, MPI_Datatype rtype, std::optional<int> root) {
  if (CommEntry& ic = r.comm(comm); ic.inter) return inter::gather(r, ic, send, scount, stype, recv, 0, rcounts, displs, rtype, root);
  Ctx x = ctx(r, comm);
  if (root) check_root(*root, x.size);
  const bool receives = !root || x.rank == *root;
  if (in_place(send) && root && !receives) fail(MPI_ERR_BUFFER, "MPI_IN_PLACE is the send buffer of the root only");
  std::optional<VBlocks> v;
  if (receives) {
    if (!rcounts || !displs) fail(MPI_ERR_ARG, "recvcounts or displs is null");
    v.emplace(r.type(rtype, "recvtype"), recv, rcounts, displs, x.size, "recvcounts");
    if (in_place(send)) v->pack_block(static_cast<size_t>(x.rank));
  }
  std::optional<Packed> in;
  if (!in_place(send)) {
    check_count(scount, "sendcount");
    const TypeDesc& st = r.type(stype, "sendtype");
    check_buffer(send, as_size(scount), st, "send buffer");
    in.emplace(st, send, as_size(scount));
    if (receives && in->bytes != v->bytes[x.rank])
      fail(MPI_ERR_TRUNCATE, "this rank sends " + std::to_string(in->bytes) + " bytes, its recvcounts entry holds " +
                                 std::to_string(v->bytes[x.rank]));
  }
  const size_t mine = in ? in->bytes : v->bytes[x.rank];
  r.bytes_sent += mine;
  if (x.c.self) {
    if (in) std::copy(in->data, in->data + in->bytes, v->area.data() + v->poffs[0]);
    v->unpack_all();
    return;
  }
  const void* src = in ? static_cast<const void*>(in->data) : drv::Communicator::kInPlace;
  if (root)
    x.c.comm->gatherv(src, mine, receives ? v->area.data() : nullptr, receives ? v->bytes : std::vector<size_t>{},
                      receives ? v->poffs : std::vector<size_t>{}, drv::Datatype::U8, static_cast<unsigned>(*root));
  else
    x.c.comm->allgatherv(src, mine, v->area.data(), v->bytes, v->poffs, drv::Datatype::U8);
  if (receives) {
    v->unpack_all(in ? std::nullopt : std::optional<size_t>(x.rank));
    r.bytes_received += v->area.size();
  }
}

void scatterv(Rank& r, MPI_Comm comm, const void* send, const int* scounts, const int* displs, MPI_Datatype stype,
              void* recv, int rcount, MPI_Datatype rtype, int root) {
  if (CommEntry& ic = r.comm(comm); ic.inter) return inter::scatter(r, ic, send, 0, scounts, displs, stype, recv, rcount, rtype, root);
  Ctx x = ctx(r, comm);
  check_root(root, x.size);
  const bool sends = x.rank == root;
  if (in_place(recv) && !sends) fail(MPI_ERR_BUFFER, "MPI_IN_PLACE is the receive buffer of the root only");
  std::optional<VBlocks> v;
  if (sends) {
    if (!scounts || !displs) fail(MPI_ERR_ARG, "sendcounts or displs is null");
    v.emplace(r.type(stype, "sendtype"), const_cast<void*>(send), scounts, displs, x.size, "sendcounts");
    v->pack_all();
    r.bytes_sent += v->area.size();
  }
  if (in_place(recv)) {
    if (!x.c.self)
      x.c.comm->scatterv(v->area.data(), v->bytes, v->poffs, drv::Communicator::kInPlace, v->bytes[x.rank],
                         drv::Datatype::U8, static_cast<unsigned>(root));
    return;
  }
  check_count(rcount, "recvcount");
  const TypeDesc& rt = r.type(rtype, "recvtype");
  check_buffer(recv, as_size(rcount), rt, "receive buffer");
  Unpacked room(rt, recv, as_size(rcount));
  if (sends && v->bytes[x.rank] != room.bytes)
    fail(MPI_ERR_TRUNCATE, "the root's own block is " + std::to_string(v->bytes[x.rank]) +
                               " bytes, its receive buffer takes " + std::to_string(room.bytes));
  if (x.c.self) {
    std::copy(v->area.begin(), v->area.end(), room.data);
  } else {
    x.c.comm->scatterv(sends ? v->area.data() : nullptr, sends ? v->bytes : std::vector<size_t>{},
                       sends ? v->poffs : std::vector<size_t>{}, room.data, room.bytes, drv::Datatype::U8,
                       static_cast<unsigned>(root));
  }
  room.finish();
  r.bytes_received += room.bytes;
}

void alltoallv(Rank& r, MPI_Comm comm, const void* send, const int* scounts, const int* sdispls, MPI_Datatype stype,
               void* recv, const int* rcounts, const int* rdispls, MPI_Datatype rtype) {
  if (CommEntry& ic = r.comm(comm); ic.inter) return inter::alltoall(r, ic, send, 0, scounts, sdispls, stype, recv, 0, rcounts, rdispls, rtype);
  Ctx x = ctx(r, comm);
  if (!rcounts || !rdispls) fail(MPI_ERR_ARG, "recvcounts or rdispls is null");
  VBlocks rv(r.type(rtype, "recvtype"), recv, rcounts, rdispls, x.size, "recvcounts");
  std::optional<VBlocks> sv;
  if (!in_place(send)) {
    if (!scounts || !sdispls) fail(MPI_ERR_ARG, "sendcounts or sdispls is null");
    sv.emplace(r.type(stype, "sendtype"), const_cast<void*>(send), scounts, sdispls, x.size, "sendcounts");
  }
  exchange_blocks(r, x, sv, rv);
}

void reduce_scatter(Rank& r, MPI_Comm comm, const void* send, void* recv, const std::vector<size_t>& counts,
                    MPI_Datatype type, MPI_Op op) {
  if (CommEntry& ic = r.comm(comm); ic.inter) return inter::reduce_scatter(r, ic, send, recv, counts, type, op);
  Ctx x = ctx(r, comm);
  const TypeDesc& t = r.type(type);
  const Reduction red = reduction(r, op, t);
  const size_t total = std::accumulate(counts.begin(), counts.end(), size_t{0});
  const size_t mine = counts[x.rank], before = std::accumulate(counts.begin(), counts.begin() + x.rank, size_t{0});
  const void* src = in_place(send) ? recv : send;
  check_buffer(src, total, t, "send buffer");
  check_buffer(recv, mine, t, "receive buffer");
  Packed in(t, src, total, in_place(send));
  r.bytes_sent += in.bytes;
  r.bytes_received += mine * t.packed;
  if (red.user) {
    const std::vector<uint8_t> out =
        tree_fold(r, x.c, *red.user, red.fold_type(t), type, red.fold_count(t, total), in.data, std::nullopt);
    unpack(t, out.data() + before * t.packed, mine, recv);
    return;
  }
  if (x.c.self) {
    unpack(t, in.data, mine, recv);
    return;
  }
  std::vector<size_t> elems(counts.size());
  for (size_t i = 0; i < counts.size(); ++i) elems[i] = counts[i] * t.basics;
  Unpacked out(t, recv, mine);
  x.c.comm->reduce_scatter(in.data, out.data, elems, *t.elem, red.op);
  out.finish();
}
// The non-blocking form of the collective call `name`: `work` is the blocking one. With a
// coprocessor it runs there (started_entry). Otherwise `try_start` may start it on
// the DMA engines or as a started barrier, making *request the request that finishes it
// (true: started); if it does not, the work runs in the background of the rank's waits
// (post_in_background), so that collectives started on several communicators, in any
// order, all advance while the rank waits for any of them. `work` holds copies of the
// arguments: it runs after the call has returned.
template <class F, class G>
int start(const char* name, MPI_Comm comm, MPI_Request* request, F work, G try_start) {
  return api(name, comm, [&](Rank& r) {
    if (!request) fail(MPI_ERR_ARG, "request is null");
    if (!r.task().coprocessor() && try_start(r)) return;
    post_in_background(r, comm, request, std::move(work));
  });
}
template <class F>
int start(const char* name, MPI_Comm comm, MPI_Request* request, F work) {
  return start(name, comm, request, work, [](Rank&) { return false; });
}

}  // namespace

void collnet::mpi::combine_packed(Rank& r, MPI_Op op, const TypeDesc& t, MPI_Datatype handle, const uint8_t* in,
                                  uint8_t* inout, size_t count) {
  const Reduction red = reduction(r, op, t);
  if (count == 0) return;
  if (red.user && !red.flat) {  // the program's function, on the elements in their layout
    Typed a(t, count), b(t, count);
    unpack(t, in, count, a.base());
    unpack(t, inout, count, b.base());
    apply(r, *red.user, a.base(), b.base(), count, handle);
    pack(t, b.base(), count, inout);
    return;
  }
  if (red.flat) {  // the processors' function, on the packed basic elements
    apply(r, *red.user, const_cast<uint8_t*>(in), inout, red.fold_count(t, count), handle);
    return;
  }
  // inout = in op inout, element by element, as the driver combines two ranks' data.
  drv::reduce_local("MPI_Reduce_local", in, inout, count * t.basics, *t.elem, red.op);
}

extern "C" {

int MPI_Barrier(MPI_Comm comm) {
  return api("MPI_Barrier", comm, [&](Rank& r) { barrier(r, comm); });
}

int MPI_Bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  return api("MPI_Bcast", comm, [&](Rank& r) { bcast(r, comm, buffer, count, datatype, root); });
}

int MPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
               MPI_Comm comm) {
  return api("MPI_Reduce", comm, [&](Rank& r) { reduce(r, comm, sendbuf, recvbuf, count, datatype, op, root); });
}

int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return api("MPI_Allreduce", comm,
             [&](Rank& r) { reduce(r, comm, sendbuf, recvbuf, count, datatype, op, std::nullopt); });
}

int MPI_Reduce_local(const void* inbuf, void* inoutbuf, int count, MPI_Datatype datatype, MPI_Op op) {
  return api("MPI_Reduce_local", MPI_COMM_WORLD, [&](Rank& r) {
    check_count(count);
    const TypeDesc& t = r.type(datatype);
    const Reduction red = reduction(r, op, t);
    check_buffer(inbuf, as_size(count), t, "inbuf");
    check_buffer(inoutbuf, as_size(count), t, "inoutbuf");
    if (red.user && !red.flat) {
      apply(r, *red.user, const_cast<void*>(inbuf), inoutbuf, as_size(count), datatype);
      return;
    }
    Packed a(t, inbuf, as_size(count));
    Packed b(t, inoutbuf, as_size(count), true);  // a copy, combined in place
    combine_packed(r, op, t, datatype, a.data, b.copy.data(), as_size(count));
    unpack(t, b.copy.data(), as_size(count), inoutbuf);
  });
}

int MPI_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
               MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return api("MPI_Gather", comm,
             [&](Rank& r) { gather(r, comm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root); });
}

int MPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm) {
  return api("MPI_Allgather", comm, [&](Rank& r) {
    gather(r, comm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, std::nullopt);
  });
}

int MPI_Gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return api("MPI_Gatherv", comm, [&](Rank& r) {
    gatherv(r, comm, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root);
  });
}

int MPI_Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                   const int displs[], MPI_Datatype recvtype, MPI_Comm comm) {
  return api("MPI_Allgatherv", comm, [&](Rank& r) {
    gatherv(r, comm, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, std::nullopt);
  });
}

int MPI_Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return api("MPI_Scatter", comm,
             [&](Rank& r) { scatter(r, comm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root); });
}

int MPI_Scatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                 void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return api("MPI_Scatterv", comm, [&](Rank& r) {
    scatterv(r, comm, sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root);
  });
}

int MPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                 MPI_Datatype recvtype, MPI_Comm comm) {
  return api("MPI_Alltoall", comm,
             [&](Rank& r) { alltoall(r, comm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype); });
}

int MPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                  void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  return api("MPI_Alltoallv", comm, [&](Rank& r) {
    alltoallv(r, comm, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype);
  });
}

int MPI_Reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op,
                       MPI_Comm comm) {
  return api("MPI_Reduce_scatter", comm, [&](Rank& r) {
    reduce_scatter(r, comm, sendbuf, recvbuf, scatter_counts(r, comm, recvcounts), datatype, op);
  });
}

int MPI_Alltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
                  void* recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
                  MPI_Comm comm) {
  return api("MPI_Alltoallw", comm, [&](Rank& r) {
    alltoallw(r, comm, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes);
  });
}

int MPI_Reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
                             MPI_Comm comm) {
  return api("MPI_Reduce_scatter_block", comm, [&](Rank& r) {
    check_count(recvcount, "recvcount");
    const int size = comm_size(r.comm(comm));
    reduce_scatter(r, comm, sendbuf, recvbuf, std::vector<size_t>(as_size(size), as_size(recvcount)), datatype, op);
  });
}

int MPI_Scan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return api("MPI_Scan", comm, [&](Rank& r) { scan(r, comm, sendbuf, recvbuf, count, datatype, op, true); });
}

int MPI_Exscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return api("MPI_Exscan", comm, [&](Rank& r) { scan(r, comm, sendbuf, recvbuf, count, datatype, op, false); });
}

int MPI_Ibarrier(MPI_Comm comm, MPI_Request* request) {
  return start(
      "MPI_Ibarrier", comm, request,
      [=](Rank& r) {
        CommEntry& c = r.comm(comm);
        if (c.inter)
          inter::barrier(c);
        else if (!c.self)
          c.comm->barrier();
      },
      // Without a coprocessor: started, advancing in every call that waits, so the rank
      // goes on (receiving what others send before they reach it) until it waits.
      [=](Rank& r) {
        CommEntry& c = r.comm(comm);
        if (c.inter || c.self) return false;
        std::shared_ptr<drv::PendingCollective> p = c.comm->start_barrier();
        if (!p) {
          complete_request(r, request);  // nothing to wait for
          return true;
        }
        RequestEntry e;
        e.pending = std::move(p);
        e.dcomm = c.comm;
        e.keep = c.owned;
        *request = r.add_request(std::move(e));
        return true;
      });
}

int MPI_Ibcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request* request) {
  return start("MPI_Ibcast", comm, request, [=](Rank& r) {
    bcast(r, comm, buffer, count, datatype, root);
  });
}

int MPI_Ireduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                MPI_Comm comm, MPI_Request* request) {
  return start("MPI_Ireduce", comm, request, [=](Rank& r) {
    reduce(r, comm, sendbuf, recvbuf, count, datatype, op, root);
  });
}

int MPI_Iallreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                   MPI_Request* request) {
  return start("MPI_Iallreduce", comm, request, [=](Rank& r) {
    reduce(r, comm, sendbuf, recvbuf, count, datatype, op, std::nullopt);
  });
}

int MPI_Igather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  return start("MPI_Igather", comm, request, [=](Rank& r) {
    gather(r, comm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root);
  });
}

int MPI_Igatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                 const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  return start("MPI_Igatherv", comm, request, [=](Rank& r) {
    gatherv(r, comm, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root);
  });
}

int MPI_Iscatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                 MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  return start("MPI_Iscatter", comm, request, [=](Rank& r) {
    scatter(r, comm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root);
  });
}

int MPI_Iscatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                  void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  return start("MPI_Iscatterv", comm, request, [=](Rank& r) {
    scatterv(r, comm, sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root);
  });
}

int MPI_Iallgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  return start("MPI_Iallgather", comm, request, [=](Rank& r) {
    gather(r, comm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, std::nullopt);
  });
}

int MPI_Iallgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                    const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                    MPI_Request* request) {
  return start("MPI_Iallgatherv", comm, request, [=](Rank& r) {
    gatherv(r, comm, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, std::nullopt);
  });
}

int MPI_Ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  return start(
      "MPI_Ialltoall", comm, request,
      [=](Rank& r) { alltoall(r, comm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype); },
      // On nodes with the DMA engine the engines move the blocks while the program goes on.
      [=](Rank& r) {
        CommEntry& c = r.comm(comm);
        if (c.inter || c.self || !r.task().has_dma() || c.comm->background_busy() || c.comm->engines_busy())
          return false;  // in the background instead: starting must not wait
        return alltoall(r, comm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, request);
      });
}

int MPI_Ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                   void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                   MPI_Request* request) {
  return start("MPI_Ialltoallv", comm, request, [=](Rank& r) {
    alltoallv(r, comm, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype);
  });
}

int MPI_Ialltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
                   void* recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
                   MPI_Comm comm, MPI_Request* request) {
  return start("MPI_Ialltoallw", comm, request, [=](Rank& r) {
    alltoallw(r, comm, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes);
  });
}

int MPI_Ireduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op,
                        MPI_Comm comm, MPI_Request* request) {
  return start("MPI_Ireduce_scatter", comm, request, [=](Rank& r) {
    reduce_scatter(r, comm, sendbuf, recvbuf, scatter_counts(r, comm, recvcounts), datatype, op);
  });
}

int MPI_Ireduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
                              MPI_Comm comm, MPI_Request* request) {
  return start("MPI_Ireduce_scatter_block", comm, request, [=](Rank& r) {
    check_count(recvcount, "recvcount");
    const int size = comm_size(r.comm(comm));
    reduce_scatter(r, comm, sendbuf, recvbuf, std::vector<size_t>(as_size(size), as_size(recvcount)), datatype, op);
  });
}

int MPI_Iscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
              MPI_Request* request) {
  return start("MPI_Iscan", comm, request, [=](Rank& r) {
    scan(r, comm, sendbuf, recvbuf, count, datatype, op, true);
  });
}

int MPI_Iexscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                MPI_Request* request) {
  return start("MPI_Iexscan", comm, request, [=](Rank& r) {
    scan(r, comm, sendbuf, recvbuf, count, datatype, op, false);
  });
}


// ------------------------------------------------ persistent collectives (MPI-4)
// Each MPI_Start starts the blocking collective with the arguments given here, as the
// non-blocking collectives are started (started_entry). The info's hints are kept nowhere.

int MPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return persistent_collective("MPI_Barrier_init", comm, info, request, [=](Rank& rr) { barrier(rr, comm); });
}
int MPI_Bcast_init(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info,
                   MPI_Request* request) {
  return persistent_collective("MPI_Bcast_init", comm, info, request, [=](Rank& rr) {
    bcast(rr, comm, buffer, count, datatype, root);
  });
}
int MPI_Reduce_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                    MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return persistent_collective("MPI_Reduce_init", comm, info, request, [=](Rank& rr) {
    reduce(rr, comm, sendbuf, recvbuf, count, datatype, op, root);
  });
}
int MPI_Allreduce_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                       MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return persistent_collective("MPI_Allreduce_init", comm, info, request, [=](Rank& rr) {
    reduce(rr, comm, sendbuf, recvbuf, count, datatype, op, std::nullopt);
  });
}
int MPI_Gather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                    MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return persistent_collective("MPI_Gather_init", comm, info, request, [=](Rank& rr) {
    gather(rr, comm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root);
  });
}
int MPI_Allgather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                       MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return persistent_collective("MPI_Allgather_init", comm, info, request, [=](Rank& rr) {
    gather(rr, comm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, std::nullopt);
  });
}
int MPI_Scatter_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                     MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return persistent_collective("MPI_Scatter_init", comm, info, request, [=](Rank& rr) {
    scatter(rr, comm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root);
  });
}
int MPI_Alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                      MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return persistent_collective("MPI_Alltoall_init", comm, info, request, [=](Rank& rr) {
    alltoall(rr, comm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
  });
}
int MPI_Scan_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                  MPI_Info info, MPI_Request* request) {
  return persistent_collective("MPI_Scan_init", comm, info, request, [=](Rank& rr) {
    scan(rr, comm, sendbuf, recvbuf, count, datatype, op, true);
  });
}
int MPI_Exscan_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                    MPI_Info info, MPI_Request* request) {
  return persistent_collective("MPI_Exscan_init", comm, info, request, [=](Rank& rr) {
    scan(rr, comm, sendbuf, recvbuf, count, datatype, op, false);
  });
}
int MPI_Reduce_scatter_block_init(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
                                  MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return persistent_collective("MPI_Reduce_scatter_block_init", comm, info, request, [=](Rank& rr) {
    check_count(recvcount, "recvcount");
    const int size = comm_size(rr.comm(comm));
    reduce_scatter(rr, comm, sendbuf, recvbuf, std::vector<size_t>(as_size(size), as_size(recvcount)), datatype, op);
  });
}

int MPI_Gatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                     const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                     MPI_Request* request) {
  return persistent_collective("MPI_Gatherv_init", comm, info, request, [=](Rank& rr) {
    gatherv(rr, comm, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root);
  });
}
int MPI_Allgatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                        const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                        MPI_Info info, MPI_Request* request) {
  return persistent_collective("MPI_Allgatherv_init", comm, info, request, [=](Rank& rr) {
    gatherv(rr, comm, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, std::nullopt);
  });
}
int MPI_Scatterv_init(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                      void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                      MPI_Request* request) {
  return persistent_collective("MPI_Scatterv_init", comm, info, request, [=](Rank& rr) {
    scatterv(rr, comm, sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root);
  });
}
int MPI_Alltoallv_init(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                       void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                       MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return persistent_collective("MPI_Alltoallv_init", comm, info, request, [=](Rank& rr) {
    alltoallv(rr, comm, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype);
  });
}
int MPI_Alltoallw_init(const void* sendbuf, const int sendcounts[], const int sdispls[],
                       const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[], const int rdispls[],
                       const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return persistent_collective("MPI_Alltoallw_init", comm, info, request, [=](Rank& rr) {
    alltoallw(rr, comm, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes);
  });
}
int MPI_Reduce_scatter_init(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype,
                            MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return persistent_collective("MPI_Reduce_scatter_init", comm, info, request, [=](Rank& rr) {
    reduce_scatter(rr, comm, sendbuf, recvbuf, scatter_counts(rr, comm, recvcounts), datatype, op);
  });
}

}  // extern "C"
