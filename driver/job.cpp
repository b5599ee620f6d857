// SPDX-License-Identifier: Apache-2.0
#include "driver/job.hpp"

#include <sstream>

namespace collnet::driver {

Job::Job(fw::MachineModel& model, const P2pConfig& p2p, const Tuning* tuning) : model_(model) {
  for (unsigned r = 0; r < model_.nodes(); ++r) {
    node_tasks_.push_back(std::make_unique<NodeTasks>());
    node_tasks_.back()->p2p_config = p2p;
    node_tasks_.back()->tuning = tuning ? tuning : &Tuning::shipped();
  }
}

RunReport Job::run(const std::function<void(Task&)>& fn) {
  RunReport report;
  const fw::MachineModel::Result res = model_.run([&](fw::TaskContext& t) {
    if (t.personality.down && t.personality.down->contains(t.node)) {  // a down node runs nothing
      model_.align();
      model_.mark_done();
      return;
    }
    if (t.task == 0) {  // the node's first task boots it
      t.tree.probe();
      t.tree.configure_class_route(Communicator::kWorldClass, t.tree.machine_tree_route());
      for (unsigned c = 0; c < Communicator::kWorldChannels; ++c)
        t.barrier.configure_channel(Communicator::kWorldChannel + c, t.barrier.machine_tree_route());
    }
    Communicator world(t, *node_tasks_[t.node]);
    Task task(t, world);
    std::call_once(forwarding_once_, [&] {
      if (const auto& routes = t.personality.torus_routes)
        for (const auto& row : *routes)
          for (const fw::TorusRoute& r : row) forwarding_ = forwarding_ || r.via >= 0;
    });
    // Coprocessor mode: while nothing is posted, the coprocessor moves the task's
    // point-to-point packets, so sends and receives progress while the task computes.
    if (t.coprocessor)
      t.coprocessor->set_background([&world] {
        if (!world.wants_progress()) return false;
        world.progress();
        return true;
      });
    model_.align();
    report.start_cycle = t.cpu.cycle();
    try {
      fn(task);
      if (t.coprocessor) t.coprocessor->drain();  // what the task posted ends before it does
      world.finish_all_background();              // what it started in the background
      world.finish_started();                     // and on the DMA engines, and barriers
    } catch (...) {
      if (t.coprocessor) t.coprocessor->set_background(nullptr);
      model_.mark_done();
      throw;
    }
    if (t.coprocessor) t.coprocessor->set_background(nullptr);
    model_.mark_done();
    const unsigned all = model_.nodes() * model_.tasks_per_node();
    if (forwarding_)
      while (model_.done() < all)
        if (!world.progress()) t.cpu.idle(16);
  });
  report.cycles = res.cycles;
  report.wall_seconds = res.wall_seconds;
  if (!res.failures.empty()) {
    try {
      std::rethrow_exception(res.failures.front().second);
    } catch (const std::exception& e) {
      report.error = "rank " + std::to_string(res.failures.front().first) + ": " + e.what();
    }
    return report;
  }
  if (!res.finished) {
    std::ostringstream s;
    s << "watchdog: after " << res.cycles << " cycles " << res.unfinished.size() << " of " << model_.nodes() * model_.tasks_per_node()
      << " ranks had not finished:";
    for (size_t i = 0; i < res.unfinished.size() && i < 32; ++i) s << ' ' << res.unfinished[i];
    if (res.unfinished.size() > 32) s << " ...";
    for (unsigned r = 0; r < model_.nodes(); ++r)
      if (model_.node_error(r)) s << "; node " << r << " has its error flag set";
    report.error = s.str();
    return report;
  }
  report.ok = true;
  return report;
}

}  // namespace collnet::driver
