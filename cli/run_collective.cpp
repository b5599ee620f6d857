// SPDX-License-Identifier: Apache-2.0
// The stages of one run of a collective: prepare, run, verify, then report.
#include "cli/run_collective.hpp"

#include <algorithm>
#include <stdexcept>

#include "cli/collective_calls.hpp"
#include "cli/partitions.hpp"
#include "cli/progress.hpp"
#include "cli/run_report.hpp"
#include "driver/class_routes.hpp"
#include "driver/job.hpp"
#include "firmware/down_nodes.hpp"
#include "reference/collectives.hpp"
#include "reference/data_file.hpp"
#include "reference/inputs.hpp"
#include "systemc/machine.hpp"

namespace collnet::cli {

namespace {

// What the run works on: the collective's entry, the counts, and every member's buffers.
struct RunSetup {
  const reference::Collective* spec = nullptr;
  bool pairs = false;  // elements are (value, index) pairs
  reference::Counts counts;
  std::vector<reference::Lengths> lengths;
  std::vector<std::vector<uint64_t>> in, out;
  // A barrier's members arrive at seeded, different times, so that leaving early would show.
  std::vector<uint64_t> arrival_delay;
};

// prepare: the members, their inputs (--input, or drawn from the seed) and receive buffers.
RunSetup prepare(const RunOptions& o, RunResult& r) {
  RunSetup s;
  s.spec = reference::find_collective(o.collective);
  if (s.spec == nullptr)
    throw std::invalid_argument("unknown collective '" + o.collective + "' (known: " + reference::collective_names() +
                                ")");
  const bool barrier = !s.spec->moves_data;
  r.op = s.spec->takes_op ? o.op : driver::Op::Bor;
  s.pairs = s.spec->takes_op && driver::is_loc(r.op);

  // The participants: every task of the live nodes, or the --ranks subset, indexed by their
  // rank in the communicator. A rank's seeded input depends only on the seed and its task
  // (node * tasks per node + task: with no node down, its world rank).
  r.members = o.ranks;
  if (r.members.empty())
    for (unsigned k = 0; k < o.machine.shape.nodes() * o.machine.tasks_per_node; ++k)
      if (!o.machine.node_down(k / o.machine.tasks_per_node)) r.members.push_back(k);
  std::sort(r.members.begin(), r.members.end());
  const unsigned n = static_cast<unsigned>(r.members.size());

  r.count = barrier ? 0 : o.count;  // with --input, the files' length
  // The vector forms' counts: the --counts file's, or drawn from the seed.
  s.counts = o.counts ? *o.counts : reference::seeded_counts_for(*s.spec, o.seed, n, r.count);
  for (unsigned k = 0; k < n; ++k)
    s.lengths.push_back(reference::member_lengths(*s.spec, r.count, s.counts, o.root, n, k));
  if (!o.input.empty() && !barrier) {
    s.in = o.input;
  } else {
    for (unsigned k = 0; k < n; ++k)
      s.in.push_back(reference::seeded_input(o.seed, r.members[k], s.lengths[k].send, o.type, r.op));
  }
  uint64_t sent_elements = 0;
  for (unsigned k = 0; k < n; ++k) {
    s.out.emplace_back(s.lengths[k].recv * (s.pairs ? 2 : 1), 0);
    sent_elements += s.lengths[k].send;
  }
  r.bytes_per_rank = s.spec->lengths ? sent_elements * driver::bytes(o.type) / n : r.count * driver::bytes(o.type);
  s.arrival_delay.assign(n, 0);
  if (barrier)
    for (unsigned k = 0; k < n; ++k)
      s.arrival_delay[k] =
          reference::seeded_input(o.seed, r.members[k], 1, driver::Datatype::U64, driver::Op::Sum)[0] % 256;
  return s;
}

// The flits the tree's and the torus's links carried, the busiest torus link direction's,
// and how many of the node sides' clock edges were skipped (a partitioned machine: summed
// over the partitions, each counting the links it sends on).
void measure_machine(const sim::Machine& m, RunResult& r) {
  for (unsigned node = 0; node < m.nodes(); ++node) {
    for (unsigned l = 0; l < 3; ++l) r.tree_link_flits += m.link_flits(node, l);
    for (unsigned d = 0; d < 6; ++d) {
      const uint64_t f = m.torus_link_flits(node, d);
      r.torus_link_flits += f;
      r.torus_busiest_link_flits = std::max(r.torus_busiest_link_flits, f);
    }
  }
  r.activity = m.activity();
  const fw::DownNodes down = m.config().down();  // the list lives in it
  for (unsigned node : down.list()) r.down_traffic.emplace_back(node, m.node_traffic(node));
  sim::Transport* t = m.transport();
  if (!t) return;
  sim::Node::Activity& a = r.activity;
  std::vector<uint64_t*> sums{&r.tree_link_flits, &r.torus_link_flits, &a.tree_evaluated, &a.tree_skipped,
                              &a.torus_evaluated, &a.torus_skipped};
  for (auto& [node, n] : r.down_traffic)
    sums.insert(sums.end(), {&n.tree_out, &n.tree_in, &n.torus_out, &n.torus_in, &n.barrier_out, &n.barrier_in});
  std::vector<uint64_t> values;
  for (const uint64_t* v : sums) values.push_back(*v);
  t->allreduce(values, sim::Transport::Op::Sum);
  for (size_t i = 0; i < sums.size(); ++i) *sums[i] = values[i];
  r.torus_busiest_link_flits = t->allreduce(r.torus_busiest_link_flits, sim::Transport::Op::Max);
}

// A partitioned machine ran each member where its node is: partition 0 receives every
// member's timing and result, and what member 0 chose (the algorithm, the class route).
void gather_members(const sim::Machine& m, RunSetup& s, RunResult& r, std::vector<uint64_t>& start,
                    std::vector<uint64_t>& end, std::vector<uint64_t>& packets, unsigned& class_route) {
  sim::Transport* t = m.transport();
  if (!t) return;
  const unsigned tasks = m.config().tasks_per_node;
  sim::Message mine;
  for (unsigned k = 0; k < r.members.size(); ++k) {
    if (!m.local(r.members[k] / tasks)) continue;
    mine.put(k);
    mine.put(start[k]), mine.put(end[k]), mine.put(packets[k]);
    mine.put(s.out[k]);
    if (k == 0) {
      mine.put(r.algorithm ? static_cast<uint64_t>(*r.algorithm) + 1 : 0);
      mine.put(class_route);
    }
  }
  const std::vector<sim::Transport::Bytes> parts = t->gather(mine.bytes());
  for (unsigned p = 1; p < parts.size(); ++p) {
    sim::Message theirs(parts[p]);
    while (theirs.left()) {
      const uint64_t k = theirs.get();
      if (k >= r.members.size()) throw std::runtime_error("partitions: partition " + std::to_string(p) + " sent member " + std::to_string(k) + " of " + std::to_string(r.members.size()));
      start[k] = theirs.get(), end[k] = theirs.get(), packets[k] = theirs.get();
      s.out[k] = theirs.values<uint64_t>();
      if (k == 0) {
        const uint64_t a = theirs.get();
        r.algorithm = a ? std::optional<driver::Algorithm>(static_cast<driver::Algorithm>(a - 1)) : std::nullopt;
        class_route = static_cast<unsigned>(theirs.get());
      }
    }
  }
}

// When the members entered and left the collective, the collective's cycles and the most
// packets a member sent.
void time_members(bool barrier, const std::vector<uint64_t>& start, const std::vector<uint64_t>& end,
                  const std::vector<uint64_t>& packets, RunResult& r) {
  r.first_start = *std::min_element(start.begin(), start.end());
  r.last_start = *std::max_element(start.begin(), start.end());
  const auto first_out = std::min_element(end.begin(), end.end());
  r.first_end = *first_out;
  r.first_to_leave = static_cast<unsigned>(first_out - end.begin());
  r.last_end = *std::max_element(end.begin(), end.end());
  // The barrier's cost is what the last member to arrive waits.
  r.cycles = r.last_end - (barrier ? r.last_start : r.first_start);
  r.packets = std::max<uint64_t>(1, *std::max_element(packets.begin(), packets.end()));
}

// run: the collective on a fresh machine, each member timed, and what the machine counted.
void run_on_machine(const RunOptions& o, RunSetup& s, RunResult& r, sim::Transport* transport) {
  const unsigned n = static_cast<unsigned>(r.members.size());
  std::vector<uint64_t> start(n, 0), end(n, 0), packets(n, 0);
  // The algorithm: --algorithm, or what auto picks (the collectives outside
  // driver::Collective have one).
  const std::optional<driver::Collective> driver_coll = driver::collective_named(o.collective);
  if (driver_coll) r.algorithm = o.algorithm;
  unsigned class_route = driver::kNoClass;  // the communicator's (a subset may have none)
  const CollectiveCall& call = collective_call(o.collective);
  sim::Machine machine(o.machine, transport);
  driver::Job job(machine, o.p2p, o.tuning.get());
  // (Partition 0 draws the line; every partition watches alike: sim::Machine::watch.)
  Progress progress = machine.partition() == 0 ? Progress::on_stderr(o.collective)
                                               : Progress(std::cerr, false, o.collective, 0, nullptr);
  if (progress.shown() || machine.transport())
    machine.watch(Progress::kWatchCycles, [&] { progress.update(machine.cycle()); });
  if (o.sample_every) {
    r.samples.emplace(fw::TorusLayout(o.machine.shape.dims()), o.sample_every);
    machine.watch(o.sample_every, [&] { r.samples->take(machine, machine.cycle()); });
  }
  // --ranks names tasks; the world's ranks count only the live nodes' tasks.
  std::vector<unsigned> subset_ranks;
  const fw::DownNodes down = o.machine.down();
  for (unsigned task : o.ranks) subset_ranks.push_back(down.world_of_task(task, o.machine.tasks_per_node));
  r.job = job.run([&](driver::Task& t) {
    std::optional<driver::Communicator> subset = o.ranks.empty() ? std::nullopt : t.world().create(subset_ranks);
    if (!o.ranks.empty() && !subset) return;  // not a member: its node's hardware still serves the route
    driver::Communicator* comm = subset ? &*subset : &t.world();
    comm->set_argument_check(o.check_arguments);
    if (driver_coll) comm->set_algorithm(*driver_coll, o.algorithm);
    comm->set_segment_options(o.segment);
    const unsigned k = comm->rank();
    if (k == 0 && driver_coll) r.algorithm = comm->choose(*driver_coll, r.count * driver::bytes(o.type), o.type);
    if (k == 0) class_route = comm->class_route();
    t.cpu().idle(s.arrival_delay[k]);
    start[k] = t.cycle();
    call(*comm, Call{o.type, r.op, o.root, r.count, s.in[k].data(), s.out[k].data(), s.lengths[k].recv, &s.counts});
    end[k] = t.cycle();
    packets[k] = comm->last().packets;
  });
  progress.finish();
  // The cycles after the last whole period, to the run's end (the machine stops at the quantum's).
  if (r.samples) {
    r.samples->take(machine, r.job.cycles);
    r.samples->combine(machine);
  }
  gather_members(machine, s, r, start, end, packets, class_route);
  if (n > 0) time_members(!s.spec->moves_data, start, end, packets, r);
  if (!o.machine.trace_path.empty() && n > 0)  // the view opens on the collective
    machine.write_wave_view({{},
                             r.first_start,
                             r.last_end,
                             {{r.first_start, o.collective + " starts"}, {r.last_end, o.collective + " ends"}}});
  if (class_route != driver::kNoClass) r.class_route = class_route;
  r.tree_depth = machine.tree_depth();
  if (r.job.ok) measure_machine(machine, r);
  // The link layer's counters, for --json, and for a line when the links misbehaved.
  if (LinkReport::wanted(o.machine, !o.json_path.empty())) r.links = LinkReport::of(machine);
  r.partitions = PartitionsReport::of(machine, r.job.wall_seconds);
}

// verify: a barrier, that no member left before the last one arrived; the others, every
// member's result against the reference model's, and --output.
void verify(const RunOptions& o, const RunSetup& s, RunResult& r) {
  if (!s.spec->moves_data) {
    r.verified = r.first_end >= r.last_start;
    return;
  }
  reference::Problem problem;
  problem.collective = o.collective;
  problem.type = o.type;
  problem.op = r.op;
  problem.root = o.root;
  problem.count = r.count;
  problem.counts = &s.counts;
  const reference::Expected want = reference::reference(problem, s.in);
  r.mismatch = reference::compare(s.out, want);
  r.verified = r.mismatch.count == 0;
  if (!o.output_path.empty()) {  // what every member holds that the collective defines
    reference::Expected results(s.out.size());
    for (size_t k = 0; k < s.out.size(); ++k)
      if (want[k]) results[k] = s.out[k];
    reference::write_data_file(o.output_path, o.type, s.pairs, results);
  }
}

}  // namespace

int run_collective(const RunOptions& o, std::ostream& text, RunResult* result, sim::Transport* transport) {
  RunResult r;
  RunSetup setup = prepare(o, r);
  run_on_machine(o, setup, r, transport);
  // A partitioned run is verified and reported by partition 0, which has every member's
  // results; every partition exits with its status.
  int status = 0;
  if (!transport || transport->rank() == 0) {
    if (r.job.ok) verify(o, setup, r);
    status = report_run(o, r, text);
  }
  status = partition0_status(transport, status);
  if (result) *result = std::move(r);
  return status;
}

}  // namespace collnet::cli
