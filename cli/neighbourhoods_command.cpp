// SPDX-License-Identifier: Apache-2.0
#include "cli/neighbourhoods_command.hpp"

#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <stdexcept>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "cli/command_line.hpp"
#include "cli/json_file.hpp"
#include "cli/usage_error.hpp"
#include "driver/neighbourhoods.hpp"
#include "reference/member_sets.hpp"
#include "systemc/shape.hpp"

namespace collnet::cli {

namespace {

std::string coord_text(const fw::Coord& c) {
  return "(" + std::to_string(c[0]) + "," + std::to_string(c[1]) + "," + std::to_string(c[2]) + ")";
}

// Member i's parent in a binomial tree over a group rooted at member 0.
unsigned binomial_parent(unsigned i) { return i - (i & (~i + 1)); }

// What `neighbourhoods` was given, as given; the check turns it into NeighbourhoodsOptions.
struct NeighbourhoodsArguments {
  std::string torus = "4x4x4";
  long long root = -1;
};

}  // namespace

Subcommand add_neighbourhoods(CLI::App& app, CommandLine& cl) {
  CLI::App* nbh = app.add_subcommand(
      "neighbourhoods",
      "the regular neighbourhoods (gap-free planes) of a member set, their roots and trees");
  auto given = std::make_shared<NeighbourhoodsArguments>();
  NeighbourhoodsOptions& nb = cl.neighbourhoods;
  nbh->add_option("--torus", given->torus, "machine shape XxYxZ")->capture_default_str();
  nbh->add_option("--ranks", nb.ranks,
                  "the member nodes: a list (0,5,6), a file, random:P, plane-holes, checkerboard, l-shape or two-boxes")
      ->required();
  nbh->add_option("--root", given->root, "the collective's root node (default: the lowest member)");
  nbh->add_option("--seed", nb.seed, "seed of random:P")->capture_default_str();
  nbh->add_option("--json", nb.json_path, "write the neighbourhoods, roots and trees as JSON");
  return {nbh, [given, &cl]() -> std::optional<int> {
            cl.command = CommandLine::Command::Neighbourhoods;
            try {
              cl.neighbourhoods.dims = sim::Shape::parse(given->torus).dims();
            } catch (const std::invalid_argument& e) {
              return usage_error(std::string("--torus: ") + e.what(), "neighbourhoods");
            }
            if (given->root >= 0) cl.neighbourhoods.root = static_cast<unsigned>(given->root);
            return std::nullopt;
          }};
}

int run_neighbourhoods_command(const NeighbourhoodsOptions& o) {
  try {
    return run_neighbourhoods(o, std::cout);
  } catch (const std::invalid_argument& e) {
    return usage_error(std::string("--ranks: ") + e.what(), "neighbourhoods");
  }
}

int run_neighbourhoods(const NeighbourhoodsOptions& o, std::ostream& out) {
  const fw::Coord dims = o.dims;
  const fw::TorusLayout t(dims);
  const std::vector<unsigned> members = reference::member_nodes(o.ranks, dims, o.seed);
  const unsigned root = o.root.value_or(members.front());
  if (!std::binary_search(members.begin(), members.end(), root)) {
    std::cerr << "collnet neighbourhoods: --root " << root << " is not a member node\n";
    return 2;
  }
  const driver::Neighbourhoods nb = driver::find_neighbourhoods(dims, members);
  const char* names = "xyz";
  const driver::Neighbourhood& n0 = nb.list.front();
  // The local roots' tree.
  std::vector<unsigned> roots;
  for (unsigned k : nb.order(root)) roots.push_back(nb.local_root(k, root, t));

  nlohmann::json js;
  js["torus"] = std::to_string(dims[0]) + "x" + std::to_string(dims[1]) + "x" + std::to_string(dims[2]);
  js["members"] = members;
  js["root"] = root;
  js["first_dimension"] = std::string(1, names[n0.first]);
  js["second_dimension"] = std::string(1, names[n0.second]);
  js["neighbourhoods"] = nlohmann::json::array();

  out << members.size() << " member nodes on " << js["torus"].get<std::string>() << ": " << nb.list.size()
      << " regular neighbourhoods (gap-free planes of " << names[n0.first] << " and " << names[n0.second]
      << "), rooted at node " << root << "\n";
  for (unsigned k = 0; k < nb.list.size(); ++k) {
    const driver::Neighbourhood& h = nb.list[k];
    const unsigned lr = nb.local_root(k, root, t);
    // The local tree: the local root first, then the other nodes in order.
    std::vector<unsigned> g{lr};
    for (unsigned node : h.nodes)
      if (node != lr) g.push_back(node);
    nlohmann::json tree = nlohmann::json::array();
    std::ostringstream edges;
    for (unsigned i = 1; i < g.size(); ++i) {
      tree.push_back({g[i], g[binomial_parent(i)]});
      edges << " " << g[i] << "->" << g[binomial_parent(i)];
    }
    const char letter = static_cast<char>('a' + k % 26);
    out << "  " << letter << ": corner " << coord_text(h.corner) << ", " << h.len_first << " x " << h.len_second
        << " nodes, local root node " << lr << " " << coord_text(t.coord(lr)) << "; local tree"
        << (g.size() == 1 ? " (the root alone)" : ":") << edges.str() << "\n";
    js["neighbourhoods"].push_back({{"letter", std::string(1, letter)},
                                    {"corner", h.corner},
                                    {"len_first", h.len_first},
                                    {"len_second", h.len_second},
                                    {"nodes", h.nodes},
                                    {"local_root", lr},
                                    {"tree", tree}});
  }
  nlohmann::json roots_tree = nlohmann::json::array();
  out << "local roots' tree (binomial from node " << root << "):";
  if (roots.size() == 1) out << " the root alone";
  for (unsigned i = 1; i < roots.size(); ++i) {
    roots_tree.push_back({roots[i], roots[binomial_parent(i)]});
    out << " " << roots[i] << "->" << roots[binomial_parent(i)];
  }
  out << "\n\n" << driver::draw(dims, nb, root);
  js["local_roots"] = roots;
  js["roots_tree"] = roots_tree;
  if (!o.json_path.empty() && !write_json_file(o.json_path, js)) return 1;
  return 0;
}

}  // namespace collnet::cli
