#include "op.hpp"

#include <algorithm>

#include "error.hpp"

namespace collnet::driver {

namespace {
struct OpInfo {
  Op op;
  const char* name;
  fw::AluOp alu;
  uint64_t identity;
};
constexpr OpInfo kOps[] = {
    {Op::Sum, "sum", fw::AluOp::Add, 0},        {Op::Max, "max", fw::AluOp::Max, 0},
    {Op::Min, "min", fw::AluOp::Min, ~0ull},    {Op::Band, "band", fw::AluOp::And, ~0ull},
    {Op::Bor, "bor", fw::AluOp::Or, 0},         {Op::Bxor, "bxor", fw::AluOp::Xor, 0},
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
  static const std::vector<Op> ops = {Op::Sum, Op::Max, Op::Min, Op::Band, Op::Bor, Op::Bxor};
  return ops;
}

fw::AluOp alu_op(Op op) { return info(op).alu; }
uint64_t identity(Op op) { return info(op).identity; }

uint64_t apply(Op op, uint64_t a, uint64_t b) {
  switch (op) {
    case Op::Sum: return a + b;
    case Op::Max: return std::max(a, b);
    case Op::Min: return std::min(a, b);
    case Op::Band: return a & b;
    case Op::Bor: return a | b;
    case Op::Bxor: return a ^ b;
  }
  throw Error("unknown reduction operation");
}

}  // namespace collnet::driver
