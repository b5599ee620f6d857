#include "processor.hpp"

namespace collnet::sim {

Processor::Processor(sc_core::sc_module_name name, Node& node, unsigned access_cycles, std::function<void()> body,
                     std::function<void()> on_finish)
    : sc_module(name),
      node_(node),
      access_cycles_(access_cycles),
      body_(std::move(body)),
      on_finish_(std::move(on_finish)) {
  SC_THREAD(run);
}

void Processor::run() {
  try {
    body_();
  } catch (...) {
    failure_ = std::current_exception();
  }
  finished_ = true;
  on_finish_();
}

void Processor::access(const BusRequest& req) {
  node_.present(req);
  ++accesses_;
  for (unsigned i = 0; i < access_cycles_; ++i) wait(node_.edge_event());
}

uint64_t Processor::read(uint32_t addr, bool privileged) {
  access({true, false, privileged, addr, 0});
  return node_.bus_rdata();
}

void Processor::write(uint32_t addr, uint64_t data, bool privileged) { access({true, true, privileged, addr, data}); }

void Processor::idle(uint64_t n) {
  for (uint64_t i = 0; i < n; ++i) wait(node_.edge_event());
}

}  // namespace collnet::sim
