// SPDX-License-Identifier: Apache-2.0
// The checks every register testbench runs over its block's rows of the generated register
// table (firmware/regmap_table.hpp), as generated CSR tests do: each register's value after
// reset, a read-only register ignoring writes, a write-only one reading zero, a privileged
// one refusing an access without the privileged bit, each with the error bit the table
// names, cleared again through the W1C register that clears it. They work on any
// fw::RegisterBus: a block's bench, or a whole node's processor (tests/node_registers_test).
// Each check returns what went wrong, one line per fault, empty if nothing did.
#pragma once

#include <cstdint>
#include <functional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "firmware/register_bus.hpp"
#include "firmware/regmap_table.hpp"

namespace collnet::tb {

using fw::regmap::Access;
using fw::regmap::RegisterInfo;
using RegisterRows = std::vector<RegisterInfo>;

// The rows of every package's table whose address `in_window` takes (one of the generated
// fw::regmap::in_win_* decodes): the registers of one block, as its bench sees them.
inline RegisterRows register_rows(bool (*in_window)(uint32_t)) {
  RegisterRows rows;
  for (const fw::regmap::RegisterTable& t : fw::regmap::kRegisterTables)
    for (const RegisterInfo* r = t.begin; r != t.end; ++r)
      if (in_window(r->addr)) rows.push_back(*r);
  return rows;
}

// The value the table gives the register at `addr` after reset (a register whose table
// row has none reads as 0 here): for benches that model a register the table describes,
// such as the sizes registers, whose values the catalogue's defaults are.
inline uint64_t table_reset(uint32_t addr) {
  for (const fw::regmap::RegisterTable& t : fw::regmap::kRegisterTables)
    for (const RegisterInfo* r = t.begin; r != t.end; ++r)
      if (r->addr == addr && r->has_reset) return r->reset;
  return 0;
}

class RegisterTableChecks {
 public:
  // `refused`, if given, is asked after every access the block must refuse (a write to a
  // read-only register, a read of a write-only one, an access without the privileged bit)
  // what it did that it should not have (a FIFO moved, say): "" for nothing.
  using Refused = std::function<std::string(const RegisterInfo&)>;

  RegisterTableChecks(fw::RegisterBus& bus, RegisterRows rows, Refused refused = {})
      : bus_(bus), rows_(std::move(rows)), refused_(std::move(refused)) {}

  // Every register with a reset value reads it (with the privileged bit where a read needs it).
  std::vector<std::string> reset_values() {
    std::vector<std::string> faults;
    for (const RegisterInfo& r : rows_) {
      if (!r.has_reset) continue;
      const uint64_t v = bus_.read(r.addr, r.priv_read);
      if (v != r.reset) faults.push_back(say(r, "reads 0x", v, " after reset, the table says 0x", r.reset));
    }
    return faults;
  }

  // A write of ones (in all four words) to a read-only register sets the bad-access bit and
  // changes nothing it reads once that bit is cleared again; a popping register is not read
  // (`refused` says whether its FIFO moved).
  std::vector<std::string> read_only_ignore_writes() {
    std::vector<std::string> faults;
    for (const RegisterInfo& r : rows_) {
      if (r.access != Access::RO) continue;
      const bool priv = r.priv_read || r.priv_write;  // the privilege is not what this checks
      const uint64_t before = r.pops ? 0 : bus_.read(r.addr, priv);
      refused_write(r, priv, r.bad_access_bit, "a write", faults);
      if (r.pops) continue;
      const uint64_t after = bus_.read(r.addr, priv);
      if (after != before) faults.push_back(say(r, "reads 0x", after, " after a write, 0x", before, " before it"));
    }
    return faults;
  }

  // A read of a write-only register (a W1C one too) returns zero in every word and sets the
  // bad-access bit.
  std::vector<std::string> write_only_read_as_zero() {
    std::vector<std::string> faults;
    for (const RegisterInfo& r : rows_)
      if (r.access == Access::WO || r.access == Access::W1C)
        refused_read(r, r.priv_read || r.priv_write, r.bad_access_bit, "a read", faults);
    return faults;
  }

  // An access without the privileged bit it needs is refused: a write changes nothing (a
  // read-write register keeps its value), a read returns zero and pops nothing, and only
  // the privilege bit is set. The same register takes a privileged write of its reset value
  // without an error.
  std::vector<std::string> privileged_refuse_unprivileged() {
    std::vector<std::string> faults;
    for (const RegisterInfo& r : rows_) {
      if (r.priv_write) {
        const bool readable = r.access == Access::RW;
        const uint64_t before = readable ? bus_.read(r.addr, true) : 0;
        refused_write(r, false, r.priv_bit, "an unprivileged write", faults);
        if (readable && bus_.read(r.addr, true) != before) faults.push_back(say(r, "an unprivileged write changed it"));
        if (readable && r.has_reset) {
          const uint64_t err_before = bus_.read(r.err_reg);
          bus_.write(r.addr, r.reset, true);
          expect_errors(r, "a privileged write of its reset value", err_before, faults);
        }
      }
      if (r.priv_read) refused_read(r, false, r.priv_bit, "an unprivileged read", faults);
    }
    return faults;
  }

  // Every check above, in that order.
  std::vector<std::string> all() {
    std::vector<std::string> faults;
    for (auto check :
         {&RegisterTableChecks::reset_values, &RegisterTableChecks::read_only_ignore_writes,
          &RegisterTableChecks::write_only_read_as_zero, &RegisterTableChecks::privileged_refuse_unprivileged}) {
      std::vector<std::string> f = (this->*check)();
      faults.insert(faults.end(), f.begin(), f.end());
    }
    return faults;
  }

  const RegisterRows& rows() const { return rows_; }

 private:
  static uint64_t bit(int b) { return b == fw::regmap::kNoBit ? 0 : uint64_t{1} << b; }

  // A fault of row `r`, its numbers in hex.
  template <class... Args>
  static std::string say(const RegisterInfo& r, const Args&... args) {
    std::ostringstream s;
    s << r.name << " at 0x" << std::hex << r.addr << ": ";
    (s << ... << args);
    return s.str();
  }

  // A write of ones (in all four words) that the block must refuse: it does nothing else
  // (`refused`) and sets `flag` in the row's error register, which is then cleared again.
  void refused_write(const RegisterInfo& r, bool priv, int flag, const char* what, std::vector<std::string>& faults) {
    const uint64_t err_before = bus_.read(r.err_reg);
    bus_.write_vector(r.addr, {~0ull, ~0ull, ~0ull, ~0ull}, priv);
    refused(r, what, faults);
    expect_errors(r, what, err_before | bit(flag), faults);
    clear(r, bit(flag) & ~err_before, faults);
  }

  // A read that the block must refuse: zeros in every word, nothing else done, `flag` set
  // and cleared again.
  void refused_read(const RegisterInfo& r, bool priv, int flag, const char* what, std::vector<std::string>& faults) {
    const uint64_t err_before = bus_.read(r.err_reg);
    const fw::RegisterBus::Vector v = bus_.read_vector(r.addr, priv);
    if ((v[0] | v[1] | v[2] | v[3]) != 0) faults.push_back(say(r, what, " returned 0x", v[0], "... and not zeros"));
    refused(r, what, faults);
    expect_errors(r, what, err_before | bit(flag), faults);
    clear(r, bit(flag) & ~err_before, faults);
  }

  void refused(const RegisterInfo& r, const char* what, std::vector<std::string>& faults) {
    if (!refused_) return;
    const std::string f = refused_(r);
    if (!f.empty()) faults.push_back(say(r, what, ": ", f));
  }

  void expect_errors(const RegisterInfo& r, const char* what, uint64_t want, std::vector<std::string>& faults) {
    const uint64_t got = bus_.read(r.err_reg);
    if (got != want)
      faults.push_back(say(r, what, " left the error register (0x", r.err_reg, ") at 0x", got, ", not 0x", want));
  }

  // Clears `bits` of the row's error register through the W1C register that the table says
  // clears it, and checks that they are clear.
  void clear(const RegisterInfo& r, uint64_t bits, std::vector<std::string>& faults) {
    if (bits == 0) return;
    const RegisterInfo* w1c = nullptr;
    for (const fw::regmap::RegisterTable& t : fw::regmap::kRegisterTables)
      for (const RegisterInfo* c = t.begin; c != t.end; ++c)
        if (c->access == Access::W1C && c->clears == r.err_reg) w1c = c;
    if (w1c == nullptr) {
      faults.push_back(say(r, "no W1C register clears its error register (0x", r.err_reg, ")"));
      return;
    }
    bus_.write(w1c->addr, bits);
    if (bus_.read(r.err_reg) & bits) faults.push_back(say(r, "writing 0x", bits, " to ", w1c->name, " left them set"));
  }

  fw::RegisterBus& bus_;
  RegisterRows rows_;
  Refused refused_;
};

}  // namespace collnet::tb
