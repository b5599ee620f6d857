// SPDX-License-Identifier: Apache-2.0
// The collnet executable's own path, to start it again (the partitions' launcher, a
// sweep's runs): from /proc/self/exe, or "collnet" along PATH if that cannot be read.
#pragma once

#include <string>

namespace collnet::cli {

std::string own_path();

}  // namespace collnet::cli
