// SPDX-License-Identifier: Apache-2.0
// A fixed team of host threads that runs one job over `shards` shards at a time: run(job)
// calls job(s) for every shard s in parallel, the calling thread taking shard 0, and
// returns when all are done (a fork-join; everything a shard wrote is visible to the
// caller and to every shard of the next run). Machine::advance uses it to step disjoint
// ranges of nodes through a quantum concurrently. Workers spin briefly for the next job,
// then sleep, so an idle pool costs no processor time. An exception thrown by a shard is
// rethrown by run() once every shard has finished (the first one, if several threw).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace collnet::sim {

class ShardPool {
 public:
  explicit ShardPool(unsigned shards);  // shards >= 1; starts shards - 1 threads
  ~ShardPool();
  ShardPool(const ShardPool&) = delete;
  ShardPool& operator=(const ShardPool&) = delete;

  unsigned shards() const { return static_cast<unsigned>(workers_.size()) + 1; }
  // Runs job(0..shards-1), shard 0 on the calling thread. Not reentrant.
  void run(const std::function<void(unsigned)>& job);

  // The contiguous part [begin, end) of 0..n-1 that shard s of `shards` takes: sizes
  // differ by at most one.
  static std::pair<unsigned, unsigned> range(unsigned n, unsigned shards, unsigned s);

 private:
  void work(unsigned shard);
  void note_failure(std::exception_ptr e);

  std::vector<std::thread> workers_;
  const std::function<void(unsigned)>* job_ = nullptr;
  std::atomic<uint64_t> generation_{0};  // bumped to hand out a job
  std::atomic<unsigned> running_{0};     // worker shards not yet done with the current job
  bool stopping_ = false;                // guarded by mutex_
  std::mutex mutex_;
  std::condition_variable wake_;  // workers: a job or stop
  std::condition_variable done_;  // the caller: every worker finished
  std::exception_ptr failure_;    // guarded by mutex_
};

}  // namespace collnet::sim
