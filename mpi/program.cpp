// SPDX-License-Identifier: Apache-2.0
#include "mpi/program.hpp"

#include <dlfcn.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <utility>

#include "mpi/runtime.hpp"

namespace collnet::mpi {

namespace {

// The clock a program's copy reads (collnet_rank_clock): the running rank's MPI_Wtime, or
// -1 when no rank's program runs (its constructors as it loads, its destructors as it
// unloads).
double machine_clock() {
  Runtime* rt = Runtime::active();
  Rank* r = rt ? Runtime::current_or_null() : nullptr;
  return r && !r->done ? r->wtime() : -1;
}

std::string hint(const std::string& path, const std::string& err) {
  if (err.find("position-independent executable") != std::string::npos ||
      err.find("cannot be preloaded") != std::string::npos || err.find("invalid ELF header") != std::string::npos ||
      err.find("file too short") != std::string::npos)
    return path + " is not a program built for collnet mpirun: compile and link it with collnet-mpicc (or "
                  "collnet-mpicxx), which makes a shared object with main (" + err + ")";
  return path + ": " + err;
}

// The environment of the copy being loaded, while its constructors run (dlopen).
const std::vector<char*>* loading_environment = nullptr;

std::vector<char*> pointers(const std::vector<std::string>& env) {
  std::vector<char*> entries;
  for (const std::string& e : env) entries.push_back(const_cast<char*>(e.c_str()));
  entries.push_back(nullptr);
  return entries;
}

}  // namespace

ProgramCopies::ProgramCopies(const std::string& path, unsigned copies, Environment environment,
                             const std::vector<bool>& wanted)
    : environment_(std::move(environment)) {
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
  // (A process that runs none of the ranks loads one copy all the same: the file's checks
  // are every process's.)
  const bool none = !wanted.empty() && std::find(wanted.begin(), wanted.end(), true) == wanted.end();
  for (unsigned c = 0; c < copies; ++c) {
    if (!wanted.empty() && !wanted.at(c) && !(none && c == 0)) {
      copies_.push_back(Copy{});
      continue;
    }
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
    const std::vector<std::string> env = environment_(c);
    const std::vector<char*> entries = pointers(env);
    loading_environment = &entries;
    void* h = dlopen(fd_path.c_str(), RTLD_NOW | RTLD_LOCAL);
    loading_environment = nullptr;
    if (!h) {
      const char* e = dlerror();
      throw std::runtime_error(hint(path, e ? e : "dlopen failed"));
    }
    void* m = dlsym(h, "main");
    if (!m) throw std::runtime_error(path + " has no main() (a program for collnet mpirun needs one)");
    void* begin = dlsym(h, "collnet_rank_begin");
    void* end = dlsym(h, "collnet_rank_end");
    void* clock = dlsym(h, "collnet_rank_clock");
    if (!begin || !end || !clock)
      throw std::runtime_error(path + " was not linked with this collnet's collnet-mpicc (it lacks the state each "
                                      "rank owns: getopt, rand, the environment, atexit, clocks); link it again");
    reinterpret_cast<void (*)(double (*)())>(clock)(machine_clock);
    copies_.push_back(Copy{reinterpret_cast<Main>(m), reinterpret_cast<void (*)(char* const*)>(begin),
                           reinterpret_cast<void (*)(int)>(end)});
  }
}

int ProgramCopies::run(unsigned copy, int argc, char** argv) const {
  const Copy& c = copies_.at(copy);
  if (!c.main) throw std::logic_error("copy " + std::to_string(copy) + " of the program was not loaded here");
  const std::vector<std::string> env = environment_(copy);
  c.begin(pointers(env).data());  // copies the strings
  int status = 0;
  try {
    status = c.main(argc, argv);
  } catch (const RankExit& e) {
    if (e.aborted) throw;
    status = e.code;
  }
  c.end(status);  // a handler that calls exit ends it there, with that status (RankExit)
  return status;
}

std::vector<std::string> rank_environment(unsigned rank, unsigned ranks, unsigned tasks,
                                          const std::vector<std::string>& exports) {
  std::vector<std::string> env;
  for (char** e = environ; e && *e; ++e) env.emplace_back(*e);
  const auto set = [&env](const std::string& name, const std::string& value) {
    const std::string prefix = name + "=";
    env.erase(std::remove_if(env.begin(), env.end(), [&](const std::string& e) { return e.rfind(prefix, 0) == 0; }),
              env.end());
    env.push_back(prefix + value);
  };
  for (const std::string& x : exports)
    if (const size_t eq = x.find('='); eq != std::string::npos) set(x.substr(0, eq), x.substr(eq + 1));
  const unsigned local_size = std::min(tasks, ranks - rank / tasks * tasks);
  const std::pair<const char*, unsigned> job[] = {
      {"OMPI_COMM_WORLD_RANK", rank},         {"OMPI_COMM_WORLD_SIZE", ranks},
      {"OMPI_COMM_WORLD_LOCAL_RANK", rank % tasks}, {"OMPI_COMM_WORLD_LOCAL_SIZE", local_size},
      {"OMPI_COMM_WORLD_NODE_RANK", rank % tasks},  {"OMPI_UNIVERSE_SIZE", ranks},
      {"PMIX_RANK", rank}};
  for (const auto& [name, value] : job) set(name, std::to_string(value));
  return env;
}

char* const* collnet_loading_environment() { return loading_environment ? loading_environment->data() : nullptr; }

}  // namespace collnet::mpi
