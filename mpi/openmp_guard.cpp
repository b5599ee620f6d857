// SPDX-License-Identifier: Apache-2.0
#include "mpi/openmp_guard.hpp"

#include <dlfcn.h>

namespace collnet::mpi {

std::optional<OpenMpGuard> OpenMpGuard::find() {
  // A program's copy and what it needs are loaded with local symbols: ask for the runtime
  // by name, only if it is loaded already.
  for (const char* name : {"libgomp.so.1", "libomp.so.5", "libomp.so", "libiomp5.so"}) {
    void* lib = dlopen(name, RTLD_LAZY | RTLD_NOLOAD);
    if (!lib) continue;
    OpenMpGuard g;
    g.in_parallel_ = reinterpret_cast<int (*)()>(dlsym(lib, "omp_in_parallel"));
    g.num_threads_ = reinterpret_cast<int (*)()>(dlsym(lib, "omp_get_num_threads"));
    dlclose(lib);  // still loaded: the program needs it
    if (g.in_parallel_ && g.num_threads_) return g;
  }
  return std::nullopt;
}

int OpenMpGuard::team() const {
  if (!in_parallel_()) return 0;
  const int n = num_threads_();
  return n > 1 ? n : 0;
}

}  // namespace collnet::mpi
