// SPDX-License-Identifier: Apache-2.0
#include "systemc/model_library.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "systemc/model_build_config.hpp"


namespace collnet::sim {

namespace fs = std::filesystem;

namespace {

constexpr const char* kLibrary = "libcollnet_node_models.so";
constexpr const char* kManifest = "manifest.txt";
constexpr const char* kEntryFunction = "collnet_node_models";

std::string read_file(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  if (!f) throw std::runtime_error("model library: cannot read " + p.string());
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// FNV-1a, 64 bits: names a cache entry (not a defence against anyone forging one).
struct Digest {
  uint64_t h = 1469598103934665603ULL;
  void add(const std::string& s) {
    for (unsigned char c : s) h = (h ^ c) * 1099511628211ULL;
    h = (h ^ 0xff) * 1099511628211ULL;  // a separator, so that "ab"+"c" differs from "a"+"bc"
  }
  std::string hex() const {
    char b[17];
    std::snprintf(b, sizeof b, "%016llx", static_cast<unsigned long long>(h));
    return b;
  }
};

// The per-cycle code's optimisation: the simulator's own, or $COLLNET_MODEL_OPT_FAST (a
// quicker build for experiments and the tests; its entries are others).
std::string opt_fast() {
  const char* e = std::getenv("COLLNET_MODEL_OPT_FAST");
  return e && *e ? e : build_config::kOptFast;
}

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : " ") + quote(x);
  return s;
}

// The shell script that builds the library into `dir` (run from the source tree, so that
// Verilator writes the same relative RTL paths into its messages as the simulator's own
// build does). It prints "step: ..." lines for the progress report.
std::string build_script(const NodeSizes& sizes, const fs::path& dir) {
  using namespace build_config;
  const std::string cxx = std::string(kCxxLauncher).empty() ? quote(kCxx) : quote(kCxxLauncher) + " " + quote(kCxx);
  std::ostringstream s;
  s << "set -e\n"
    << "cd " << quote(kSourceDir) << "\n"
    << "out=" << quote(dir.string()) << "\n";
  const std::pair<const char*, const char*> sides[] = {{"nd_tree_net", "Vtree_net"}, {"nd_torus_net", "Vtorus_net"}};
  for (const auto& [top, prefix] : sides) {
    const std::string sources = std::string(top) == "nd_tree_net" ? kTreeSources : kTorusSources;
    s << "echo 'step: verilating " << top << "'\n"
      << quote(kVerilator) << " --cc " << kVerilatorArgs << " " << kMachineAssertArgs << " --trace-fst -Irtl/common"
      << " --top-module " << top << " --prefix " << prefix << " --Mdir \"$out/" << prefix << "\" "
      << join(sizes.overrides(top)) << " " << sources << "\n"
      << "echo 'step: compiling " << top << "'\n"
      << "make -s -C \"$out/" << prefix << "\" -f " << prefix << ".mk -j" << std::max(1u, std::thread::hardware_concurrency()) << " " << prefix << "__ALL.a"
      << (std::string(top) == "nd_tree_net" ? " verilated.o verilated_fst_c.o verilated_threads.o" : "")
      << " CXX=" << quote(cxx) << " OBJCACHE= OPT_FAST=" << quote(opt_fast()) << " OPT_SLOW=" << quote(kOptSlow)
      << " OPT_GLOBAL=-O2 VM_USER_CFLAGS=" << quote(std::string(kCxxFlags) + " -fPIC -fvisibility=hidden") << "\n";
  }
  const std::string vinc = std::string(kVerilatorRoot) + "/include";
  s << "echo 'step: linking the model library'\n"
    << cxx << " " << kCxxFlags << " -O2 -fPIC -fvisibility=hidden -DVM_TRACE=1 -DVM_TRACE_FST=1 -DVM_COVERAGE=0 -DVM_SC=0"
    << " -I. -I\"$out/Vtree_net\" -I\"$out/Vtorus_net\" -I" << quote(vinc) << " -I" << quote(vinc + "/vltstd")
    << " -c systemc/model_library_entry.cpp -o \"$out/entry.o\"\n"
    << cxx << " -shared -o \"$out/" << kLibrary << ".tmp\" \"$out/entry.o\" -Wl,--whole-archive"
    << " \"$out/Vtree_net/Vtree_net__ALL.a\" \"$out/Vtorus_net/Vtorus_net__ALL.a\" -Wl,--no-whole-archive"
    << " \"$out/Vtree_net/verilated.o\" \"$out/Vtree_net/verilated_fst_c.o\" \"$out/Vtree_net/verilated_threads.o\""
    << " -lz -pthread"
    << " -Wl,--version-script=systemc/model_library.map\n"
    << "mv \"$out/" << kLibrary << ".tmp\" \"$out/" << kLibrary << "\"\n";
  return s.str();
}

// What an entry is built from, as text: the digest covers it and the manifest repeats it.
std::string recipe(const NodeSizes& sizes, std::string* digest) {
  using namespace build_config;
  Digest d;
  std::ostringstream r;
  r << "abi " << kNodeModelsAbi << "\n";
  for (std::size_t i = 0; i < NodeSizes::kCount; ++i)
    r << "size " << fw::regmap::kSizes[i].key << " " << sizes.value(i) << "\n";
  r << "verilator " << kVerilator << " " << kVerilatorVersion << "\n"
    << "verilator_args " << kVerilatorArgs << " " << kMachineAssertArgs << "\n"
    << "cxx " << kCxx << " " << kCxxFlags << " fast " << opt_fast() << " slow " << kOptSlow << "\n";
  d.add(r.str());
  // The sources' content: an edit to any of them is another entry.
  std::istringstream files(std::string(kTreeSources) + " " + kTorusSources + " " + kLibrarySources);
  std::map<std::string, bool> seen;
  for (std::string f; files >> f;) {
    if (seen[f]) continue;
    seen[f] = true;
    d.add(f);
    d.add(read_file(fs::path(kSourceDir) / f));
  }
  *digest = d.hex();
  return r.str();
}

class Registry {
 public:
  static Registry& get() {
    static Registry r;
    return r;
  }
  std::mutex mu;
  std::map<std::string, const NodeModels*> loaded;  // by digest; never unloaded
};

// Loads the library of entry `dir`, or returns null and says why in `why`.
const NodeModels* load(const fs::path& dir, std::string* why) {
  void* h = dlopen((dir / kLibrary).c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    *why = dlerror();
    return nullptr;
  }
  using Entry = const NodeModels* (*)(unsigned*);
  auto entry = reinterpret_cast<Entry>(dlsym(h, kEntryFunction));
  if (!entry) {
    *why = std::string("no ") + kEntryFunction;
    dlclose(h);
    return nullptr;
  }
  unsigned abi = 0;
  const NodeModels* models = entry(&abi);
  if (abi != kNodeModelsAbi || !models) {
    *why = "built against interface " + std::to_string(abi) + ", not " + std::to_string(kNodeModelsAbi);
    dlclose(h);
    return nullptr;
  }
  return models;
}

// Holds an exclusive lock on `path` for its lifetime.
class FileLock {
 public:
  explicit FileLock(const fs::path& path) : fd_(::open(path.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644)) {
    if (fd_ < 0) throw std::runtime_error("model library: cannot open the lock " + path.string());
    while (::flock(fd_, LOCK_EX) != 0) {
    }
  }
  ~FileLock() { ::close(fd_); }
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  int fd_;
};

}  // namespace

std::string model_cache_dir() {
  if (const char* d = std::getenv("COLLNET_MODEL_CACHE"); d && *d) return d;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/collnet/models";
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.cache/collnet/models";
  throw std::runtime_error("model library: no cache directory (set COLLNET_MODEL_CACHE, XDG_CACHE_HOME or HOME)");
}

const NodeModels& node_models_for(const NodeSizes& sizes, const BuildProgress& progress, ModelLibraryInfo* info) {
  if (sizes.is_default()) return builtin_node_models();
  std::string digest;
  const std::string want = recipe(sizes, &digest);
  Registry& reg = Registry::get();
  std::lock_guard<std::mutex> guard(reg.mu);
  const fs::path dir = fs::path(model_cache_dir()) / digest;
  if (info) *info = {dir.string(), digest, false, 0};
  if (auto it = reg.loaded.find(digest); it != reg.loaded.end()) return *it->second;

  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw std::runtime_error("model library: cannot create the cache entry " + dir.string() + ": " + ec.message());
  FileLock lock(dir / "lock");
  std::string why;
  const fs::path manifest = dir / kManifest;
  if (fs::exists(manifest) && fs::exists(dir / kLibrary)) {
    if (read_file(manifest) == want) {
      if (const NodeModels* m = load(dir, &why)) return *(reg.loaded[digest] = m);
      if (progress) progress("the cached model library does not load (" + why + "): building it again");
    } else if (progress) {
      progress("the cached model library was built from something else: building it again");
    }
  }
  // Build afresh: nothing of an earlier attempt is trusted.
  fs::remove(manifest, ec);
  fs::remove(dir / kLibrary, ec);
  if (progress) progress("building node models for " + sizes.changed() + " into " + dir.string() + " (minutes)");
  const auto start = std::chrono::steady_clock::now();
  const fs::path script = dir / "build.sh", log = dir / "build.log";
  {
    std::ofstream f(script);
    f << build_script(sizes, dir);
  }
  const std::string command = "/bin/sh " + quote(script.string()) + " 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) throw std::runtime_error("model library: cannot run " + script.string());
  std::ofstream out(log);
  char line[4096];
  while (std::fgets(line, sizeof line, pipe)) {
    out << line;
    std::string l(line);
    if (progress && l.rfind("step: ", 0) == 0) progress(l.substr(6, l.find_last_not_of('\n') - 5));
  }
  out.close();
  const int status = ::pclose(pipe);
  if (status != 0)
    throw std::runtime_error("model library: building node models for " + sizes.changed() + " failed; see " +
                             log.string());
  const NodeModels* m = load(dir, &why);
  if (!m) throw std::runtime_error("model library: the library just built in " + dir.string() + " does not load: " + why);
  {
    std::ofstream f(manifest.string() + ".tmp");
    f << want;
  }
  fs::rename(manifest.string() + ".tmp", manifest);
  if (info) {
    info->built = true;
    info->build_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  return *(reg.loaded[digest] = m);
}

}  // namespace collnet::sim
