// The tests run every machine in a child process: systemc/isolated.hpp.
#pragma once

#include "systemc/isolated.hpp"

namespace collnet::test {

using sim::Isolated;
using sim::run_isolated;

}  // namespace collnet::test
