// SPDX-License-Identifier: Apache-2.0
// How the processes of a partitioned machine talk: Open MPI, reached only through
// libcollnet_transport.so (systemc/transport_openmpi.c), which is loaded into a link-map
// namespace of its own (dlmopen), so that Open MPI's MPI_* never meet the ones the collnet
// executable exports to the programs `collnet mpirun` runs. One Transport per process, made
// once, before the machine; its destructor ends Open MPI's part (MPI_Finalize).
#pragma once

#include <cstdint>
#include <memory>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace collnet::sim {

class Transport {
 public:
  // Whether Open MPI's launcher started this process (its OMPI_COMM_WORLD_SIZE is set),
  // and as how many processes; 0 when it did not.
  static unsigned launched_processes();
  // The transport of a process Open MPI started: loads the library and joins the others
  // (MPI_Init). Throws std::runtime_error naming what failed (no library, no namespace).
  static std::unique_ptr<Transport> join();
  ~Transport();
  Transport(const Transport&) = delete;
  Transport& operator=(const Transport&) = delete;

  unsigned rank() const { return rank_; }
  unsigned size() const { return size_; }

  using Bytes = std::vector<uint8_t>;
  // One round with `peers`: sends[i] to peers[i] (every peer must name this process in
  // its round); returns what each peer sent, in the same order.
  std::vector<Bytes> exchange(const std::vector<unsigned>& peers, const std::vector<Bytes>& sends, int tag = 0);
  enum class Op { Sum = 0, Max = 1, Min = 2 };
  // `values`, element by element, over every process (in place).
  void allreduce(std::vector<uint64_t>& values, Op op);
  uint64_t allreduce(uint64_t value, Op op);
  // Every process's `mine` at `root`, by process (elsewhere: empty).
  std::vector<Bytes> gather(const Bytes& mine, unsigned root = 0);
  // Every process's `mine`, by process, on every process.
  std::vector<Bytes> allgather(const Bytes& mine);
  // `root`'s `data` on every process.
  Bytes broadcast(const Bytes& data, unsigned root = 0);
  void barrier();
  // Ends every process of the job with `code` (MPI_Abort).
  [[noreturn]] void abort(int code);

  // Where the library is looked for: $COLLNET_TRANSPORT_LIB, then beside the executable,
  // then ../lib/collnet from it, then where it was installed, then the build tree.
  static std::vector<std::string> library_candidates();

 private:
  struct Api;
  explicit Transport(std::unique_ptr<Api> api);
  void check(int code, const char* what) const;
  std::unique_ptr<Api> api_;
  unsigned rank_ = 0, size_ = 1;
};

// What partitions tell each other at the end of a run (their tasks' outcomes, their
// nodes' counters): 64-bit words, texts and arrays of plain values, read back in the
// order they were put. Every partition runs the same build, so values go as their bytes.
class Message {
 public:
  Message() = default;
  explicit Message(Transport::Bytes bytes) : bytes_(std::move(bytes)) {}
  const Transport::Bytes& bytes() const { return bytes_; }

  void put(uint64_t v) { append(&v, sizeof v); }
  void put(const std::string& text) {
    put(text.size());
    append(text.data(), text.size());
  }
  template <class T>
  void put(const std::vector<T>& values) {
    static_assert(std::is_trivially_copyable_v<T>, "a message carries plain values");
    put(values.size());
    append(values.data(), values.size() * sizeof(T));
  }

  bool left() const { return at_ < bytes_.size(); }  // whether anything is left to read
  uint64_t get() {
    uint64_t v;
    take(&v, sizeof v);
    return v;
  }
  std::string text() {
    std::string t(get_length(1), '\0');
    take(t.data(), t.size());
    return t;
  }
  template <class T>
  std::vector<T> values() {
    static_assert(std::is_trivially_copyable_v<T>, "a message carries plain values");
    std::vector<T> v(get_length(sizeof(T)));
    take(v.data(), v.size() * sizeof(T));
    return v;
  }

 private:
  void append(const void* data, size_t n) {
    const size_t at = bytes_.size();
    bytes_.resize(at + n);
    if (n) std::memcpy(bytes_.data() + at, data, n);
  }
  void take(void* data, size_t n) {
    if (n > bytes_.size() - at_) throw std::runtime_error("partitions: a message from another partition ends early");
    if (n) std::memcpy(data, bytes_.data() + at_, n);
    at_ += n;
  }
  size_t get_length(size_t unit) {
    const uint64_t n = get();
    if (n > (bytes_.size() - at_) / unit) throw std::runtime_error("partitions: a message from another partition ends early");
    return static_cast<size_t>(n);
  }
  Transport::Bytes bytes_;
  size_t at_ = 0;
};

}  // namespace collnet::sim
