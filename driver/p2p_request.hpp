// SPDX-License-Identifier: Apache-2.0
// A point-to-point request (MPI_Request) and what a completed receive reports
// (MPI_Status). A request is a handle: copies refer to the same operation, and the node's
// point-to-point engine (p2p_engine.hpp) completes it as its packets move. A
// default-constructed request is the null request: waiting for it returns at once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>

#include "driver/datatype.hpp"

namespace collnet::driver {

// Wildcards of a receive or probe (MPI_ANY_SOURCE, MPI_ANY_TAG).
inline constexpr unsigned kAnySource = 0xffffffffu;
inline constexpr unsigned kAnyTag = 0xffffffffu;

struct Status {
  unsigned source = 0;  // the sender's rank in the communicator
  unsigned tag = 0;
  size_t bytes = 0;     // the message's length
  bool cancelled = false;  // withdrawn (MPI_Cancel) before a message matched it: nothing was delivered
  // Whole elements of `type` the message holds (MPI_Get_count); throws collnet::Error when
  // the length is not a multiple of the element size.
  size_t count(Datatype type) const;
};

// The engine's record of one isend or irecv. Shared by the request handles and, until
// the operation completes, by the engine.
struct RequestState {
  bool is_send = false;
  unsigned context = 0;     // the communicator's context id
  bool done = false;
  bool cancelled = false;   // withdrawn before anything matched it (P2pEngine::cancel)
  // A send being withdrawn (P2pEngine::cancel): it is done only once the receiver has
  // answered, whether it completed meanwhile (`finished`) or not.
  bool cancelling = false;
  bool finished = false;
  // A send to another node: that node, and the kSwTagCancel envelope that names the
  // message there (p2p_envelope.hpp).
  unsigned dst_node = 0;
  uint64_t cancel_word = 0;
  std::exception_ptr error; // set when the operation failed (a truncated receive)
  // A receive: its buffer and capacity; once matched, the message's sender (world rank),
  // tag and length. A send: the user's buffer, which must not change until done.
  uint8_t* recv_buf = nullptr;
  size_t capacity = 0;
  const uint8_t* send_buf = nullptr;
  unsigned source_world = 0;
  unsigned tag = 0;
  size_t bytes = 0;
};

class Request {
 public:
  Request() = default;
  explicit Request(std::shared_ptr<RequestState> s) : s_(std::move(s)) {}
  bool null() const { return !s_; }
  // Completed (a null request counts as completed).
  bool done() const { return !s_ || s_->done; }
  RequestState* state() const { return s_.get(); }
  const std::shared_ptr<RequestState>& shared() const { return s_; }
  void reset() { s_.reset(); }

 private:
  std::shared_ptr<RequestState> s_;
};

}  // namespace collnet::driver
