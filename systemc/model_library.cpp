// SPDX-License-Identifier: Apache-2.0
#include "systemc/model_library.hpp"

#include <dlfcn.h>

#include <filesystem>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "systemc/model_build_config.hpp"

namespace collnet::sim {

namespace fs = std::filesystem;

namespace {

constexpr const char* kLibrary = "libcollnet_node_models.so";
constexpr const char* kEntryFunction = "collnet_node_models";

// The per-cycle code's optimisation: the simulator's own unless the environment says.
std::string opt_fast() { return model_opt_fast(build_config::kOptFast); }

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : " ") + shell_quote(x);
  return s;
}

// The script that builds the library into $out: both sides Verilated with the sizes as
// parameter overrides, then linked with model_library_entry.cpp. It runs in the source tree,
// so that Verilator writes the same relative RTL paths into its messages as the simulator's
// own build does.
std::string build_script(const NodeSizes& sizes) {
  using namespace build_config;
  const std::string cxx = script_compiler(), cflags = "-fPIC -fvisibility=hidden";
  std::ostringstream s;
  s << verilate_script("nd_tree_net", "Vtree_net", std::string(kMachineAssertArgs) + " " + join(sizes.overrides("nd_tree_net")),
                       kTreeSources, opt_fast(), cflags, "verilated.o verilated_fst_c.o verilated_threads.o")
    << verilate_script("nd_torus_net", "Vtorus_net",
                       std::string(kMachineAssertArgs) + " " + join(sizes.overrides("nd_torus_net")), kTorusSources,
                       opt_fast(), cflags, "");
  const std::string vinc = std::string(kVerilatorRoot) + "/include";
  s << "echo 'step: linking the model library'\n"
    << cxx << " " << kCxxFlags << " -O2 " << cflags << " -DVM_TRACE=1 -DVM_TRACE_FST=1 -DVM_COVERAGE=0 -DVM_SC=0"
    << " -I. -I\"$out/Vtree_net\" -I\"$out/Vtorus_net\" -I" << shell_quote(vinc) << " -I" << shell_quote(vinc + "/vltstd")
    << " -c systemc/model_library_entry.cpp -o \"$out/entry.o\"\n"
    << cxx << " -shared -o \"$out/" << kLibrary << ".tmp\" \"$out/entry.o\" -Wl,--whole-archive"
    << " \"$out/Vtree_net/Vtree_net__ALL.a\" \"$out/Vtorus_net/Vtorus_net__ALL.a\" -Wl,--no-whole-archive"
    << " \"$out/Vtree_net/verilated.o\" \"$out/Vtree_net/verilated_fst_c.o\" \"$out/Vtree_net/verilated_threads.o\""
    << " -lz -pthread"
    << " -Wl,--version-script=systemc/model_library.map\n"
    << "mv \"$out/" << kLibrary << ".tmp\" \"$out/" << kLibrary << "\"\n";
  return s.str();
}

// What an entry is built from: the recipe as text (the digest covers it and the manifest
// repeats it) and the sources whose content the digest covers.
CacheEntrySpec entry_spec(const NodeSizes& sizes) {
  using namespace build_config;
  CacheEntrySpec spec;
  spec.what = "node models for " + sizes.changed();
  std::ostringstream r;
  r << "abi " << kNodeModelsAbi << "\n";
  for (std::size_t i = 0; i < NodeSizes::kCount; ++i)
    r << "size " << fw::regmap::kSizes[i].key << " " << sizes.value(i) << "\n";
  r << "verilator " << kVerilator << " " << kVerilatorVersion << "\n"
    << "verilator_args " << kVerilatorArgs << " " << kMachineAssertArgs << "\n"
    << "cxx " << kCxx << " " << kCxxFlags << " fast " << opt_fast() << " slow " << kOptSlow << "\n";
  spec.recipe = r.str();
  std::istringstream files(std::string(kTreeSources) + " " + kTorusSources + " " + kLibrarySources);
  for (std::string f; files >> f;) spec.sources.push_back(f);
  spec.script = build_script(sizes);
  spec.products = {kLibrary};
  return spec;
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

}  // namespace

const NodeModels& node_models_for(const NodeSizes& sizes, const BuildProgress& progress, ModelLibraryInfo* info) {
  if (sizes.is_default()) return builtin_node_models();
  const CacheEntrySpec spec = entry_spec(sizes);
  const std::string digest = cache_digest(spec);
  Registry& reg = Registry::get();
  std::lock_guard<std::mutex> guard(reg.mu);
  if (info) *info = {(fs::path(model_cache_dir()) / digest).string(), digest, false, 0};
  if (auto it = reg.loaded.find(digest); it != reg.loaded.end()) return *it->second;
  const NodeModels* models = nullptr;
  const CacheEntryInfo entry = cached_build(
      spec, digest, [&](const std::string& dir, std::string* why) { return (models = load(dir, why)) != nullptr; },
      progress);
  if (info) *info = entry;
  return *(reg.loaded[digest] = models);
}

}  // namespace collnet::sim
