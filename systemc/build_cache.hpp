// SPDX-License-Identifier: Apache-2.0
// Builds kept in the model cache (docs/design-space.md): a variant's node models
// (systemc/model_library.hpp) and its block testbenches (systemc/block_benches.hpp). An entry
// is a directory named by a digest of what it is built from (a recipe, as text, and the
// content of its sources); it is built by a shell script run from the source tree and is
// used only if its manifest repeats the recipe, every product is there and the caller's
// check accepts it. Anything else (a deleted file, a half-written entry, an entry of other
// sources) is built again, never used. Processes that want one entry at once take turns on
// a lock in its directory.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace collnet::sim {

// Reports the steps of a build (each a line, e.g. "verilating nd_torus_net"); may be empty.
using BuildProgress = std::function<void(const std::string&)>;

// The cache directory: $COLLNET_MODEL_CACHE if set, else $XDG_CACHE_HOME/collnet/models,
// else ~/.cache/collnet/models.
std::string model_cache_dir();

// The quoting of `s` for /bin/sh.
std::string shell_quote(const std::string& s);

// The optimisation of a built model's per-cycle code: $COLLNET_MODEL_OPT_FAST if set (a
// quicker build for experiments and the tests; its entries are others), else `fallback`.
std::string model_opt_fast(const std::string& fallback);

// The C++ compiler collnet was built with, ready for a script (after ccache if it used it).
std::string script_compiler();

// Script lines that Verilate `top` into $out/<prefix> with collnet's Verilator arguments and
// then `verilator_args` (parameter overrides, ...), from `rtl` (paths under the source tree),
// and compile the model's archive <prefix>__ALL.a and `make_targets` (the Verilator runtime's
// objects) at `opt_fast` for the per-cycle code, with `cflags`; each with a progress step.
std::string verilate_script(const std::string& top, const std::string& prefix, const std::string& verilator_args,
                            const std::string& rtl, const std::string& opt_fast, const std::string& cflags,
                            const std::string& make_targets);

struct CacheEntrySpec {
  std::string what;                  // for messages: "node models for torus.vc_buffer_flits=48"
  std::string recipe;                // what it is built from, as text: the manifest
  std::vector<std::string> sources;  // files under the source tree whose content it depends on
  std::string script;                // /bin/sh, run in the source tree with $out the entry;
                                     // "step: ..." lines are progress
  std::vector<std::string> products;  // files the entry holds when built
};

struct CacheEntryInfo {
  std::string dir;       // the cache entry
  std::string digest;    // its name: what it was built from
  bool built = false;    // built by this call (false: found in the cache)
  double build_seconds = 0;
};

// The digest that names the entry of `spec` (reads its sources).
std::string cache_digest(const CacheEntrySpec& spec);

// The entry of `spec`, whose digest is `digest` (cache_digest(spec): reading the sources is
// the caller's, once), built first if it is missing or not what `spec` describes. `usable`
// (may be empty) is asked of an entry that looks complete, and of a fresh build, with the
// entry's directory; it says why not in its second argument. Throws std::runtime_error
// naming what failed (a build's error names its log).
CacheEntryInfo cached_build(const CacheEntrySpec& spec, const std::string& digest,
                            const std::function<bool(const std::string& dir, std::string* why)>& usable,
                            const BuildProgress& progress);

}  // namespace collnet::sim
