// SPDX-License-Identifier: Apache-2.0
// The torus DMA engine in a machine (docs/dma.md): nodes whose torus side was built with it
// (torus.dma 1: a model library built at -O0 in a cache of this test's own) move regions of
// their memory between them while their processors only write descriptors and poll
// counters; the machine serves each engine's memory port from the regions registered
// with it, with the machine file's latency and bandwidth. A node without the engine has
// none of it, and a machine file's "memory" section is checked like the rest.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "cli/machine_file.hpp"
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
  c.sizes.set("torus.dma", 1);
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
      fw::DmaDescriptor d;
      d.dst = {1, 0, 0};
      d.local_counter = 0;
      d.remote_counter = 3;
      d.addr = address(src.data());
      d.words = words;
      start = t.cpu.cycle();
      dma.queue(d);
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
  r.req = true;
  r.addr = address(a.data());
  r.words = 4;
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
  r.req = true;
  r.words = 4;
  std::vector<uint64_t> grants, answers, first_words;
  for (uint64_t c = 0; c < 12; ++c) {
    r.addr = address(a.data() + (grants.size() % 2) * 4);
    const auto ans = mem.edge(c, r);
    if (ans.gnt) grants.push_back(c);
    if (ans.rvalid) {
      answers.push_back(c);
      first_words.push_back(ans.rdata[0]);
    }
  }
  // A full bucket (32 bytes) grants at once; then 16 bytes a cycle refill it every 2.
  EXPECT_EQ(grants, (std::vector<uint64_t>{0, 2, 4, 6, 8, 10}));
  EXPECT_EQ(answers, (std::vector<uint64_t>{3, 5, 7, 9, 11}));
  EXPECT_EQ(first_words, (std::vector<uint64_t>{10, 14, 10, 14, 10}));
  EXPECT_TRUE(mem.busy());
}

TEST(MachineFileMemory, SetsTheTimingAndRefusesWhatIsOutOfRange) {
  sim::MachineConfig m;
  cli::apply_machine_json(nlohmann::json::parse(R"({"memory": {"latency": 50, "bytes_per_cycle": 8}})"), m, "'mine.json'");
  EXPECT_EQ(m.memory.latency, 50u);
  EXPECT_EQ(m.memory.bytes_per_cycle, 8u);
  EXPECT_EQ(cli::machine_json(m)["memory"]["bytes_per_cycle"], 8);
  for (const char* bad : {R"({"memory": {"latency": 0}})", R"({"memory": {"bytes_per_cycle": 33}})",
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
