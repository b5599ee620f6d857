// SPDX-License-Identifier: Apache-2.0
// mpi.h: derived datatypes (datatypes.hpp) and user-defined ops.
#include <algorithm>
#include <string>

#include "mpi/api_support.hpp"

using namespace collnet::mpi;

namespace {

void check_out(void* p, const char* what) {
  if (!p) fail(MPI_ERR_ARG, std::string(what) + " is null");
}

}  // namespace

extern "C" {

int MPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return api("MPI_Type_contiguous", MPI_COMM_WORLD, [&](Rank& r) {
    check_count(count);
    check_out(newtype, "newtype");
    *newtype = r.add_type(make_contiguous(as_size(count), r.any_type(oldtype, "oldtype")));
  });
}

int MPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return api("MPI_Type_vector", MPI_COMM_WORLD, [&](Rank& r) {
    check_count(count);
    check_count(blocklength, "blocklength");
    check_out(newtype, "newtype");
    const TypeDesc& old = r.any_type(oldtype, "oldtype");
    *newtype = r.add_type(make_vector(as_size(count), as_size(blocklength), static_cast<ptrdiff_t>(stride) * old.extent, old));
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
    *newtype = r.add_type(make_indexed(lengths, displs, old));
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
    *newtype = r.add_type(make_indexed(lengths, displs, old));
  });
}

int MPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                            MPI_Datatype* newtype) {
  return api("MPI_Type_create_hvector", MPI_COMM_WORLD, [&](Rank& r) {
    check_count(count);
    check_count(blocklength, "blocklength");
    check_out(newtype, "newtype");
    *newtype =
        r.add_type(make_vector(as_size(count), as_size(blocklength), stride, r.any_type(oldtype, "oldtype")));
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
    *newtype = r.add_type(make_indexed(lengths, displs, r.any_type(oldtype, "oldtype")));
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
    *newtype = r.add_type(make_indexed(lengths, displs, r.any_type(oldtype, "oldtype")));
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
    *newtype = r.add_type(make_resized(placed, 0, whole));
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
    *newtype = r.add_type(make_struct(lengths, displs, olds));
  });
}

int MPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent, MPI_Datatype* newtype) {
  return api("MPI_Type_create_resized", MPI_COMM_WORLD, [&](Rank& r) {
    check_out(newtype, "newtype");
    *newtype = r.add_type(make_resized(r.any_type(oldtype, "oldtype"), lb, extent));
  });
}

int MPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return api("MPI_Type_dup", MPI_COMM_WORLD, [&](Rank& r) {
    check_out(newtype, "newtype");
    TypeDesc t = r.any_type(oldtype, "oldtype");
    t.predefined = false;
    t.committed = true;
    *newtype = r.add_type(std::move(t));
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
    r.free_type(*datatype);
  });
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
    const size_t bytes = as_size(incount) * t.packed;
    if (*position < 0 || static_cast<size_t>(*position) + bytes > static_cast<size_t>(std::max(outsize, 0)))
      fail(MPI_ERR_TRUNCATE, std::to_string(bytes) + " bytes do not fit at position " + std::to_string(*position) +
                                 " of a buffer of " + std::to_string(outsize));
    pack(t, inbuf, as_size(incount), static_cast<uint8_t*>(outbuf) + *position);
    *position += static_cast<int>(bytes);
  });
}

int MPI_Unpack(const void* inbuf, int insize, int* position, void* outbuf, int outcount, MPI_Datatype datatype,
               MPI_Comm comm) {
  return api("MPI_Unpack", comm, [&](Rank& r) {
    check_count(outcount, "outcount");
    r.comm(comm);
    const TypeDesc& t = r.type(datatype);
    check_buffer(outbuf, as_size(outcount), t, "outbuf");
    const size_t bytes = as_size(outcount) * t.packed;
    if (*position < 0 || static_cast<size_t>(*position) + bytes > static_cast<size_t>(std::max(insize, 0)))
      fail(MPI_ERR_TRUNCATE, std::to_string(bytes) + " bytes are not there at position " +
                                 std::to_string(*position) + " of a buffer of " + std::to_string(insize));
    unpack(t, static_cast<const uint8_t*>(inbuf) + *position, as_size(outcount), outbuf);
    *position += static_cast<int>(bytes);
  });
}

int MPI_Type_size(MPI_Datatype datatype, int* size) {
  return api("MPI_Type_size", MPI_COMM_WORLD, [&](Rank& r) { *size = static_cast<int>(r.any_type(datatype).size); });
}

int MPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint* lb, MPI_Aint* extent) {
  return api("MPI_Type_get_extent", MPI_COMM_WORLD, [&](Rank& r) {
    const TypeDesc& t = r.any_type(datatype);
    *lb = t.lb;
    *extent = t.extent;
  });
}

int MPI_Type_get_true_extent(MPI_Datatype datatype, MPI_Aint* true_lb, MPI_Aint* true_extent) {
  return api("MPI_Type_get_true_extent", MPI_COMM_WORLD, [&](Rank& r) {
    // The bytes the type map covers, from its lowest to its highest, without the bounds a
    // resized type or alignment adds. (A (value, index) pair counts its padding: collnet
    // moves pairs whole.)
    const TypeDesc& t = r.any_type(datatype);
    ptrdiff_t lo = 0, hi = 0;
    for (size_t k = 0; k < t.runs.size(); ++k) {
      const ptrdiff_t a = t.runs[k].offset, b = a + static_cast<ptrdiff_t>(t.runs[k].bytes);
      lo = k == 0 ? a : std::min(lo, a);
      hi = k == 0 ? b : std::max(hi, b);
    }
    *true_lb = lo;
    *true_extent = hi - lo;
  });
}

int MPI_Get_address(const void* location, MPI_Aint* address) {
  *address = reinterpret_cast<MPI_Aint>(location);
  return MPI_SUCCESS;
}

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
