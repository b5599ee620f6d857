// SPDX-License-Identifier: Apache-2.0
// `collnet algorithms`: every collective with the algorithms that apply to it, and what
// each algorithm does.
#pragma once

#include <ostream>

namespace collnet::cli {

void print_algorithms(std::ostream& out);

}  // namespace collnet::cli
