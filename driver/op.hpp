// SPDX-License-Identifier: Apache-2.0
// Reduction operations of the collectives library and which element types each takes.
// How an (op, type) pair is carried by the network's ALU is driver/encoding.hpp.
#pragma once

#include <string>
#include <vector>

#include "driver/datatype.hpp"

namespace collnet::driver {

// Prod has no ALU operation (the combining network cannot multiply): its reductions run
// over the torus instead (Communicator, docs/vector-collectives.md).
enum class Op { Sum, Max, Min, Band, Bor, Bxor, Land, Lor, Lxor, Maxloc, Minloc, Prod };

// "sum", "max", "min", "band", "bor", "bxor", "land", "lor", "lxor", "maxloc", "minloc",
// "prod";
// throws collnet::Error naming the text.
Op parse_op(const std::string& text);
const char* to_string(Op op);
const std::vector<Op>& all_ops();

// maxloc and minloc reduce (value, index) pairs.
inline bool is_loc(Op op) { return op == Op::Maxloc || op == Op::Minloc; }
// Whether `op` can reduce elements of type `t`: the bitwise and logical ops take integer
// types only.
bool accepts(Op op, Datatype t);
// Throws collnet::Error "<call>: op band cannot reduce f64 elements" unless accepts(op, t).
void check_accepts(const char* call, Op op, Datatype t);
// Whether the combining network's ALU carries `op` (all but prod).
inline bool on_tree(Op op) { return op != Op::Prod; }
// a * b of two raw elements of type t, as prod combines them: integers wrap around modulo
// 2^bits (signed ones as two's complement, like MPI implementations), floats multiply in
// the type (f32 in single precision), rounded to nearest-even.
uint64_t multiply(Datatype t, uint64_t a, uint64_t b);

}  // namespace collnet::driver
