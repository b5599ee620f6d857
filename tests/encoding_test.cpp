// SPDX-License-Identifier: Apache-2.0
// How elements ride the integer ALU (driver/encoding.hpp, driver/float_sum.hpp), checked in
// software against the plain C++ reference (reference/verify.hpp): every rank's contribution is
// encoded, the messages are combined by the ALU model the block testbenches hold the RTL
// to, and the decoded result must equal the reference for every type and op.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>

#include <gtest/gtest.h>

#include "driver/encoding.hpp"
#include "driver/error.hpp"
#include "driver/float_sum.hpp"
#include "driver/local_combine.hpp"
#include "firmware/alu_model.hpp"
#include "reference/data_file.hpp"
#include "reference/inputs.hpp"
#include "reference/verify.hpp"

namespace collnet {
namespace {

using driver::Datatype;
using driver::Op;

// The network in software: the op over every rank's element i, through the encodings.
std::vector<uint64_t> through_alu(Datatype t, Op op, const std::vector<std::vector<uint64_t>>& in) {
  const bool loc = driver::is_loc(op);
  const size_t count = in[0].size() / (loc ? 2 : 1);
  std::vector<uint64_t> out(in[0].size());
  auto combine = [&](const driver::Encoding& e, auto operand_of) {
    std::vector<uint64_t> acc = e.identity_message(count);
    for (size_t r = 0; r < in.size(); ++r) {
      std::vector<uint64_t> msg = e.identity_message(count);
      for (size_t i = 0; i < count; ++i) put(msg, e, i, operand_of(r, i));
      fw::alu_combine(static_cast<unsigned>(e.alu), e.header_size(), acc, msg);
    }
    return acc;
  };
  if (t == Datatype::F32 || t == Datatype::F64) {
    if (op == Op::Sum) {
      const auto ee = driver::float_sum::exponent_encoding(), fe = driver::float_sum::fixed_encoding();
      const auto emax = combine(ee, [&](size_t r, size_t i) {
        return driver::Operand{driver::float_sum::exponent_key(t, in[r][i])};
      });
      const auto sum = combine(fe, [&](size_t r, size_t i) {
        return driver::float_sum::to_fixed(t, in[r][i], get(emax, ee, i)[0]);
      });
      for (size_t i = 0; i < count; ++i)
        out[i] = driver::float_sum::from_fixed(t, get(sum, fe, i), get(emax, ee, i)[0]);
      return out;
    }
  }
  const driver::Encoding e = driver::reduce_encoding(t, op);
  const auto res = combine(e, [&](size_t r, size_t i) {
    return loc ? driver::encode(t, op, in[r][2 * i], in[r][2 * i + 1]) : driver::encode(t, op, in[r][i]);
  });
  for (size_t i = 0; i < count; ++i) {
    uint64_t index = 0;
    const uint64_t v = driver::decode(t, op, get(res, e, i), &index);
    if (loc) {
      out[2 * i] = v;
      out[2 * i + 1] = index;
    } else {
      out[i] = v;
    }
  }
  return out;
}

TEST(Encoding, EveryTypeAndOpMatchesTheReference) {
  const uint64_t seed = 20261122;
  std::printf("[ seed     ] %llu\n", static_cast<unsigned long long>(seed));
  for (Datatype t : driver::all_datatypes()) {
    for (Op op : driver::all_ops()) {
      if (!driver::accepts(op, t) || !driver::on_tree(op)) continue;  // prod: no ALU encoding
      for (unsigned ranks : {1u, 2u, 7u, 64u}) {
        std::vector<std::vector<uint64_t>> in;
        for (unsigned r = 0; r < ranks; ++r) in.push_back(reference::seeded_input(seed, r, 67, t, op));
        reference::Problem p{"allreduce", t, op, 0};
        const auto want = reference::reference(p, in);
        EXPECT_EQ(through_alu(t, op, in), *want[0]) << to_string(t) << " " << to_string(op) << " on " << ranks;
      }
    }
  }
}

TEST(Encoding, OrderKeysOrderLikeTheValues) {
  std::mt19937_64 rng(7);
  for (Datatype t : driver::all_datatypes()) {
    for (int k = 0; k < 2000; ++k) {
      uint64_t a = rng() & driver::raw_mask(t), b = rng() & driver::raw_mask(t);
      if (k % 3 == 0) b = a ^ (1ull << (driver::bits(t) - 1));  // opposite signs, same magnitude
      const unsigned key_bits = driver::bits(t) <= 16 ? 16 : driver::bits(t);
      const uint64_t ka = driver::order_key(t, a, key_bits), kb = driver::order_key(t, b, key_bits);
      EXPECT_EQ(driver::from_order_key(t, ka, key_bits), a) << to_string(t);
      const uint64_t max = reference::reference_op(t, Op::Max, {a, b});
      EXPECT_EQ(ka >= kb ? a : b, max) << to_string(t) << " " << a << " " << b;
    }
  }
}

TEST(Encoding, NarrowIntegersShareAWordAsLanes) {
  const driver::Encoding e = driver::reduce_encoding(Datatype::I8, Op::Sum);
  EXPECT_EQ(e.operand_bits, 16u);
  EXPECT_EQ(e.per_word(), 4u);
  EXPECT_EQ(e.words(9), 3u);
  EXPECT_EQ(driver::reduce_encoding(Datatype::U32, Op::Max).per_word(), 2u);
  EXPECT_EQ(driver::reduce_encoding(Datatype::F64, Op::Maxloc).words_per_operand(), 2u);
  EXPECT_EQ(e.word_range(5, 9), (std::pair<size_t, size_t>{1, 3}));
}

TEST(Encoding, BitwiseOpsOnFloatsAreRefusedByName) {
  try {
    driver::check_accepts("allreduce", Op::Band, Datatype::F64);
    ADD_FAILURE() << "band on f64 accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("band cannot reduce f64"), std::string::npos) << e.what();
  }
}

double f64(uint64_t raw) { return driver::raw_to_double(Datatype::F64, raw); }
uint64_t raw(double d) { return driver::double_to_raw(Datatype::F64, d); }

TEST(FloatSum, IsExactWhereOrdinaryAdditionLosesEverything) {
  // 2^100 + 1 - 2^100 is 0 in double arithmetic, 1 exactly here.
  const std::vector<uint64_t> v = {raw(std::ldexp(1.0, 100)), raw(1.0), raw(-std::ldexp(1.0, 100))};
  EXPECT_EQ(f64(through_alu(Datatype::F64, Op::Sum, {{v[0]}, {v[1]}, {v[2]}})[0]), 1.0);
  EXPECT_EQ(f64(reference::reference_op(Datatype::F64, Op::Sum, v)), 1.0);
}

TEST(FloatSum, DoesNotDependOnTheOrderOfContributions) {
  std::mt19937_64 rng(11);
  std::vector<std::vector<uint64_t>> in;
  for (int r = 0; r < 50; ++r)
    in.push_back({raw(std::ldexp(static_cast<double>(rng() >> 11), static_cast<int>(rng() % 120) - 60) *
                      ((rng() & 1) ? -1 : 1))});
  const uint64_t first = through_alu(Datatype::F64, Op::Sum, in)[0];
  for (int k = 0; k < 20; ++k) {
    std::shuffle(in.begin(), in.end(), rng);
    EXPECT_EQ(through_alu(Datatype::F64, Op::Sum, in)[0], first);
  }
}

TEST(FloatSum, RoundsOnceToNearestEven) {
  using driver::float_sum::round_to_type;
  // 2^53 + 1 is a tie between 2^53 and 2^53 + 2: even wins; 2^53 + 3 rounds up.
  EXPECT_EQ(f64(round_to_type(Datatype::F64, false, {(1ull << 53) + 1}, 0)), std::ldexp(1.0, 53));
  EXPECT_EQ(f64(round_to_type(Datatype::F64, false, {(1ull << 53) + 3}, 0)), std::ldexp(1.0, 53) + 4);
  EXPECT_EQ(f64(round_to_type(Datatype::F64, true, {3}, -1075)), -std::ldexp(1.0, -1073));  // subnormal tie
  EXPECT_EQ(f64(round_to_type(Datatype::F64, false, {1}, 1024)), HUGE_VAL);
  EXPECT_EQ(round_to_type(Datatype::F32, false, {(1ull << 24) + 1}, 0), driver::double_to_raw(Datatype::F32, 16777216.0));
}

TEST(FloatSum, InfinitiesAndNaNs) {
  const uint64_t inf = raw(HUGE_VAL), ninf = raw(-HUGE_VAL), one = raw(1.0);
  EXPECT_EQ(through_alu(Datatype::F64, Op::Sum, {{inf}, {one}})[0], inf);
  EXPECT_EQ(through_alu(Datatype::F64, Op::Sum, {{ninf}, {one}})[0], ninf);
  EXPECT_TRUE(std::isnan(f64(through_alu(Datatype::F64, Op::Sum, {{inf}, {ninf}})[0])));
  EXPECT_EQ(reference::reference_op(Datatype::F64, Op::Sum, {inf, ninf}),
            through_alu(Datatype::F64, Op::Sum, {{inf}, {ninf}})[0]);
}

TEST(FloatSum, TruncatesContributionsFarBelowTheLargest) {
  // 2^-190 is below the quantum 2^(0 - 234) * 2^52... of a sum led by 1.0 only if it is
  // more than 234 binades down: 2^-240 is dropped, 2^-100 is kept.
  const uint64_t big = raw(std::ldexp(1.0, 60));
  const uint64_t kept = raw(std::ldexp(1.0, -100)), dropped = raw(std::ldexp(1.0, -240));
  const uint64_t negative_big = raw(-std::ldexp(1.0, 60));
  EXPECT_EQ(f64(through_alu(Datatype::F64, Op::Sum, {{big}, {kept}, {negative_big}})[0]), std::ldexp(1.0, -100));
  EXPECT_EQ(f64(through_alu(Datatype::F64, Op::Sum, {{big}, {dropped}, {negative_big}})[0]), 0.0);
  EXPECT_EQ(reference::reference_op(Datatype::F64, Op::Sum, {big, dropped, negative_big}), raw(0.0));
  // Toward minus infinity: a dropped negative contribution costs one quantum.
  EXPECT_EQ(f64(through_alu(Datatype::F64, Op::Sum, {{big}, {raw(-std::ldexp(1.0, -240))}, {negative_big}})[0]),
            -std::ldexp(1.0, 60 - 234));
  EXPECT_EQ(reference::reference_op(Datatype::F64, Op::Sum, {big, raw(-std::ldexp(1.0, -240)), negative_big}),
            raw(-std::ldexp(1.0, 60 - 234)));
}

// MPI_Reduce_local's arithmetic: inout = in op inout, as a collective over two ranks (in
// rank 0's) gives it, for every type and op, prod included, and the floats' edge values.
TEST(ReduceLocal, EveryTypeAndOpMatchesTheReferenceOfTwoRanks) {
  const uint64_t seed = 20261125;
  std::printf("[ seed     ] %llu\n", static_cast<unsigned long long>(seed));
  for (Datatype t : driver::all_datatypes()) {
    for (Op op : driver::all_ops()) {
      if (!driver::accepts(op, t)) continue;
      const bool loc = driver::is_loc(op);
      std::vector<uint64_t> a = reference::seeded_input(seed, 0, 67, t, op), b = reference::seeded_input(seed, 1, 67, t, op);
      if (driver::is_float(t) && !loc) {
        for (double v : {HUGE_VAL, -HUGE_VAL, double{NAN}, 0.0, -0.0, 1e-310, -1e-310, 1.0, -1.0}) {
          for (double w : {HUGE_VAL, -HUGE_VAL, double{NAN}, -0.0, 1e-310, 3.0}) {
            a.push_back(driver::double_to_raw(t, v));
            b.push_back(driver::double_to_raw(t, w));
          }
        }
      }
      const size_t count = a.size() / (loc ? 2 : 1);
      std::vector<unsigned char> in(count * driver::native_bytes(t, loc)), inout(in.size());
      driver::raw_to_native(t, loc, a.data(), count, in.data());
      driver::raw_to_native(t, loc, b.data(), count, inout.data());
      driver::reduce_local("reduce_local", in.data(), inout.data(), count, t, op);
      const std::vector<uint64_t> got = driver::native_to_raw(t, loc, inout.data(), count);
      for (size_t i = 0; i < count; ++i) {
        if (loc) {
          const auto want = reference::reference_loc(t, op, {{a[2 * i], a[2 * i + 1]}, {b[2 * i], b[2 * i + 1]}});
          EXPECT_EQ(got[2 * i], want.first) << to_string(t) << " " << to_string(op) << " element " << i;
          EXPECT_EQ(got[2 * i + 1], want.second) << to_string(t) << " " << to_string(op) << " element " << i;
        } else {
          EXPECT_EQ(got[i], reference::reference_op(t, op, {a[i], b[i]}))
              << to_string(t) << " " << to_string(op) << " element " << i << ": " << a[i] << " and " << b[i];
        }
      }
    }
  }
}

TEST(ReduceLocal, RefusesAnOpTheTypeDoesNotTake) {
  double x = 1, y = 2;
  try {
    driver::reduce_local("MPI_Reduce_local", &x, &y, 1, Datatype::F64, Op::Band);
    FAIL() << "band on f64 was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "MPI_Reduce_local: op band cannot reduce f64 elements (bitwise and logical ops take integer types)");
  }
}

TEST(DataFile, FloatsReadBackBitExactly) {
  const std::string path = ::testing::TempDir() + "collnet_data_file_test.json";
  std::mt19937_64 rng(3);
  for (Datatype t : {Datatype::F32, Datatype::F64, Datatype::I8, Datatype::U64, Datatype::I64}) {
    std::vector<std::optional<std::vector<uint64_t>>> data(3);
    for (auto& r : data) {
      r.emplace();
      for (int i = 0; i < 200; ++i) r->push_back(rng() & driver::raw_mask(t));
      if (driver::is_float(t)) {
        r->push_back(driver::double_to_raw(t, -0.0));
        r->push_back(driver::double_to_raw(t, HUGE_VAL));
        r->push_back(driver::double_to_raw(t, std::nan("")));
        r->push_back(t == Datatype::F64 ? 0x7ff4000000000001ull : 0x7fa00001ull);  // a signalling NaN
      } else {
        r->resize(204, 0);
      }
    }
    reference::write_data_file(path, t, false, data);
    const auto back = reference::read_data_file(path, t, false, 3);
    for (size_t k = 0; k < 3; ++k) EXPECT_EQ(back[k], *data[k]) << to_string(t);
  }
}

TEST(DataFile, NamesWhatIsWrong) {
  const std::string path = ::testing::TempDir() + "collnet_data_file_bad.json";
  auto expect_error = [&](const std::string& text, Datatype t, size_t ranks, const std::string& part) {
    { std::ofstream(path) << text; }
    try {
      reference::read_data_file(path, t, false, ranks);
      ADD_FAILURE() << "accepted " << text;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    }
  };
  expect_error("[[1,2],[3]]", Datatype::U64, 2, "rank 1 has 1 elements");
  expect_error("[[1,2]]", Datatype::U64, 2, "holds 1 arrays; the run has 2 ranks");
  expect_error("[[1,256]]", Datatype::U8, 1, "rank 0 element 1: 256 is out of range for u8");
  expect_error("[[-129]]", Datatype::I8, 1, "out of range for i8");
  expect_error("[[1.5]]", Datatype::I32, 1, "is not an integer");
  expect_error("[[0.1]]", Datatype::F32, 1, "not exactly representable as f32");
  expect_error("[[1,", Datatype::U64, 1, "is not valid JSON");
}

}  // namespace
}  // namespace collnet
