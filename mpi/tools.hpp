// SPDX-License-Identifier: Apache-2.0
// One rank's state of the tools information interface (MPI_T, MPI-3.1 chapter 14;
// api_tools.cpp): how many MPI_T_init_thread calls it has not finalized, its performance
// variable sessions and handles, and its control variable handles. A performance
// variable's handle counts only while it is started (collnet's are not continuous): what
// it read is `counted`, plus the variable's growth since `started_at` while it runs.
#pragma once

#include <cstdint>
#include <vector>

namespace collnet::mpi {

struct ToolsState {
  int inits = 0;
  struct PvarHandle {
    int session = 0;  // 0: freed
    int index = 0;    // the variable
    bool started = false;
    uint64_t counted = 0, started_at = 0;
  };
  std::vector<PvarHandle> pvar_handles;  // handle h is [h - 1]
  std::vector<bool> sessions;            // session s is [s - 1]: not yet freed
  std::vector<int> cvar_handles;         // handle h is [h - 1]: the variable, -1 once freed
};

}  // namespace collnet::mpi
