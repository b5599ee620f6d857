// SPDX-License-Identifier: Apache-2.0
// Skipping a Verilated model's clock edge when it would change nothing. A model whose
// evaluation left its whole state exactly as it found it (every register, every FIFO
// memory, every combinational net, its inputs) is at a fixed point: evaluated again with
// the same inputs it does the same thing, nothing, because an evaluation is a function
// of that state alone. So until an input changes, its evaluations can be skipped and its
// registered outputs stay what they are: the results are the same cycle for cycle.
//
// Whether a model has reached a fixed point is found out, not declared by the RTL: on a
// cycle whose inputs equal the last evaluation's, the model's state is copied before the
// evaluation and compared after it. Copies cost about as much as a small evaluation, so
// a model that turned out busy is not tried again at once: the wait before the next try
// doubles (up to kMaxWait quiet cycles) and starts over once a try succeeds.
//
// The copy goes to a scratch buffer that the models stepped by one host thread share
// (a node holds none of its own: a 64x32x32 machine would need gigabytes).
//
// Mode::Check evaluates the skipped cycles all the same and throws if one of them would
// have changed the state: the tests use it to show that skipping is exact.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace collnet::sim {

enum class IdleSkip {
  Off,    // evaluate every model every cycle
  On,     // skip the evaluations of quiescent models
  Check,  // find the same cycles to skip, evaluate them anyway, and throw if one was not idle
};

inline const char* to_string(IdleSkip s) { return s == IdleSkip::Off ? "off" : s == IdleSkip::On ? "on" : "check"; }
// "on" | "off" | "check"; throws std::invalid_argument naming the word otherwise.
inline IdleSkip parse_idle_skip(const std::string& word) {
  for (IdleSkip s : {IdleSkip::On, IdleSkip::Off, IdleSkip::Check})
    if (word == to_string(s)) return s;
  throw std::invalid_argument("unknown idle skipping '" + word + "': expected on, off or check");
}

class Quiescence {
 public:
  static constexpr unsigned kMaxWait = 64;

  // `state`/`bytes`: the model's whole state (a Verilated model's root object);
  // `name` names the model in the error Check throws.
  Quiescence(const void* state, std::size_t bytes, std::string name, IdleSkip mode)
      : state_(static_cast<const unsigned char*>(state)), bytes_(bytes), name_(std::move(name)), mode_(mode) {}

  // One clock cycle of the model: `inputs_changed` says whether any input differs from
  // the last evaluation's; `eval` evaluates the clock edge. `cycle` is for the error only.
  // Returns whether the edge counts as evaluated (false: skipped, the state is unchanged).
  template <class Eval>
  bool step(bool inputs_changed, uint64_t cycle, Eval&& eval) {
    if (mode_ == IdleSkip::Off) {
      eval();
      ++evaluated_;
      return true;
    }
    if (fixed_ && !inputs_changed) {
      ++skipped_;
      if (mode_ == IdleSkip::Check) {
        snapshot();
        eval();
        if (!unchanged())
          throw std::logic_error(name_ + ": cycle " + std::to_string(cycle) +
                                 " was skipped as idle, but evaluating it changed the model's state");
      }
      return false;
    }
    fixed_ = false;
    quiet_ = inputs_changed ? 0 : quiet_ + 1;
    const bool attempt = quiet_ >= wait_;
    if (attempt) snapshot();
    eval();
    ++evaluated_;
    if (attempt) {
      quiet_ = 0;
      if (unchanged()) {
        fixed_ = true;
        wait_ = 1;
      } else {
        wait_ = wait_ * 2 > kMaxWait ? kMaxWait : wait_ * 2;
      }
    }
    return true;
  }

  // The buffer copies are made in; shared by the models one host thread steps.
  void use_scratch(std::vector<unsigned char>* scratch) { scratch_ = scratch; }

  uint64_t evaluated() const { return evaluated_; }
  uint64_t skipped() const { return skipped_; }
  // Whether the model is at a fixed point: with its inputs unchanged, every edge is skipped
  // (in Mode::Check, evaluated as well).
  bool fixed() const { return fixed_; }
  // `n` edges skipped at once, as step() would have skipped them one by one (only while
  // fixed(), with the inputs unchanged throughout: Machine::run's leaps).
  void leap(uint64_t n) { skipped_ += n; }

 private:
  void snapshot() {
    if (!scratch_) throw std::logic_error(name_ + ": no scratch buffer to skip idle cycles with");
    if (scratch_->size() < bytes_) scratch_->resize(bytes_);
    std::memcpy(scratch_->data(), state_, bytes_);
  }
  bool unchanged() const { return std::memcmp(scratch_->data(), state_, bytes_) == 0; }

  const unsigned char* state_;
  std::size_t bytes_;
  std::string name_;
  IdleSkip mode_;
  std::vector<unsigned char>* scratch_ = nullptr;
  bool fixed_ = false;  // the last evaluation left the state unchanged
  unsigned quiet_ = 0;  // evaluations in a row with unchanged inputs
  unsigned wait_ = 1;   // quiet evaluations before the next try
  uint64_t evaluated_ = 0, skipped_ = 0;
};

}  // namespace collnet::sim
