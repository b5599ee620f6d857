// SPDX-License-Identifier: Apache-2.0
// What a collective's algorithm works with, made by the Communicator for each call: the
// task and its node, the communicator's members and what it keeps between calls, the
// call's arguments, and the collectives' own point-to-point messages (tag kCollectiveTag).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "driver/collective_call.hpp"
#include "driver/collective_state.hpp"
#include "driver/encoding.hpp"
#include "driver/membership.hpp"
#include "driver/node_tasks.hpp"
#include "driver/p2p_envelope.hpp"
#include "driver/p2p_request.hpp"
#include "firmware/task_context.hpp"

namespace collnet::driver {

class Communicator;

// A copy in the node's memory by the processor `cpu`, four words a cycle.
void copy_in_memory(fw::Processor& cpu, void* to, const void* from, size_t bytes);

class CollectiveContext {
 public:
  static constexpr unsigned kCollectiveTag = p2p::kReservedTag;  // no wildcard receive takes it
  static constexpr size_t kCollectiveEagerBytes = 1024;  // alltoall(v): longer blocks go by rendezvous

  CollectiveContext(Communicator& comm, fw::TaskContext& task, NodeTasks& node, const Membership& group,
                    CollectiveState& state, const CollectiveCall& call)
      : task(task), node(node), group(group), state(state), call(call), comm_(comm) {}

  fw::TaskContext& task;
  NodeTasks& node;
  const Membership& group;
  CollectiveState& state;
  CollectiveCall call;
  // The arguments every rank agreed on (agree_arguments), in one word: the torus messages
  // of a reduction lead with it, so that ranks whose count, type, op or root differ get an
  // error instead of a wrong result.
  uint64_t agreed = 0;
  // Run by a fiber, in the background of the task's waits (Communicator::post_background):
  // on point-to-point messages only, never the combining network, the barrier network or
  // the DMA engine's collective puts, which cannot be left half-done while the task or
  // another fiber uses them.
  bool background = false;
  // Whether a reduction's passes go over the communicator's class route (else the torus).
  bool on_tree() const { return group.has_class_route() && !background; }

  unsigned rank() const { return group.rank; }
  unsigned size() const { return group.size; }

  // `bytes` bytes to or from a rank of the communicator; sendrecv sends to `dest` and
  // receives from `source` and does not deadlock when every rank calls it at once. A
  // received message must be exactly as long as expected.
  void send(const void* buf, size_t bytes, unsigned dest);
  void recv(void* buf, size_t bytes, unsigned source);
  void sendrecv(const void* out, size_t out_bytes, unsigned dest, void* in, size_t in_bytes, unsigned source);
  // Started, not waited for; `eager_limit`: this message's instead of the job's.
  Request isend(const void* buf, size_t bytes, unsigned dest, std::optional<size_t> eager_limit = std::nullopt);
  Request irecv(void* buf, size_t bytes, unsigned source);
  // Waits for a receive from `source` that must bring exactly `bytes` bytes.
  void wait_exact(Request& r, size_t bytes, unsigned source);
  void waitall(std::vector<Request>& rs);
  // One step of the node's engine; whether anything moved.
  bool progress();
  P2pEngine& engine();
  // Inside a wait: one step of the engine if it has work or the torus has brought packets.
  void serve_p2p() {
    if (node.p2p.wants_progress(task)) engine().progress(task);
  }

  // Encoded words, led by `agreed`; a message led by another word throws naming the call.
  void send_words(const uint64_t* w, size_t n, unsigned dest);
  void recv_words(uint64_t* w, size_t n, unsigned source);
  void exchange_words(const uint64_t* out, size_t out_n, unsigned dest, uint64_t* in, size_t in_n, unsigned source);

  // Every rank of the communicator has called it (the communicator's barrier, inside a
  // collective that needs its ranks to meet).
  void barrier();

  // The processor's work: acc = acc op in as the ALU combines (local_combine.hpp), and a
  // copy in the node's memory, both four words per cycle.
  void combine(const Encoding& e, uint64_t* acc, const uint64_t* in, size_t n);
  void copy_local(void* to, const void* from, size_t bytes) { copy_in_memory(task.cpu, to, from, bytes); }

 private:
  Communicator& comm_;
};

}  // namespace collnet::driver
