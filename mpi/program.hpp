// SPDX-License-Identifier: Apache-2.0
// An MPI program as collnet mpirun runs it: a shared object (what collnet-mpicc links)
// loaded once per rank, so that every rank has its own copy of the program's globals and
// static variables, as the processes of a real MPI job do. Each copy is loaded from an
// anonymous in-memory file of its own (the dynamic loader maps a file once however often
// it is opened), with its symbols kept local; its calls into mpi.h resolve to the
// collnet executable's. The copies share the C library (and so the heap and stdio), except
// for the state collnet-mpicc links into each (mpi/rank/: getopt, rand, the environment,
// atexit handlers, strtok and the calls with static buffers), which each rank owns.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace collnet::mpi {

class ProgramCopies {
 public:
  using Main = int (*)(int, char**);
  // A copy's environment (NAME=VALUE strings): its constructors' as it loads, its main's.
  using Environment = std::function<std::vector<std::string>(unsigned copy)>;
  // Loads `path` `copies` times; throws std::runtime_error naming the file and what is
  // wrong (not found, not a shared object built by collnet-mpicc, no main). With `wanted`
  // (one flag per copy), only the copies flagged are loaded, those of the ranks another
  // process of a partitioned machine does not run; the file is checked all the same.
  ProgramCopies(const std::string& path, unsigned copies, Environment environment,
                const std::vector<bool>& wanted = {});

  // Runs copy `copy` (a loaded one) as a process of an MPI job runs its program: with its
  // environment, main(argc, argv), and when main returns or calls exit, the handlers it
  // registered with atexit and on_exit. Returns the exit status; an aborted run (RankExit
  // with aborted set) passes through without the handlers.
  int run(unsigned copy, int argc, char** argv) const;
  unsigned copies() const { return static_cast<unsigned>(copies_.size()); }
  size_t file_bytes() const { return file_bytes_; }

 private:
  // A copy's entry points (mpi/rank/rank_state.h has the two hooks).
  struct Copy {
    Main main;
    void (*begin)(char* const*);
    void (*end)(int);
  };
  std::vector<Copy> copies_;
  Environment environment_;
  size_t file_bytes_ = 0;
};

extern "C" {
// The environment of the copy being loaded (null-terminated), or null: a copy's
// constructors, which run before mpirun starts its rank, read their rank's environment
// through it (mpi/rank/environment.c). Exported to the programs (mpi/exports.list).
char* const* collnet_loading_environment();
}

// The environment a rank of `ranks` starts with: this process's, and the variables an
// Open MPI job sets for its processes (OMPI_COMM_WORLD_RANK, _SIZE, _LOCAL_RANK,
// _LOCAL_SIZE, _NODE_RANK, OMPI_UNIVERSE_SIZE, PMIX_RANK), for `tasks` ranks a node; and
// `exports`' NAME=VALUE (mpirun -x) set over this process's (a bare NAME is there already).
std::vector<std::string> rank_environment(unsigned rank, unsigned ranks, unsigned tasks,
                                          const std::vector<std::string>& exports = {});

}  // namespace collnet::mpi
