// SPDX-License-Identifier: Apache-2.0
#include "driver/node_tasks.hpp"

namespace collnet::driver {

ClassRouteTable& NodeTasks::class_routes(fw::TaskContext& task) {
  if (!routes_.sized()) routes_.set_user_classes(task.tree.user_classes());
  for (unsigned cls : p2p.take_released_routes()) {
    routes_.release(cls);
    task.tree.configure_class_route(cls, task.tree.empty_route());
  }
  return routes_;
}

}  // namespace collnet::driver
