// SPDX-License-Identifier: Apache-2.0
#include "systemc/shard_pool.hpp"

#include <chrono>
#include <stdexcept>
#include <string>

namespace collnet::sim {

namespace {

// Waits up to about 100 us for `ready()` by polling: a quantum of a small machine is
// over in tens of microseconds, far less than a sleeping thread takes to wake.
template <class Ready>
bool spin_for(Ready ready) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(100);
  for (;;) {
    for (unsigned i = 0; i < 64; ++i) {
      if (ready()) return true;
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
    }
    if (std::chrono::steady_clock::now() >= until) return ready();
  }
}

}  // namespace

ShardPool::ShardPool(unsigned shards) {
  if (shards < 1) throw std::invalid_argument("a shard pool needs at least one shard");
  workers_.reserve(shards - 1);
  for (unsigned s = 1; s < shards; ++s) workers_.emplace_back([this, s] { work(s); });
}

ShardPool::~ShardPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : workers_) t.join();
}

std::pair<unsigned, unsigned> ShardPool::range(unsigned n, unsigned shards, unsigned s) {
  const unsigned base = n / shards, extra = n % shards;
  const unsigned begin = s * base + (s < extra ? s : extra);
  return {begin, begin + base + (s < extra ? 1 : 0)};
}

void ShardPool::note_failure(std::exception_ptr e) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!failure_) failure_ = e;
}

void ShardPool::run(const std::function<void(unsigned)>& job) {
  job_ = &job;
  running_.store(static_cast<unsigned>(workers_.size()), std::memory_order_relaxed);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    generation_.fetch_add(1, std::memory_order_release);
  }
  wake_.notify_all();

  try {
    job(0);
  } catch (...) {
    note_failure(std::current_exception());
  }

  auto all_done = [this] { return running_.load(std::memory_order_acquire) == 0; };
  if (!spin_for(all_done)) {
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, all_done);
  }
  job_ = nullptr;

  std::exception_ptr failure;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    failure = failure_;
    failure_ = nullptr;
  }
  if (failure) std::rethrow_exception(failure);
}

void ShardPool::work(unsigned shard) {
  uint64_t seen = 0;
  for (;;) {
    auto handed_out = [this, &seen] { return generation_.load(std::memory_order_acquire) != seen; };
    if (!spin_for(handed_out)) {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || handed_out(); });
      if (stopping_) return;
    }
    seen = generation_.load(std::memory_order_acquire);
    try {
      (*job_)(shard);
    } catch (...) {
      note_failure(std::current_exception());
    }
    if (running_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      std::lock_guard<std::mutex> lock(mutex_);
      done_.notify_one();
    }
  }
}

}  // namespace collnet::sim
