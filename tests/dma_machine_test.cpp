// SPDX-License-Identifier: Apache-2.0
// The torus DMA engine in a machine (docs/dma.md): nodes whose torus side was built with it
// (torus.dma 2, two FIFOs each way: a model library built at -O0 in a cache of this test's
// own) move regions of
// their memory between them while their processors only write descriptors and poll
// counters; the machine serves each engine's memory port from the regions registered
// with it, with the machine file's latency and bandwidth. A node without the engine has
// none of it, and a machine file's "memory" section is checked like the rest.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/machine_file.hpp"
#include "driver/job.hpp"
#include "firmware/dma_firmware.hpp"
#include "systemc/machine.hpp"
#include "tests/support/test_machine.hpp"

namespace collnet {
namespace {

using test::machine_config;
using test::run_isolated;

sim::MachineConfig dma_machine(const std::string& shape, const sim::DmaMemory::Timing& memory = {}) {
  setenv("COLLNET_MODEL_CACHE", COLLNET_TEST_TMP "/model-cache-dma", 1);
  setenv("COLLNET_MODEL_OPT_FAST", "-O0", 1);
  sim::MachineConfig c = machine_config(shape);
  c.sizes.set("torus.dma", 2);
  c.memory = memory;
  return c;
}

uint64_t address(const void* p) { return reinterpret_cast<uintptr_t>(p); }

// The processor-driven torus, for the two nodes to say "ready" to each other.
void signal(fw::TaskContext& t, unsigned to) {
  fw::TorusHeader h;
  h.dst = {to, 0, 0};
  h.sw_tag = 1;
  t.torus.send(h, std::vector<uint64_t>(fw::regmap::kChunkFlits, t.node));
}
void wait_signal(fw::TaskContext& t) { (void)t.torus.receive(); }

// A put of `words` words from `src` into node 1's counter 3, counted by local counter 0.
fw::DmaDescriptor put_to_node_1(const void* src, uint32_t words) {
  fw::DmaDescriptor d;
  d.dst = {1, 0, 0};
  d.local_counter = 0;
  d.remote_counter = 3;
  d.addr = address(src);
  d.words = words;
  return d;
}

// Node 0 puts `words` words from its memory into node 1's: node 1 sets the counter the
// packets name to the destination and the count, says so, and waits for it to reach
// zero; node 0 queues one descriptor and waits for its local counter. Returns the cycles
// from node 0's descriptor to node 1's zero, "mismatch" or the failure.
std::string put_between_two_nodes(uint32_t words, const sim::DmaMemory::Timing& memory, uint64_t* cycles) {
  std::vector<uint64_t> src(words), dst(words + 2, 0);
  std::iota(src.begin(), src.end(), 0x1000);
  sim::Machine m(dma_machine("2x1x1", memory));
  m.dma_memory(0)->add_region(src.data(), src.size() * 8);
  m.dma_memory(1)->add_region(dst.data(), dst.size() * 8);
  uint64_t start = 0, end = 0;
  std::ostringstream faults;
  const auto run = m.run([&](fw::TaskContext& t) {
    fw::DmaFirmware dma(t.cpu, t.personality);
    if (!dma.has_engine()) faults << "node " << t.node << " reports no engine\n";
    if (t.node == 1) {
      dma.set_counter(3, address(dst.data() + 1), words);  // a word of margin on both sides
      signal(t, 0);
      while (!dma.reached_zero(3)) {
      }
      end = t.cpu.cycle();
      if (dma.count(3) != 0) faults << "counter 3 holds " << dma.count(3) << "\n";
    } else {
      wait_signal(t);
      dma.set_counter(0, 0, words);
      start = t.cpu.cycle();
      dma.queue(put_to_node_1(src.data(), words));
      while (!dma.reached_zero(0)) {
      }
    }
    dma.check();
  });
  if (!run.finished || !run.failures.empty()) return "the run did not finish cleanly";
  if (dst.front() != 0 || dst.back() != 0) faults << "written outside the destination\n";
  if (!std::equal(src.begin(), src.end(), dst.begin() + 1)) faults << "the destination differs from the source\n";
  if (m.dma_memory(0)->words_read() != words || m.dma_memory(1)->words_written() != words)
    faults << "memory ports moved " << m.dma_memory(0)->words_read() << " and " << m.dma_memory(1)->words_written()
           << " words\n";
  *cycles = end - start;
  return faults.str().empty() ? "ok" : faults.str();
}

TEST(DmaMachine, APutMovesARegionIntoAnotherNodesMemoryAndCountsItDown) {
  for (uint32_t words : {1u, 31u, 1000u}) {
    const auto res = run_isolated([words] {
      uint64_t cycles = 0;
      const std::string r = put_between_two_nodes(words, {}, &cycles);
      return r == "ok" ? "ok " + std::to_string(cycles) : r;
    });
    ASSERT_TRUE(res.exited) << res.report;
    EXPECT_EQ(res.report.substr(0, 2), "ok") << words << " words: " << res.report;
  }
}

// The memory's bandwidth is the machine file's: 1,000 words read at 4 bytes a cycle take at
// least 2,000 cycles, where at 32 the link (a flit a cycle) is the limit.
TEST(DmaMachine, TheMemorysBandwidthAndLatencyTimeTheTransfer) {
  const auto cycles_at = [](unsigned latency, unsigned bytes_per_cycle) {
    const auto res = run_isolated([=] {
      uint64_t cycles = 0;
      const std::string r = put_between_two_nodes(1000, {latency, bytes_per_cycle}, &cycles);
      return r == "ok" ? std::to_string(cycles) : r;
    });
    return res.exited ? res.report : "the machine did not exit: " + res.report;
  };
  const std::string fast = cycles_at(1, 32), slow = cycles_at(1, 4), late = cycles_at(200, 32);
  const sim::DmaMemory::Timing defaults;
  const std::string usual = cycles_at(defaults.latency, defaults.bytes_per_cycle);
  std::printf("[ cycles   ] 1000 words at the default memory (latency %u, %u bytes a cycle): %s\n", defaults.latency,
              defaults.bytes_per_cycle, usual.c_str());
  ASSERT_EQ(fast.find_first_not_of("0123456789"), std::string::npos) << fast;
  ASSERT_EQ(slow.find_first_not_of("0123456789"), std::string::npos) << slow;
  ASSERT_EQ(late.find_first_not_of("0123456789"), std::string::npos) << late;
  std::printf("[ cycles   ] 1000 words: %s at latency 1 and 32 bytes a cycle, %s at 4 bytes a cycle, %s at latency 200\n",
              fast.c_str(), slow.c_str(), late.c_str());
  // 1,000 words are 33 packets (32 of 31 words, one of 8, each with its DMA word) of 1,069
  // flits in all.
  EXPECT_GE(std::stoull(fast), 1069u);
  EXPECT_LE(std::stoull(fast), 1069u * 13 / 10) << "at full bandwidth the link is the limit";
  EXPECT_GE(std::stoull(slow), 2000u) << "8-byte words at 4 bytes a cycle";
  EXPECT_GE(std::stoull(late), std::stoull(fast) + 190) << "a longer latency delays the first word";
}

// alltoall decides to go by the engine from what every rank shares: one rank's buffers off
// an 8-byte boundary go through an aligned copy, so that rank's engine moves its blocks too
// (it once sent them by the processors while the others waited for puts: a hang).
TEST(DmaMachine, AlltoallWithOneRanksBuffersUnalignedStillGoesByTheEngines) {
  const auto res = run_isolated([] {
    sim::Machine m(dma_machine("2x2x1"));
    driver::Job job(m);
    constexpr size_t kCount = 6;  // 32-bit words a block: 24 bytes, whole 8-byte words
    std::ostringstream faults;
    const driver::RunReport rep = job.run([&](driver::Task& t) {
      const unsigned n = t.size(), me = t.rank();
      std::vector<uint64_t> send_store(n * kCount / 2 + 1), recv_store(n * kCount / 2 + 1);
      // Rank 1's buffers start 4 bytes into their storage: not 8-byte aligned.
      auto* send = reinterpret_cast<uint32_t*>(reinterpret_cast<char*>(send_store.data()) + (me == 1 ? 4 : 0));
      auto* recv = reinterpret_cast<uint32_t*>(reinterpret_cast<char*>(recv_store.data()) + (me == 1 ? 4 : 0));
      for (unsigned d = 0; d < n; ++d)
        for (size_t i = 0; i < kCount; ++i) send[d * kCount + i] = me * 1000 + d * 10 + static_cast<uint32_t>(i);
      t.world().set_algorithm(driver::Collective::Alltoall, driver::Algorithm::TorusLinear);
      t.world().alltoall(send, recv, kCount, driver::Datatype::U32);
      for (unsigned s = 0; s < n; ++s)
        for (size_t i = 0; i < kCount; ++i)
          if (recv[s * kCount + i] != s * 1000 + me * 10 + i) {
            faults << "rank " << me << " block " << s << " word " << i << " is " << recv[s * kCount + i] << "\n";
            return;
          }
    });
    if (!rep.ok) return rep.error;
    for (unsigned node = 0; node < 4; ++node)
      // Three blocks of three words, and each block's descriptor from the injection ring.
      if (m.dma_memory(node)->words_read() != 3 * kCount / 2 + 3 * fw::regmap::kDmDescWords)
        faults << "node " << node << "'s engine read " << m.dma_memory(node)->words_read() << " words\n";
    return faults.str().empty() ? std::string("ok") : faults.str();
  });
  ASSERT_TRUE(res.exited) << res.report;
  EXPECT_EQ(res.report, "ok");
}

// Point-to-point on nodes with the engine: a rendezvous message goes by the receiver's
// remote get, so a mebibyte to the neighbour keeps the link busy: 131,072 words are 4,229
// packets (4,228 of 31 words and one of 4, each with its DMA word, in whole chunks: 33
// flits and 9), 139,533 flits, at most 1/0.97 of that in cycles. The data arrives, and each
// side's request completes. `words` words from rank 0 to rank `to` of
// `shape`, by the engine or (`engine` false) on nodes without it; returns "ok <cycles from
// the send to the receive's end> <gets>" or what went wrong.
std::string message_between_two_nodes(size_t words, const std::string& shape = "2x1x1", unsigned to = 1,
                                      bool engine = true) {
  sim::MachineConfig c = dma_machine(shape);
  if (!engine) c.sizes = sim::NodeSizes{};
  sim::Machine m(c);
  driver::Job job(m);
  uint64_t cycles = 0;
  std::ostringstream faults;
  const driver::RunReport rep = job.run([&](driver::Task& t) {
    std::vector<uint64_t> buf(words);
    if (t.rank() == 0) {
      for (size_t i = 0; i < words; ++i) buf[i] = i * 7 + 1;
      t.world().barrier();
      t.world().send(buf.data(), words, driver::Datatype::U64, to, 5);
    } else if (t.rank() != to) {
      t.world().barrier();
    } else {
      driver::Request q = t.world().irecv(buf.data(), words, driver::Datatype::U64, 0, 5);
      t.world().barrier();
      const uint64_t start = t.cycle();
      t.world().wait(q);
      cycles = t.cycle() - start;
      for (size_t i = 0; i < words; ++i)
        if (buf[i] != i * 7 + 1) {
          faults << "word " << i << " is " << buf[i] << "\n";
          break;
        }
    }
  });
  if (!rep.ok) return rep.error;
  if (!faults.str().empty()) return faults.str();
  return "ok " + std::to_string(cycles) + " " + std::to_string(job.node_tasks(to).p2p.stats().dma_gets);
}

TEST(DmaMachine, ARendezvousMessageGoesByTheReceiversRemoteGet) {
  const auto res = run_isolated([] { return message_between_two_nodes(131072); });
  ASSERT_TRUE(res.exited) << res.report;
  std::istringstream in(res.report);
  std::string ok;
  uint64_t cycles = 0, gets = 0;
  ASSERT_TRUE(in >> ok >> cycles >> gets && ok == "ok") << res.report;
  const uint64_t flits = 4228u * 33 + 9;
  std::printf("[ cycles   ] 1 MiB sent to the neighbour by the remote get: %llu cycles for %llu flits: %.3f of the link\n",
              static_cast<unsigned long long>(cycles), static_cast<unsigned long long>(flits),
              static_cast<double>(flits) / static_cast<double>(cycles));
  EXPECT_EQ(gets, 1u);
  EXPECT_LE(cycles * 97, flits * 100) << "below 0.97 of the link";
  // A message of an odd length is not whole words: the processors carry it.
  const auto odd = run_isolated([] {
    sim::Machine m(dma_machine("2x1x1"));
    driver::Job job(m);
    std::string fault;
    const driver::RunReport rep = job.run([&](driver::Task& t) {
      std::vector<uint8_t> buf(10001);
      if (t.rank() == 0) {
        for (size_t i = 0; i < buf.size(); ++i) buf[i] = static_cast<uint8_t>(i * 3);
        t.world().send(buf.data(), buf.size(), driver::Datatype::U8, 1, 5);
      } else {
        t.world().recv(buf.data(), buf.size(), driver::Datatype::U8, 0, 5);
        for (size_t i = 0; i < buf.size(); ++i)
          if (buf[i] != static_cast<uint8_t>(i * 3)) fault = "byte " + std::to_string(i);
      }
    });
    if (!rep.ok) return rep.error;
    return fault.empty() ? "ok " + std::to_string(job.node_tasks(1).p2p.stats().dma_gets) : fault;
  });
  ASSERT_TRUE(odd.exited) << odd.report;
  EXPECT_EQ(odd.report, "ok 0");
}

// Across three dimensions the processors spread a message over two paths (docs/point-to-
// point.md), twice what the engine's one flit a cycle carries: such a message stays theirs,
// as fast as on nodes without the engine.
TEST(DmaMachine, AMessageAcrossThreeDimensionsStaysWithTheProcessors) {
  const auto by = [](bool engine) {
    const auto res = run_isolated([engine] { return message_between_two_nodes(8192, "2x2x2", 7, engine); });
    return res.exited ? res.report : "did not exit: " + res.report;
  };
  const std::string engine = by(true), processors = by(false);
  std::istringstream e(engine), p(processors);
  std::string ok1, ok2;
  uint64_t ce = 0, cp = 0, ge = 0, gp = 0;
  ASSERT_TRUE(e >> ok1 >> ce >> ge && ok1 == "ok") << engine;
  ASSERT_TRUE(p >> ok2 >> cp >> gp && ok2 == "ok") << processors;
  EXPECT_EQ(ge, 0u);
  EXPECT_EQ(ce, cp) << "64 KiB from (0,0,0) to (1,1,1): " << ce << " cycles on engine nodes, " << cp << " without";
}

// alltoall (torus-linear) on machines with the engine moves every block by the engines'
// puts: every rank's blocks arrive where MPI says, on one task per node and on two, and
// the engines' memory ports moved the words (each node's read what it sent and wrote what
// it received); the same call on the machine without the engine gives the same data.
// What alltoall delivered wrong: rank r's block j must be rank j's block r (`count`
// words each); "" if nothing.
std::string alltoall_mismatch(const std::vector<std::vector<uint64_t>>& in,
                              const std::vector<std::vector<uint64_t>>& got, size_t count) {
  const size_t n = in.size();
  for (size_t r = 0; r < n; ++r)
    for (size_t j = 0; j < n; ++j)
      for (size_t e = 0; e < count; ++e)
        if (got[r][j * count + e] != in[j][r * count + e])
          return "rank " + std::to_string(r) + " block " + std::to_string(j) + " element " + std::to_string(e) +
                 " is wrong";
  return "";
}

std::string alltoall_words(const std::string& shape, unsigned tasks, bool dma, uint64_t* cycles) {
  sim::MachineConfig c = dma ? dma_machine(shape) : machine_config(shape, tasks);
  c.tasks_per_node = tasks;
  sim::Machine m(c);
  driver::Job job(m);
  const unsigned n = m.nodes() * tasks;
  const size_t count = 100;  // u64 per block: 4 packets, the last partial
  std::vector<std::vector<uint64_t>> in(n, std::vector<uint64_t>(n * count)), out(n, std::vector<uint64_t>(n * count, 0));
  for (unsigned r = 0; r < n; ++r)
    for (unsigned j = 0; j < n; ++j)
      for (size_t e = 0; e < count; ++e) in[r][j * count + e] = (uint64_t{r} << 40) | (uint64_t{j} << 20) | e;
  const driver::RunReport rep = job.run([&](driver::Task& t) {
    driver::Communicator& w = t.world();
    w.set_algorithm(driver::Collective::Alltoall, driver::Algorithm::TorusLinear);
    w.alltoall(in[w.rank()].data(), out[w.rank()].data(), count, driver::Datatype::U64);
    w.alltoall(in[w.rank()].data(), out[w.rank()].data(), count, driver::Datatype::U64);  // the counters again
  });
  if (!rep.ok) return rep.error;
  *cycles = rep.cycles;
  if (const std::string wrong = alltoall_mismatch(in, out, count); !wrong.empty()) return wrong;
  std::ostringstream bad;
  if (dma)
    for (unsigned node = 0; node < m.nodes(); ++node) {
      const uint64_t moved = 2 * (n - tasks) * tasks * count;  // two calls, each task's blocks for other nodes' ranks
      if (m.dma_memory(node)->words_read() < moved || m.dma_memory(node)->words_written() < moved)
        bad << "node " << node << "'s engine read " << m.dma_memory(node)->words_read() << " and wrote "
            << m.dma_memory(node)->words_written() << " words, fewer than " << moved << "\n";
    }
  return bad.str().empty() ? "ok" : bad.str();
}

TEST(DmaMachine, AlltoallGoesByTheEnginesPutsAndDeliversWhatMpiSays) {
  for (unsigned tasks : {1u, 2u}) {
    std::string cycles[2];
    for (bool dma : {true, false}) {
      const auto res = run_isolated([tasks, dma] {
        uint64_t c = 0;
        const std::string r = alltoall_words("2x2x2", tasks, dma, &c);
        return r == "ok" ? "ok " + std::to_string(c) : r;
      });
      ASSERT_TRUE(res.exited) << res.report;
      EXPECT_EQ(res.report.substr(0, 3), "ok ") << tasks << " tasks per node, " << (dma ? "with" : "without")
                                                 << " the engine: " << res.report;
      cycles[dma] = res.report.substr(3);
    }
    std::printf("[ cycles   ] alltoall of 800 bytes per pair twice on 2x2x2, %u task(s) per node: %s with the engine, "
                "%s without\n",
                tasks, cycles[1].c_str(), cycles[0].c_str());
  }
}

// alltoall started on the engines (Communicator::start_alltoall) returns once its
// descriptors are in the injection ring; the engines move the blocks while the task
// computes, so start, a computation as long as the alltoall and the finish take about as
// long as the longer of the two, where the blocking alltoall then the computation take
// their sum. The data is what alltoall delivers; a collective after the start finishes it
// first; and where the engine does not apply (a machine without it) start returns nullptr.
// One run of 2 KiB per pair on 2x2x2 with the engine; `mode` 0: the alltoall alone; 1: it,
// then `compute` cycles of computation; 2: started, `compute` cycles, finished. Returns "ok
// <the slowest rank's cycles>" or what went wrong.
std::string started_alltoall(int mode, uint64_t compute) {
  sim::Machine m(dma_machine("2x2x2"));
  driver::Job job(m);
  const size_t count = 256;  // u64 per block: 2 KiB, 9 packets
  const unsigned n = m.nodes();
  std::vector<std::vector<uint64_t>> in(n, std::vector<uint64_t>(n * count)), got(n, std::vector<uint64_t>(n * count));
  for (unsigned r = 0; r < n; ++r)
    for (size_t i = 0; i < n * count; ++i) in[r][i] = (uint64_t{r} << 32) | i;
  std::vector<uint64_t> took(n);
  const driver::RunReport rep = job.run([&](driver::Task& t) {
    driver::Communicator& w = t.world();
    w.set_algorithm(driver::Collective::Alltoall, driver::Algorithm::TorusLinear);
    w.barrier();
    const uint64_t t0 = t.cpu().cycle();
    if (mode == 2) {
      auto p = w.start_alltoall(in[w.rank()].data(), got[w.rank()].data(), count, driver::Datatype::U64);
      if (!p) throw std::runtime_error("start_alltoall did not start on the engines");
      t.cpu().idle(compute);
      p->finish();
    } else {
      w.alltoall(in[w.rank()].data(), got[w.rank()].data(), count, driver::Datatype::U64);
      if (mode == 1) t.cpu().idle(compute);
    }
    took[w.rank()] = t.cpu().cycle() - t0;
  });
  if (!rep.ok) return rep.error;
  if (const std::string wrong = alltoall_mismatch(in, got, count); !wrong.empty()) return wrong;
  return "ok " + std::to_string(*std::max_element(took.begin(), took.end()));
}

// alltoall started on the engines (Communicator::start_alltoall) returns once its
// descriptors are in the injection ring; the engines move the blocks while the task
// computes, so the start, a computation as long as the alltoall and the finish take about
// as long as the longer of the two, where the blocking alltoall then the computation take
// their sum. The data is what alltoall delivers.
TEST(DmaMachine, AnAlltoallStartedOnTheEnginesMovesWhileTheTaskComputes) {
  uint64_t took[3] = {};
  for (const int mode : {0, 1, 2}) {
    const auto res = run_isolated([mode, &took] { return started_alltoall(mode, took[0]); });
    ASSERT_TRUE(res.exited) << res.report;
    ASSERT_EQ(res.report.substr(0, 3), "ok ") << "mode " << mode << ": " << res.report;
    took[mode] = std::stoull(res.report.substr(3));
  }
  std::printf("[ cycles   ] alltoall of 2 KiB per pair on 2x2x2 with the engine: %llu alone, %llu then as long a "
              "computation, %llu started beside it\n",
              static_cast<unsigned long long>(took[0]), static_cast<unsigned long long>(took[1]),
              static_cast<unsigned long long>(took[2]));
  EXPECT_GE(took[1], 2 * took[0] - 2);
  EXPECT_LE(took[2], took[0] + took[0] / 5) << "the started alltoall did not overlap the computation";
}

// The engine's event line interrupts an idling processor (Cpu::idle_until, what a rank's
// computation does while it has started collectives): node 1 enables counter 3's event
// (`enable`) and idles for up to 100,000 cycles, asking at each change of its lines
// whether the line is up; node 0 puts 512 words there. With the event enabled the idle
// ends within a few cycles of the last word, the counter at zero; without, it runs its
// whole length. Returns "ok IDLED" or the failure.
std::string interrupted_by_the_event(bool enable) {
  constexpr uint32_t kWords = 512;
  std::vector<uint64_t> src(kWords, 7), dst(kWords, 0);
  sim::Machine m(dma_machine("2x1x1"));
  m.dma_memory(0)->add_region(src.data(), src.size() * 8);
  m.dma_memory(1)->add_region(dst.data(), dst.size() * 8);
  uint64_t idled = 0;
  std::ostringstream faults;
  const auto run = m.run([&](fw::TaskContext& t) {
    fw::DmaFirmware dma(t.cpu, t.personality);
    if (t.node == 1) {
      dma.set_counter(3, address(dst.data()), kWords);
      dma.set_events(enable ? uint64_t{1} << 3 : 0);
      signal(t, 0);
      const uint64_t start = t.cpu.cycle();
      idled = t.cpu.idle_until(100000, [&t] { return t.cpu.dma_event(); });
      if (t.cpu.cycle() - start != idled) faults << "idled " << idled << " of " << t.cpu.cycle() - start << " cycles\n";
      if (!dma.reached_zero(3)) faults << "the counter is not at zero\n";
    } else {
      wait_signal(t);
      dma.set_counter(0, 0, kWords);
      dma.queue(put_to_node_1(src.data(), kWords));
    }
    dma.check();
  });
  if (!run.finished || !run.failures.empty()) return "the run did not finish cleanly";
  if (!std::all_of(dst.begin(), dst.end(), [](uint64_t w) { return w == 7; })) faults << "the words did not arrive\n";
  return faults.str().empty() ? "ok " + std::to_string(idled) : faults.str();
}

TEST(DmaMachine, TheCountersEventInterruptsAnIdlingProcessor) {
  uint64_t idled[2] = {};
  for (const bool enable : {false, true}) {
    const auto res = run_isolated([enable] { return interrupted_by_the_event(enable); });
    ASSERT_TRUE(res.exited) << res.report;
    ASSERT_EQ(res.report.substr(0, 3), "ok ") << "event " << (enable ? "enabled" : "disabled") << ": " << res.report;
    idled[enable] = std::stoull(res.report.substr(3));
  }
  std::printf(
      "[ cycles   ] idled for up to 100,000 cycles while 512 words are put: %llu with the event, %llu "
      "without\n",
      static_cast<unsigned long long>(idled[1]), static_cast<unsigned long long>(idled[0]));
  EXPECT_EQ(idled[0], 100000u) << "nothing raised the line, yet the idle ended early";
  // 512 words are 128 packets' worth of flits at most a flit a cycle, and the put starts
  // after the ready packet and the descriptor: well under 2,000 cycles.
  EXPECT_GT(idled[1], 512u / 4) << "the idle ended before the words could have arrived";
  EXPECT_LT(idled[1], 2000u) << "the event did not interrupt the idle";
}

// A series of descriptors longer than the node's injection ring (driver::DmaRing's 2,048
// slots): 2,100 puts of a packet each from every node of 2x2x1 (three blocks of 700
// packets), so the processor fills the ring, hands the engine what it wrote and waits for
// the head to move on. The memory is slow (8 bytes a cycle), so the engine reads a
// descriptor far more slowly than the processor writes one and the processor's wait for
// room goes round (a processor that wrote on over unread slots would send wrong data).
// Every word arrives where alltoall says, and each engine read the blocks and every
// descriptor from memory.
TEST(DmaMachine, ASeriesLongerThanTheInjectionRingWaitsForRoom) {
  const auto res = run_isolated([] {
    sim::DmaMemory::Timing slow;
    slow.bytes_per_cycle = 8;
    sim::Machine m(dma_machine("2x2x1", slow));
    driver::Job job(m);
    const size_t count = 700 * fw::regmap::kDmMaxWords;  // u64 per block: 700 packets
    const unsigned n = m.nodes();
    std::vector<std::vector<uint64_t>> in(n, std::vector<uint64_t>(n * count)), got(n, std::vector<uint64_t>(n * count));
    for (unsigned r = 0; r < n; ++r)
      for (size_t i = 0; i < n * count; ++i) in[r][i] = (uint64_t{r} << 40) ^ (i * 0x9e3779b97f4a7c15ull);
    const driver::RunReport rep = job.run([&](driver::Task& t) {
      driver::Communicator& w = t.world();
      w.set_algorithm(driver::Collective::Alltoall, driver::Algorithm::TorusLinear);
      w.alltoall(in[w.rank()].data(), got[w.rank()].data(), count, driver::Datatype::U64);
    });
    if (!rep.ok) return rep.error;
    if (const std::string wrong = alltoall_mismatch(in, got, count); !wrong.empty()) return wrong;
    const uint64_t descriptors = (n - 1) * 700;
    for (unsigned node = 0; node < n; ++node)
      if (m.dma_memory(node)->words_read() != (n - 1) * count + descriptors * fw::regmap::kDmDescWords)
        return "node " + std::to_string(node) + "'s engine read " + std::to_string(m.dma_memory(node)->words_read()) +
               " words";
    return std::string("ok");
  });
  ASSERT_TRUE(res.exited) << res.report;
  EXPECT_EQ(res.report, "ok");
}

// The next alltoall finishes the started one first (the engine's counters are the task's);
// other collectives go on beside it. Where the engine does not apply (a machine without
// it) start_alltoall starts nothing and returns nullptr.
TEST(DmaMachine, AStartedAlltoallIsFinishedByTheNextAlltoallAndNeedsTheEngine) {
  for (const bool engine : {true, false}) {
    const auto res = run_isolated([engine] {
      sim::MachineConfig c = dma_machine("2x2x1");
      if (!engine) c.sizes = sim::NodeSizes{};
      sim::Machine m(c);
      driver::Job job(m);
      std::string fault;
      const driver::RunReport rep = job.run([&](driver::Task& t) {
        driver::Communicator& w = t.world();
        const unsigned n = w.size(), me = w.rank();
        w.set_algorithm(driver::Collective::Alltoall, driver::Algorithm::TorusLinear);
        std::vector<uint64_t> send(n * 40), recv(n * 40, 0), again(n * 40, 0);
        for (size_t i = 0; i < send.size(); ++i) send[i] = me * 1000 + i;
        auto p = w.start_alltoall(send.data(), recv.data(), 40, driver::Datatype::U64);
        if (!engine) {
          if (p) fault = "started on a machine without the engine";
          return;
        }
        if (!p) {
          fault = "not started";
          return;
        }
        uint64_t one = 1, sum = 0;
        w.allreduce(&one, &sum, 1, driver::Datatype::U64, driver::Op::Sum);  // beside it
        if (sum != n) fault = "the allreduce beside it: " + std::to_string(sum);
        w.alltoall(send.data(), again.data(), 40, driver::Datatype::U64);  // finishes it first
        if (!p->finished()) fault = "the next alltoall did not finish the started one";
        for (unsigned s = 0; s < n && fault.empty(); ++s)
          for (size_t i = 0; i < 40; ++i)
            if (recv[s * 40 + i] != s * 1000 + me * 40 + i || again[s * 40 + i] != recv[s * 40 + i])
              fault = "wrong data";
      });
      if (!rep.ok) return rep.error;
      return fault.empty() ? std::string("ok") : fault;
    });
    ASSERT_TRUE(res.exited) << res.report;
    EXPECT_EQ(res.report, "ok") << (engine ? "with" : "without") << " the engine";
  }
}

// The engine reaches only the memory registered with it: a put into a region nobody
// registered stops the run with an error naming the node and the address.
TEST(DmaMachine, AnAccessOutsideTheRegisteredRegionsStopsTheRunNamingIt) {
  const auto res = run_isolated([] {
    std::vector<uint64_t> src(8, 7), dst(8, 0);
    sim::Machine m(dma_machine("2x1x1"));
    m.dma_memory(0)->add_region(src.data(), src.size() * 8);
    const auto run = m.run([&](fw::TaskContext& t) {
      fw::DmaFirmware dma(t.cpu, t.personality);
      if (t.node == 1) {
        dma.set_counter(0, address(dst.data()), 8);
        signal(t, 0);
        while (!dma.reached_zero(0)) {
        }
      } else {
        wait_signal(t);
        dma.set_counter(0, 0, 8);
        fw::DmaDescriptor d;
        d.dst = {1, 0, 0};
        d.addr = address(src.data());
        d.words = 8;
        dma.queue(d);
      }
    });
    return std::string(run.finished ? "finished" : "stopped") + (dst[0] == 0 ? "" : ", written");
  });
  EXPECT_NE(res.report.find("node 1: the DMA engine writes 3 words at 0x"), std::string::npos)
      << "the first row of the first packet (its DMA word and three data words): " << res.report;
  EXPECT_NE(res.report.find("outside every memory region registered with it"), std::string::npos) << res.report;
}

// Without the engine (the default machine) there is no memory port to serve, software is
// told, and the window stays the tree side's (NodeRegisters tests it).
TEST(DmaMachine, ANodeWithoutTheEngineHasNoneOfIt) {
  const auto res = run_isolated([] {
    sim::Machine m(machine_config("2x1x1"));
    if (m.dma_memory(0) != nullptr) return std::string("a memory port without an engine");
    std::string out;
    const auto run = m.run([&](fw::TaskContext& t) {
      fw::DmaFirmware dma(t.cpu, t.personality);
      if (t.node != 0) return;
      out = dma.has_engine() ? "has an engine" : "none";
      try {
        dma.set_counter(0, 0, 1);
        out += ", set a counter";
      } catch (const std::logic_error& e) {
        out += std::string(", ") + e.what();
      }
    });
    return run.finished ? out : "the run did not finish";
  });
  EXPECT_EQ(res.report, "none, node 0 has no torus DMA engine (its torus side was built without one: torus.dma 0)");
}

TEST(DmaMemory, RegionsAreCheckedAndRemovedAsRegistered) {
  sim::DmaMemory mem(5, {});
  std::vector<uint64_t> a(4, 1);
  mem.add_region(a.data(), 32);
  mem.add_region(a.data(), 32);  // again: two registrations, two removals
  EXPECT_EQ(mem.regions(), 2u);
  mem.remove_region(a.data(), 32);
  mem.remove_region(a.data(), 32);
  EXPECT_THROW(mem.remove_region(a.data(), 32), std::invalid_argument);
  EXPECT_THROW(mem.add_region(a.data(), 0), std::invalid_argument);
  EXPECT_THROW(mem.add_region(reinterpret_cast<void*>(uintptr_t{1} << 48), 8), std::invalid_argument);
  sim::DmaMemory::Request r;
  r.read = {true, address(a.data()), 4};
  try {
    (void)mem.edge(0, r);
    ADD_FAILURE() << "a read of unregistered memory was served";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("node 5: the DMA engine reads 4 words at 0x"), std::string::npos) << e.what();
  }
}

// Reads come back in order, `latency` cycles after their grant, and the bucket of bytes
// grants a request only when the bandwidth has refilled it.
TEST(DmaMemory, AnswersReadsAfterTheLatencyAndGrantsAtTheBandwidth) {
  std::vector<uint64_t> a{10, 11, 12, 13, 14, 15, 16, 17};
  sim::DmaMemory mem(0, {3, 16});
  mem.add_region(a.data(), a.size() * 8);
  sim::DmaMemory::Request r;
  std::vector<uint64_t> grants, answers, first_words;
  for (uint64_t c = 0; c < 12; ++c) {
    r.read = {true, address(a.data() + (grants.size() % 2) * 4), 4};
    const auto ans = mem.edge(c, r);
    EXPECT_FALSE(ans.write_gnt) << "a write granted that nobody asked for";
    if (ans.read_gnt) grants.push_back(c);
    if (ans.rvalid) {
      answers.push_back(c);
      first_words.push_back(ans.rdata[0]);
    }
  }
  // A full bucket (64 bytes) grants at once and once more; then 16 bytes a cycle refill a
  // request's 32 every 2.
  EXPECT_EQ(grants, (std::vector<uint64_t>{0, 1, 2, 4, 6, 8, 10}));
  EXPECT_EQ(answers, (std::vector<uint64_t>{3, 4, 5, 7, 9, 11}));
  EXPECT_EQ(first_words, (std::vector<uint64_t>{10, 14, 10, 14, 10, 14}));
  EXPECT_TRUE(mem.busy());
}

// The two sides share the bandwidth: when both ask and only one fits, they take turns; a
// read of an address written in the same edge reads the memory before the write.
TEST(DmaMemory, ReadsAndWritesShareTheBandwidthInTurn) {
  std::vector<uint64_t> a(8, 0);
  sim::DmaMemory mem(0, {1, 32});
  mem.add_region(a.data(), a.size() * 8);
  sim::DmaMemory::Request r;
  r.read = {true, address(a.data()), 4};
  r.write = {true, address(a.data()), 4};
  std::string order;
  for (uint64_t c = 0; c < 8; ++c) {
    r.wdata = {c + 1, 0, 0, 0};
    const auto ans = mem.edge(c, r);
    order += ans.read_gnt && ans.write_gnt ? "B" : ans.read_gnt ? "R" : ans.write_gnt ? "W" : ".";
    if (ans.rvalid) order += std::to_string(ans.rdata[0]);
  }
  // Cycle 0: the full bucket takes both (the read sees 0, not the write's 1); then 32 bytes
  // a cycle, one request, the sides in turn (each read answered a cycle later with what the
  // write before it left).
  EXPECT_EQ(order, "BW0RW2RW4RW6");
}

TEST(MachineFileMemory, SetsTheTimingAndRefusesWhatIsOutOfRange) {
  sim::MachineConfig m;
  cli::apply_machine_json(nlohmann::json::parse(R"({"memory": {"latency": 50, "bytes_per_cycle": 8}})"), m, "'mine.json'");
  EXPECT_EQ(m.memory.latency, 50u);
  EXPECT_EQ(m.memory.bytes_per_cycle, 8u);
  EXPECT_EQ(cli::machine_json(m)["memory"]["bytes_per_cycle"], 8);
  for (const char* bad : {R"({"memory": {"latency": 0}})", R"({"memory": {"bytes_per_cycle": 65}})",
                          R"({"memory": {"speed": 1}})"}) {
    sim::MachineConfig before = m;
    try {
      cli::apply_machine_json(nlohmann::json::parse(bad), m, "'mine.json'");
      ADD_FAILURE() << bad << " was taken";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("'mine.json'"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("memory"), std::string::npos) << e.what();
    }
    EXPECT_EQ(m.memory.latency, before.memory.latency);
  }
}

}  // namespace
}  // namespace collnet
