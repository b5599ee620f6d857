# SPDX-License-Identifier: Apache-2.0
# collnet front door. CMake is the build; these are the short commands.
#   make run    build if needed and run the demo (allreduce on a 4x4x4 machine, with waves)
#   make test   build and run every test (block testbenches, suites, command line)
#   make lint   verilator --lint-only -Wall over the RTL, and the house rules (scripts/check_house.py)
#   make bench  measured performance numbers
#   make waves  open the demo's waveform in GTKWave
#   make deps   install missing Debian packages
#   make regmap regenerate the register map's SV packages, C++ headers and doc tables
#   make fuzz   libFuzzer harnesses (clang) over the parsers and decoders, 10^6 runs each
#   make test-sanitize  every test again, built with AddressSanitizer and UBSan (gcc)
#   make coverage  line and toggle coverage of rtl/ over the whole suite (build-coverage)
#   make soak   10^8 torus packets with bit errors, every one checked (about two hours)
#   make docs-figures  the plots of docs/plots.md, from fresh runs (scripts/plot.py)

BUILD ?= build
JOBS  ?= 2
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=Release

RTL_PKG  := rtl/collective/cn_pkg.sv
GI_PKG   := rtl/barrier/gi_pkg.sv
TR_PKG   := rtl/torus/tr_pkg.sv
DM_PKG   := rtl/dma/dm_pkg.sv
RTL_SRCS := $(RTL_PKG) $(GI_PKG) $(TR_PKG) $(DM_PKG) $(wildcard rtl/common/*.sv) $(filter-out $(RTL_PKG),$(wildcard rtl/collective/*.sv)) \
            $(filter-out $(GI_PKG),$(wildcard rtl/barrier/*.sv)) $(filter-out $(TR_PKG),$(wildcard rtl/torus/*.sv)) \
            rtl/link/lk_pkg.sv rtl/link/lk_crc.sv rtl/link/lk_port.sv rtl/link/lk_regs.sv \
            $(filter-out $(DM_PKG),$(wildcard rtl/dma/*.sv)) rtl/node/nd_tree_net.sv rtl/node/nd_torus_net.sv rtl/node/nd_node.sv rtl/node/nd_machine.sv
# The include directory of cmn_assert.svh, the assertion macros every module includes.
RTL_INCLUDE := -Irtl/common
# Tops whose parameters add hardware are linted built that way too (top:-Gparam=value,...).
LINT_VARIANTS := tr_router:-GDma=1 tr_route:-GDma=1 nd_torus_net:-GDma=1 tr_router:-GDma=3 nd_torus_net:-GDma=2 dm_engine:-GFifos=3 dm_rcv_select:-GFifos=2
LINT_TOPS := nd_machine nd_node nd_tree_net nd_torus_net cn_adapter cn_vc cn_combine cn_bcast cn_regs cn_inj_source cn_link_rx cn_link_tx cn_alu cn_identity cmn_fifo cmn_wfifo cmn_rr_arb cmn_delay cmn_credit gi_barrier tr_router tr_link_rx tr_route tr_regs tr_perf lk_port lk_regs dm_engine dm_regs dm_inject dm_fetch dm_receive dm_rcv_select

DEMO := $(BUILD)/collnet run allreduce --torus 4x4x4 --op sum --type u64 --count 1024 \
        --trace $(BUILD)/demo.fst --json $(BUILD)/demo.json

.PHONY: all deps configure configure-demo build run test lint bench waves clean regmap \
        configure-sanitize build-sanitize test-sanitize fuzz soak coverage docs-figures

all: build

deps:
	@scripts/deps.sh

# `make run` configures without the testbenches and suites (COLLNET_TESTS=OFF) and builds
# only the demo's binary; `make build` and `make test` turn them on in the same build
# directory (CMake then Verilates only the testbenches' models, once).
configure-demo: deps
	@test -f $(BUILD)/CMakeCache.txt || cmake -S . -B $(BUILD) $(CMAKE_FLAGS) -DCOLLNET_TESTS=OFF

configure: deps
	@grep -qs '^COLLNET_TESTS:BOOL=ON' $(BUILD)/CMakeCache.txt || cmake -S . -B $(BUILD) $(CMAKE_FLAGS) -DCOLLNET_TESTS=ON

# Builds surviving RTL changes (see scripts/cmake_build.sh). $(1): extra cmake --build
# arguments; $(2): the build directory (default $(BUILD)).
cmake_build = scripts/cmake_build.sh $(or $(2),$(BUILD)) $(JOBS) $(1)

build: configure
	@$(call cmake_build)

run: configure-demo
	@$(call cmake_build,--target collnet)
	$(DEMO)
	@echo "waveform: $(BUILD)/demo.fst (open with: gtkwave $(BUILD)/demo.gtkw)"

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# `make test-sanitize`: the whole suite (models, testbenches, suites, command line) built
# in a build directory of its own with AddressSanitizer and UndefinedBehaviorSanitizer, and
# run with any report fatal (docs/testbenches.md). CMAKE_CXX_FLAGS reaches the Verilated
# models too (their OPT_FAST/OPT_SLOW flags are added per source after it). The examples
# that Install.* builds against the installed (instrumented) libraries get the flags
# through CXXFLAGS/LDFLAGS, which CMake reads when it configures a fresh build.
SANITIZE_BUILD ?= $(BUILD)-sanitize
SANITIZE_FLAGS ?= -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g1
# The Verilated models' generated code only (CMakeLists.txt, COLLNET_VERILATED_FLAGS): one
# UBSan check left out, for a construct of Verilator's code generator (docs/testbenches.md).
SANITIZE_VERILATED_FLAGS ?= -fno-sanitize=shift-base
# Verilator's runtime and trace code: its FST writer stores unaligned uint32_t and shifts
# negative values left, its trace buffer reads uint64_t from uint32_t arrays (docs/testbenches.md).
SANITIZE_VERILATED_RUNTIME_FLAGS ?= -fno-sanitize=alignment,shift-base
SANITIZE_ENV := ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:suppressions=$(CURDIR)/tests/asan.supp \
                UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
                CXXFLAGS="$(SANITIZE_FLAGS)" LDFLAGS="$(SANITIZE_FLAGS)"

configure-sanitize: deps
	@test -f $(SANITIZE_BUILD)/CMakeCache.txt || cmake -S . -B $(SANITIZE_BUILD) $(CMAKE_FLAGS) -DCOLLNET_TESTS=ON \
	  -DCMAKE_CXX_FLAGS="$(SANITIZE_FLAGS)" -DCMAKE_C_FLAGS="$(SANITIZE_FLAGS)" \
	  -DCMAKE_EXE_LINKER_FLAGS="$(SANITIZE_FLAGS)" -DCMAKE_SHARED_LINKER_FLAGS="$(SANITIZE_FLAGS)" \
	  -DCOLLNET_VERILATED_FLAGS="$(SANITIZE_VERILATED_FLAGS)" \
	  -DCOLLNET_VERILATED_RUNTIME_FLAGS="$(SANITIZE_VERILATED_RUNTIME_FLAGS)"

build-sanitize: configure-sanitize
	@$(call cmake_build,,$(SANITIZE_BUILD))

test-sanitize: build-sanitize
	cd $(SANITIZE_BUILD) && env $(SANITIZE_ENV) ctest --output-on-failure -j $(JOBS)

# `make fuzz`: the libFuzzer harnesses of fuzz/ (fuzz/README.md), built with clang in
# $(BUILD)/fuzz (a CMake project of their own that compiles only what each harness needs,
# never the machine), each run for FUZZ_RUNS inputs. The corpora and every input that once
# crashed are replayed by `make test` too (the `fuzz` tests, built with the project's gcc).
FUZZ_BUILD ?= $(BUILD)/fuzz
FUZZ_RUNS ?= 1000000
FUZZ_CXX ?= clang++-14
FUZZ_HARNESSES ?= $(sort $(basename $(notdir $(wildcard fuzz/fuzz_*.cpp))))

fuzz: deps
	@test -f $(FUZZ_BUILD)/CMakeCache.txt || CXX=$(FUZZ_CXX) cmake -S fuzz -B $(FUZZ_BUILD) > /dev/null
	@cmake --build $(FUZZ_BUILD) -j $(JOBS)
	@scripts/fuzz.sh $(FUZZ_BUILD) $(FUZZ_RUNS) $(FUZZ_HARNESSES)

# regmap/collnet.json is the one description of registers, fields and packet layouts;
# this writes the files generated from it (the build does too when it changes).
regmap: deps
	@python3 regmap/regmap_gen.py

lint: deps
	@python3 regmap/regmap_gen.py --check
	@python3 scripts/check_house.py
	@set -e; for top in $(LINT_TOPS); do \
	  verilator --lint-only -Wall $(RTL_INCLUDE) --top-module $$top $(RTL_SRCS); \
	done; \
	for v in $(LINT_VARIANTS); do \
	  verilator --lint-only -Wall $(RTL_INCLUDE) --top-module $${v%%:*} $$(echo $${v#*:} | tr , ' ') $(RTL_SRCS); \
	done; echo "lint: $(words $(LINT_TOPS)) tops and $(words $(LINT_VARIANTS)) variants clean under verilator -Wall"

# The flat engine's 8x8x8 model for the speed comparison lives in a build directory of its
# own (a hierarchical flat model is one shape per build directory), which takes about half
# an hour the first time; only `collnet` is built there. FLAT_BENCH= (empty) skips it.
FLAT_BENCH ?= 8x8x8
FLAT_BUILD := $(BUILD)/flat-$(FLAT_BENCH)

# The speed table runs the current binary beside BENCH_BASELINE's (built once, kept in
# $(BUILD)/baseline-<commit>): the commit before idle skipping. BENCH_BASELINE= (empty)
# measures the current binary alone.
BENCH_BASELINE ?= 6585032
# A second baseline for busy torus traffic on one thread alone: the commit before the work
# on partitions and the per-cycle cost began (docs/performance.md). Empty: not measured.
BENCH_BUSY_BASELINE ?= 465122c

# BENCH_SCALE= (empty) skips the whole-machine runs up to 64x32x32 (about half an hour,
# up to 11 GB of memory); the fidelity table then measures its whole machine on 8x8x8.
BENCH_SCALE ?= 1

bench: build
	@scripts/bench_speed.sh $(BUILD) $(if $(BENCH_BASELINE),$$(scripts/baseline_build.sh $(BUILD) $(BENCH_BASELINE)))
	@$(if $(BENCH_BUSY_BASELINE),SPEED_ROWS=busy scripts/bench_speed.sh $(BUILD) $$(scripts/baseline_build.sh $(BUILD) $(BENCH_BUSY_BASELINE)),true)
	@scripts/bench.sh $(BUILD)
	@scripts/bench_p2p.sh $(BUILD)
	@scripts/bench_algorithms.sh $(BUILD)
	@scripts/bench_tuning.sh $(BUILD)
	@scripts/bench_userop.sh $(BUILD)
	@scripts/bench_overlap.sh $(BUILD)
	@scripts/bench_partitions.sh $(BUILD)
	@scripts/bench_two_hosts.sh $(BUILD)
	@scripts/bench_neighbourhoods.sh $(BUILD)
	@scripts/bench_design_space.sh $(BUILD)
	@$(if $(BENCH_SCALE),scripts/bench_scale.sh $(BUILD))
	@$(if $(BENCH_SCALE),scripts/bench_fidelity.sh $(BUILD),FIDELITY_SHAPE=8x8x8 scripts/bench_fidelity.sh $(BUILD))
ifneq ($(FLAT_BENCH),)
	@test -f $(FLAT_BUILD)/CMakeCache.txt || cmake -S . -B $(FLAT_BUILD) $(CMAKE_FLAGS) \
	  -DCOLLNET_FLAT_SHAPES=$(FLAT_BENCH) -DCOLLNET_FLAT_OPT_FAST=-O3 -DCOLLNET_TESTS=OFF > /dev/null
	@$(call cmake_build,--target collnet,$(FLAT_BUILD))
	@scripts/bench_torus.sh $(BUILD) $(FLAT_BUILD)
else
	@scripts/bench_torus.sh $(BUILD)
endif

# `make coverage`: scripts/coverage.sh in $(BUILD)-coverage (docs/coverage.md).
COVERAGE_BUILD ?= $(BUILD)-coverage
coverage: deps
	@scripts/coverage.sh $(COVERAGE_BUILD) $(JOBS)

# `make soak`: scripts/soak.sh (SOAK_PACKETS, SOAK_BER, SOAK_THREADS, SOAK_SPECS); the
# figures it prints are in docs/performance.md. Not part of `make test`.
soak: build
	@scripts/soak.sh $(BUILD)

# `make docs-figures`: the pictures of docs/plots.md from fresh runs (scripts/docs_figures.sh).
docs-figures: build
	@scripts/docs_figures.sh $(BUILD)

waves: run
	gtkwave $(BUILD)/demo.gtkw

clean:
	rm -rf $(BUILD)
