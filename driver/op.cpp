// SPDX-License-Identifier: Apache-2.0
#include "driver/op.hpp"

#include <cstring>

#include "driver/error.hpp"

namespace collnet::driver {

namespace {
struct OpInfo {
  Op op;
  const char* name;
  bool integers_only;
};
constexpr OpInfo kOps[] = {
    {Op::Sum, "sum", false},   {Op::Max, "max", false},       {Op::Min, "min", false},
    {Op::Band, "band", true},  {Op::Bor, "bor", true},        {Op::Bxor, "bxor", true},
    {Op::Land, "land", true},  {Op::Lor, "lor", true},        {Op::Lxor, "lxor", true},
    {Op::Maxloc, "maxloc", false}, {Op::Minloc, "minloc", false}, {Op::Prod, "prod", false},
};
const OpInfo& info(Op op) {
  for (const OpInfo& i : kOps)
    if (i.op == op) return i;
  throw Error("unknown reduction operation");
}
}  // namespace

Op parse_op(const std::string& text) {
  for (const OpInfo& i : kOps)
    if (text == i.name) return i.op;
  std::string known;
  for (const OpInfo& i : kOps) known += std::string(known.empty() ? "" : ", ") + i.name;
  throw Error("unknown operation '" + text + "' (known: " + known + ")");
}

const char* to_string(Op op) { return info(op).name; }

const std::vector<Op>& all_ops() {
  static const std::vector<Op> ops = [] {
    std::vector<Op> v;
    for (const OpInfo& i : kOps) v.push_back(i.op);
    return v;
  }();
  return ops;
}

uint64_t multiply(Datatype t, uint64_t a, uint64_t b) {
  a &= raw_mask(t);
  b &= raw_mask(t);
  if (t == Datatype::F32) {
    float x, y;
    const uint32_t ua = static_cast<uint32_t>(a), ub = static_cast<uint32_t>(b);
    std::memcpy(&x, &ua, 4);
    std::memcpy(&y, &ub, 4);
    const float p = x * y;
    uint32_t r;
    std::memcpy(&r, &p, 4);
    return r;
  }
  if (t == Datatype::F64) {
    double x, y;
    std::memcpy(&x, &a, 8);
    std::memcpy(&y, &b, 8);
    const double p = x * y;
    uint64_t r;
    std::memcpy(&r, &p, 8);
    return r;
  }
  // Two's complement: the low bits of the product do not depend on signedness.
  return (a * b) & raw_mask(t);
}

bool accepts(Op op, Datatype t) { return !(info(op).integers_only && is_float(t)); }

void check_accepts(const char* call, Op op, Datatype t) {
  if (!accepts(op, t))
    throw Error(std::string(call) + ": op " + to_string(op) + " cannot reduce " + to_string(t) +
                " elements (bitwise and logical ops take integer types)");
}

}  // namespace collnet::driver
