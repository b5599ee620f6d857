// SPDX-License-Identifier: Apache-2.0
// mpi.h: derived datatypes (datatypes.hpp) and user-defined ops.
#include <algorithm>
#include <climits>
#include <cstdio>
#include <initializer_list>
#include <memory>
#include <string>
#include <utility>

#include "mpi/api_support.hpp"
#include "mpi/coprocessor_work.hpp"
#include "mpi/attributes.hpp"
#include "mpi/external32.hpp"

using namespace collnet::mpi;

namespace {

// The bytes a type map covers, from its lowest to its highest, without the bounds a
// resized type or alignment adds (MPI_Type_get_true_extent): (true lb, true extent). A
// (value, index) pair counts its padding: collnet moves pairs whole.
std::pair<ptrdiff_t, ptrdiff_t> true_extent_of(const TypeDesc& t) {
  ptrdiff_t lo = 0, hi = 0;
  for (size_t k = 0; k < t.runs.size(); ++k) {
    const ptrdiff_t a = t.runs[k].offset, b = a + static_cast<ptrdiff_t>(t.runs[k].bytes);
    lo = k == 0 ? a : std::min(lo, a);
    hi = k == 0 ? b : std::max(hi, b);
  }
  return {lo, hi - lo};
}

// MPI_Type_get_extent and _get_true_extent (`true_extent`), in MPI_Aint or MPI_Count (the
// _x forms), as mpi.h calls `name`.
template <class T>
int get_extent(const char* name, MPI_Datatype datatype, T* lb, T* extent, bool true_extent) {
  return api(name, MPI_COMM_WORLD, [&](Rank& r) {
    const TypeDesc& t = r.any_type(datatype);
    const auto [low, span] = true_extent ? true_extent_of(t) : std::pair<ptrdiff_t, ptrdiff_t>{t.lb, t.extent};
    *lb = low;
    *extent = span;
  });
}

void check_out(void* p, const char* what) {
  if (!p) fail(MPI_ERR_ARG, std::string(what) + " is null");
}

// Adds `t`, made by `combiner` from these arguments (MPI_Type_get_contents gives them back).
MPI_Datatype add_made(Rank& r, TypeDesc t, int combiner, std::vector<int> ints, std::vector<MPI_Aint> aints,
                      std::vector<MPI_Datatype> types) {
  t.envelope.combiner = combiner;
  t.envelope.ints = std::move(ints);
  t.envelope.aints.assign(aints.begin(), aints.end());
  for (MPI_Datatype h : types) {
    const TypeDesc& old = r.any_type(h);
    t.envelope.derived.push_back(old.predefined ? nullptr : std::make_shared<const TypeDesc>(old));
  }
  t.envelope.types = std::move(types);
  return r.add_type(std::move(t));
}

std::vector<int> joined(std::initializer_list<int> head, const int* a, int n, const int* b = nullptr, int m = 0) {
  std::vector<int> v(head);
  if (a) v.insert(v.end(), a, a + n);
  if (b) v.insert(v.end(), b, b + m);
  return v;
}

// MPI_Pack's and MPI_Unpack's place in the buffer: `bytes` at *position of a buffer of
// `size`; moves *position past them and returns where they start (MPI_ERR_TRUNCATE if they
// do not fit).
template <class Position>
size_t advance(Position* position, size_t bytes, Position size) {
  if (!position) fail(MPI_ERR_ARG, "position is null");
  if (*position < 0 || static_cast<size_t>(*position) + bytes > static_cast<size_t>(std::max<Position>(size, 0)))
    fail(MPI_ERR_TRUNCATE, std::to_string(bytes) + " bytes at position " + std::to_string(*position) +
                               " do not fit a buffer of " + std::to_string(size));
  const size_t at = static_cast<size_t>(*position);
  *position += static_cast<Position>(bytes);
  return at;
}

// MPI_Pack_external's data representations: "external32" only.
void check_datarep(const char* datarep) {
  if (!datarep || std::strcmp(datarep, "external32") != 0)
    fail(MPI_ERR_ARG, std::string("data representation \"") + (datarep ? datarep : "(null)") +
                          "\" is not \"external32\", the one MPI_Pack_external knows");
}

// MPI_Type_create_f90_*'s type (`combiner`, its arguments `args`): the predefined type `base`
// of the kind selected by (p, r) under the combiner and its arguments, the same handle for
// the same arguments.
MPI_Datatype f90_type(Rank& r, int combiner, std::vector<int> args, MPI_Datatype base) {
  const std::array<int, 3> key{combiner, args.at(0), args.size() > 1 ? args[1] : 0};
  if (auto it = r.f90_types.find(key); it != r.f90_types.end()) return it->second;
  TypeDesc t = r.any_type(base);
  t.predefined = false;
  std::string text;
  for (int a : args) text += (text.empty() ? "" : ", ") + std::to_string(a);
  t.name = std::string(combiner == MPI_COMBINER_F90_INTEGER ? "MPI_Type_create_f90_integer("
                       : combiner == MPI_COMBINER_F90_REAL  ? "MPI_Type_create_f90_real("
                                                            : "MPI_Type_create_f90_complex(") +
           text + ")";
  const MPI_Datatype h = add_made(r, std::move(t), combiner, std::move(args), {}, {});
  r.f90_types[key] = h;
  return h;
}

// The precision and range gfortran's kinds have: REAL(4) 6 digits and 10^37, REAL(8) 15
// and 10^307 (MPI_UNDEFINED asks nothing). 4 or 8 bytes, or 0 if neither will do.
int f90_real_bytes(int p, int r) {
  if (p == MPI_UNDEFINED) p = 0;
  if (r == MPI_UNDEFINED) r = 0;
  if (p < 0 || r < 0) return 0;
  if (p <= 6 && r <= 37) return 4;
  if (p <= 15 && r <= 307) return 8;
  return 0;
}

// MPI_Type_create_f90_real and _complex (mpi.h call `name`): the REAL or COMPLEX
// (`complex`) type of the kind with precision p and range r.
int f90_floating(const char* name, bool complex, int p, int r, MPI_Datatype* newtype) {
  return api(name, MPI_COMM_WORLD, [&](Rank& rk) {
    check_out(newtype, "newtype");
    const int bytes = f90_real_bytes(p, r);
    if (!bytes)
      fail(MPI_ERR_ARG, std::string("no ") + (complex ? "complex" : "real") + " kind has precision " +
                            std::to_string(p) + " and range " + std::to_string(r) + " (collnet's go to " +
                            (complex ? "COMPLEX" : "REAL") + "(8): 15 digits, 10^307)");
    const MPI_Datatype base = complex ? (bytes == 4 ? MPI_COMPLEX8 : MPI_COMPLEX16) : (bytes == 4 ? MPI_REAL4 : MPI_REAL8);
    *newtype = f90_type(rk, complex ? MPI_COMBINER_F90_COMPLEX : MPI_COMBINER_F90_REAL, {p, r}, base);
  });
}

}  // namespace

extern "C" {

int MPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return api("MPI_Type_contiguous", MPI_COMM_WORLD, [&](Rank& r) {
    check_count(count);
    check_out(newtype, "newtype");
    *newtype = add_made(r, make_contiguous(as_size(count), r.any_type(oldtype, "oldtype")), MPI_COMBINER_CONTIGUOUS,
                        {count}, {}, {oldtype});
  });
}

int MPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return api("MPI_Type_vector", MPI_COMM_WORLD, [&](Rank& r) {
    check_count(count);
    check_count(blocklength, "blocklength");
    check_out(newtype, "newtype");
    const TypeDesc& old = r.any_type(oldtype, "oldtype");
    *newtype = add_made(r, make_vector(as_size(count), as_size(blocklength), static_cast<ptrdiff_t>(stride) * old.extent, old),
                        MPI_COMBINER_VECTOR, {count, blocklength, stride}, {}, {oldtype});
  });
}

int MPI_Type_indexed(int count, const int blocklengths[], const int displacements[], MPI_Datatype oldtype,
                     MPI_Datatype* newtype) {
  return api("MPI_Type_indexed", MPI_COMM_WORLD, [&](Rank& r) {
    check_count(count);
    check_out(newtype, "newtype");
    const TypeDesc& old = r.any_type(oldtype, "oldtype");
    std::vector<size_t> lengths;
    std::vector<ptrdiff_t> displs;
    for (int i = 0; i < count; ++i) {
      check_count(blocklengths[i], "a blocklengths entry");
      lengths.push_back(as_size(blocklengths[i]));
      displs.push_back(static_cast<ptrdiff_t>(displacements[i]) * old.extent);
    }
    *newtype = add_made(r, make_indexed(lengths, displs, old), MPI_COMBINER_INDEXED,
                        joined({count}, blocklengths, count, displacements, count), {}, {oldtype});
  });
}

int MPI_Type_create_indexed_block(int count, int blocklength, const int displacements[], MPI_Datatype oldtype,
                                  MPI_Datatype* newtype) {
  return api("MPI_Type_create_indexed_block", MPI_COMM_WORLD, [&](Rank& r) {
    check_count(count);
    check_count(blocklength, "blocklength");
    check_out(newtype, "newtype");
    const TypeDesc& old = r.any_type(oldtype, "oldtype");
    std::vector<size_t> lengths(as_size(count), as_size(blocklength));
    std::vector<ptrdiff_t> displs;
    for (int i = 0; i < count; ++i) displs.push_back(static_cast<ptrdiff_t>(displacements[i]) * old.extent);
    *newtype = add_made(r, make_indexed(lengths, displs, old), MPI_COMBINER_INDEXED_BLOCK,
                        joined({count, blocklength}, displacements, count), {}, {oldtype});
  });
}

int MPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                            MPI_Datatype* newtype) {
  return api("MPI_Type_create_hvector", MPI_COMM_WORLD, [&](Rank& r) {
    check_count(count);
    check_count(blocklength, "blocklength");
    check_out(newtype, "newtype");
    *newtype = add_made(r, make_vector(as_size(count), as_size(blocklength), stride, r.any_type(oldtype, "oldtype")),
                        MPI_COMBINER_HVECTOR, {count, blocklength}, {stride}, {oldtype});
  });
}

int MPI_Type_create_hindexed(int count, const int blocklengths[], const MPI_Aint displacements[],
                             MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return api("MPI_Type_create_hindexed", MPI_COMM_WORLD, [&](Rank& r) {
    check_count(count);
    check_out(newtype, "newtype");
    std::vector<size_t> lengths;
    std::vector<ptrdiff_t> displs(displacements, displacements + count);
    for (int i = 0; i < count; ++i) {
      check_count(blocklengths[i], "a blocklengths entry");
      lengths.push_back(as_size(blocklengths[i]));
    }
    *newtype = add_made(r, make_indexed(lengths, displs, r.any_type(oldtype, "oldtype")), MPI_COMBINER_HINDEXED,
                        joined({count}, blocklengths, count), std::vector<MPI_Aint>(displacements, displacements + count),
                        {oldtype});
  });
}

int MPI_Type_create_hindexed_block(int count, int blocklength, const MPI_Aint displacements[], MPI_Datatype oldtype,
                                   MPI_Datatype* newtype) {
  return api("MPI_Type_create_hindexed_block", MPI_COMM_WORLD, [&](Rank& r) {
    check_count(count);
    check_count(blocklength, "blocklength");
    check_out(newtype, "newtype");
    std::vector<size_t> lengths(as_size(count), as_size(blocklength));
    std::vector<ptrdiff_t> displs(displacements, displacements + count);
    *newtype = add_made(r, make_indexed(lengths, displs, r.any_type(oldtype, "oldtype")),
                        MPI_COMBINER_HINDEXED_BLOCK, {count, blocklength},
                        std::vector<MPI_Aint>(displacements, displacements + count), {oldtype});
  });
}

int MPI_Type_create_subarray(int ndims, const int sizes[], const int subsizes[], const int starts[], int order,
                             MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return api("MPI_Type_create_subarray", MPI_COMM_WORLD, [&](Rank& r) {
    check_out(newtype, "newtype");
    if (ndims < 1) fail(MPI_ERR_ARG, "ndims " + std::to_string(ndims) + " is less than 1");
    if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
      fail(MPI_ERR_ARG, "order " + std::to_string(order) + " is neither MPI_ORDER_C nor MPI_ORDER_FORTRAN");
    for (int i = 0; i < ndims; ++i)
      if (sizes[i] < 1 || subsizes[i] < 1 || subsizes[i] > sizes[i] || starts[i] < 0 ||
          starts[i] > sizes[i] - subsizes[i])
        fail(MPI_ERR_ARG, "dimension " + std::to_string(i) + ": size " + std::to_string(sizes[i]) + ", subsize " +
                              std::to_string(subsizes[i]) + ", start " + std::to_string(starts[i]) +
                              " do not describe a part of the array");
    // Built from the fastest-varying dimension out: each level a vector of the level
    // below, strided by the array's size there; then placed at the starts and resized to
    // the whole array, as the standard defines it.
    const TypeDesc& old = r.any_type(oldtype, "oldtype");
    const auto dim = [&](int k) { return order == MPI_ORDER_C ? ndims - 1 - k : k; };  // k = 0 fastest
    TypeDesc t = make_contiguous(as_size(subsizes[dim(0)]), old);
    ptrdiff_t stride = old.extent, offset = static_cast<ptrdiff_t>(starts[dim(0)]) * old.extent;
    for (int k = 1; k < ndims; ++k) {
      stride *= sizes[dim(k - 1)];
      t = make_vector(as_size(subsizes[dim(k)]), 1, stride, t);
      offset += static_cast<ptrdiff_t>(starts[dim(k)]) * stride;
    }
    const ptrdiff_t whole = stride * sizes[dim(ndims - 1)];
    TypeDesc placed = make_struct({1}, {offset}, {&t});
    *newtype = add_made(r, make_resized(placed, 0, whole), MPI_COMBINER_SUBARRAY,
                        joined({ndims}, sizes, ndims, subsizes, ndims), {}, {oldtype});
    // (starts and order follow the subsizes in the integers)
    TypeDesc& made = r.any_type(*newtype);
    made.envelope.ints.insert(made.envelope.ints.end(), starts, starts + ndims);
    made.envelope.ints.push_back(order);
  });
}

int MPI_Type_create_darray(int size, int rank, int ndims, const int gsizes[], const int distribs[], const int dargs[],
                           const int psizes[], int order, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return api("MPI_Type_create_darray", MPI_COMM_WORLD, [&](Rank& r) {
    check_out(newtype, "newtype");
    if (ndims < 1) fail(MPI_ERR_ARG, "ndims " + std::to_string(ndims) + " is less than 1");
    if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
      fail(MPI_ERR_ARG, "order " + std::to_string(order) + " is neither MPI_ORDER_C nor MPI_ORDER_FORTRAN");
    long procs = 1;
    for (int i = 0; i < ndims; ++i) {
      if (gsizes[i] < 1 || psizes[i] < 1)
        fail(MPI_ERR_ARG, "dimension " + std::to_string(i) + ": gsize " + std::to_string(gsizes[i]) + " and psize " +
                              std::to_string(psizes[i]) + " must be positive");
      procs *= psizes[i];
    }
    if (procs != size)
      fail(MPI_ERR_ARG, "the process grid has " + std::to_string(procs) + " processes, size is " + std::to_string(size));
    if (rank < 0 || rank >= size) fail(MPI_ERR_ARG, "rank " + std::to_string(rank) + " is not 0.." + std::to_string(size - 1));
    // This process's place in the grid (row-major, as the standard says whatever `order`),
    // and in each dimension the global indices it holds, in increasing order.
    std::vector<std::vector<long>> held(as_size(ndims));
    for (int i = ndims - 1, rest = rank; i >= 0; --i) {
      const int c = rest % psizes[i];
      rest /= psizes[i];
      const long n = gsizes[i], p = psizes[i];
      const bool dflt = dargs[i] == MPI_DISTRIBUTE_DFLT_DARG;
      if (!dflt && dargs[i] < 1) fail(MPI_ERR_ARG, "dargs[" + std::to_string(i) + "] " + std::to_string(dargs[i]) + " is not positive");
      switch (distribs[i]) {
        case MPI_DISTRIBUTE_NONE:
          if (p != 1) fail(MPI_ERR_ARG, "dimension " + std::to_string(i) + " is not distributed but psize is " + std::to_string(p));
          for (long g = 0; g < n; ++g) held[as_size(i)].push_back(g);
          break;
        case MPI_DISTRIBUTE_BLOCK: {
          const long b = dflt ? (n + p - 1) / p : dargs[i];
          if (b * p < n)
            fail(MPI_ERR_ARG, "dimension " + std::to_string(i) + ": blocks of " + std::to_string(b) + " on " +
                                  std::to_string(p) + " processes do not cover " + std::to_string(n));
          for (long g = c * b; g < std::min((c + 1) * b, n); ++g) held[as_size(i)].push_back(g);
          break;
        }
        case MPI_DISTRIBUTE_CYCLIC: {
          const long b = dflt ? 1 : dargs[i];
          for (long start = c * b; start < n; start += b * p)
            for (long g = start; g < std::min(start + b, n); ++g) held[as_size(i)].push_back(g);
          break;
        }
        default:
          fail(MPI_ERR_ARG, "distribs[" + std::to_string(i) + "] " + std::to_string(distribs[i]) +
                                " is not MPI_DISTRIBUTE_BLOCK, _CYCLIC or _NONE");
      }
    }
    // The local array's elements in its own order (C: the last dimension fastest), each
    // at its place in the global array; the type spans the whole global array.
    const TypeDesc& old = r.any_type(oldtype, "oldtype");
    const auto dim = [&](int k) { return order == MPI_ORDER_C ? ndims - 1 - k : k; };  // k = 0 fastest
    std::vector<ptrdiff_t> stride(as_size(ndims));
    ptrdiff_t whole = old.extent;
    for (int k = 0; k < ndims; ++k) {
      stride[as_size(dim(k))] = whole;
      whole *= gsizes[dim(k)];
    }
    std::vector<ptrdiff_t> displs{0};
    for (int k = ndims - 1; k >= 0; --k) {  // slowest first: each level multiplies the list
      std::vector<ptrdiff_t> next;
      for (ptrdiff_t d : displs)
        for (long g : held[as_size(dim(k))]) next.push_back(d + g * stride[as_size(dim(k))]);
      displs.swap(next);
    }
    const TypeDesc local = make_indexed(std::vector<size_t>(displs.size(), 1), displs, old);
    std::vector<int> ints{size, rank, ndims};
    ints.insert(ints.end(), gsizes, gsizes + ndims);
    ints.insert(ints.end(), distribs, distribs + ndims);
    ints.insert(ints.end(), dargs, dargs + ndims);
    ints.insert(ints.end(), psizes, psizes + ndims);
    ints.push_back(order);
    *newtype = add_made(r, make_resized(local, 0, whole), MPI_COMBINER_DARRAY, ints, {}, {oldtype});
  });
}

int MPI_Type_create_struct(int count, const int blocklengths[], const MPI_Aint displacements[],
                           const MPI_Datatype types[], MPI_Datatype* newtype) {
  return api("MPI_Type_create_struct", MPI_COMM_WORLD, [&](Rank& r) {
    check_count(count);
    check_out(newtype, "newtype");
    std::vector<size_t> lengths;
    std::vector<ptrdiff_t> displs;
    std::vector<const TypeDesc*> olds;
    for (int i = 0; i < count; ++i) {
      check_count(blocklengths[i], "a blocklengths entry");
      lengths.push_back(as_size(blocklengths[i]));
      displs.push_back(displacements[i]);
      olds.push_back(&r.any_type(types[i], "a types entry"));
    }
    *newtype = add_made(r, make_struct(lengths, displs, olds), MPI_COMBINER_STRUCT, joined({count}, blocklengths, count),
                        std::vector<MPI_Aint>(displacements, displacements + count),
                        std::vector<MPI_Datatype>(types, types + count));
  });
}

int MPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent, MPI_Datatype* newtype) {
  return api("MPI_Type_create_resized", MPI_COMM_WORLD, [&](Rank& r) {
    check_out(newtype, "newtype");
    *newtype = add_made(r, make_resized(r.any_type(oldtype, "oldtype"), lb, extent), MPI_COMBINER_RESIZED, {},
                        {lb, extent}, {oldtype});
  });
}

int MPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return api("MPI_Type_dup", MPI_COMM_WORLD, [&](Rank& r) {
    check_out(newtype, "newtype");
    TypeDesc t = r.any_type(oldtype, "oldtype");
    t.predefined = false;
    t.committed = true;
    *newtype = add_made(r, std::move(t), MPI_COMBINER_DUP, {}, {}, {oldtype});
    copy_type_attributes(r, oldtype, *newtype);
  });
}

int MPI_Type_commit(MPI_Datatype* datatype) {
  return api("MPI_Type_commit", MPI_COMM_WORLD, [&](Rank& r) {
    check_out(datatype, "datatype");
    r.any_type(*datatype).committed = true;
  });
}

int MPI_Type_free(MPI_Datatype* datatype) {
  return api("MPI_Type_free", MPI_COMM_WORLD, [&](Rank& r) {
    check_out(datatype, "datatype");
    const int combiner = r.any_type(*datatype).envelope.combiner;
    if (combiner == MPI_COMBINER_F90_INTEGER || combiner == MPI_COMBINER_F90_REAL ||
        combiner == MPI_COMBINER_F90_COMPLEX)
      fail(MPI_ERR_TYPE, "a type MPI_Type_create_f90_* gave is predefined: it cannot be freed");
    settle_posted(r);  // a collective posted with it may still use it
    if (!r.any_type(*datatype).predefined) delete_type_attributes(r, *datatype);
    r.free_type(*datatype);
    r.type_names.erase(*datatype);
  });
}

int MPI_Type_get_envelope(MPI_Datatype datatype, int* num_integers, int* num_addresses, int* num_datatypes,
                          int* combiner) {
  return api("MPI_Type_get_envelope", MPI_COMM_WORLD, [&](Rank& r) {
    const TypeDesc& t = r.any_type(datatype);
    if (t.predefined) {
      *num_integers = *num_addresses = *num_datatypes = 0;
      *combiner = MPI_COMBINER_NAMED;
      return;
    }
    *num_integers = static_cast<int>(t.envelope.ints.size());
    *num_addresses = static_cast<int>(t.envelope.aints.size());
    *num_datatypes = static_cast<int>(t.envelope.types.size());
    *combiner = t.envelope.combiner;
  });
}

int MPI_Type_get_contents(MPI_Datatype datatype, int max_integers, int max_addresses, int max_datatypes,
                          int array_of_integers[], MPI_Aint array_of_addresses[], MPI_Datatype array_of_datatypes[]) {
  return api("MPI_Type_get_contents", MPI_COMM_WORLD, [&](Rank& r) {
    const TypeDesc::Envelope e = r.any_type(datatype).envelope;  // a copy: add_type may move it
    if (r.any_type(datatype).predefined) fail(MPI_ERR_TYPE, "a named (predefined) type has no contents");
    if (max_integers < static_cast<int>(e.ints.size()) || max_addresses < static_cast<int>(e.aints.size()) ||
        max_datatypes < static_cast<int>(e.types.size()))
      fail(MPI_ERR_ARG, "the arrays are shorter than MPI_Type_get_envelope says (" + std::to_string(e.ints.size()) +
                            ", " + std::to_string(e.aints.size()) + ", " + std::to_string(e.types.size()) + ")");
    std::copy(e.ints.begin(), e.ints.end(), array_of_integers);
    std::copy(e.aints.begin(), e.aints.end(), array_of_addresses);
    // A derived type comes back as a new handle (the program frees it), a named one as itself.
    for (size_t i = 0; i < e.types.size(); ++i)
      array_of_datatypes[i] = e.derived[i] ? r.add_type(*e.derived[i]) : e.types[i];
  });
}

int MPI_Type_create_f90_integer(int r, MPI_Datatype* newtype) {
  return api("MPI_Type_create_f90_integer", MPI_COMM_WORLD, [&](Rank& rk) {
    check_out(newtype, "newtype");
    const MPI_Datatype base = r < 0    ? MPI_DATATYPE_NULL
                              : r <= 2 ? MPI_INTEGER1
                              : r <= 4 ? MPI_INTEGER2
                              : r <= 9 ? MPI_INTEGER4
                              : r <= 18 ? MPI_INTEGER8
                                        : MPI_DATATYPE_NULL;
    if (base == MPI_DATATYPE_NULL)
      fail(MPI_ERR_ARG, "no integer kind holds " + std::to_string(r) + " decimal digits (collnet's go to 18: INTEGER(8))");
    *newtype = f90_type(rk, MPI_COMBINER_F90_INTEGER, {r}, base);
  });
}

int MPI_Type_create_f90_real(int p, int r, MPI_Datatype* newtype) {
  return f90_floating("MPI_Type_create_f90_real", false, p, r, newtype);
}

int MPI_Type_create_f90_complex(int p, int r, MPI_Datatype* newtype) {
  return f90_floating("MPI_Type_create_f90_complex", true, p, r, newtype);
}

int MPI_Type_match_size(int typeclass, int size, MPI_Datatype* datatype) {
  return api("MPI_Type_match_size", MPI_COMM_WORLD, [&](Rank&) {
    const std::pair<int, MPI_Datatype> ints[] = {{1, MPI_INT8_T}, {2, MPI_INT16_T}, {4, MPI_INT32_T}, {8, MPI_INT64_T}};
    const std::pair<int, MPI_Datatype> reals[] = {
        {4, MPI_FLOAT}, {8, MPI_DOUBLE}, {static_cast<int>(sizeof(long double)), MPI_LONG_DOUBLE}};
    const std::pair<int, MPI_Datatype> complexes[] = {{8, MPI_C_FLOAT_COMPLEX}, {16, MPI_C_DOUBLE_COMPLEX}};
    const auto pick = [&](const auto& table) {
      for (const auto& [bytes, type] : table)
        if (bytes == size) return type;
      fail(MPI_ERR_ARG, "no type of the class has " + std::to_string(size) + " bytes");
    };
    if (typeclass == MPI_TYPECLASS_INTEGER)
      *datatype = pick(ints);
    else if (typeclass == MPI_TYPECLASS_REAL)
      *datatype = pick(reals);
    else if (typeclass == MPI_TYPECLASS_COMPLEX)
      *datatype = pick(complexes);
    else
      fail(MPI_ERR_ARG, "typeclass " + std::to_string(typeclass) + " is not an MPI_TYPECLASS_");
  });
}

int MPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int* size) {
  return api("MPI_Pack_size", comm, [&](Rank& r) {
    check_count(incount, "incount");
    r.comm(comm);
    *size = static_cast<int>(as_size(incount) * r.type(datatype).packed);
  });
}

int MPI_Pack(const void* inbuf, int incount, MPI_Datatype datatype, void* outbuf, int outsize, int* position,
             MPI_Comm comm) {
  return api("MPI_Pack", comm, [&](Rank& r) {
    check_count(incount, "incount");
    r.comm(comm);
    const TypeDesc& t = r.type(datatype);
    check_buffer(inbuf, as_size(incount), t, "inbuf");
    const size_t at = advance(position, as_size(incount) * t.packed, outsize);
    pack(t, inbuf, as_size(incount), static_cast<uint8_t*>(outbuf) + at);
  });
}

int MPI_Unpack(const void* inbuf, int insize, int* position, void* outbuf, int outcount, MPI_Datatype datatype,
               MPI_Comm comm) {
  return api("MPI_Unpack", comm, [&](Rank& r) {
    check_count(outcount, "outcount");
    r.comm(comm);
    const TypeDesc& t = r.type(datatype);
    check_buffer(outbuf, as_size(outcount), t, "outbuf");
    unpack(t, static_cast<const uint8_t*>(inbuf) + advance(position, as_size(outcount) * t.packed, insize),
           as_size(outcount), outbuf);
  });
}

int MPI_Pack_external(const char datarep[], const void* inbuf, int incount, MPI_Datatype datatype, void* outbuf,
                      MPI_Aint outsize, MPI_Aint* position) {
  return api("MPI_Pack_external", MPI_COMM_WORLD, [&](Rank& r) {
    check_datarep(datarep);
    check_count(incount, "incount");
    const TypeDesc& t = r.type(datatype);
    check_buffer(inbuf, as_size(incount), t, "inbuf");
    const MPI_Aint was = position ? *position : 0;
    const size_t at = advance(position, as_size(incount) * external32_bytes(t), outsize);
    const Packed in(t, inbuf, as_size(incount));
    try {
      to_external32(t, in.data, as_size(incount), static_cast<uint8_t*>(outbuf) + at);
    } catch (const MpiError&) {
      *position = was;  // nothing packed
      throw;
    }
  });
}

int MPI_Unpack_external(const char datarep[], const void* inbuf, MPI_Aint insize, MPI_Aint* position, void* outbuf,
                        int outcount, MPI_Datatype datatype) {
  return api("MPI_Unpack_external", MPI_COMM_WORLD, [&](Rank& r) {
    check_datarep(datarep);
    check_count(outcount, "outcount");
    const TypeDesc& t = r.type(datatype);
    check_buffer(outbuf, as_size(outcount), t, "outbuf");
    const size_t at = advance(position, as_size(outcount) * external32_bytes(t), insize);
    std::vector<uint8_t> packed(as_size(outcount) * t.packed);
    from_external32(t, static_cast<const uint8_t*>(inbuf) + at, as_size(outcount), packed.data());
    unpack(t, packed.data(), as_size(outcount), outbuf);
  });
}

int MPI_Pack_external_size(const char datarep[], int incount, MPI_Datatype datatype, MPI_Aint* size) {
  return api("MPI_Pack_external_size", MPI_COMM_WORLD, [&](Rank& r) {
    check_datarep(datarep);
    check_count(incount, "incount");
    if (!size) fail(MPI_ERR_ARG, "size is null");
    *size = static_cast<MPI_Aint>(as_size(incount) * external32_bytes(r.type(datatype)));
  });
}

int MPI_Type_size(MPI_Datatype datatype, int* size) {
  return api("MPI_Type_size", MPI_COMM_WORLD, [&](Rank& r) {
    const size_t n = r.any_type(datatype).size;
    *size = n > INT_MAX ? MPI_UNDEFINED : static_cast<int>(n);  // MPI_Type_size_x has it
  });
}

int MPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint* lb, MPI_Aint* extent) {
  return get_extent("MPI_Type_get_extent", datatype, lb, extent, false);
}

int MPI_Type_get_true_extent(MPI_Datatype datatype, MPI_Aint* true_lb, MPI_Aint* true_extent) {
  return get_extent("MPI_Type_get_true_extent", datatype, true_lb, true_extent, true);
}

int MPI_Get_address(const void* location, MPI_Aint* address) {
  *address = reinterpret_cast<MPI_Aint>(location);
  return MPI_SUCCESS;
}

// Addresses are the host's byte addresses (MPI_Get_address): their sums and differences
// are plain arithmetic.
MPI_Aint MPI_Aint_add(MPI_Aint base, MPI_Aint disp) { return base + disp; }
MPI_Aint MPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2) { return addr1 - addr2; }

int MPI_Type_set_name(MPI_Datatype datatype, const char* type_name) {
  return api("MPI_Type_set_name", MPI_COMM_WORLD, [&](Rank& r) {
    r.any_type(datatype);
    if (!type_name) fail(MPI_ERR_ARG, "type_name is null");
    r.type_names[datatype] = std::string(type_name).substr(0, MPI_MAX_OBJECT_NAME - 1);
  });
}

int MPI_Type_get_name(MPI_Datatype datatype, char* type_name, int* resultlen) {
  // The name the program set; else a predefined type's own ("MPI_INT"); else empty.
  return api("MPI_Type_get_name", MPI_COMM_WORLD, [&](Rank& r) {
    const TypeDesc& t = r.any_type(datatype);
    if (!type_name || !resultlen) fail(MPI_ERR_ARG, std::string(type_name ? "resultlen" : "type_name") + " is null");
    const auto it = r.type_names.find(datatype);
    const std::string n = it != r.type_names.end() ? it->second : t.predefined ? t.name : std::string();
    std::snprintf(type_name, MPI_MAX_OBJECT_NAME, "%s", n.c_str());
    *resultlen = static_cast<int>(n.size());
  });
}

int MPI_Type_size_x(MPI_Datatype datatype, MPI_Count* size) {
  return api("MPI_Type_size_x", MPI_COMM_WORLD, [&](Rank& r) { *size = static_cast<MPI_Count>(r.any_type(datatype).size); });
}

int MPI_Type_get_extent_x(MPI_Datatype datatype, MPI_Count* lb, MPI_Count* extent) {
  return get_extent("MPI_Type_get_extent_x", datatype, lb, extent, false);
}

int MPI_Type_get_true_extent_x(MPI_Datatype datatype, MPI_Count* true_lb, MPI_Count* true_extent) {
  return get_extent("MPI_Type_get_true_extent_x", datatype, true_lb, true_extent, true);
}

// MPI-1's names, removed in MPI-3.0: the MPI-2 functions of the same meaning.
int MPI_Type_extent(MPI_Datatype datatype, MPI_Aint* extent) {
  MPI_Aint lb = 0;
  return MPI_Type_get_extent(datatype, &lb, extent);
}
int MPI_Type_lb(MPI_Datatype datatype, MPI_Aint* displacement) {
  MPI_Aint extent = 0;
  return MPI_Type_get_extent(datatype, displacement, &extent);
}
int MPI_Type_ub(MPI_Datatype datatype, MPI_Aint* displacement) {
  MPI_Aint lb = 0, extent = 0;
  const int rc = MPI_Type_get_extent(datatype, &lb, &extent);
  if (rc == MPI_SUCCESS) *displacement = lb + extent;
  return rc;
}
int MPI_Type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return MPI_Type_create_hvector(count, blocklength, stride, oldtype, newtype);
}
int MPI_Type_hindexed(int count, int blocklengths[], MPI_Aint displacements[], MPI_Datatype oldtype,
                      MPI_Datatype* newtype) {
  return MPI_Type_create_hindexed(count, blocklengths, displacements, oldtype, newtype);
}
int MPI_Type_struct(int count, int blocklengths[], MPI_Aint displacements[], MPI_Datatype types[],
                    MPI_Datatype* newtype) {
  return MPI_Type_create_struct(count, blocklengths, displacements, types, newtype);
}
int MPI_Address(void* location, MPI_Aint* address) { return MPI_Get_address(location, address); }

int MPI_Op_create(MPI_User_function* user_fn, int commute, MPI_Op* op) {
  return api("MPI_Op_create", MPI_COMM_WORLD, [&](Rank& r) {
    if (!user_fn) fail(MPI_ERR_ARG, "user_fn is null");
    check_out(op, "op");
    *op = r.add_op(UserOp{user_fn, commute != 0});
  });
}

int MPI_Op_free(MPI_Op* op) {
  return api("MPI_Op_free", MPI_COMM_WORLD, [&](Rank& r) {
    check_out(op, "op");
    settle_posted(r);  // a collective posted with it may still use it
    r.free_op(*op);
  });
}

int MPI_Op_commutative(MPI_Op op, int* commute) {
  return api("MPI_Op_commutative", MPI_COMM_WORLD, [&](Rank& r) {
    const UserOp* u = r.user_op(op);
    *commute = u ? u->commute : 1;
  });
}

}  // extern "C"
