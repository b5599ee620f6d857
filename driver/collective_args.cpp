// SPDX-License-Identifier: Apache-2.0
#include "driver/collective_args.hpp"

#include <algorithm>
#include <cstdint>
#include <utility>

namespace collnet::driver {

namespace {

std::string at(const char* name, size_t j) { return std::string(name) + "[" + std::to_string(j) + "]"; }

}  // namespace

void check_blocks(const char* call, const char* counts_name, const char* displs_name, const std::vector<size_t>& counts,
                  const std::vector<size_t>& displs, bool disjoint) {
  std::vector<std::pair<size_t, size_t>> blocks;
  for (size_t j = 0; j < counts.size(); ++j) {
    if (displs[j] > SIZE_MAX / 16 - counts[j])
      throw Error(std::string(call) + ": " + at(displs_name, j) + " + " + at(counts_name, j) + " = " +
                  std::to_string(displs[j]) + " + " + std::to_string(counts[j]) + " does not fit a buffer");
    if (counts[j]) blocks.emplace_back(displs[j], j);
  }
  if (!disjoint) return;
  std::sort(blocks.begin(), blocks.end());
  for (size_t i = 1; i < blocks.size(); ++i) {
    const size_t a = blocks[i - 1].second, b = blocks[i].second;
    if (displs[a] + counts[a] > displs[b])
      throw Error(std::string(call) + ": the blocks of ranks " + std::to_string(a) + " and " + std::to_string(b) +
                  " overlap in the receive buffer (" + at(displs_name, a) + " = " + std::to_string(displs[a]) + ", " +
                  at(counts_name, a) + " = " + std::to_string(counts[a]) + ", " + at(displs_name, b) + " = " +
                  std::to_string(displs[b]) + ")");
  }
}

size_t extent(const std::vector<size_t>& counts, const std::vector<size_t>& displs) {
  size_t e = 0;
  for (size_t j = 0; j < counts.size(); ++j)
    if (counts[j]) e = std::max(e, displs[j] + counts[j]);
  return e;
}

void check_layout(const char* call, const char* side, const char* counts_name, const char* displs_name,
                  const std::vector<size_t>& counts, const std::vector<size_t>& displs, const void* buf, unsigned size) {
  need_size(call, counts_name, counts, size);
  need_size(call, displs_name, displs, size);
  const bool receive = std::string(side) == "receive";
  check_blocks(call, counts_name, displs_name, counts, displs, receive);
  need_buffer(call, side, buf, extent(counts, displs));
}

}  // namespace collnet::driver
