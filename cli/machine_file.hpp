// SPDX-License-Identifier: Apache-2.0
// Machine files: a machine's timing, shape and node sizes as JSON that users can copy and edit, and
// the presets that ship with collnet (machines/*.json, built in: `--machine bgl`). The
// format (docs/machines.md):
//
//   {"name": "...", "description": "...", "shape": "64x32x32", "clock_mhz": 700,
//    "tree":      {"latency": 38, "cycles_per_flit": 16},
//    "torus":     {"latency": {"x": 60, "y": 60, "z": 60}, "cycles_per_flit": 32},
//    "barrier":   {"latency": 33},
//    "processor": {"access_cycles": 1},
//    "down_nodes": [21],
//    "rtl":       {"torus": {"vc_buffer_flits": 32}, "tree": {...}},   (docs/design-space.md)
//    "sources":   {"tree.latency": "where the number comes from", ...}}
//
// Every key is optional; what a file leaves out keeps the value it had (the defaults, or
// earlier options). An unknown key, a wrong type or a value out of range is an error that
// names the file and the key.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "systemc/machine_config.hpp"

namespace collnet::cli {

// The built-in presets' names, and a preset's file text (std::invalid_argument if unknown).
std::vector<std::string> machine_presets();
std::string machine_preset_list();  // "bgl, default": the names for a message
const std::string& machine_preset_text(const std::string& name);

// Applies the machine `name_or_path` names (a preset, or else a JSON file) to `m`, and
// says in `has_shape` whether it names a shape. Throws std::invalid_argument naming the
// file and what is wrong with it.
void apply_machine(const std::string& name_or_path, sim::MachineConfig& m, bool* has_shape = nullptr);
// Applies a machine file's JSON; `where` names it in errors.
void apply_machine_json(const nlohmann::json& j, sim::MachineConfig& m, const std::string& where);
// The machine's shape, clock, link timing and access cost in the file format (what a
// run's --json reports as "machine"; applying it gives the same machine back).
nlohmann::json machine_json(const sim::MachineConfig& m);
// The node's sizes in the file format's "rtl" section: every size, by side.
nlohmann::json rtl_json(const sim::NodeSizes& sizes);
// The torus links' timing for a report line: "4", or "60,60,40 at 32 cycles per flit".
std::string torus_links_text(const sim::MachineConfig& m);

}  // namespace collnet::cli
