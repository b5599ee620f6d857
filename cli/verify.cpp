#include "verify.hpp"

namespace collnet::cli {

std::vector<uint64_t> reference_allreduce(const std::vector<std::vector<uint64_t>>& inputs, driver::Op op) {
  if (inputs.empty()) return {};
  std::vector<uint64_t> ref = inputs.front();
  for (size_t r = 1; r < inputs.size(); ++r)
    for (size_t i = 0; i < ref.size(); ++i) ref[i] = driver::apply(op, ref[i], inputs[r].at(i));
  return ref;
}

Mismatch compare(const std::vector<std::vector<uint64_t>>& results, const std::vector<uint64_t>& want) {
  Mismatch m;
  for (unsigned r = 0; r < results.size(); ++r) {
    for (uint64_t i = 0; i < want.size(); ++i) {
      const uint64_t got = i < results[r].size() ? results[r][i] : ~want[i];
      if (got != want[i] && m.count++ == 0) {
        m.rank = r;
        m.index = i;
        m.expected = want[i];
        m.got = got;
      }
    }
  }
  return m;
}

}  // namespace collnet::cli
