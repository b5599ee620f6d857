// Reduction operations of the collectives library, how each maps onto the network's ALU,
// and a plain C++ reference of each (what results are checked against).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "firmware/packet.hpp"

namespace collnet::driver {

enum class Op { Sum, Max, Min, Band, Bor, Bxor };

// "sum", "max", "min", "band", "bor", "bxor"; throws collnet::Error naming the text.
Op parse_op(const std::string& text);
const char* to_string(Op op);
const std::vector<Op>& all_ops();

fw::AluOp alu_op(Op op);
uint64_t identity(Op op);             // u64 identity element
uint64_t apply(Op op, uint64_t a, uint64_t b);  // u64 reference

}  // namespace collnet::driver
