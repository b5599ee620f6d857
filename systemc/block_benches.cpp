// SPDX-License-Identifier: Apache-2.0
#include "systemc/block_benches.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <sstream>

#include "systemc/model_build_config.hpp"

namespace collnet::sim {

namespace fs = std::filesystem;

namespace {

// A bench, its block, the side whose sizes it takes and which of them the block has.
struct BenchSpec {
  const char* name;
  const char* block;
  const char* side;
  std::vector<std::string> params;
  const char* rtl;  // build_config's list
};

std::vector<BenchSpec> benches() {
  using namespace build_config;
  return {
      {"tb_tr_router", "tr_router", "nd_torus_net", {"DynFlits", "EscSlots", "InjFlits", "RcvFlits", "RcvFifos", "Dma"},
       kRouterBenchSources},
      {"tb_cn_adapter", "cn_adapter", "nd_tree_net", {"LinkPackets", "InjPackets", "RcvPackets", "RetryFlits", "UserClasses"},
       kAdapterBenchSources},
  };
}

// The bench's definition of a parameter: DynFlits -> TB_DYN_FLITS.
std::string definition(const std::string& param) {
  std::string d = "TB_";
  for (std::size_t i = 0; i < param.size(); ++i) {
    if (i > 0 && std::isupper(static_cast<unsigned char>(param[i]))) d += '_';
    d += static_cast<char>(std::toupper(static_cast<unsigned char>(param[i])));
  }
  return d;
}

// The files of `dir` (under the source tree) whose names end in one of `exts`, sorted.
std::vector<std::string> files_in(const std::string& dir, const std::vector<std::string>& exts) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(fs::path(build_config::kSourceDir) / dir)) {
    const std::string name = e.path().filename().string();
    for (const std::string& x : exts)
      if (name.size() > x.size() && name.compare(name.size() - x.size(), x.size(), x) == 0) out.push_back(dir + "/" + name);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

std::vector<BlockBench> block_benches_for(const NodeSizes& sizes, const BuildProgress& progress) {
  using namespace build_config;
  const std::string opt = model_opt_fast("-O1");  // a bench simulates little (tb/CMakeLists.txt)
  const std::string cxx = script_compiler(), vinc = std::string(kVerilatorRoot) + "/include";
  const std::vector<std::string> firmware = files_in("firmware", {".cpp"});
  // What every bench is built from besides its own source and its block's RTL: the headers
  // the benches share, the firmware it drives the block with, the assertion macros the RTL
  // includes.
  std::vector<std::string> shared = files_in("tb", {".hpp"});
  for (const std::string& f : files_in("firmware", {".hpp", ".cpp"})) shared.push_back(f);
  shared.insert(shared.end(), {"systemc/coverage.hpp", "rtl/common/cmn_assert.svh"});
  std::vector<BlockBench> out;
  for (const BenchSpec& b : benches()) {
    // The block's sizes: its side's, those the block has as parameters.
    std::string values, overrides, defines;
    for (const std::string& pv : sizes.parameters(b.side)) {
      const std::string param = pv.substr(0, pv.find('='));
      if (std::find(b.params.begin(), b.params.end(), param) == b.params.end()) continue;
      const std::string value = pv.substr(pv.find('=') + 1);
      values += (values.empty() ? "" : " ") + pv;
      overrides += " -G" + pv;
      defines += " -D" + definition(param) + "=" + value;
    }
    const std::string prefix = std::string("V") + b.block;
    CacheEntrySpec spec;
    spec.what = std::string(b.name) + " at " + values;
    std::ostringstream r;
    r << "bench " << b.name << " of " << b.block << "\n"
      << "sizes " << values << "\n"
      << "verilator " << kVerilator << " " << kVerilatorVersion << "\n"
      << "verilator_args " << kVerilatorArgs << "\n"
      << "cxx " << kCxx << " " << kCxxFlags << " fast " << opt << " slow " << kOptSlow << "\n";
    spec.recipe = r.str();
    std::istringstream rtl(b.rtl);
    for (std::string f; rtl >> f;) spec.sources.push_back(f);
    spec.sources.push_back(std::string("tb/") + b.name + ".cpp");
    spec.sources.insert(spec.sources.end(), shared.begin(), shared.end());

    std::ostringstream s;
    s << verilate_script(b.block, prefix, overrides, b.rtl, opt, "",
                         "verilated.o verilated_fst_c.o verilated_threads.o")
      << "echo 'step: compiling " << b.name << "'\n"
      << "mkdir -p \"$out/firmware\"\n";
    const std::string flags = std::string(kCxxFlags) + " -O1 -I.";
    for (const std::string& f : firmware)
      s << cxx << " " << flags << " -c " << f << " -o \"$out/" << f << ".o\"\n";
    s << cxx << " " << flags << " -DVM_TRACE=1 -DVM_TRACE_FST=1 -DVM_COVERAGE=0 -DVM_SC=0" << defines << " -I\"$out/"
      << prefix << "\" -I" << shell_quote(vinc) << " -I" << shell_quote(vinc + "/vltstd") << " -c tb/" << b.name
      << ".cpp -o \"$out/" << b.name << ".o\"\n"
      << cxx << " -o \"$out/" << b.name << ".tmp\" \"$out/" << b.name << ".o\" \"$out\"/firmware/*.o \"$out/"
      << prefix << "/" << prefix << "__ALL.a\" \"$out/" << prefix << "/verilated.o\" \"$out/" << prefix
      << "/verilated_fst_c.o\" \"$out/" << prefix << "/verilated_threads.o\" -lgtest_main -lgtest -lz -pthread\n"
      << "mv \"$out/" << b.name << ".tmp\" \"$out/" << b.name << "\"\n";
    spec.script = s.str();
    spec.products = {b.name};
    BlockBench bench{b.name, b.block, values, "", cached_build(spec, cache_digest(spec), {}, progress)};
    bench.executable = (fs::path(bench.entry.dir) / b.name).string();
    out.push_back(bench);
  }
  return out;
}

}  // namespace collnet::sim
