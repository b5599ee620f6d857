// SPDX-License-Identifier: Apache-2.0
// Rooted collectives over regular neighbourhoods on an irregular communicator (docs/neighbourhoods.md):
// bcast, reduce, gather and scatter in two phases, within every regular neighbourhood (a
// gap-free plane of the members' nodes, driver/neighbourhoods.hpp) and among the
// neighbourhoods' local roots. Runners of the algorithm table (torus-neighbourhood).
#pragma once

#include "driver/collective_context.hpp"

namespace collnet::driver::neighbourhood {

void bcast(CollectiveContext& c);
void reduce(CollectiveContext& c);
void gather(CollectiveContext& c);
void scatter(CollectiveContext& c);

}  // namespace collnet::driver::neighbourhood
