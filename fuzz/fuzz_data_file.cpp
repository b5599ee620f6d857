// SPDX-License-Identifier: Apache-2.0
// Fuzz harness: the data files a run reads (reference/data_file.hpp: --input; also --counts,
// reference/counts.hpp, and --tuning, cli/tuning_file.hpp). The first byte picks the reader and
// the element type, the second whether elements are (value, index) pairs and how many
// ranks the run has; the rest is the file.
//
// A file that is accepted must hold what the reader promises: one array per rank, all of
// the same non-zero length, every element within its type's bits, and every element must
// survive element_to_json / element_from_json (what --output writes and --input reads
// back). Counts must be in range; a tuning table must answer pick() for every collective.
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/tuning_file.hpp"
#include "driver/algorithm.hpp"
#include "driver/datatype.hpp"
#include "driver/error.hpp"
#include "fuzz/fuzz_util.hpp"
#include "reference/counts.hpp"
#include "reference/data_file.hpp"

namespace cli = collnet::cli;
namespace reference = collnet::reference;
namespace driver = collnet::driver;

namespace {

const driver::Datatype kTypes[] = {driver::Datatype::U8,  driver::Datatype::U16, driver::Datatype::U32,
                                   driver::Datatype::U64, driver::Datatype::I8,  driver::Datatype::I16,
                                   driver::Datatype::I32, driver::Datatype::I64, driver::Datatype::F32,
                                   driver::Datatype::F64};

void data(driver::Datatype t, bool pairs, size_t ranks, const std::string& text) {
  std::istringstream in(text);
  std::vector<std::vector<uint64_t>> d;
  try {
    d = reference::read_data(in, "fuzz.json", t, pairs, ranks);
  } catch (const std::invalid_argument&) {
    return;
  }
  FUZZ_CHECK(d.size() == ranks);
  const size_t step = pairs ? 2 : 1;
  for (const std::vector<uint64_t>& r : d) {
    FUZZ_CHECK(r.size() == d[0].size() && !r.empty() && r.size() % step == 0);
    for (size_t i = 0; i < r.size(); i += step) {
      FUZZ_CHECK((r[i] & ~driver::raw_mask(t)) == 0);
      const nlohmann::json j = reference::element_to_json(t, r[i]);
      uint64_t back = 0;
      try {
        back = reference::element_from_json(t, nlohmann::json::parse(j.dump()));
      } catch (const std::invalid_argument& e) {
        std::fprintf(stderr, "element %s of %s does not read back: %s\n", j.dump().c_str(), driver::to_string(t), e.what());
        FUZZ_CHECK(!"an element that was read does not read back");
      }
      FUZZ_CHECK(back == r[i]);
      if (pairs) FUZZ_CHECK(r[i + 1] <= static_cast<uint64_t>(INT64_MAX));
    }
  }
}

void counts(size_t members, const std::string& text) {
  std::istringstream in(text);
  reference::Counts c;
  try {
    c = reference::read_counts(in, "fuzz.json", members);
  } catch (const std::invalid_argument&) {
    return;
  }
  FUZZ_CHECK(c.member.size() == members && c.pair.size() == members);
  for (size_t i = 0; i < members; ++i) {
    FUZZ_CHECK(c.pair[i].size() == members);
    FUZZ_CHECK(c.member[i] <= (size_t{1} << 24));
    for (size_t k = 0; k < members; ++k) FUZZ_CHECK(c.pair[i][k] <= (size_t{1} << 24));
  }
}

void tuning(const std::string& text, unsigned ranks, size_t bytes) {
  std::istringstream in(text);
  try {
    const driver::Tuning t = cli::read_tuning(in, "fuzz.json");
    for (unsigned c = 0; c < driver::kNumCollectives; ++c) {
      const auto col = static_cast<driver::Collective>(c);
      for (driver::Datatype type : driver::all_datatypes())
        if (const auto a = t.pick(col, ranks, bytes, type)) {
          FUZZ_CHECK(driver::applies(col, *a) && *a != driver::Algorithm::Auto);
        }
    }
  } catch (const std::invalid_argument&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) { return 0; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data_, size_t size) {
  collnet::fuzz::Bytes in(data_, size);
  const uint8_t what = in.u8();
  const uint8_t shape = in.u8();
  const driver::Datatype t = kTypes[(what >> 2) % 10];
  const bool pairs = shape & 1;
  const size_t ranks = (shape >> 1) % 9;  // 0..8
  const std::string text = in.rest();
  switch (what & 3) {
    case 0:
    case 1: data(t, pairs, ranks, text); break;
    case 2: counts(ranks, text); break;
    case 3: tuning(text, 1u + (shape << 4), static_cast<size_t>(shape) << 6); break;
  }
  return 0;
}
