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
