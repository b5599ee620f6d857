// SPDX-License-Identifier: Apache-2.0
// What a coverage build's models counted (make coverage, docs/coverage.md): the code that
// owns a Verilator context (the machine, a testbench's harness) writes the context's
// coverage database when it ends, as a file of its own in $COLLNET_COVERAGE_DIR (the
// working directory if unset), for verilator_coverage to merge. In any other build
// (COLLNET_COVERAGE unset) it does nothing.
#pragma once

#include <string>

#include "verilated.h"

#if defined(COLLNET_COVERAGE) && COLLNET_COVERAGE
#include <unistd.h>

#include <atomic>
#include <cstdlib>

#include "verilated_cov.h"
#endif

namespace collnet::sim {

// `what` names the writer in the file's name (letters, digits, '-' and '_' only).
inline void write_coverage(VerilatedContext& context, const std::string& what) {
#if defined(COLLNET_COVERAGE) && COLLNET_COVERAGE
  static std::atomic<unsigned> files{0};
  const char* dir = std::getenv("COLLNET_COVERAGE_DIR");
  const std::string path = std::string(dir && *dir ? dir : ".") + "/" + what + "-" + std::to_string(getpid()) + "-" +
                           std::to_string(files++) + ".dat";
  context.coveragep()->write(path.c_str());
#else
  (void)context;
  (void)what;
#endif
}

}  // namespace collnet::sim
