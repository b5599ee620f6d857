// SPDX-License-Identifier: Apache-2.0
// An MPI program as collnet mpirun runs it: a shared object (what collnet-mpicc links)
// loaded once per rank, so that every rank has its own copy of the program's globals and
// static variables, as the processes of a real MPI job do. Each copy is loaded from an
// anonymous in-memory file of its own (the dynamic loader maps a file once however often
// it is opened), with its symbols kept local; its calls into mpi.h resolve to the
// collnet executable's. The copies share the C library (and so the heap and stdio).
#pragma once

#include <string>
#include <vector>

namespace collnet::mpi {

class ProgramCopies {
 public:
  using Main = int (*)(int, char**);
  // Loads `path` `copies` times; throws std::runtime_error naming the file and what is
  // wrong (not found, not a shared object built by collnet-mpicc, no main).
  ProgramCopies(const std::string& path, unsigned copies);
  Main main(unsigned copy) const { return mains_.at(copy); }
  unsigned copies() const { return static_cast<unsigned>(mains_.size()); }
  size_t file_bytes() const { return file_bytes_; }

 private:
  std::vector<Main> mains_;
  size_t file_bytes_ = 0;
};

}  // namespace collnet::mpi
