// SPDX-License-Identifier: Apache-2.0
// How this simulator's node models were built, for the model libraries it builds for other
// sizes (systemc/model_library.cpp): the same Verilator and arguments, the same compiler
// and flags, the same RTL. The values are CMake's, in the generated
// model_build_config.cpp (from systemc/model_build_config.cpp.in).
#pragma once

namespace collnet::sim::build_config {

extern const char* const kSourceDir;          // the source tree, where the RTL is
extern const char* const kVerilator;          // Verilator's executable
extern const char* const kVerilatorRoot;      // and its root (include/ holds the runtime)
extern const char* const kVerilatorVersion;
extern const char* const kVerilatorArgs;      // what every node model is Verilated with
extern const char* const kMachineAssertArgs;  // +define+CMN_ASSERT_DISABLE, or nothing
extern const char* const kCxx;                // the C++ compiler
extern const char* const kCxxLauncher;        // ccache, or nothing
extern const char* const kCxxFlags;
extern const char* const kOptFast;            // the models' per-cycle code
extern const char* const kOptSlow;            // the code that runs once
// Relative to kSourceDir: each side's RTL, and the sources of the library's own code.
extern const char* const kTreeSources;
extern const char* const kTorusSources;
extern const char* const kLibrarySources;
// Relative to kSourceDir: the RTL (and Verilator control files) of the block testbenches
// built for a variant (systemc/block_benches.hpp).
extern const char* const kRouterBenchSources;
extern const char* const kAdapterBenchSources;

}  // namespace collnet::sim::build_config
