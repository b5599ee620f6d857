// SPDX-License-Identifier: Apache-2.0
#include "mpi/host_ops.hpp"

#include <algorithm>
#include <complex>

namespace collnet::mpi {

namespace {

template <class T>
void sum(void* in, void* inout, int* len, MPI_Datatype*) {
  const T* a = static_cast<const T*>(in);
  T* b = static_cast<T*>(inout);
  for (int i = 0; i < *len; ++i) b[i] = a[i] + b[i];
}
template <class T>
void prod(void* in, void* inout, int* len, MPI_Datatype*) {
  const T* a = static_cast<const T*>(in);
  T* b = static_cast<T*>(inout);
  for (int i = 0; i < *len; ++i) b[i] = a[i] * b[i];
}
template <class T>
void max(void* in, void* inout, int* len, MPI_Datatype*) {
  const T* a = static_cast<const T*>(in);
  T* b = static_cast<T*>(inout);
  for (int i = 0; i < *len; ++i) b[i] = std::max(a[i], b[i]);
}
template <class T>
void min(void* in, void* inout, int* len, MPI_Datatype*) {
  const T* a = static_cast<const T*>(in);
  T* b = static_cast<T*>(inout);
  for (int i = 0; i < *len; ++i) b[i] = std::min(a[i], b[i]);
}

// MPI_MAXLOC and MPI_MINLOC on a (value, index) pair of any two types: the greater (lesser)
// value, and of equal values the lesser index.
template <class V, class I, bool Max>
void loc(void* in, void* inout, int* len, MPI_Datatype*) {
  struct Pair {
    V value;
    I index;
  };
  const Pair* a = static_cast<const Pair*>(in);
  Pair* b = static_cast<Pair*>(inout);
  for (int i = 0; i < *len; ++i) {
    const bool better = Max ? a[i].value > b[i].value : a[i].value < b[i].value;
    if (better || (a[i].value == b[i].value && a[i].index < b[i].index)) b[i] = a[i];
  }
}

template <class V, class I>
const UserOp* location(MPI_Op op) {
  static const UserOp mx{loc<V, I, true>, true}, mn{loc<V, I, false>, true};
  return op == MPI_MAXLOC ? &mx : op == MPI_MINLOC ? &mn : nullptr;
}

template <class T>
const UserOp* arithmetic(MPI_Op op) {
  static const UserOp s{sum<T>, true}, p{prod<T>, true};
  return op == MPI_SUM ? &s : op == MPI_PROD ? &p : nullptr;
}

}  // namespace

const UserOp* host_op(MPI_Op op, TypeDesc::Host host) {
  switch (host) {
    case TypeDesc::Host::LongDouble: {
      static const UserOp mx{max<long double>, true}, mn{min<long double>, true};
      if (op == MPI_MAX) return &mx;
      if (op == MPI_MIN) return &mn;
      return arithmetic<long double>(op);
    }
    case TypeDesc::Host::FloatComplex: return arithmetic<std::complex<float>>(op);
    case TypeDesc::Host::DoubleComplex: return arithmetic<std::complex<double>>(op);
    case TypeDesc::Host::LongDoubleComplex: return arithmetic<std::complex<long double>>(op);
    case TypeDesc::Host::LongDoubleInt: return location<long double, int>(op);
    case TypeDesc::Host::TwoFloat: return location<float, float>(op);
    case TypeDesc::Host::TwoDouble: return location<double, double>(op);
    case TypeDesc::Host::None: break;
  }
  return nullptr;
}

const TypeDesc& host_basic_type(TypeDesc::Host host) {
  const std::vector<TypeDesc>& p = predefined_types();
  switch (host) {
    case TypeDesc::Host::LongDouble: return p[MPI_LONG_DOUBLE];
    case TypeDesc::Host::FloatComplex: return p[MPI_C_FLOAT_COMPLEX];
    case TypeDesc::Host::DoubleComplex: return p[MPI_C_DOUBLE_COMPLEX];
    case TypeDesc::Host::LongDoubleComplex: return p[MPI_C_LONG_DOUBLE_COMPLEX];
    case TypeDesc::Host::LongDoubleInt: return p[MPI_LONG_DOUBLE_INT];
    case TypeDesc::Host::TwoFloat: return p[MPI_2REAL];
    case TypeDesc::Host::TwoDouble: return p[MPI_2DOUBLE_PRECISION];
    case TypeDesc::Host::None: break;
  }
  return p[0];
}

}  // namespace collnet::mpi
