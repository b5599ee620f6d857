// SPDX-License-Identifier: Apache-2.0
// `collnet neighbourhoods`: the regular neighbourhoods of a member set
// (driver/neighbourhoods.hpp, docs/neighbourhoods.md): the planes, their local roots and
// trees, the local roots' tree, a text picture per plane, and --json. Its options, their
// checks and its run.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

#include "cli/subcommand.hpp"
#include "firmware/torus_layout.hpp"

namespace collnet::cli {

struct NeighbourhoodsOptions {
  fw::Coord dims{4, 4, 4};
  std::string ranks;                // a member set (member_sets.hpp)
  std::optional<unsigned> root;     // a member node; default the lowest
  uint64_t seed = 1;                // for random:P
  std::string json_path;
};

// Adds `neighbourhoods` to `app`; its check fills cl.neighbourhoods.
Subcommand add_neighbourhoods(CLI::App& app, CommandLine& cl);
// Prints to `out`; returns the exit status (2 for a root that is not a member).
// Throws std::invalid_argument for a bad member set.
int run_neighbourhoods(const NeighbourhoodsOptions& o, std::ostream& out);
// The same on stdout, a bad member set reported as a usage error.
int run_neighbourhoods_command(const NeighbourhoodsOptions& o);

}  // namespace collnet::cli
