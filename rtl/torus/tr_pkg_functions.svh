// SPDX-License-Identifier: Apache-2.0
  // Hand-written logic of tr_pkg: regmap/regmap_gen.py pastes this file into the generated
  // package after the constants and field getters (it is not an `include file).

  /* verilator lint_off UNUSEDSIGNAL */
  // Coordinate dim (0 x, 1 y, 2 z) of a packed x, y, z triple.
  function automatic logic [CoordW-1:0] coord(input logic [NumDims*CoordW-1:0] c, input int dim);
    coord = c[dim*CoordW +: CoordW];
  endfunction
  // Flits of a packet with this header: the header and ChunkFlits per chunk.
  function automatic logic [PacketFlitsW-1:0] packet_flits(input logic [TrHdrBits-1:0] h);
    packet_flits = PacketFlitsW'(1) + PacketFlitsW'(ChunkFlits) * (PacketFlitsW'(tr_hdr_size(h)) + PacketFlitsW'(1));
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */
