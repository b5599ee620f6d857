// SPDX-License-Identifier: Apache-2.0
#include "driver/p2p_engine.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <string>
#include <utility>

#include "driver/error.hpp"

namespace collnet::driver {

namespace {

size_t words_for(size_t bytes) { return (bytes + 7) / 8; }

// Copying between node memory buffers, at a vector (four words) per cycle.
void charge_copy(fw::Processor& cpu, size_t bytes) { cpu.work((words_for(bytes) + 3) / 4); }

// Writes `n` bytes arriving at `offset` of a message into a receive's buffer, dropping
// what falls past its capacity (a truncated receive fails when the message is complete).
void put(RequestState& r, size_t offset, const void* src, size_t n) {
  const size_t k = offset < r.capacity ? std::min(n, r.capacity - offset) : 0;
  if (k > 0) std::memcpy(r.recv_buf + offset, src, k);  // memcpy wants pointers even for 0 bytes
}

// Clears a flag when its holder leaves, also by an exception: the node's torus FIFOs held
// (another task of the node would otherwise wait for them forever), an interrupt served.
class Held {
 public:
  explicit Held(bool& busy) : busy_(busy) {}
  ~Held() { busy_ = false; }
  Held(const Held&) = delete;
  Held& operator=(const Held&) = delete;

 private:
  bool& busy_;
};

}  // namespace

size_t Status::count(Datatype type) const {
  const size_t size = driver::bytes(type);
  if (bytes % size != 0)
    throw Error("status: a message of " + std::to_string(bytes) + " bytes is not a whole number of " +
                std::to_string(size) + "-byte elements");
  return bytes / size;
}

void P2pEngine::attach(fw::TaskContext& task, const P2pConfig& config) {
  if (attached_) return;
  if (task.tasks > (1u << p2p::kTaskBits))
    throw Error("point-to-point: " + std::to_string(task.tasks) + " tasks per node do not fit the envelope's " +
                std::to_string(p2p::kTaskBits) + "-bit task fields (at most " + std::to_string(1u << p2p::kTaskBits) +
                ")");
  if (config.eager_limit > p2p::kMaxBytes)
    throw Error("point-to-point: eager limit " + std::to_string(config.eager_limit) + " exceeds the largest message (" +
                std::to_string(p2p::kMaxBytes) + " bytes)");
  config_ = config;
  layout_ = fw::TorusLayout(task.personality.shape);
  nodes_ = layout_.nodes();
  tasks_ = task.tasks;
  node_ = task.node;
  // Every node that may send here, this one included (its tasks' messages to each other),
  // holds an equal share of the unexpected memory.
  credit_per_node_ = config_.unexpected_limit / nodes_;
  routes_ = task.personality.torus_routes;
  interrupts_.assign(tasks_, Interrupts{});
  attached_ = true;
}

bool P2pEngine::try_lock(fw::TaskContext& task) {
  // One task alone on its node never waits for the FIFOs and pays nothing for the lock;
  // with several, or a coprocessor beside it, the lock is a word of node memory.
  const bool shared = task.tasks > 1 || task.coprocessor;
  if (busy_) {
    if (shared) task.cpu.memory_access();
    return false;
  }
  busy_ = true;
  if (shared) task.cpu.memory_access();
  return true;
}

void P2pEngine::unlock(fw::TaskContext& task) {
  if (task.tasks > 1 || task.coprocessor) task.cpu.memory_access();  // the releasing store
}

void P2pEngine::note_records() {
  stats_.records = unexpected_.size();
  stats_.records_peak = std::max(stats_.records_peak, stats_.records);
  stats_.unexpected_peak = std::max(stats_.unexpected_peak, stats_.unexpected_bytes);
}

void P2pEngine::set_status(RequestState& req, unsigned source_world, unsigned tag, size_t bytes) {
  req.source_world = source_world;
  req.tag = tag;
  req.bytes = bytes;
}

void P2pEngine::finish(RequestState& req) {
  if (!req.is_send && req.bytes > req.capacity && !req.error)
    req.error = std::make_exception_ptr(
        TruncatedError("a message of " + std::to_string(req.bytes) + " bytes with tag " + std::to_string(req.tag) +
              " arrived for a receive of " + std::to_string(req.capacity) + " bytes: truncated"));
  if (req.cancelling) {  // asked back: done once the answer is in
    req.finished = true;
    return;
  }
  req.done = true;
}

void P2pEngine::withdrawn(RequestState& req) {
  req.cancelled = true;
  req.cancelling = false;
  req.done = true;
  ++stats_.cancelled_sends;
}

void P2pEngine::drop_unexpected(UnexpectedIt it) {
  if (it->charge) {  // eager data held in unexpected memory: its credit goes back
    stats_.unexpected_bytes -= it->charge;
    give_credit(it->src_node, it->charge);
  }
  unexpected_.erase(it);
  note_records();
}

void P2pEngine::give_credit(unsigned src_node, size_t bytes) {
  if (src_node == node_) {
    credit(node_) += bytes;  // the node's own share: nothing to send
    return;
  }
  if ((owed_[src_node] += bytes) >= credit_batch()) owed_ready_.insert(src_node);
}

bool P2pEngine::matches(const Posted& p, unsigned context, unsigned source_world, unsigned tag, unsigned dst_task) const {
  // A message with a communicator's context id comes only from its members, so kAnySource
  // needs no membership check.
  return p.dst_task == dst_task && p.req->context == context &&
         (p.source_world == kAnySource || p.source_world == source_world) && p2p::tag_matches(p.tag, tag, kAnyTag);
}

bool P2pEngine::cancel(fw::TaskContext& task, const Request& r) {
  task.cpu.memory_access();  // the posted receives or the send queues, in node memory
  if (r.state()->is_send) return cancel_send(task, r);
  for (auto it = posted_.begin(); it != posted_.end(); ++it) {
    if (it->req.get() != r.state()) continue;
    it->req->cancelled = true;
    it->req->done = true;
    posted_.erase(it);
    return true;
  }
  return false;
}

bool P2pEngine::cancel_send(fw::TaskContext& task, const Request& r) {
  const std::shared_ptr<RequestState>& req = r.shared();
  if (req->cancelling || req->cancelled) return false;
  // The queues are the FIFOs' holder's to change (another task of the node may be
  // injecting from them): wait for the FIFOs.
  while (!try_lock(task)) task.cpu.idle(1);
  bool gone = false, ask = false;
  {
    Held held(busy_);
    gone = withdraw_here(req);
    if (!gone && req->dst_node != node_) {
      // On its way or there: the receiving node decides. The request is done again only
      // once its answer is back.
      req->cancelling = true;
      req->finished = req->done;
      req->done = false;
      auto op = std::make_shared<SendOp>();
      op->req = req;
      op->dst_node = req->dst_node;
      op->cancel = true;
      ordered_.push_back(std::move(op));
      cancelling_[{req->dst_node, req->cancel_word}] = req;
      ask = true;
    }
  }
  unlock(task);
  if (ask) progress(task);
  return gone;
}

bool P2pEngine::withdraw_here(const std::shared_ptr<RequestState>& req) {
  // Still queued here, not a packet out: taken off the queue (an eager message's credit
  // back, a remote get's counter free again).
  for (auto it = ordered_.begin(); it != ordered_.end(); ++it) {
    SendOp& op = **it;
    if (op.req != req || op.cancel || op.next > 0) continue;
    if (op.eager)
      credit(op.dst_node) += req->bytes;
    else
      dma_drop_send(op.id);
    ordered_.erase(it);
    withdrawn(*req);
    return true;
  }
  if (req->dst_node != node_) return false;
  // To a task of this node: its record, unless a receive took it.
  for (auto it = unexpected_.begin(); it != unexpected_.end(); ++it) {
    if (it->origin.lock() != req || it->matched) continue;
    drop_unexpected(it);
    withdrawn(*req);
    return true;
  }
  return false;
}

void P2pEngine::on_cancel(unsigned src_node, const p2p::Envelope& env) {
  const unsigned source = src_node * tasks_ + env.src_task;
  bool gone = false;
  for (auto it = unexpected_.begin(); it != unexpected_.end(); ++it) {
    const Unexpected& u = *it;
    if (u.matched || u.src_node != src_node || u.source_world != source || u.dst_task != env.dst_task) continue;
    if (env.tag == 0 ? !(u.kind == Kind::Eager && u.seq == env.value && u.filled == u.bytes)
                     : !(u.kind == Kind::Rts && u.send_id == env.value))
      continue;
    drop_unexpected(it);  // an eager one is all here: the request followed its packets
    gone = true;
    break;
  }
  p2p::Envelope answer = env;
  answer.tag |= gone ? 2u : 0u;
  control_.push_back(Control{src_node, p2p::kSwTagCancelAck, answer.encode()});
}

void P2pEngine::on_cancel_ack(unsigned src_node, p2p::Envelope env) {
  const bool gone = env.tag & 2u;
  env.tag &= 1u;
  auto it = cancelling_.find({src_node, env.encode()});
  if (it == cancelling_.end())
    throw Error("point-to-point: node " + std::to_string(node_) + " received an answer to a cancel from node " +
                std::to_string(src_node) + " for a send it did not ask back");
  const std::shared_ptr<RequestState> req = std::move(it->second);
  cancelling_.erase(it);
  if (gone) {
    if (env.tag == 1) {  // a rendezvous send: no clear to send will come
      awaiting_cts_.erase(static_cast<uint32_t>(env.value));
      dma_drop_send(static_cast<uint32_t>(env.value));
    }
    withdrawn(*req);
    return;
  }
  req->cancelling = false;  // a receive has it: the send completes as sent
  if (req->finished) req->done = true;
}

std::shared_ptr<RequestState> P2pEngine::take_posted(unsigned context, unsigned source_world, unsigned tag,
                                                     unsigned dst_task) {
  for (auto it = posted_.begin(); it != posted_.end(); ++it) {
    if (!matches(*it, context, source_world, tag, dst_task)) continue;
    std::shared_ptr<RequestState> r = std::move(it->req);
    posted_.erase(it);
    return r;
  }
  return nullptr;
}

Request P2pEngine::isend(fw::TaskContext& task, unsigned context, const void* buf, size_t bytes, unsigned dest_world,
                         unsigned tag, std::optional<size_t> eager_limit, bool synchronous) {
  auto req = std::make_shared<RequestState>();
  req->is_send = true;
  req->context = context;
  req->send_buf = static_cast<const uint8_t*>(buf);
  req->bytes = bytes;
  req->tag = tag;
  const unsigned me = task.node * tasks_ + task.task;
  req->source_world = me;
  const unsigned dst_node = dest_world / tasks_, dst_task = dest_world % tasks_;
  req->dst_node = dst_node;

  if (dst_node == node_) {
    // The tasks of a node switch only when one spends time: the engine's state changes
    // between two charges, and each lookup is acted on before the next charge.
    ++stats_.local;
    task.cpu.memory_access();  // the posted receives, in node memory
    if (std::shared_ptr<RequestState> r = take_posted(context, me, tag, dst_task)) {
      set_status(*r, me, tag, bytes);
      put(*r, 0, buf, bytes);
      finish(*r);
      finish(*req);
      charge_copy(task.cpu, std::min(bytes, r->capacity));
      return Request(req);
    }
    Unexpected ux;
    ux.context = context;
    ux.source_world = me;
    ux.tag = tag;
    ux.dst_task = dst_task;
    ux.bytes = bytes;
    ux.src_node = node_;
    ux.origin = req;
    if (!synchronous && credit(node_) >= bytes) {
      // Buffered: the send is done once its data is in the node's unexpected memory.
      ux.kind = Kind::Eager;
      ux.data.assign(static_cast<const uint8_t*>(buf), static_cast<const uint8_t*>(buf) + bytes);
      ux.filled = bytes;
      ux.charge = bytes;
      credit(node_) -= bytes;
      stats_.unexpected_bytes += bytes;
      finish(*req);
    } else {
      ux.kind = Kind::Local;  // the receive will copy from the sender's buffer
      ux.send = req;
    }
    const bool copied = ux.kind == Kind::Eager;
    wake(ux);
    unexpected_.push_back(std::move(ux));
    ++stats_.unexpected;
    note_records();
    if (copied) charge_copy(task.cpu, bytes);
    return Request(req);
  }

  auto op = std::make_shared<SendOp>();
  op->req = req;
  op->dst_node = dst_node;
  op->env.tag = tag;
  op->env.src_task = task.task;
  op->env.dst_task = dst_task;
  op->env.context = context;
  op->packets = p2p::packets_for(words_for(bytes));
  if (!synchronous && bytes <= eager_limit.value_or(config_.eager_limit) && credit(dst_node) >= bytes) {
    op->eager = true;
    credit(dst_node) -= bytes;
    ++stats_.eager;
  } else {
    op->id = next_id_++;
    ++stats_.rendezvous;
    p2p::Envelope name{1, task.task, dst_task, 0, op->id};
    req->cancel_word = name.encode();
    (void)dma_send(task, *op, buf);  // by a remote get if the node has the engine
  }
  task.cpu.memory_access();  // queue it
  ordered_.push_back(std::move(op));
  progress(task);  // out at once if the FIFO has room
  return Request(req);
}

Request P2pEngine::irecv(fw::TaskContext& task, unsigned context, void* buf, size_t capacity, unsigned source_world,
                         unsigned tag) {
  auto req = std::make_shared<RequestState>();
  req->context = context;
  req->recv_buf = static_cast<uint8_t*>(buf);
  req->capacity = capacity;
  task.cpu.memory_access();  // the unexpected queue, in node memory
  for (auto it = unexpected_.begin(); it != unexpected_.end(); ++it) {
    if (it->matched || it->dst_task != task.task || it->context != context) continue;
    if (source_world != kAnySource && it->source_world != source_world) continue;
    if (!p2p::tag_matches(tag, it->tag, kAnyTag)) continue;
    charge_copy(task.cpu, take_unexpected(task, it, req));
    return Request(req);
  }
  Posted p;
  p.req = req;
  p.dst_task = task.task;
  p.source_world = source_world;
  p.tag = tag;
  posted_.push_back(std::move(p));
  return Request(req);
}

std::optional<P2pEngine::Found> P2pEngine::probe(fw::TaskContext& task, unsigned context, unsigned source_world,
                                                 unsigned tag) {
  task.cpu.memory_access();
  for (const Unexpected& u : unexpected_) {
    if (u.matched || u.dst_task != task.task || u.context != context) continue;
    if (source_world != kAnySource && u.source_world != source_world) continue;
    if (!p2p::tag_matches(tag, u.tag, kAnyTag)) continue;
    return Found{u.source_world, u.tag, u.bytes};
  }
  return std::nullopt;
}

size_t P2pEngine::take_unexpected(fw::TaskContext& task, UnexpectedIt it, const std::shared_ptr<RequestState>& req) {
  set_status(*req, it->source_world, it->tag, it->bytes);
  size_t copied = 0;
  switch (it->kind) {
    case Kind::Eager:
      if (it->filled < it->bytes) {
        it->matched = req;  // still arriving: delivered when complete (stream_data)
        return 0;
      }
      put(*req, 0, it->data.data(), it->bytes);
      copied = std::min(it->bytes, req->capacity);
      finish(*req);
      break;
    case Kind::Rts:
      accept_rts(task, req, it->src_node, it->send_id, it->bytes, it->dma_addr, it->dma_counter);
      break;
    case Kind::Local:
      put(*req, 0, it->send->send_buf, it->bytes);
      copied = std::min(it->bytes, req->capacity);
      finish(*req);
      finish(*it->send);
      break;
  }
  drop_unexpected(it);
  return copied;
}

void P2pEngine::accept_rts(fw::TaskContext& task, const std::shared_ptr<RequestState>& req, unsigned src_node,
                           uint32_t send_id, size_t bytes, uint64_t dma_addr, unsigned dma_counter) {
  if (dma_counter > 0 && dma_accept(task, req, src_node, dma_addr, dma_counter - 1, bytes)) return;
  const uint32_t id = next_id_++;
  rndv_recv_[id] = RndvRecv{req, p2p::packets_for(words_for(bytes)), 0};
  control_.push_back(Control{src_node, p2p::kSwTagCts, p2p::pack32(send_id, id)});
}

void P2pEngine::release_route(unsigned node, unsigned cls) {
  control_.push_back(Control{node, p2p::kSwTagRelease, cls});
}

std::vector<unsigned> P2pEngine::take_released_routes() { return std::exchange(released_routes_, {}); }

bool P2pEngine::packets_queued() const {
  return !ordered_.empty() || !streaming_.empty() || !control_.empty() || !relay_.empty() || !deposit_out_.empty();
}

bool P2pEngine::handler_woken(unsigned task) const {
  return task < handlers_.size() && handlers_[task].woken && !handlers_[task].running;
}

bool P2pEngine::wants_progress(fw::TaskContext& task) const {
  return packets_queued() || !dma_recvs_.empty() || task.cpu.torus_pending() || handler_woken(task.task) ||
         (task.task < fibers_.size() && !fibers_[task.task].empty()) || task.cpu.current_fiber();
}

bool P2pEngine::interrupt_pending(fw::TaskContext& task) const {
  return (packets_queued() && task.cpu.torus_inject_room()) || task.cpu.torus_pending() || task.cpu.dma_event() ||
         handler_woken(task.task);
}

bool P2pEngine::serve_interrupt(fw::TaskContext& task) {
  Interrupts& in = interrupts_[task.task];
  in.fiber_moved = false;
  in.serving = true;
  const Held serving(in.serving);
  return progress(task) || in.fiber_moved;
}

void P2pEngine::set_handler(unsigned task, std::function<void()> fn) {
  if (handlers_.size() <= task) handlers_.resize(task + 1);
  handlers_[task].fn = std::move(fn);
}

void P2pEngine::watch(unsigned task, unsigned context, bool on) {
  if (handlers_.size() <= task) handlers_.resize(task + 1);
  if (on) {
    handlers_[task].contexts.insert(context);
    for (const Unexpected& u : unexpected_) wake(u);  // what came before the watch began
  } else {
    handlers_[task].contexts.erase(context);
  }
}

void P2pEngine::wake(const Unexpected& u) {
  if (u.dst_task < handlers_.size() && handlers_[u.dst_task].contexts.count(u.context))
    handlers_[u.dst_task].woken = true;
}

void P2pEngine::run_handler(fw::TaskContext& task) {
  if (task.task >= handlers_.size()) return;
  Handler& h = handlers_[task.task];
  if (!h.fn || h.running || !h.woken) return;
  h.running = true;
  h.woken = false;
  Held running(h.running);  // not running again once it returns or throws
  h.fn();
}

void P2pEngine::add_poller(unsigned task, std::function<bool()> fn) {
  if (pollers_.size() <= task) pollers_.resize(task + 1);
  pollers_[task].fns.push_back(std::move(fn));
}

void P2pEngine::run_pollers(fw::TaskContext& task) {
  const unsigned t = task.task;
  if (t >= pollers_.size() || pollers_[t].running || pollers_[t].fns.empty()) return;
  Held running(pollers_[t].running);  // a poller's own progress() calls do not run it again
  // The pollers run from a list of their own, so that one added meanwhile (to the task's
  // list) or a list that moves cannot pull a running one from under itself.
  std::vector<std::function<bool()>> now = std::exchange(pollers_[t].fns, {}), kept;
  size_t next = 0;
  const auto put_back = [&] {
    for (; next < now.size(); ++next) kept.push_back(std::move(now[next]));
    std::vector<std::function<bool()>>& added = pollers_[t].fns;
    kept.insert(kept.end(), std::make_move_iterator(added.begin()), std::make_move_iterator(added.end()));
    added = std::move(kept);
  };
  try {
    for (; next < now.size(); ++next)
      if (now[next]()) kept.push_back(std::move(now[next]));
  } catch (...) {
    ++next;  // the one that threw is done
    put_back();
    throw;
  }
  put_back();
}

void P2pEngine::add_fiber(unsigned task, std::shared_ptr<fw::Fiber> fiber) {
  if (fibers_.size() <= task) fibers_.resize(task + 1);
  fibers_[task].push_back(std::move(fiber));
}

bool P2pEngine::has_fibers(unsigned task) {
  if (task >= fibers_.size()) return false;
  std::vector<std::shared_ptr<fw::Fiber>>& fs = fibers_[task];
  fs.erase(std::remove_if(fs.begin(), fs.end(), [](const auto& f) { return f->ended(); }), fs.end());
  return !fs.empty();
}

void P2pEngine::run_fibers(fw::TaskContext& task) {
  if (!has_fibers(task.task)) return;
  // From a copy: a fiber that ends or starts meanwhile changes the task's list.
  const std::vector<std::shared_ptr<fw::Fiber>> now = fibers_[task.task];
  for (const std::shared_ptr<fw::Fiber>& f : now) f->resume();
}

bool P2pEngine::progress(fw::TaskContext& task) {
  // On a fiber: one level deeper in progress() until this one returns or throws.
  struct Depth {
    fw::Fiber* f;
    explicit Depth(fw::Fiber* fiber) : f(fiber) {
      if (f) ++f->progress_depth;
    }
    ~Depth() {
      if (f) --f->progress_depth;
    }
  };
  fw::Fiber* const fiber = task.cpu.current_fiber();
  bool did = false;
  {
    Depth depth(fiber);
    did = move_packets(task);
    run_handler(task);
    run_pollers(task);
  }
  if (!fiber) {
    run_fibers(task);
  } else if (fiber->progress_depth == 0) {
    interrupts_[task.task].fiber_moved = did;
    task.cpu.yield_fiber();  // the task's turn: it resumes the fiber in its next progress()
  }
  return did;
}

bool P2pEngine::move_packets(fw::TaskContext& task) {
  if (!try_lock(task)) return false;
  bool did = false;
  {
    Held held(busy_);
    const fw::TorusStatus st = task.torus.status();
    if (st.error) task.torus.check();
    for (unsigned f = 0; f < fw::regmap::kTrRcvFifos; ++f) {
      if (st.rcv[f] > 0 || task.torus.mid_packet(f)) {
        drain(task, f);
        did = true;
      }
    }
    // Room only grows between the status read and now, except by this task's injections.
    did = inject(task, st) || did;
    did = dma_poll(task) || did;
  }
  unlock(task);
  return did;
}

void P2pEngine::drain(fw::TaskContext& task, unsigned fifo) {
  // A header read leaves its chunks to this task's firmware: finish the packet before the
  // FIFOs are released (it streams in at a flit per cycle once its header is there).
  do {
    for (const fw::TorusPacket& p : task.torus.receive_available(fifo)) file(task, p);
  } while (task.torus.mid_packet(fifo));
}

void P2pEngine::file(fw::TaskContext& task, const fw::TorusPacket& p) {
  if (p.header.sw_tag == p2p::kSwTagForward) return on_forward(task, p);
  const unsigned src_node = layout_.rank(p.header.src);
  task.cpu.memory_access();  // the engine's bookkeeping; the words came in by the vector reads
  const uint64_t w = p.payload.front();
  const uint64_t* words = p.payload.data() + 1;
  const size_t available = p.payload.size() - 1;
  switch (p.header.sw_tag) {
    case p2p::kSwTagFirst:
    case p2p::kSwTagNext:
    case p2p::kSwTagRts: {
      const p2p::Envelope env = p2p::Envelope::decode(w);
      if (env.src_task >= tasks_ || env.dst_task >= tasks_)
        throw Error("point-to-point: node " + std::to_string(node_) + " received a packet from task " +
                    std::to_string(env.src_task) + " of node " + std::to_string(src_node) + " for task " +
                    std::to_string(env.dst_task) + ", with " + std::to_string(tasks_) + " tasks per node");
      if (p.header.sw_tag == p2p::kSwTagFirst)
        charge_copy(task.cpu, on_first(src_node, env, words, available));
      else if (p.header.sw_tag == p2p::kSwTagNext)
        charge_copy(task.cpu, on_next(src_node, env, words, available));
      else
        on_rts(task, src_node, env, p2p::low32(words[0]), words[1], static_cast<unsigned>(words[2]));
      break;
    }
    case p2p::kSwTagCts:
      on_cts(src_node, p2p::low32(w), p2p::high32(w));
      break;
    case p2p::kSwTagCancel:
    case p2p::kSwTagCancelAck: {
      const p2p::Envelope env = p2p::Envelope::decode(w);
      if (env.src_task >= tasks_ || env.dst_task >= tasks_ || (env.tag & ~3u))
        throw Error("point-to-point: node " + std::to_string(node_) + " received a malformed cancel packet from node " +
                    std::to_string(src_node));
      if (p.header.sw_tag == p2p::kSwTagCancel)
        on_cancel(src_node, env);
      else
        on_cancel_ack(src_node, env);
      break;
    }
    case p2p::kSwTagData:
      on_data(src_node, p2p::low32(w), p2p::high32(w), words, available);
      break;
    case p2p::kSwTagCredit:
      credit(src_node) += w;
      break;
    case p2p::kSwTagDeposit: {
      const uint32_t id = p2p::low32(w), index = p2p::high32(w);
      lines_[id].chunks[index].assign(words, words + available);
      break;
    }
    case p2p::kSwTagRelease:
      if (w >= fw::regmap::kNumClasses)
        throw Error("point-to-point: node " + std::to_string(node_) + " received a class route release from node " +
                    std::to_string(src_node) + " for class " + std::to_string(w) + ", which does not exist");
      released_routes_.push_back(static_cast<unsigned>(w));
      break;
    default:
      throw Error("point-to-point: node " + std::to_string(node_) + " received a torus packet from node " +
                  std::to_string(src_node) + " with software tag " + std::to_string(p.header.sw_tag) +
                  ", which is not a point-to-point packet");
  }
}

P2pEngine::Unexpected P2pEngine::arrived(Kind kind, const p2p::Envelope& env, unsigned src_node) const {
  Unexpected ux;
  ux.kind = kind;
  ux.context = env.context;
  ux.source_world = src_node * tasks_ + env.src_task;
  ux.tag = env.tag;
  ux.dst_task = env.dst_task;
  ux.bytes = env.value;
  ux.src_node = src_node;
  return ux;
}

size_t P2pEngine::on_first(unsigned src_node, const p2p::Envelope& env, const uint64_t* words, size_t available) {
  const unsigned source = src_node * tasks_ + env.src_task;
  if (streams_.count(source))
    throw Error("point-to-point: node " + std::to_string(node_) + " received a new message from rank " +
                std::to_string(source) + " while its previous one was incomplete");
  Stream s;
  s.bytes = env.value;
  const uint64_t seq = eager_arrived_[pair_key(src_node, env.src_task, env.dst_task)]++ & p2p::kMaxBytes;
  if (std::shared_ptr<RequestState> r = take_posted(env.context, source, env.tag, env.dst_task)) {
    set_status(*r, source, env.tag, s.bytes);
    s.req = std::move(r);
    give_credit(src_node, s.bytes);  // the data never waits in unexpected memory
  } else {
    Unexpected ux = arrived(Kind::Eager, env, src_node);
    ux.seq = seq;
    ux.data.assign(s.bytes, 0);
    ux.charge = s.bytes;
    wake(ux);
    unexpected_.push_back(std::move(ux));
    s.ux = std::prev(unexpected_.end());
    s.queued = true;
    ++stats_.unexpected;
    stats_.unexpected_bytes += s.bytes;
    if (stats_.unexpected_bytes > config_.unexpected_limit)
      throw Error("point-to-point: node " + std::to_string(node_) + " holds " + std::to_string(stats_.unexpected_bytes) +
                  " bytes of unexpected eager data, over its limit of " + std::to_string(config_.unexpected_limit) +
                  " (a sender exceeded its credit)");
    note_records();
  }
  auto it = streams_.emplace(source, std::move(s)).first;
  return stream_data(it, words, available);
}

size_t P2pEngine::on_next(unsigned src_node, const p2p::Envelope& env, const uint64_t* words, size_t available) {
  const unsigned source = src_node * tasks_ + env.src_task;
  auto it = streams_.find(source);
  if (it == streams_.end() || it->second.next_index != env.value)
    throw Error("point-to-point: node " + std::to_string(node_) + " received packet " + std::to_string(env.value) +
                " of a message from rank " + std::to_string(source) + " out of sequence");
  ++it->second.next_index;
  return stream_data(it, words, available);
}

size_t P2pEngine::stream_data(std::map<unsigned, Stream>::iterator it, const uint64_t* words, size_t available) {
  Stream& s = it->second;
  const size_t n = std::min(available * 8, s.bytes - s.filled);
  if (n == 0) {
    // A zero-length message: nothing to copy (and no buffer, which memcpy wants even for 0 bytes).
  } else if (s.queued) {
    std::memcpy(s.ux->data.data() + s.filled, words, n);
  } else {
    put(*s.req, s.filled, words, n);
  }
  s.filled += n;
  if (s.queued) s.ux->filled = s.filled;
  if (s.filled < s.bytes) return 0;
  size_t copied = 0;
  if (!s.queued) {
    finish(*s.req);
  } else if (s.ux->matched) {
    // Its receive came while it arrived: deliver it now.
    Unexpected& u = *s.ux;
    put(*u.matched, 0, u.data.data(), u.bytes);
    copied = std::min(u.bytes, u.matched->capacity);
    finish(*u.matched);
    drop_unexpected(s.ux);
  }
  streams_.erase(it);
  return copied;
}

void P2pEngine::on_rts(fw::TaskContext& task, unsigned src_node, const p2p::Envelope& env, uint32_t send_id,
                       uint64_t dma_addr, unsigned dma_counter) {
  const unsigned source = src_node * tasks_ + env.src_task;
  if (std::shared_ptr<RequestState> r = take_posted(env.context, source, env.tag, env.dst_task)) {
    set_status(*r, source, env.tag, env.value);
    accept_rts(task, r, src_node, send_id, env.value, dma_addr, dma_counter);
    return;
  }
  Unexpected ux = arrived(Kind::Rts, env, src_node);
  ux.send_id = send_id;
  ux.dma_addr = dma_addr;
  ux.dma_counter = dma_counter;
  wake(ux);
  unexpected_.push_back(std::move(ux));
  ++stats_.unexpected;
  note_records();
}

void P2pEngine::on_cts(unsigned src_node, uint32_t send_id, uint32_t recv_id) {
  auto it = awaiting_cts_.find(send_id);
  if (it == awaiting_cts_.end())
    throw Error("point-to-point: node " + std::to_string(node_) + " received a clear to send from node " +
                std::to_string(src_node) + " for send " + std::to_string(send_id) + ", which is not waiting for one");
  std::shared_ptr<SendOp> op = std::move(it->second);
  awaiting_cts_.erase(it);
  dma_drop_send(send_id);
  op->recv_id = recv_id;
  op->next = 0;
  streaming_.push_back(std::move(op));
}

void P2pEngine::on_data(unsigned src_node, uint32_t recv_id, uint64_t index, const uint64_t* words,
                        size_t available) {
  auto it = rndv_recv_.find(recv_id);
  if (it == rndv_recv_.end() || index >= it->second.packets)
    throw Error("point-to-point: node " + std::to_string(node_) + " received data packet " + std::to_string(index) +
                " from node " + std::to_string(src_node) + " for receive " + std::to_string(recv_id) +
                ", which does not expect it");
  RndvRecv& r = it->second;
  const size_t offset = index * p2p::kDataWords * 8;
  const size_t n = std::min(available * 8, r.req->bytes - std::min(offset, r.req->bytes));
  put(*r.req, offset, words, n);
  if (++r.got < r.packets) return;
  finish(*r.req);
  rndv_recv_.erase(it);
}

fw::TorusHeader P2pEngine::header_to(unsigned dst_node, bool adaptive) const {
  fw::TorusHeader h;
  h.dst = layout_.coord(dst_node);
  h.deterministic = !adaptive;
  if (routes_) {
    // Around what is down: the hinted route (deterministic where order matters, and for
    // data too when the detour needs dimension order).
    const fw::TorusRoute& r = (*routes_)[node_][dst_node];
    h.hints = r.hints;
    h.deterministic = h.deterministic || r.deterministic;
  }
  return h;
}

void P2pEngine::deposit(fw::TaskContext& task, uint32_t id, uint32_t index, unsigned dim, int hops,
                        const uint64_t* words, size_t n) {
  if (routes_)
    throw Error("a line broadcast cannot go around what is down on the torus: use another bcast algorithm");
  if (dim > 2 || hops == 0 || static_cast<unsigned>(hops < 0 ? -hops : hops) >= layout_.dims()[dim] ||
      n > p2p::kDataWords)
    throw Error("point-to-point: a line broadcast along dimension " + std::to_string(dim) + ", " + std::to_string(hops) +
                " hops, of " + std::to_string(n) + " words cannot be sent");
  DepositOut d;
  d.dim = dim;
  d.hops = hops;
  d.payload.assign(size_t{fw::regmap::kChunkFlits} * p2p::chunks_for(n), 0);
  d.payload[0] = p2p::pack32(id, index);
  std::copy(words, words + n, d.payload.begin() + 1);
  task.cpu.memory_access();  // queue it
  deposit_out_.push_back(std::move(d));
  progress(task);
}

void P2pEngine::line_done(uint32_t id, unsigned tasks) {
  auto it = lines_.find(id);
  if (it != lines_.end() && ++it->second.done >= tasks) lines_.erase(it);
}

int P2pEngine::via_to(unsigned dst_node) const { return routes_ ? (*routes_)[node_][dst_node].via : -1; }

bool P2pEngine::several_paths(unsigned dst_node) const {
  const fw::Coord a = layout_.coord(node_), b = layout_.coord(dst_node);
  unsigned apart = 0;
  for (size_t d = 0; d < a.size(); ++d) apart += a[d] != b[d];
  return apart >= 2;
}

bool P2pEngine::emit(fw::TaskContext& task, unsigned dst_node, const fw::TorusHeader& h,
                     const std::vector<uint64_t>& payload, unsigned fifo, Room& room) {
  const int via = via_to(dst_node);
  if (via < 0) {
    if (room[fifo] < h.flits()) return false;
    task.torus.inject(h, payload, fifo);
    room[fifo] -= h.flits();
    return true;
  }
  // The forward word, then the packet's payload: one packet, or two when the payload fills
  // a packet already (its first kPacketWords-1 words, then the rest).
  p2p::Forward f{node_, dst_node, h.sw_tag, h.chunks, 0};
  std::vector<std::vector<uint64_t>> parts;
  auto wrap = [&](size_t from, size_t to, unsigned part) {
    f.part = part;
    std::vector<uint64_t> w{f.encode()};
    w.insert(w.end(), payload.begin() + static_cast<ptrdiff_t>(from), payload.begin() + static_cast<ptrdiff_t>(to));
    w.resize((w.size() + fw::regmap::kChunkFlits - 1) / fw::regmap::kChunkFlits * fw::regmap::kChunkFlits, 0);
    parts.push_back(std::move(w));
  };
  if (payload.size() < p2p::kPacketWords) {
    wrap(0, payload.size(), 0);
  } else {
    wrap(0, p2p::kPacketWords - 1, 1);
    wrap(p2p::kPacketWords - 1, payload.size(), 2);
  }
  unsigned need = 0;
  for (const auto& w : parts) need += 1 + static_cast<unsigned>(w.size());
  if (room[kOrderedFifo] < need) return false;
  fw::TorusHeader fh = header_to(static_cast<unsigned>(via), false);
  fh.sw_tag = p2p::kSwTagForward;
  for (const auto& w : parts) {
    fh.chunks = static_cast<unsigned>(w.size() / fw::regmap::kChunkFlits);
    task.torus.inject(fh, w, kOrderedFifo);
  }
  room[kOrderedFifo] -= need;
  ++stats_.forwarded_out;
  return true;
}

void P2pEngine::on_forward(fw::TaskContext& task, const fw::TorusPacket& p) {
  const p2p::Forward f = p2p::Forward::decode(p.payload.front());
  if (f.origin >= nodes_ || f.final_node >= nodes_ || f.chunks < 1 || f.chunks > fw::regmap::kMaxChunks || f.part > 2)
    throw Error("point-to-point: node " + std::to_string(node_) + " received a forwarded packet with a bad forward word 0x" +
                [&] {
                  char b[20];
                  std::snprintf(b, sizeof b, "%llx", static_cast<unsigned long long>(p.payload.front()));
                  return std::string(b);
                }());
  if (f.final_node != node_) {  // an intermediate node: send it on, as it is
    relay_.push_back(Relay{f.final_node, p.header.chunks, p.payload});
    ++stats_.relayed;
    return;
  }
  std::vector<uint64_t> words(p.payload.begin() + 1, p.payload.end());
  if (f.part == 1) {
    if (!halves_.emplace(f.origin, std::move(words)).second)
      throw Error("point-to-point: node " + std::to_string(node_) + " received two first parts of a packet from node " +
                  std::to_string(f.origin));
    return;
  }
  if (f.part == 2) {
    auto it = halves_.find(f.origin);
    if (it == halves_.end())
      throw Error("point-to-point: node " + std::to_string(node_) + " received the second part of a packet from node " +
                  std::to_string(f.origin) + " without its first");
    words.insert(words.begin(), it->second.begin(), it->second.end());
    halves_.erase(it);
  }
  fw::TorusPacket q;
  q.header = p.header;
  q.header.src = layout_.coord(f.origin);
  q.header.sw_tag = f.sw_tag;
  q.header.chunks = f.chunks;
  words.resize(size_t{fw::regmap::kChunkFlits} * f.chunks, 0);
  q.payload = std::move(words);
  file(task, q);
}

bool P2pEngine::inject(fw::TaskContext& task, const fw::TorusStatus& st) {
  Room room = st.inj_free;
  // Every queue gets its turn, in this order, whatever the ones before it moved.
  bool did = inject_deposits(task, room);
  did |= inject_relays(task, room);
  did |= inject_control(task, room);
  did |= inject_ordered(task, room);
  did |= inject_streaming(task, room);
  return did;
}

bool P2pEngine::inject_deposits(fw::TaskContext& task, Room& room) {
  // Line broadcast chunks: deterministic along their dimension, `hops` nodes the + or the
  // - way, with the deposit bit; each dimension through an injection
  // FIFO of its own (x: 1, y: 0, z: 2), so a node that starts three lines moves three flits
  // a cycle. In order per FIFO.
  bool did = false;
  std::array<bool, fw::regmap::kTrInjFifos> blocked{};
  for (auto it = deposit_out_.begin(); it != deposit_out_.end();) {
    static constexpr unsigned kLineFifo[3] = {kDataFifo, kOrderedFifo, kControlFifo};
    const unsigned fifo = kLineFifo[it->dim];
    fw::TorusHeader h;
    fw::Coord to = layout_.coord(node_);
    const int n = static_cast<int>(layout_.dims()[it->dim]);
    to[it->dim] = static_cast<unsigned>((static_cast<int>(to[it->dim]) + n + it->hops) % n);
    h.dst = to;
    h.hints = 1u << (2 * it->dim + (it->hops < 0 ? 1 : 0));
    h.deterministic = true;
    h.deposit = true;
    h.sw_tag = p2p::kSwTagDeposit;
    h.chunks = static_cast<unsigned>(it->payload.size() / fw::regmap::kChunkFlits);
    if (blocked[fifo] || room[fifo] < h.flits()) {
      blocked[fifo] = true;
      ++it;
      continue;
    }
    task.torus.inject(h, it->payload, fifo);
    room[fifo] -= h.flits();
    it = deposit_out_.erase(it);
    did = true;
  }
  return did;
}

bool P2pEngine::inject_relays(fw::TaskContext& task, Room& room) {
  // Packets forwarded through this node, on to their destinations.
  bool did = false;
  while (!relay_.empty()) {
    const Relay& r = relay_.front();
    fw::TorusHeader h = header_to(r.dst_node, false);
    h.sw_tag = p2p::kSwTagForward;
    h.chunks = r.chunks;
    if (room[kOrderedFifo] < h.flits()) break;
    task.torus.inject(h, r.payload, kOrderedFifo);
    room[kOrderedFifo] -= h.flits();
    relay_.pop_front();
    did = true;
  }
  return did;
}

bool P2pEngine::inject_control(fw::TaskContext& task, Room& room) {
  // Credit given back once it is worth a packet (credit_batch), in node order. Only the
  // nodes owed that much are looked at: a node may owe small amounts to hundreds.
  for (const unsigned src : owed_ready_) {
    const auto it = owed_.find(src);
    control_.push_back(Control{src, p2p::kSwTagCredit, it->second});
    owed_.erase(it);
  }
  owed_ready_.clear();

  // Control: one chunk each, on the high-priority VC.
  bool did = false;
  std::vector<uint64_t> payload;
  while (!control_.empty()) {
    fw::TorusHeader h = header_to(control_.front().dst_node, false);
    h.priority = true;
    h.chunks = 1;
    h.sw_tag = control_.front().sw_tag;
    payload.assign(fw::regmap::kChunkFlits, 0);
    payload[0] = control_.front().word;
    if (!emit(task, control_.front().dst_node, h, payload, kControlFifo, room)) break;
    control_.pop_front();
    did = true;
  }
  return did;
}

std::vector<uint64_t> P2pEngine::data_packet(const SendOp& op, fw::TorusHeader& h, uint64_t first_word) {
  const size_t count = words_for(op.req->bytes);
  const size_t first = op.next * p2p::kDataWords;
  const size_t n = std::min<size_t>(p2p::kDataWords, count - std::min(first, count));
  h.chunks = p2p::chunks_for(n);
  std::vector<uint64_t> payload(size_t{fw::regmap::kChunkFlits} * h.chunks, 0);
  payload[0] = first_word;
  const size_t from = first * 8;
  const size_t bytes = std::min(n * 8, op.req->bytes - std::min(from, op.req->bytes));
  if (bytes) std::memcpy(payload.data() + 1, op.req->send_buf + from, bytes);
  return payload;
}

bool P2pEngine::inject_ordered(fw::TaskContext& task, Room& room) {
  // Eager messages and requests to send, in order.
  bool did = false;
  while (!ordered_.empty()) {
    SendOp& op = *ordered_.front();
    fw::TorusHeader h = header_to(op.dst_node, false);
    if (op.cancel) {  // behind the message's own packets on their path
      h.sw_tag = p2p::kSwTagCancel;
      h.chunks = 1;
      std::vector<uint64_t> payload(fw::regmap::kChunkFlits, 0);
      payload[0] = op.req->cancel_word;
      if (!emit(task, op.dst_node, h, payload, kOrderedFifo, room)) break;
      did = true;
      ordered_.pop_front();
      continue;
    }
    if (op.eager) {
      p2p::Envelope env = op.env;
      env.value = op.next == 0 ? op.req->bytes : op.next;
      h.sw_tag = op.next == 0 ? p2p::kSwTagFirst : p2p::kSwTagNext;
      const std::vector<uint64_t> payload = data_packet(op, h, env.encode());
      if (!emit(task, op.dst_node, h, payload, kOrderedFifo, room)) break;
      did = true;
      if (op.next == 0) {  // its number among the pair's messages, as the receiver counts them
        const p2p::Envelope name{0, op.env.src_task, op.env.dst_task, 0,
                                 eager_sent_[pair_key(op.dst_node, op.env.src_task, op.env.dst_task)]++};
        op.req->cancel_word = name.encode();
      }
      if (++op.next < op.packets) continue;
      finish(*op.req);
      ordered_.pop_front();
    } else {
      h.sw_tag = p2p::kSwTagRts;
      h.chunks = 1;
      p2p::Envelope env = op.env;
      env.value = op.req->bytes;
      std::vector<uint64_t> payload(fw::regmap::kChunkFlits, 0);
      payload[0] = env.encode();
      payload[1] = op.id;
      if (op.dma_counter > 0) {  // a remote get may fetch it: the buffer and the counter
        payload[2] = reinterpret_cast<uintptr_t>(op.req->send_buf);
        payload[3] = op.dma_counter;
      }
      if (!emit(task, op.dst_node, h, payload, kOrderedFifo, room)) break;
      did = true;
      awaiting_cts_[op.id] = std::move(ordered_.front());
      ordered_.pop_front();
    }
  }
  return did;
}

bool P2pEngine::inject_streaming(fw::TaskContext& task, Room& room) {
  // Rendezvous data, placed by its index at the receiver. To a node that differs from this
  // one in two or more coordinates, through whichever has more room of injection FIFO 1
  // (adaptive, into the receiver's normal reception FIFO) and FIFO 2 (the high-priority VC
  // in dimension order, into its priority reception FIFO): each FIFO and each router output
  // moves a flit per cycle, so two of each can move two. To a node along one dimension the
  // priority VC's path is the adaptive packets' only path, and the priority VC goes first
  // on a link: it would add nothing there but hold back other messages' packets, so all
  // of it goes adaptive (docs/point-to-point.md). Several messages stream packet by packet
  // in turn, so that every receiver gets its share from the start: one message after
  // another, the senders of an alltoall crowd a few receivers at a time while the others
  // wait (4 KiB per pair on 4x4x4: 28 505 cycles in turn, 45 584 one after another).
  bool did = false;
  while (!streaming_.empty()) {
    SendOp& op = *streaming_.front();
    fw::TorusHeader h = header_to(op.dst_node, true);
    h.sw_tag = p2p::kSwTagData;
    const std::vector<uint64_t> payload = data_packet(op, h, p2p::pack32(op.recv_id, op.next));
    const unsigned fifo =
        several_paths(op.dst_node) && room[kControlFifo] > room[kDataFifo] ? kControlFifo : kDataFifo;
    if (fifo == kControlFifo) {
      fw::TorusHeader prio = header_to(op.dst_node, false);
      prio.priority = true;
      prio.sw_tag = h.sw_tag;
      prio.chunks = h.chunks;
      h = prio;
    }
    if (!emit(task, op.dst_node, h, payload, fifo, room)) break;
    did = true;
    if (++op.next < op.packets) {
      streaming_.push_back(std::move(streaming_.front()));  // the next message's turn
      streaming_.pop_front();
      continue;
    }
    finish(*op.req);
    streaming_.pop_front();
  }
  return did;
}

}  // namespace collnet::driver
