#include "inputs.hpp"

namespace collnet::cli {

namespace {
// splitmix64: a small, well-mixed counter-based generator.
uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
}  // namespace

std::vector<uint64_t> seeded_input(uint64_t seed, unsigned rank, uint64_t count, driver::Op op) {
  std::vector<uint64_t> v(count);
  uint64_t state = mix(seed) ^ mix(0x5eed0000ull + rank);
  auto next = [&state] { return mix(state++); };
  for (uint64_t i = 0; i < count; ++i) {
    switch (op) {
      case driver::Op::Band:  // each bit cleared with probability 1/64
        v[i] = ~(next() & next() & next() & next() & next() & next());
        break;
      case driver::Op::Bor:  // each bit set with probability 1/64
        v[i] = next() & next() & next() & next() & next() & next();
        break;
      default:
        v[i] = next();
        break;
    }
  }
  return v;
}

}  // namespace collnet::cli
