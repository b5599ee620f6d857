// SPDX-License-Identifier: Apache-2.0
// The façade's collectives: each checks its arguments (in the order the errors are
// documented), makes the ranks agree on them and runs its algorithm (run).
#include "driver/communicator.hpp"

#include <algorithm>

#include "driver/argument_agreement.hpp"
#include "driver/collective_args.hpp"
#include "driver/collective_context.hpp"
#include "driver/collective_table.hpp"
#include "driver/error.hpp"
#include "driver/personalised.hpp"
#include "driver/started_barrier.hpp"
#include "driver/torus_reductions.hpp"
#include "driver/vector_collectives.hpp"

namespace collnet::driver {

Communicator::Communicator(fw::TaskContext& task, NodeTasks& node) : task_(task), node_(node) {
  group_.down = task.personality.down;
  group_.tasks_per_node = task.tasks;
  group_.rank = group_.world_of_task(task.node * task.tasks + task.task);
  group_.size = (group_.down ? group_.down->live_count() : task.personality.nodes) * task.tasks;
  // With nodes down, the machine tree's route still serves the world if it joins every
  // live node (the personality's links leave the down ones out); if it does not, the
  // world's collectives and barriers run on the torus.
  group_.cls = !group_.down || group_.down->tree_joins_live_nodes() ? kWorldClass : kNoClass;
  group_.local_index = task.task;
  group_.local_count = task.tasks;
}

Communicator::Communicator(fw::TaskContext& task, NodeTasks& node, Membership group, std::shared_ptr<RouteLease> lease)
    : task_(task), node_(node), group_(std::move(group)), lease_(std::move(lease)) {
  const unsigned me = task.node * task.tasks + task.task;
  const std::vector<unsigned>& m = group_.members;
  group_.rank = static_cast<unsigned>(std::find(m.begin(), m.end(), me) - m.begin());
  group_.local_index = 0;
  group_.local_count = 0;
  for (unsigned r = 0; r < group_.size; ++r) {
    if (node_of(r) != task.node) continue;
    if (r < group_.rank) ++group_.local_index;
    ++group_.local_count;
  }
}

CollectiveContext Communicator::context(const CollectiveCall& call) {
  // A task's collectives run in the order it calls them: in coprocessor mode, one it calls
  // itself waits for those it posted to the coprocessor (which run there in order), and
  // one on a communicator with collectives started in the background waits for them. A
  // started collective's own calls (in its fiber) wait for nothing: those before it on
  // its communicator have run, and the others go on beside it.
  const bool background = in_background();
  if (!background) {
    if (task_.coprocessor) task_.coprocessor->drain();
    finish_background();
  }
  CollectiveContext ctx(*this, task_, node_, group_, state_, call);
  ctx.background = background;
  return ctx;
}

void Communicator::finish_started(bool engines_only) {
  std::vector<std::shared_ptr<PendingCollective>>& list = node_.pending(task_.task);
  std::vector<std::shared_ptr<PendingCollective>> now, kept;
  for (std::shared_ptr<PendingCollective>& p : list) {
    if (p->finished()) continue;
    (!engines_only || p->on_engines() ? now : kept).push_back(std::move(p));
  }
  list = std::move(kept);
  for (const std::shared_ptr<PendingCollective>& p : now) p->finish();  // in the order started
}

bool Communicator::engines_busy() {
  for (const std::shared_ptr<PendingCollective>& p : node_.pending(task_.task))
    if (p->on_engines() && !p->finished()) return true;
  return false;
}

bool Communicator::post_background(std::function<void()> work) {
  if (in_background()) return false;
  if (!background_.fiber || background_.fiber->ended()) {
    // One fiber at a time, while there is work: it ends when the queue is empty.
    std::shared_ptr<fw::Fiber> f = task_.cpu.start_fiber([queue = background_.queue] {
      while (!queue->empty()) {
        const std::function<void()> w = std::move(queue->front());
        queue->pop_front();
        w();
      }
    });
    if (!f) return false;
    background_.fiber = std::move(f);
    engine().add_fiber(task_.task, background_.fiber);
  }
  background_.queue->push_back(std::move(work));
  background_.fiber->resume();  // as far as it can go before it waits: its first messages are out
  return true;
}

void Communicator::finish_background() {
  if (in_background()) return;
  while (background_busy()) engine().progress(task_);
  background_.fiber.reset();
}

bool Communicator::background_anywhere() { return engine().has_fibers(task_.task); }

void Communicator::finish_all_background() {
  if (in_background()) return;
  P2pEngine& e = engine();
  while (e.has_fibers(task_.task)) e.progress(task_);
}

void Communicator::run(Collective c, CollectiveContext& ctx, size_t bytes) {
  runner(c, choose(c, bytes, ctx.call.type))(ctx);
}

void Communicator::check_root(const char* call, unsigned root) const {
  if (root >= size())
    throw Error(std::string(call) + ": root " + std::to_string(root) + " is not a rank of a communicator of size " +
                std::to_string(size()));
}

// ------------------------------------------------------------------ choosing

void Communicator::set_algorithm(Collective c, Algorithm a) {
  if (a == Algorithm::Tree && !has_class_route())
    throw Error(std::string("set_algorithm: ") + to_string(c) +
                " cannot run on the tree: this communicator has no class route (its collectives run on the torus)");
  if (group_.down && broadcasts_along_lines(c, a))
    throw Error(std::string("set_algorithm: ") + to_string(a) + " runs " + to_string(c) +
                " by line broadcasts, which cannot go around node " + std::to_string(group_.down->list().front()) +
                ", which is down");
  if (!applies(c, a)) {
    std::string names;
    for (Algorithm x : algorithms_for(c)) names += std::string(names.empty() ? "" : ", ") + to_string(x);
    throw Error(std::string("set_algorithm: ") + to_string(a) + " does not apply to " + to_string(c) + " (it takes " +
                names + ")");
  }
  state_.algorithms[static_cast<unsigned>(c)] = a;
}

void Communicator::set_segment_options(const SegmentOptions& o) {
  if (o.piece_bytes == 0) throw Error("set_segment_options: piece_bytes must be at least 1");
  state_.segment = o;
}

Algorithm Communicator::choose_for_task(Collective c, size_t bytes, Datatype type) const {
  const Algorithm a = algorithm(c);
  if (a != Algorithm::Auto) return a;
  // The job's table (tuning.hpp); where it says nothing, the combining network wherever it
  // applies, and the personalised collectives linear. Without a class route, the torus.
  Algorithm pick = applies(c, Algorithm::Tree) ? Algorithm::Tree : Algorithm::TorusLinear;
  if (node_.tuning)
    if (const std::optional<Algorithm> t = node_.tuning->pick(c, size(), bytes, type)) pick = *t;
  // Line broadcasts reach every node of a line: a table measured on a whole machine may
  // name them for a communicator of the same size that is not one (deposit needs the whole
  // machine), or for a machine with a node down (no line goes around it).
  if ((group_.down && broadcasts_along_lines(c, pick)) || (pick == Algorithm::TorusDeposit && !group_.spans_machine()))
    pick = Algorithm::Tree;
  if (pick == Algorithm::Tree && !has_class_route()) return torus_default(c);
  return pick;
}

namespace {

// What a started collective's fiber runs where the task would take the combining network:
// the torus algorithm auto runs without a class route, except that allreduce goes by the
// bandwidth-optimal ones from 256 bytes. Measured on 4x4x4 (collnet compare allreduce
// --type i64|f32): Rabenseifner is the fastest torus algorithm from 256 B to 16 KiB of i64
// (420 cycles at 256 B against recursive doubling's 621, 8,332 at 16 KiB against ring's
// 10,648) and from 256 B to 1 KiB of f32, whose two passes (exponents, then values) make
// the ring the fastest from 4 KiB (16,797 cycles against 19,158; 219,509 at 64 KiB
// against 291,588).
Algorithm off_tree(Collective c, size_t bytes, Datatype type) {
  if (c != Collective::Allreduce || bytes < 256) return torus_default(c);
  if (type_class(type) == TypeClass::Float && bytes >= 4096) return Algorithm::TorusRing;
  return Algorithm::TorusRabenseifner;
}

}  // namespace

Algorithm Communicator::choose(Collective c, size_t bytes, Datatype type) const {
  const Algorithm a = choose_for_task(c, bytes, type);
  // In the background (a started collective's fiber) the networks that cannot be left
  // half-done are out, and so are line broadcasts (their deposit packets are the node's,
  // one broadcast at a time).
  if (in_background() && (a == Algorithm::Tree || a == Algorithm::TorusDeposit || broadcasts_along_lines(c, a)))
    return off_tree(c, bytes, type);
  return a;
}

// ------------------------------------------------------------------ collectives

void Communicator::barrier() {
  check_live("barrier");
  CollectiveContext ctx = context({"barrier"});
  run(Collective::Barrier, ctx, 0);
}

void Communicator::reduction(Collective c, const CollectiveCall& call, bool receives,
                             void (*with_prod)(CollectiveContext&)) {
  if (call.count == 0) return;
  check_buffer(call.name, "send", call.send, call.count);
  if (receives) check_buffer(call.name, "receive", call.recv, call.count);
  CollectiveContext ctx = context(call);
  agree(ctx, call.count, call.type, call.op, call.root);
  if (!on_tree(call.op)) return with_prod(ctx);
  run(c, ctx, call.count * native_bytes(call.type, is_loc(call.op)));
}

void Communicator::allreduce(const void* send, void* recv, size_t count, Datatype type, Op op) {
  check_accepts("allreduce", op, type);
  reduction(Collective::Allreduce, {"allreduce", send, recv, count, type, op, 0}, true,
            [](CollectiveContext& c) { prod::allreduce(c, c.call.recv); });
}

void Communicator::reduce(const void* send, void* recv, size_t count, Datatype type, Op op, unsigned root) {
  check_accepts("reduce", op, type);
  check_root("reduce", root);
  reduction(Collective::Reduce, {"reduce", send, recv, count, type, op, root}, rank() == root, prod::reduce);
}

void Communicator::bcast(void* buf, size_t count, Datatype type, unsigned root) {
  check_root("bcast", root);
  if (count == 0) return;
  check_buffer("bcast", "the", buf, count);
  CollectiveContext ctx = context({"bcast", nullptr, buf, count, type, Op::Bor, root});
  agree(ctx, count, type, Op::Bor, root);
  run(Collective::Bcast, ctx, count * native_bytes(type, false));
}

void Communicator::gather(const void* send, void* recv, size_t count, Datatype type, unsigned root) {
  check_root("gather", root);
  if (count == 0) return;
  check_buffer("gather", "send", send, count);
  if (rank() == root) check_buffer("gather", "receive", recv, count * size());
  CollectiveContext ctx = context({"gather", send, recv, count, type, Op::Bor, root});
  agree(ctx, count, type, Op::Bor, root);
  run(Collective::Gather, ctx, count * native_bytes(type, false));
}

void Communicator::allgather(const void* send, void* recv, size_t count, Datatype type) {
  if (count == 0) return;
  check_buffer("allgather", "send", send, count);
  check_buffer("allgather", "receive", recv, count * size());
  CollectiveContext ctx = context({"allgather", send, recv, count, type, Op::Bor, 0});
  agree(ctx, count, type, Op::Bor, 0);
  run(Collective::Allgather, ctx, count * native_bytes(type, false));
}

void Communicator::scan(const void* send, void* recv, size_t count, Datatype type, Op op) {
  check_accepts("scan", op, type);
  reduction(Collective::Scan, {"scan", send, recv, count, type, op, 0}, true,
            [](CollectiveContext& c) { prod::scan(c, true); });
}

void Communicator::exscan(const void* send, void* recv, size_t count, Datatype type, Op op) {
  check_accepts("exscan", op, type);
  reduction(Collective::Exscan, {"exscan", send, recv, count, type, op, 0}, rank() > 0,
            [](CollectiveContext& c) { prod::scan(c, false); });
}

// ------------------------------------------------------------------ personalised and vector

CollectiveContext Communicator::alltoall_context(const void* send, void* recv, size_t count, Datatype type) {
  check_live("alltoall");
  if (send != kInPlace) need_buffer("alltoall", "send", send, count * size());
  need_buffer("alltoall", "receive", recv, count * size());
  // An alltoall on the engines still running holds the task's counters: it ends first (a
  // fiber's alltoall never takes the engines).
  if (!in_background()) finish_started(true);
  return context({"alltoall", send, recv, count, type});
}

void Communicator::alltoall(const void* send, void* recv, size_t count, Datatype type) {
  CollectiveContext ctx = alltoall_context(send, recv, count, type);
  run(Collective::Alltoall, ctx, count * native_bytes(type, false));
}

std::shared_ptr<PendingCollective> Communicator::start_barrier() {
  check_live("barrier");
  if (size() == 1) return nullptr;
  auto p = std::make_shared<StartedBarrier>(*this);
  // It advances in any call that moves the task's packets, until it is done.
  engine().add_poller(task_.task, [w = std::weak_ptr<StartedBarrier>(p)] {
    const std::shared_ptr<StartedBarrier> b = w.lock();
    if (!b) return false;
    b->step();
    return !b->finished();
  });
  if (!p->finished()) node_.pending(task_.task).push_back(p);
  return p;
}

std::shared_ptr<PendingCollective> Communicator::start_alltoall(const void* send, void* recv, size_t count,
                                                                Datatype type) {
  CollectiveContext ctx = alltoall_context(send, recv, count, type);
  if (choose(Collective::Alltoall, count * native_bytes(type, false), type) != Algorithm::TorusLinear) return nullptr;
  std::shared_ptr<PendingCollective> p = personalised::alltoall_start(ctx);
  if (p) node_.pending(task_.task).push_back(p);
  return p;
}

void Communicator::alltoallv(const void* send, const std::vector<size_t>& sendcounts,
                             const std::vector<size_t>& sdispls, void* recv, const std::vector<size_t>& recvcounts,
                             const std::vector<size_t>& rdispls, Datatype type) {
  check_live("alltoallv");
  CollectiveContext ctx = context({"alltoallv", send, recv, 0, type});
  personalised::alltoallv(ctx, send, sendcounts, sdispls, recv, recvcounts, rdispls);
}

void Communicator::scatter(const void* send, void* recv, size_t count, Datatype type, unsigned root) {
  check_live("scatter");
  check_root("scatter", root);
  state_.last = {};
  if (rank() == root) need_buffer("scatter", "send", send, count * size());
  if (recv == kInPlace && rank() != root) throw Error("scatter: only the root may pass kInPlace");
  if (recv != kInPlace) need_buffer("scatter", "receive", recv, count);
  CollectiveContext ctx = context({"scatter", send, recv, count, type, Op::Bor, root});
  run(Collective::Scatter, ctx, count * native_bytes(type, false));
}

void Communicator::scatterv(const void* send, const std::vector<size_t>& sendcounts, const std::vector<size_t>& displs,
                            void* recv, size_t recvcount, Datatype type, unsigned root) {
  check_live("scatterv");
  check_root("scatterv", root);
  CollectiveContext ctx = context({"scatterv", send, recv, recvcount, type, Op::Bor, root});
  personalised::scatterv(ctx, send, sendcounts, displs, recv, recvcount);
}

void Communicator::gatherv(const void* send, size_t sendcount, void* recv, const std::vector<size_t>& recvcounts,
                           const std::vector<size_t>& displs, Datatype type, unsigned root) {
  check_root("gatherv", root);
  CollectiveContext ctx = context({"gatherv", send, recv, sendcount, type, Op::Bor, root});
  vector::gatherv(ctx, send, sendcount, recv, recvcounts, displs);
}

void Communicator::allgatherv(const void* send, size_t sendcount, void* recv, const std::vector<size_t>& recvcounts,
                              const std::vector<size_t>& displs, Datatype type) {
  CollectiveContext ctx = context({"allgatherv", send, recv, sendcount, type});
  vector::prepare_allgatherv(ctx, send, sendcount, recvcounts, displs);
  // Every rank must choose alike: by the mean block, which all of them know.
  size_t total = 0;
  for (size_t c : recvcounts) total += c;
  run(Collective::Allgatherv, ctx, total * native_bytes(type, false) / size());
}

void Communicator::reduce_scatter(const void* send, void* recv, const std::vector<size_t>& recvcounts, Datatype type,
                                  Op op) {
  CollectiveContext ctx = context({"reduce_scatter", send, recv, 0, type, op});
  vector::reduce_scatter(ctx, recvcounts);
}

void Communicator::reduce_scatter_block(const void* send, void* recv, size_t recvcount, Datatype type, Op op) {
  CollectiveContext ctx = context({"reduce_scatter_block", send, recv, 0, type, op});
  vector::reduce_scatter(ctx, std::vector<size_t>(size(), recvcount));
}

}  // namespace collnet::driver
