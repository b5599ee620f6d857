// SPDX-License-Identifier: Apache-2.0
#include "mpi/program.hpp"

#include <dlfcn.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace collnet::mpi {

namespace {

std::string hint(const std::string& path, const std::string& err) {
  if (err.find("position-independent executable") != std::string::npos ||
      err.find("cannot be preloaded") != std::string::npos || err.find("invalid ELF header") != std::string::npos ||
      err.find("file too short") != std::string::npos)
    return path + " is not a program built for collnet mpirun: compile and link it with collnet-mpicc (or "
                  "collnet-mpicxx), which makes a shared object with main (" + err + ")";
  return path + ": " + err;
}

}  // namespace

ProgramCopies::ProgramCopies(const std::string& path, unsigned copies) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot open the program (" + std::strerror(errno) + ")");
  const std::vector<char> image((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  file_bytes_ = image.size();
  if (image.size() < 4 || std::memcmp(image.data(), "\x7f" "ELF", 4) != 0)
    throw std::runtime_error(hint(path, "not an ELF file"));
  // The loader knows an object by its path too: each copy's /proc/self/fd/N must differ,
  // so every file stays open until all are loaded (the soft limit on open files is
  // raised to the hard one for that).
  rlimit lim{};
  if (getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < lim.rlim_max) {
    lim.rlim_cur = lim.rlim_max;
    setrlimit(RLIMIT_NOFILE, &lim);
  }
  std::vector<int> fds;
  struct Closer {
    std::vector<int>& fds;
    ~Closer() {
      for (int fd : fds) close(fd);
    }
  } closer{fds};
  for (unsigned c = 0; c < copies; ++c) {
    const int fd = memfd_create(("collnet-rank" + std::to_string(c)).c_str(), MFD_CLOEXEC);
    if (fd < 0)
      throw std::runtime_error(std::string("memfd_create for copy ") + std::to_string(c) + " of " + path + ": " +
                               std::strerror(errno));
    fds.push_back(fd);
    size_t done = 0;
    while (done < image.size()) {
      const ssize_t w = write(fd, image.data() + done, image.size() - done);
      if (w <= 0) {
        throw std::runtime_error(std::string("writing a copy of ") + path + ": " + std::strerror(errno));
      }
      done += static_cast<size_t>(w);
    }
    const std::string fd_path = "/proc/self/fd/" + std::to_string(fd);
    void* h = dlopen(fd_path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) {
      const char* e = dlerror();
      throw std::runtime_error(hint(path, e ? e : "dlopen failed"));
    }
    void* m = dlsym(h, "main");
    if (!m) throw std::runtime_error(path + " has no main() (a program for collnet mpirun needs one)");
    mains_.push_back(reinterpret_cast<Main>(m));
  }
}

}  // namespace collnet::mpi
