#include "op.hpp"

#include "error.hpp"

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
    {Op::Maxloc, "maxloc", false}, {Op::Minloc, "minloc", false},
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

bool accepts(Op op, Datatype t) { return !(info(op).integers_only && is_float(t)); }

void check_accepts(const char* call, Op op, Datatype t) {
  if (!accepts(op, t))
    throw Error(std::string(call) + ": op " + to_string(op) + " cannot reduce " + to_string(t) +
                " elements (bitwise and logical ops take integer types)");
}

}  // namespace collnet::driver
