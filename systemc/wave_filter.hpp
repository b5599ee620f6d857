// SPDX-License-Identifier: Apache-2.0
// What GTKWave shows for collnet's link and ALU traces (the .gtkw views that TraceWriter
// writes run `collnet-wave-filter` as a translate filter process on them). GTKWave sends
// a trace's value as a line of binary digits; the number of digits says what it is:
//   67  a tree link's flit, {valid, hdr, vc, data[63:0]} combined (cn_link_tx's ports)
//   68  a torus link's flit, {valid, hdr, vc[1:0], data[63:0]} (tr_router's ports)
//   3   an ALU opcode (cn_pkg's opcodes)
// and the reply is the text: a decoded header (class, operation, operand size, tag for the
// tree; source, destination, size, routing for the torus), a payload word in hex, or a
// blank for an idle link. Headers come back coloured (GTKWave's "?colour?text").
#pragma once

#include <string>

namespace collnet::sim {

// The text for one value; anything else (another width, x or z bits) comes back as it was.
std::string wave_filter_line(const std::string& bits);

}  // namespace collnet::sim
