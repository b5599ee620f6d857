// SPDX-License-Identifier: Apache-2.0
#include "systemc/build_cache.hpp"

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
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "systemc/model_build_config.hpp"

namespace collnet::sim {

namespace fs = std::filesystem;

namespace {

constexpr const char* kManifest = "manifest.txt";

std::string read_file(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  if (!f) throw std::runtime_error("model cache: cannot read " + p.string());
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

// Holds an exclusive lock on `path` for its lifetime.
class FileLock {
 public:
  explicit FileLock(const fs::path& path) : fd_(::open(path.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644)) {
    if (fd_ < 0) throw std::runtime_error("model cache: cannot open the lock " + path.string());
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
  throw std::runtime_error("model cache: no cache directory (set COLLNET_MODEL_CACHE, XDG_CACHE_HOME or HOME)");
}

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string model_opt_fast(const std::string& fallback) {
  const char* e = std::getenv("COLLNET_MODEL_OPT_FAST");
  return e && *e ? e : fallback;
}

std::string script_compiler() {
  using namespace build_config;
  return std::string(kCxxLauncher).empty() ? shell_quote(kCxx) : shell_quote(kCxxLauncher) + " " + shell_quote(kCxx);
}

std::string verilate_script(const std::string& top, const std::string& prefix, const std::string& verilator_args,
                            const std::string& rtl, const std::string& opt_fast, const std::string& cflags,
                            const std::string& make_targets) {
  using namespace build_config;
  std::ostringstream s;
  s << "echo 'step: verilating " << top << "'\n"
    << shell_quote(kVerilator) << " --cc " << kVerilatorArgs << " --trace-fst -Irtl/common " << verilator_args
    << " --top-module " << top << " --prefix " << prefix << " --Mdir \"$out/" << prefix << "\" " << rtl << "\n"
    << "echo 'step: compiling " << top << "'\n"
    << "make -s -C \"$out/" << prefix << "\" -f " << prefix << ".mk -j" << std::max(1u, std::thread::hardware_concurrency())
    << " " << prefix << "__ALL.a " << make_targets << " CXX=" << shell_quote(script_compiler())
    << " OBJCACHE= OPT_FAST=" << shell_quote(opt_fast) << " OPT_SLOW=" << shell_quote(kOptSlow)
    << " OPT_GLOBAL=-O2 VM_USER_CFLAGS=" << shell_quote(std::string(kCxxFlags) + " " + cflags) << "\n";
  return s.str();
}

std::string cache_digest(const CacheEntrySpec& spec) {
  Digest d;
  d.add(spec.recipe);
  // The sources' content: an edit to any of them is another entry.
  std::set<std::string> seen;
  for (const std::string& f : spec.sources) {
    if (!seen.insert(f).second) continue;
    d.add(f);
    d.add(read_file(fs::path(build_config::kSourceDir) / f));
  }
  return d.hex();
}

CacheEntryInfo cached_build(const CacheEntrySpec& spec, const std::string& digest,
                            const std::function<bool(const std::string& dir, std::string* why)>& usable,
                            const BuildProgress& progress) {
  CacheEntryInfo info;
  info.digest = digest;
  const fs::path dir = fs::path(model_cache_dir()) / info.digest;
  info.dir = dir.string();
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw std::runtime_error("model cache: cannot create the entry " + dir.string() + ": " + ec.message());
  FileLock lock(dir / "lock");
  const fs::path manifest = dir / kManifest;
  const auto complete = [&] {
    for (const std::string& p : spec.products)
      if (!fs::exists(dir / p)) return false;
    return true;
  };
  if (fs::exists(manifest) && complete()) {
    std::string why;
    if (read_file(manifest) != spec.recipe) {
      if (progress) progress("the cache entry of " + spec.what + " was built from something else: building it again");
    } else if (!usable || usable(dir.string(), &why)) {
      return info;
    } else if (progress) {
      progress("the cache entry of " + spec.what + " is not usable (" + why + "): building it again");
    }
  }
  // Build afresh: nothing of an earlier attempt is trusted.
  fs::remove(manifest, ec);
  for (const std::string& p : spec.products) fs::remove(dir / p, ec);
  if (progress) progress("building " + spec.what + " into " + dir.string() + " (minutes)");
  const auto start = std::chrono::steady_clock::now();
  const fs::path script = dir / "build.sh", log = dir / "build.log";
  {
    std::ofstream f(script);
    f << "set -e\n"
      << "cd " << shell_quote(build_config::kSourceDir) << "\n"
      << "out=" << shell_quote(dir.string()) << "\n"
      << spec.script;
  }
  const std::string command = "/bin/sh " + shell_quote(script.string()) + " 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) throw std::runtime_error("model cache: cannot run " + script.string());
  std::ofstream out(log);
  char line[4096];
  while (std::fgets(line, sizeof line, pipe)) {
    out << line;
    std::string l(line);
    if (progress && l.rfind("step: ", 0) == 0) progress(l.substr(6, l.find_last_not_of('\n') - 5));
  }
  out.close();
  const int status = ::pclose(pipe);
  if (status != 0 || !complete())
    throw std::runtime_error("model cache: building " + spec.what + " failed; see " + log.string());
  std::string why;
  if (usable && !usable(dir.string(), &why))
    throw std::runtime_error("model cache: " + spec.what + ", just built in " + dir.string() + ", is not usable: " + why);
  {
    std::ofstream f(manifest.string() + ".tmp");
    f << spec.recipe;
  }
  fs::rename(manifest.string() + ".tmp", manifest);
  info.built = true;
  info.build_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return info;
}

}  // namespace collnet::sim
