// SPDX-License-Identifier: Apache-2.0
// The personalised collectives, in which every rank sends each other rank data of its own:
// alltoall, alltoallv, scatter and scatterv, over the torus.
//
// alltoall(v): every receive posted, then the sends to rank r+1, r+2, ... (mod size())
// started, all in flight at once; the own block is a local copy. In each position of that
// order every rank sends to a different rank, so the traffic spreads over the torus
// instead of converging on one node.
// On a node with the torus DMA engine (docs/dma.md) alltoall moves every block as a direct
// put instead: each rank sets a counter for the words it will receive, the ranks meet in a
// barrier, then each writes put descriptors of a packet each, a packet for every
// destination in turn (rank+1, rank+2, ...), into the node's injection ring, and waits for
// its two counters, the words received and the words sent. The processors write a
// descriptor per packet into memory; the engines read them and move the data. Started
// alone (alltoall_start), it returns once the descriptors are written.
// scatter(v): the root sends each rank its block, in the order root+1, root+2, ...
#include "driver/personalised.hpp"

#include <algorithm>
#include <cstdint>
#include <exception>
#include <memory>
#include <string>

#include "driver/collective_args.hpp"
#include "driver/dma_queue.hpp"
#include "driver/error.hpp"
#include "firmware/dma_firmware.hpp"
#include "firmware/memory_regions.hpp"
#include "firmware/torus_layout.hpp"

namespace collnet::driver::personalised {

namespace {

// The bytes of one element of `type` in a program's buffer.
size_t elem(Datatype type) { return native_bytes(type, false); }

// A receive whose length differs from the message's is the caller's count disagreeing
// with the sender's: said in the collective's terms.
template <class F>
void receiving(const char* call, const std::string& what, F&& f) {
  try {
    f();
  } catch (const Error& e) {
    throw Error(std::string(call) + ": " + what + " (" + e.what() + ")");
  }
}

// Every rank's block: count elements at j*count (empty for none).
void blocks(const CollectiveContext& c, std::vector<size_t>& counts, std::vector<size_t>& displs) {
  counts.assign(c.size(), c.call.count);
  displs.resize(c.size());
  for (unsigned j = 0; j < c.size(); ++j) displs[j] = j * c.call.count;
}

}  // namespace

// ------------------------------------------------------------------ alltoall(v)

void alltoallv(CollectiveContext& c, const void* send, const std::vector<size_t>& sendcounts,
               const std::vector<size_t>& sdispls, void* recv, const std::vector<size_t>& recvcounts,
               const std::vector<size_t>& rdispls) {
  const char* call = c.call.name;
  const unsigned n = c.size(), me = c.rank();
  c.state.last = {};
  const bool in_place = send == kInPlace;
  check_layout(call, "receive", "recvcounts", "rdispls", recvcounts, rdispls, recv, n);
  const size_t b = elem(c.call.type);
  // In place: the data to send is the receive buffer's, copied first.
  std::vector<unsigned char> copy;
  const std::vector<size_t>& scounts = in_place ? recvcounts : sendcounts;
  const std::vector<size_t>& sdisp = in_place ? rdispls : sdispls;
  const unsigned char* out;
  if (in_place) {
    copy.resize(extent(recvcounts, rdispls) * b);
    c.copy_local(copy.data(), recv, copy.size());
    out = copy.data();
  } else {
    check_layout(call, "send", "sendcounts", "sdispls", sendcounts, sdispls, send, n);
    out = static_cast<const unsigned char*>(send);
  }
  if (scounts[me] != recvcounts[me])
    throw Error(std::string(call) + ": sendcounts[" + std::to_string(me) + "] = " + std::to_string(scounts[me]) +
                " but recvcounts[" + std::to_string(me) + "] = " + std::to_string(recvcounts[me]) + " on rank " +
                std::to_string(me));
  unsigned char* in = static_cast<unsigned char*>(recv);
  c.copy_local(in + rdispls[me] * b, out + sdisp[me] * b, recvcounts[me] * b);
  // Every receive is posted first, then every send starts, to rank+1, rank+2, ... (in each
  // step of that order the ranks send to different ranks), and all complete together: the
  // messages of every pair are in flight at once, and the receives are there when they
  // arrive. Every pair exchanges a message, empty ones too, so that counts that disagree
  // are caught at the receiver instead of leaving it waiting.
  std::vector<Request> receives, sends;
  for (unsigned k = 1; k < n; ++k) {
    const unsigned from = (me + n - k) % n;
    receives.push_back(c.irecv(in + rdispls[from] * b, recvcounts[from] * b, from));
  }
  for (unsigned k = 1; k < n; ++k) {
    const unsigned to = (me + k) % n;
    // Blocks longer than kCollectiveEagerBytes go by rendezvous whatever the eager limit:
    // with every pair's message in flight at once, their data then spreads over the
    // adaptive paths and both reception FIFOs (4 KiB per pair on 4x4x4: 28 505 cycles,
    // against 87 375 eagerly through one FIFO each).
    sends.push_back(c.isend(out + sdisp[to] * b, scounts[to] * b, to, CollectiveContext::kCollectiveEagerBytes));
  }
  c.waitall(sends);
  // Every receive is finished before an error is thrown: none may write into the buffer
  // after the call returns.
  std::exception_ptr first;
  for (unsigned k = 1; k < n; ++k) {
    const unsigned from = (me + n - k) % n;
    try {
      receiving(call,
                "recvcounts[" + std::to_string(from) + "] = " + std::to_string(recvcounts[from]) + " on rank " +
                    std::to_string(me) + " differs from what rank " + std::to_string(from) + " sends",
                [&] { c.wait_exact(receives[k - 1], recvcounts[from] * b, from); });
    } catch (...) {
      if (!first) first = std::current_exception();
    }
  }
  if (first) std::rethrow_exception(first);
}

namespace {

// A task's two counters of the DMA engine for the collectives: the words it receives and
// the words it sends (so a node's engine serves up to eight tasks).
unsigned dma_receive_counter(unsigned task) { return 2 * task; }
unsigned dma_send_counter(unsigned task) { return 2 * task + 1; }

// Whether alltoall can go by the DMA engine's puts: the node has the engine, each block is
// whole 8-byte words, not in place, the node's tasks have counters enough, a counter can
// count the words (32 bits), and nothing on the torus is down (the puts go by the routers'
// own routes), and not in the background (its counters are the task's, one alltoall's at
// a time). Otherwise the processors move the blocks, as without it. Every rank decides
// the same from what it knows of all (a buffer's alignment, which is each rank's own, does
// not decide it: alltoall_dma copies an unaligned buffer through an aligned one).
bool dma_alltoall_applies(const CollectiveContext& c) {
  const size_t block = c.call.count * elem(c.call.type);
  return c.task.dma_memory != nullptr && !c.background && c.size() > 1 && c.call.send != kInPlace && block % 8 == 0 &&
         2 * c.task.tasks <= fw::regmap::kDmCounters && (c.size() - 1) * (block / 8) <= UINT32_MAX &&
         !c.task.personality.torus_routes;
}

bool aligned8(const void* p) { return reinterpret_cast<uintptr_t>(p) % 8 == 0; }

// An alltoall by the engines between its start and its end: what finishing it needs.
class DmaAlltoall final : public PendingCollective {
 public:
  bool on_engines() const override { return true; }
  explicit DmaAlltoall(CollectiveContext& c) : task_(c.task), rcv_(dma_receive_counter(c.task.task)),
                                               snd_(dma_send_counter(c.task.task)) {}
  bool test() override {
    if (finished_) return true;
    fw::DmaFirmware dma(task_.cpu, task_.personality, fifos_);  // RegTrSizes read once, at the start
    const bool done = block_ == 0 || (dma.reached_zero(snd_) && dma.reached_zero(rcv_));
    if (done) end(dma);
    return done;
  }
  void finish() override {
    while (!test()) {
    }
  }
  bool finished() const override { return finished_; }

  // What alltoall_dma_start sets up and the end needs.
  fw::TaskContext& task_;
  const unsigned rcv_, snd_;
  int fifos_ = -1;  // the engine's FIFOs (RegTrSizes.Dma)
  size_t block_ = 0, bytes_ = 0;
  std::vector<uint64_t> send_copy_, recv_copy_;
  unsigned char* user_in_ = nullptr;
  unsigned char* in_ = nullptr;
  std::vector<std::unique_ptr<fw::RegisteredRegion>> regions_;

 private:
  void end(fw::DmaFirmware& dma) {
    finished_ = true;
    regions_.clear();
    dma.check();
    if (!recv_copy_.empty()) copy_in_memory(task_.cpu, user_in_, in_, bytes_);
  }
  bool finished_ = false;
};

// Starts alltoall by the engines: the counters set, the barrier met, every descriptor in
// the node's injection ring; the engines do the rest.
std::shared_ptr<DmaAlltoall> alltoall_dma_start(CollectiveContext& c) {
  const unsigned n = c.size(), me = c.rank();
  const size_t block = c.call.count * elem(c.call.type);
  const auto* out = static_cast<const unsigned char*>(c.call.send);
  auto* in = static_cast<unsigned char*>(c.call.recv);
  need_buffer(c.call.name, "send", out, n * c.call.count);
  need_buffer(c.call.name, "receive", in, n * c.call.count);
  c.state.last = {};
  auto p = std::make_shared<DmaAlltoall>(c);
  p->block_ = block;
  p->bytes_ = n * block;
  p->user_in_ = in;
  // The engine moves whole aligned words: a buffer off an 8-byte boundary goes through an
  // aligned copy (the processor's copy in node memory).
  if (!aligned8(out)) {
    p->send_copy_.resize(n * block / 8);
    c.copy_local(p->send_copy_.data(), out, n * block);
    out = reinterpret_cast<const unsigned char*>(p->send_copy_.data());
  }
  if (!aligned8(in)) {
    p->recv_copy_.resize(n * block / 8);
    in = reinterpret_cast<unsigned char*>(p->recv_copy_.data());
  }
  p->in_ = in;
  fw::DmaFirmware dma(c.task.cpu, c.task.personality);
  p->fifos_ = dma.engine_fifos();
  p->regions_.push_back(std::make_unique<fw::RegisteredRegion>(c.task.dma_memory, out, n * block));
  p->regions_.push_back(std::make_unique<fw::RegisteredRegion>(c.task.dma_memory, in, n * block));
  const uint32_t words = static_cast<uint32_t>((n - 1) * block / 8);
  dma.set_counter(p->rcv_, reinterpret_cast<uintptr_t>(in), words);
  dma.set_counter(p->snd_, 0, words);
  c.copy_local(in + me * block, out + me * block, block);
  // Every rank's counter is set before any put can reach it.
  c.barrier();
  if (block > 0) {
    // A packet's worth of every block in turn (rank+1, rank+2, ...), then the next: every
    // receiver gets packets from every sender from the start, as the processors' alltoall
    // interleaves its messages, instead of one whole block after another.
    const fw::TorusLayout torus(c.task.personality.shape);
    std::vector<fw::DmaDescriptor> to(n);
    for (unsigned k = 1; k < n; ++k) {
      const unsigned r = (me + k) % n, id = c.group.task_id(r);
      fw::DmaDescriptor& d = to[k];
      d.dst = torus.coord(id / c.group.tasks_per_node);
      d.kind = fw::DmaKind::Put;
      d.local_counter = p->snd_;
      d.remote_counter = dma_receive_counter(id % c.group.tasks_per_node);
      d.addr = reinterpret_cast<uintptr_t>(out + r * block);
      d.offset = me * block;
    }
    const size_t piece = 8 * fw::regmap::kDmMaxWords;
    std::vector<fw::DmaDescriptor> series;
    series.reserve((block + piece - 1) / piece * (n - 1));
    for (size_t at = 0; at < block; at += piece)
      for (unsigned k = 1; k < n; ++k) {
        fw::DmaDescriptor d = to[k];
        d.addr += at;
        d.offset += at;
        d.words = static_cast<uint32_t>(std::min(piece, block - at) / 8);
        series.push_back(d);
      }
    // The ring's memory stays registered until the engine has read the series (the send
    // counter at zero says it has).
    p->regions_.push_back(
        std::make_unique<fw::RegisteredRegion>(c.task.dma_memory, c.node.dma_ring.memory(), DmaRing::bytes()));
    c.node.dma_ring.queue(c.task.cpu, dma, c.node.dma_queue_held, series.data(), series.size());
  }
  return p;
}

}  // namespace

std::shared_ptr<PendingCollective> alltoall_start(CollectiveContext& c) {
  if (!dma_alltoall_applies(c)) return nullptr;
  return alltoall_dma_start(c);
}

void alltoall_linear(CollectiveContext& c) {
  if (dma_alltoall_applies(c)) return alltoall_dma_start(c)->finish();
  std::vector<size_t> counts, displs;
  blocks(c, counts, displs);
  alltoallv(c, c.call.send, counts, displs, c.call.recv, counts, displs);
}

// ------------------------------------------------------------------ scatter(v)

void scatterv(CollectiveContext& c, const void* send, const std::vector<size_t>& sendcounts,
              const std::vector<size_t>& displs, void* recv, size_t recvcount) {
  const char* call = c.call.name;
  const unsigned n = c.size(), me = c.rank(), root = c.call.root;
  c.state.last = {};
  const size_t b = elem(c.call.type);
  if (me != root) {
    if (recv == kInPlace) throw Error(std::string(call) + ": only the root may pass kInPlace");
    need_buffer(call, "receive", recv, recvcount);
    receiving(call,
              "recvcount " + std::to_string(recvcount) + " on rank " + std::to_string(me) +
                  " differs from the root's sendcounts[" + std::to_string(me) + "]",
              [&] { c.recv(recv, recvcount * b, root); });
    return;
  }
  check_layout(call, "send", "sendcounts", "displs", sendcounts, displs, send, n);
  const unsigned char* out = static_cast<const unsigned char*>(send);
  if (recv != kInPlace) {
    if (recvcount != sendcounts[me])
      throw Error(std::string(call) + ": recvcount " + std::to_string(recvcount) +
                  " on the root differs from sendcounts[" + std::to_string(me) +
                  "] = " + std::to_string(sendcounts[me]));
    need_buffer(call, "receive", recv, recvcount);
    c.copy_local(recv, out + displs[me] * b, recvcount * b);
  }
  for (unsigned k = 1; k < n; ++k) {
    const unsigned to = (root + k) % n;
    c.send(out + displs[to] * b, sendcounts[to] * b, to);
  }
}

void scatter_linear(CollectiveContext& c) {
  std::vector<size_t> counts, displs;
  if (c.rank() == c.call.root) blocks(c, counts, displs);
  scatterv(c, c.call.send, counts, displs, c.call.recv, c.call.count);
}

}  // namespace collnet::driver::personalised
