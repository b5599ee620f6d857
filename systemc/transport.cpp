// SPDX-License-Identifier: Apache-2.0
#include "systemc/transport.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>

namespace collnet::sim {

namespace {
using Place = void* (*)(void* ctx, int i, uint64_t length);

// A Place that sizes the i-th of a vector of buffers and returns where to write.
void* place_in(void* ctx, int i, uint64_t length) {
  auto& out = *static_cast<std::vector<Transport::Bytes>*>(ctx);
  out.at(static_cast<size_t>(i)).resize(length);
  static uint8_t empty;
  return length ? out[static_cast<size_t>(i)].data() : &empty;
}
}  // namespace

// The library's functions, found by name in its namespace.
struct Transport::Api {
  void* handle = nullptr;
  int (*init)(int*, int*) = nullptr;
  int (*exchange)(int, const int*, const void* const*, const uint64_t*, Place, void*, int) = nullptr;
  int (*allreduce_u64)(uint64_t*, int, int) = nullptr;
  int (*gather)(const void*, uint64_t, int, Place, void*) = nullptr;
  int (*bcast)(const void*, uint64_t, int, Place, void*) = nullptr;
  int (*barrier)() = nullptr;
  int (*abort)(int) = nullptr;
  int (*finalize)() = nullptr;
  void (*error_string)(int, char*, int) = nullptr;
};

unsigned Transport::launched_processes() {
  const char* n = std::getenv("OMPI_COMM_WORLD_SIZE");
  if (!n || !*n) return 0;
  char* end = nullptr;
  const unsigned long v = std::strtoul(n, &end, 10);
  return *end == 0 && v > 0 && v < 1u << 20 ? static_cast<unsigned>(v) : 0;
}

std::vector<std::string> Transport::library_candidates() {
  std::vector<std::string> c;
  if (const char* env = std::getenv("COLLNET_TRANSPORT_LIB"); env && *env) c.emplace_back(env);
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    c.push_back((exe.parent_path() / "libcollnet_transport.so").string());
    c.push_back((exe.parent_path() / ".." / "lib" / "collnet" / "libcollnet_transport.so").string());
  }
#ifdef COLLNET_TRANSPORT_INSTALL_PATH
  c.emplace_back(COLLNET_TRANSPORT_INSTALL_PATH);
#endif
#ifdef COLLNET_TRANSPORT_BUILD_PATH
  c.emplace_back(COLLNET_TRANSPORT_BUILD_PATH);
#endif
  return c;
}

std::unique_ptr<Transport> Transport::join() {
  auto api = std::make_unique<Api>();
  std::string tried;
  for (const std::string& path : library_candidates()) {
    if (access(path.c_str(), R_OK) != 0) {
      tried += "\n  " + path + ": not there";
      continue;
    }
    // A namespace of its own: Open MPI's MPI_* stay there (see the header).
    api->handle = dlmopen(LM_ID_NEWLM, path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (api->handle) break;
    tried += std::string("\n  ") + path + ": " + dlerror();
  }
  if (!api->handle)
    throw std::runtime_error("partitions: cannot load the transport library (libcollnet_transport.so, "
                             "built with Open MPI):" + tried);
  auto sym = [&](auto& fn, const char* name) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(api->handle, name));
    if (!fn) throw std::runtime_error(std::string("partitions: the transport library has no ") + name);
  };
  sym(api->init, "ct_init");
  sym(api->exchange, "ct_exchange");
  sym(api->allreduce_u64, "ct_allreduce_u64");
  sym(api->gather, "ct_gather");
  sym(api->bcast, "ct_bcast");
  sym(api->barrier, "ct_barrier");
  sym(api->abort, "ct_abort");
  sym(api->finalize, "ct_finalize");
  sym(api->error_string, "ct_error_string");
  int rank = 0, size = 0;
  if (const int e = api->init(&rank, &size))
    throw std::runtime_error("partitions: Open MPI's MPI_Init failed (" + std::to_string(e) + ")");
  std::unique_ptr<Transport> t(new Transport(std::move(api)));
  t->rank_ = static_cast<unsigned>(rank);
  t->size_ = static_cast<unsigned>(size);
  return t;
}

Transport::Transport(std::unique_ptr<Api> api) : api_(std::move(api)) {}

// The library stays loaded: Open MPI's threads and handlers live in its namespace.
Transport::~Transport() { api_->finalize(); }

void Transport::check(int code, const char* what) const {
  if (code == 0) return;
  char text[512] = {0};
  api_->error_string(code, text, sizeof text);
  throw std::runtime_error(std::string("partitions: ") + what + " failed: " + text);
}

std::vector<Transport::Bytes> Transport::exchange(const std::vector<unsigned>& peers, const std::vector<Bytes>& sends,
                                                  int tag) {
  if (peers.size() != sends.size()) throw std::logic_error("Transport::exchange: one message per peer");
  std::vector<int> p(peers.begin(), peers.end());
  std::vector<const void*> data;
  std::vector<uint64_t> lengths;
  for (const Bytes& b : sends) {
    data.push_back(b.data());
    lengths.push_back(b.size());
  }
  std::vector<Bytes> got(peers.size());
  check(api_->exchange(static_cast<int>(p.size()), p.data(), data.data(), lengths.data(), place_in, &got, tag),
        "the boundary exchange");
  return got;
}

void Transport::allreduce(std::vector<uint64_t>& values, Op op) {
  check(api_->allreduce_u64(values.data(), static_cast<int>(values.size()), static_cast<int>(op)), "an allreduce");
}

uint64_t Transport::allreduce(uint64_t value, Op op) {
  std::vector<uint64_t> v{value};
  allreduce(v, op);
  return v[0];
}

std::vector<Transport::Bytes> Transport::gather(const Bytes& mine, unsigned root) {
  std::vector<Bytes> all(rank_ == root ? size_ : 0);
  check(api_->gather(mine.data(), mine.size(), static_cast<int>(root), place_in, &all), "a gather");
  return all;
}

Transport::Bytes Transport::broadcast(const Bytes& data, unsigned root) {
  if (rank_ == root) {
    check(api_->bcast(data.data(), data.size(), static_cast<int>(root), place_in, nullptr), "a broadcast");
    return data;
  }
  std::vector<Bytes> got(1);
  check(api_->bcast(nullptr, 0, static_cast<int>(root), place_in, &got), "a broadcast");
  return got[0];
}

std::vector<Transport::Bytes> Transport::allgather(const Bytes& mine) {
  // Gathered at 0, sent on as one message of every part.
  Message joined;
  for (const Bytes& part : gather(mine)) joined.put(part);
  Message got(broadcast(joined.bytes()));
  std::vector<Bytes> all;
  for (unsigned p = 0; p < size_; ++p) all.push_back(got.values<uint8_t>());
  return all;
}

void Transport::barrier() { check(api_->barrier(), "a barrier"); }

void Transport::abort(int code) {
  api_->abort(code);
  std::_Exit(code);
}

}  // namespace collnet::sim
