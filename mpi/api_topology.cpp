// SPDX-License-Identifier: Apache-2.0
// mpi.h: process topologies. So far MPI_Dims_create, the balanced factorisation programs
// use to shape a Cartesian grid.
#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "mpi/api_support.hpp"

using namespace collnet::mpi;

extern "C" {

int MPI_Dims_create(int nnodes, int ndims, int dims[]) {
  return api("MPI_Dims_create", MPI_COMM_WORLD, [&](Rank&) {
    if (nnodes < 1) fail(MPI_ERR_ARG, "nnodes " + std::to_string(nnodes) + " is not positive");
    if (ndims < 0) fail(MPI_ERR_DIMS, "ndims " + std::to_string(ndims) + " is negative");
    // The dimensions the caller fixed must divide nnodes; the others (0) share the rest.
    long fixed = 1;
    int free_dims = 0;
    for (int i = 0; i < ndims; ++i) {
      if (dims[i] < 0) fail(MPI_ERR_DIMS, "dims[" + std::to_string(i) + "] " + std::to_string(dims[i]) + " is negative");
      if (dims[i] == 0)
        ++free_dims;
      else
        fixed *= dims[i];
    }
    if (nnodes % fixed != 0)
      fail(MPI_ERR_DIMS, "the fixed dimensions (product " + std::to_string(fixed) + ") do not divide nnodes " +
                             std::to_string(nnodes));
    int rest = static_cast<int>(nnodes / fixed);
    if (free_dims == 0) {
      if (rest != 1)
        fail(MPI_ERR_DIMS, "every dimension is fixed and their product " + std::to_string(fixed) + " is not nnodes " +
                               std::to_string(nnodes));
      return;
    }
    // Prime factors, each given in turn, largest first, to the dimension with the smallest
    // product so far (the lowest such), then sorted so that the dimensions do not increase.
    std::vector<int> primes;
    for (int p = 2; static_cast<long>(p) * p <= rest; ++p)
      while (rest % p == 0) {
        primes.push_back(p);
        rest /= p;
      }
    if (rest > 1) primes.push_back(rest);
    std::vector<int> bins(static_cast<size_t>(free_dims), 1);
    for (auto f = primes.rbegin(); f != primes.rend(); ++f) *std::min_element(bins.begin(), bins.end()) *= *f;
    std::sort(bins.begin(), bins.end(), std::greater<int>());
    size_t next = 0;
    for (int i = 0; i < ndims; ++i)
      if (dims[i] == 0) dims[i] = bins[next++];
  });
}

}  // extern "C"
