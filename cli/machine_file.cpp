// SPDX-License-Identifier: Apache-2.0
#include "cli/machine_file.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "firmware/down_nodes.hpp"
#include "firmware/rtl_sizes.hpp"

namespace collnet::cli {

namespace detail {
// machine_presets.cpp, generated from machines/*.json.
const std::vector<std::pair<std::string, std::string>>& builtin_machines();
}  // namespace detail

std::vector<std::string> machine_presets() {
  std::vector<std::string> names;
  for (const auto& p : detail::builtin_machines()) names.push_back(p.first);
  return names;
}

std::string machine_preset_list() {
  std::string list;
  for (const auto& p : detail::builtin_machines()) list += (list.empty() ? "" : ", ") + p.first;
  return list;
}

namespace {
// The preset's file text, or null if there is none of that name.
const std::string* find_preset(const std::string& name) {
  for (const auto& p : detail::builtin_machines())
    if (p.first == name) return &p.second;
  return nullptr;
}
}  // namespace

const std::string& machine_preset_text(const std::string& name) {
  if (const std::string* text = find_preset(name)) return *text;
  throw std::invalid_argument("no machine preset '" + name + "' (presets: " + machine_preset_list() + ")");
}

namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& where, const std::string& key, const std::string& what) {
  throw std::invalid_argument("machine file " + where + ": " + (key.empty() ? "" : "'" + key + "' ") + what);
}

// Checks that `j` is an object with no keys but `allowed`.
void check_keys(const json& j, const std::string& where, const std::string& key,
                const std::vector<std::string>& allowed) {
  if (!j.is_object()) fail(where, key, "must be an object, got " + j.dump());
  for (const auto& item : j.items()) {
    bool ok = false;
    for (const std::string& a : allowed) ok |= item.key() == a;
    if (!ok) {
      std::string list;
      for (const std::string& a : allowed) list += (list.empty() ? "" : ", ") + a;
      fail(where, key.empty() ? item.key() : key + "." + item.key(), "is not a key of the format (expected one of: " + list + ")");
    }
  }
}

unsigned whole(const json& j, const std::string& where, const std::string& key, unsigned lo, unsigned hi) {
  if (!j.is_number_integer() && !(j.is_number_float() && j.get<double>() == static_cast<double>(j.get<long long>())))
    fail(where, key, "must be a whole number, got " + j.dump());
  const long long v = j.get<long long>();
  if (v < lo || v > hi)
    fail(where, key, "must be " + std::to_string(lo) + ".." + std::to_string(hi) + ", got " + std::to_string(v));
  return static_cast<unsigned>(v);
}

double number(const json& j, const std::string& where, const std::string& key) {
  if (!j.is_number()) fail(where, key, "must be a number, got " + j.dump());
  return j.get<double>();
}

}  // namespace

void apply_machine_json(const json& j, sim::MachineConfig& m, const std::string& where) {
  check_keys(j, where, "",
             {"name", "description", "shape", "clock_mhz", "tree", "torus", "barrier", "processor", "memory",
              "down_nodes", "rtl", "sources"});
  for (const char* text : {"name", "description"})
    if (j.contains(text) && !j[text].is_string()) fail(where, text, "must be a string");
  if (j.contains("sources") && !j["sources"].is_object()) fail(where, "sources", "must be an object of notes");
  sim::MachineConfig out = m;
  if (j.contains("shape")) {
    if (!j["shape"].is_string()) fail(where, "shape", "must be a string XxYxZ, got " + j["shape"].dump());
    try {
      out.shape = sim::Shape::parse(j["shape"].get<std::string>());
    } catch (const std::invalid_argument& e) {
      fail(where, "shape", e.what());
    }
  }
  if (j.contains("clock_mhz")) {
    out.clock_mhz = number(j["clock_mhz"], where, "clock_mhz");
    if (!(out.clock_mhz > 0)) fail(where, "clock_mhz", "must be positive");
  }
  constexpr unsigned kMaxLink = sim::MachineConfig::kMaxLinkLatency;
  if (j.contains("tree")) {
    const json& t = j["tree"];
    check_keys(t, where, "tree", {"latency", "cycles_per_flit"});
    if (t.contains("latency")) out.tree_latency = whole(t["latency"], where, "tree.latency", 1, kMaxLink);
    if (t.contains("cycles_per_flit")) out.tree_cycles_per_flit = number(t["cycles_per_flit"], where, "tree.cycles_per_flit");
  }
  if (j.contains("torus")) {
    const json& t = j["torus"];
    check_keys(t, where, "torus", {"latency", "cycles_per_flit"});
    if (t.contains("latency")) {
      const json& l = t["latency"];
      if (l.is_object()) {
        check_keys(l, where, "torus.latency", {"x", "y", "z"});
        for (unsigned k = 0; k < 3; ++k) {
          const std::string dim(1, "xyz"[k]);
          if (l.contains(dim)) out.torus_latency[k] = whole(l[dim], where, "torus.latency." + dim, 1, kMaxLink);
        }
      } else {
        const unsigned all = whole(l, where, "torus.latency", 1, kMaxLink);
        out.torus_latency = {all, all, all};
      }
    }
    if (t.contains("cycles_per_flit")) out.torus_cycles_per_flit = number(t["cycles_per_flit"], where, "torus.cycles_per_flit");
  }
  if (j.contains("barrier")) {
    const json& b = j["barrier"];
    check_keys(b, where, "barrier", {"latency"});
    if (b.contains("latency"))
      out.barrier_latency = whole(b["latency"], where, "barrier.latency", 1, sim::MachineConfig::kMaxBarrierLatency);
  }
  if (j.contains("processor")) {
    const json& p = j["processor"];
    check_keys(p, where, "processor", {"access_cycles", "instructions_per_cycle", "coprocessor"});
    if (p.contains("access_cycles"))
      out.access_cycles =
          whole(p["access_cycles"], where, "processor.access_cycles", 1, sim::MachineConfig::kMaxAccessCycles);
    if (p.contains("instructions_per_cycle"))
      out.instructions_per_cycle = number(p["instructions_per_cycle"], where, "processor.instructions_per_cycle");
    if (p.contains("coprocessor")) {
      if (!p["coprocessor"].is_boolean())
        fail(where, "processor.coprocessor", "must be true or false, got " + p["coprocessor"].dump());
      out.coprocessor = p["coprocessor"].get<bool>();
    }
  }
  if (j.contains("memory")) {
    const json& mem = j["memory"];
    using Timing = sim::DmaMemory::Timing;
    check_keys(mem, where, "memory", {"latency", "bytes_per_cycle"});
    if (mem.contains("latency")) out.memory.latency = whole(mem["latency"], where, "memory.latency", 1, Timing::kMaxLatency);
    if (mem.contains("bytes_per_cycle"))
      out.memory.bytes_per_cycle =
          whole(mem["bytes_per_cycle"], where, "memory.bytes_per_cycle", 1, Timing::kMaxBytesPerCycle);
  }
  if (j.contains("rtl")) {
    const json& r = j["rtl"];
    check_keys(r, where, "rtl", {"tree", "torus"});
    for (const char* side : {"tree", "torus"}) {
      if (!r.contains(side)) continue;
      const std::string key = std::string("rtl.") + side;
      if (!r[side].is_object()) fail(where, key, "must be an object of sizes, got " + r[side].dump());
      for (const auto& item : r[side].items()) {
        const std::string size = std::string(side) + "." + item.key();
        const json& v = item.value();
        if (!v.is_number_integer()) fail(where, "rtl." + size, "must be a whole number, got " + v.dump());
        try {
          out.sizes.set(size, v.get<long long>());
        } catch (const std::invalid_argument& e) {
          fail(where, "rtl." + size, std::string("is refused: ") + e.what());
        }
      }
    }
  }
  // Down nodes are checked against the shape once it is known: the command's --torus may
  // replace the file's.
  std::vector<unsigned> down;
  if (j.contains("down_nodes")) {
    const json& d = j["down_nodes"];
    if (!d.is_array()) fail(where, "down_nodes", "must be a list of node numbers, got " + d.dump());
    for (const json& n : d) down.push_back(whole(n, where, "down_nodes", 0, sim::MachineConfig::kMaxNodes - 1));
    out.down_nodes.clear();
  }
  try {
    out.validate();
  } catch (const std::invalid_argument& e) {
    fail(where, "", e.what());
  }
  try {
    if (j.contains("shape")) (void)fw::DownNodes(down, out.shape.nodes());
  } catch (const std::invalid_argument& e) {
    fail(where, "down_nodes", e.what());
  }
  if (j.contains("down_nodes")) out.down_nodes = down;
  m = out;
}

void apply_machine(const std::string& name_or_path, sim::MachineConfig& m, bool* has_shape) {
  std::string text, where;
  if (const std::string* preset = find_preset(name_or_path)) {
    text = *preset;
    where = "'" + name_or_path + "' (built in)";
  } else {
    std::ifstream f(name_or_path);
    if (!f)
      throw std::invalid_argument("--machine: '" + name_or_path + "' is neither a preset (" + machine_preset_list() +
                                  ") nor a file that can be read");
    std::stringstream ss;
    ss << f.rdbuf();
    text = ss.str();
    where = "'" + name_or_path + "'";
  }
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    fail(where, "", std::string("is not valid JSON: ") + e.what());
  }
  apply_machine_json(j, m, where);
  if (has_shape) *has_shape = j.is_object() && j.contains("shape");
}

json machine_json(const sim::MachineConfig& m) {
  return {{"shape", m.shape.str()},
          {"clock_mhz", m.clock_mhz},
          {"tree", {{"latency", m.tree_latency}, {"cycles_per_flit", m.tree_cycles_per_flit}}},
          {"torus",
           {{"latency", {{"x", m.torus_latency[0]}, {"y", m.torus_latency[1]}, {"z", m.torus_latency[2]}}},
            {"cycles_per_flit", m.torus_cycles_per_flit}}},
          {"barrier", {{"latency", m.barrier_latency}}},
          {"processor", {{"access_cycles", m.access_cycles}, {"instructions_per_cycle", m.instructions_per_cycle}}},
          {"memory", {{"latency", m.memory.latency}, {"bytes_per_cycle", m.memory.bytes_per_cycle}}},
          {"down_nodes", m.down().list()},
          {"rtl", rtl_json(m.sizes)}};
}

json rtl_json(const sim::NodeSizes& sizes) {
  json r = {{"tree", json::object()}, {"torus", json::object()}};
  for (std::size_t i = 0; i < sim::NodeSizes::kCount; ++i) {
    const std::string key = fw::regmap::kSizes[i].key;
    const std::size_t dot = key.find('.');
    r[key.substr(0, dot)][key.substr(dot + 1)] = sizes.value(i);
  }
  return r;
}

std::string torus_links_text(const sim::MachineConfig& m) {
  const auto& l = m.torus_latency;
  std::string text = l[0] == l[1] && l[1] == l[2]
                         ? std::to_string(l[0])
                         : std::to_string(l[0]) + "," + std::to_string(l[1]) + "," + std::to_string(l[2]);
  if (m.torus_cycles_per_flit != 1) {
    std::ostringstream r;
    r << m.torus_cycles_per_flit;
    text += " at " + r.str() + " cycles per flit";
  }
  return text;
}

}  // namespace collnet::cli
