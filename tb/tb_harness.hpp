// SPDX-License-Identifier: Apache-2.0
// Shared harness of the block testbenches: owns a Verilated model and its context, steps
// the clock, and writes an FST of the run when the environment variable
// COLLNET_TB_FST_DIR names a directory (the file is <dir>/<test name>.fst).
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <type_traits>

#include <gtest/gtest.h>

#include "verilated.h"
#include "verilated_fst_c.h"

#include "firmware/register_bus.hpp"
#include "systemc/coverage.hpp"

namespace collnet::tb {

// The seed of a randomized test: COLLNET_TB_SEED if set, otherwise a fixed default.
// Printed by every test that uses it so a failure can be replayed.
inline uint64_t test_seed(uint64_t fallback = 0xc011e7) {
  const char* s = std::getenv("COLLNET_TB_SEED");
  const uint64_t seed = s ? std::strtoull(s, nullptr, 0) : fallback;
  std::printf("[ seed     ] %llu (set COLLNET_TB_SEED to replay)\n", static_cast<unsigned long long>(seed));
  return seed;
}

// A FIFO level for a random test of a register block: nearly empty, nearly full or any of
// 0..depth, a third of the time each, so that accesses meet every kind of level.
inline size_t random_fifo_level(std::mt19937_64& rng, unsigned depth) {
  const unsigned near = static_cast<unsigned>(rng() % 6);
  switch (rng() % 3) {
    case 0: return near;
    case 1: return depth - near;
    default: return rng() % (depth + 1);
  }
}

// Bits [lsb, lsb + width) (width <= 64) of a Verilated wide port, which Verilator gives as
// 32-bit words, least significant first.
inline uint64_t wide_bits(const uint32_t* words, unsigned lsb, unsigned width) {
  uint64_t v = 0;
  for (unsigned i = 0; i < width; ++i) v |= uint64_t{(words[(lsb + i) / 32] >> ((lsb + i) % 32)) & 1} << i;
  return v;
}
inline void set_wide_bits(uint32_t* words, unsigned lsb, unsigned width, uint64_t v) {
  for (unsigned i = 0; i < width; ++i) {
    const uint32_t bit = 1u << ((lsb + i) % 32);
    words[(lsb + i) / 32] = (v >> i & 1) ? (words[(lsb + i) / 32] | bit) : (words[(lsb + i) / 32] & ~bit);
  }
}

// Bits [lsb, lsb + width) (width < 64) of a Verilated port whatever its width: an integer
// up to 64 bits, VlWide beyond (a port's width may follow the model's parameters).
template <class Port>
uint64_t port_bits(const Port& port, unsigned lsb, unsigned width) {
  if constexpr (std::is_integral_v<Port>)
    return (static_cast<uint64_t>(port) >> lsb) & ((uint64_t{1} << width) - 1);
  else
    return wide_bits(port.data(), lsb, width);
}

template <class Model>
class Harness {
 public:
  Harness() : context_(std::make_unique<VerilatedContext>()) {
    context_->fatalOnError(false);  // assertion failures are counted and checked by the tests
    const char* dir = std::getenv("COLLNET_TB_FST_DIR");
    if (dir) context_->traceEverOn(true);
    model_ = std::make_unique<Model>(context_.get(), "tb");
    if (dir) {
      const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
      std::string name = info ? std::string(info->test_suite_name()) + "." + info->name() : "tb";
      fst_ = std::make_unique<VerilatedFstC>();
      model_->trace(fst_.get(), 99);
      fst_->open((std::string(dir) + "/" + name + ".fst").c_str());
    }
  }
  ~Harness() {
    model_->final();
    sim::write_coverage(*context_, "tb");
    if (fst_) fst_->close();
  }

  Model* operator->() { return model_.get(); }
  Model& model() { return *model_; }

  // Settles combinational logic (for combinational blocks) and records the state.
  void eval() {
    model_->eval();
    if (fst_) fst_->dump(time_);
    ++time_;
  }
  uint64_t time() const { return time_; }
  // True if an RTL assertion ($error) fired.
  bool assertion_failed() const { return context_->gotError(); }

  // Runs `step`, meant to break an invariant, with what the model prints captured, and
  // passes if no assertion had fired before it and the assertion named `check` fired
  // during it with a message containing `says`. A message names the module's instance path
  // and the check: `check` may name the instance too ("u_a.AckWithinSent"). What
  // the model printed is printed again for the log.
  template <class Step>
  ::testing::AssertionResult trips(const std::string& check, Step&& step, const std::string& says = "") {
    if (context_->gotError()) return ::testing::AssertionFailure() << "an assertion fired before the step";
    ::testing::internal::CaptureStdout();
    step();
    const std::string out = ::testing::internal::GetCapturedStdout();
    std::fputs(out.c_str(), stdout);
    if (!context_->gotError()) return ::testing::AssertionFailure() << "no assertion fired; expected " << check;
    const size_t at = out.find("." + check + ": ");
    if (at == std::string::npos || out.find(says, at) == std::string::npos)
      return ::testing::AssertionFailure() << "expected " << check << " to fire saying \"" << says
                                           << "\", the model printed:\n" << out;
    return ::testing::AssertionSuccess();
  }

 protected:
  std::unique_ptr<VerilatedContext> context_;
  std::unique_ptr<Model> model_;
  std::unique_ptr<VerilatedFstC> fst_;
  uint64_t time_ = 0;
};

// A harness for clocked blocks with clk_i and active-low asynchronous rst_ni. Inputs set
// before tick() are sampled by the rising edge; outputs read after it are the new state.
template <class Model>
class ClockedHarness : public Harness<Model> {
 public:
  ClockedHarness() { reset(); }

  void reset() {
    auto& m = this->model();
    m.clk_i = 0;
    m.rst_ni = 1;
    this->eval();
    m.rst_ni = 0;
    this->eval();
    tick();
    m.rst_ni = 1;
    this->eval();
    cycles_ = 0;
  }

  // A falling edge, then a rising one: the rising edge (and every assertion, checked at
  // it) sees the inputs set since the last tick as a real clock edge would. (The machine
  // clocks its models in one evaluation per cycle, systemc/model_clock.hpp; a testbench
  // keeps both edges, so that its waveform shows the clock.)
  void tick() {
    auto& m = this->model();
    m.clk_i = 0;
    this->eval();
    m.clk_i = 1;
    this->eval();
    ++cycles_;
  }
  uint64_t cycles() const { return cycles_; }

 private:
  uint64_t cycles_ = 0;
};

// Drives a block's privileged-access pin, priv_i, where it has one (cn_regs); a block
// without one (tr_regs, dm_engine) has no privileged registers.
template <class M>
auto drive_priv(M& m, bool priv, int) -> decltype(m.priv_i = priv, void()) {
  m.priv_i = priv;
}
template <class M>
void drive_priv(M&, bool, long) {}

// A register block's bus as a fw::RegisterBus, for the bench `Bench` of a block with
// req_i, we_i, addr_i, a 256-bit wdata_i, rvalid_o and a 256-bit rdata_o whose read data
// is registered (valid the cycle after the access), and priv_i if it has privileged
// registers: cn_regs, tr_regs, dm_engine. An access is one cycle of the bench's own step()
// (CRTP), which moves what else the block drives.
template <class Bench>
class BlockRegisterBus : public fw::RegisterBus {
 public:
  // One bus cycle: the words of the read data that come back after the edge.
  Vector access(bool we, uint32_t addr, const Vector& wdata, bool priv = false) {
    Bench& b = static_cast<Bench&>(*this);
    auto& m = b.model();
    m.req_i = 1;
    m.we_i = we;
    m.addr_i = static_cast<std::remove_reference_t<decltype(m.addr_i)>>(addr);
    for (unsigned k = 0; k < 4; ++k) set_wide_bits(m.wdata_i.data(), 64 * k, 64, wdata[k]);
    drive_priv(m, priv, 0);
    b.step();
    m.req_i = 0;
    EXPECT_EQ(bool(m.rvalid_o), !we) << "rvalid_o after a " << (we ? "write" : "read");
    Vector v{};
    for (unsigned k = 0; k < 4; ++k) v[k] = wide_bits(m.rdata_o.data(), 64 * k, 64);
    return v;
  }
  void write_vector(uint32_t addr, const Vector& v, bool priv = false) override { access(true, addr, v, priv); }
  void write(uint32_t addr, uint64_t data, bool priv = false) override { access(true, addr, {data, 0, 0, 0}, priv); }
  Vector read_vector(uint32_t addr, bool priv = false) override { return access(false, addr, {}, priv); }
  // An ordinary register answers in word 0 only.
  uint64_t read(uint32_t addr, bool priv = false) override {
    const Vector v = read_vector(addr, priv);
    EXPECT_EQ(v[1] | v[2] | v[3], 0u) << "bus data above word 0 reading register 0x" << std::hex << addr;
    return v[0];
  }
};

// One access of a register block's bus (req_i, we_i, addr_i and a wide wdata_i) in one
// cycle: `data` in word 0, the request dropped after the edge.
template <class Model>
void bus_access(ClockedHarness<Model>& h, bool we, uint32_t addr, uint64_t data = 0) {
  h->req_i = 1;
  h->we_i = we;
  h->addr_i = addr;
  set_wide_bits(h->wdata_i.data(), 0, 64, data);
  h.tick();
  h->req_i = 0;
}

}  // namespace collnet::tb

// Forces `sig`, a signal a testbench's Verilation made forceable (`forceable -module M -var
// V` in its .vlt: rootp->M__DOT__V), to `value` from now on: a decision the logic makes
// right, made wrong.
#define COLLNET_TB_FORCE(sig, value)                                          \
  do {                                                                        \
    (sig##__VforceEn) = static_cast<decltype(sig##__VforceEn)>(~0ull);        \
    (sig##__VforceVal) = static_cast<decltype(sig##__VforceVal)>(value);      \
  } while (0)

// A name pasted from two tokens after expanding them: a test suite named for the build's
// parameters (COLLNET_TB_CAT(CmnDelayStages, TB_STAGES)), so that a testbench built once per
// parameter set gives its tests CTest names of their own.
#define COLLNET_TB_CAT2(a, b) a##b
#define COLLNET_TB_CAT(a, b) COLLNET_TB_CAT2(a, b)

// The test suite `name` of a testbench built at other sizes than the block's defaults:
// name##TB_SUITE when tb/CMakeLists.txt names the build (TB_SUITE=Min), else `name`.
#if defined(TB_SUITE)
#define COLLNET_TB_SUITE(name) COLLNET_TB_CAT(name, TB_SUITE)
#else
#define COLLNET_TB_SUITE(name) name
#endif
