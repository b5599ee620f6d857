// SPDX-License-Identifier: Apache-2.0
  // Hand-written logic of dm_pkg: regmap/regmap_gen.py pastes this file into the generated
  // package after the constants and field getters (it is not an `include file).

  /* verilator lint_off UNUSEDSIGNAL */
  // Whether a descriptor keeps every rule of the layout (RegDmDesc refuses one that does
  // not, and a remote get's packet carrying one is dropped): a kind that exists, at least
  // one word and whole descriptors for a remote get, 8-byte aligned addresses and offsets
  // within DmAddrW bits, and zeros in every unused bit.
  function automatic logic desc_ok(input logic [DmDescWords*64-1:0] d);
    logic [63:0] w0, addr, words, offset, used0;
    w0     = d[0 +: 64];
    addr   = d[DmDescAddrWord*64 +: 64];
    words  = d[DmDescWordsWord*64 +: 64];
    offset = d[DmDescOffsetWord*64 +: 64];
    used0  = '0;
    used0[DmDescDstLsb +: DmDescDstW]             = '1;
    used0[DmDescKindLsb +: DmDescKindW]           = '1;
    used0[DmDescPrioBit]                          = 1'b1;
    used0[DmDescDetermBit]                        = 1'b1;
    used0[DmDescLocalCtrLsb +: DmDescLocalCtrW]   = '1;
    used0[DmDescRemoteCtrLsb +: DmDescRemoteCtrW] = '1;
    desc_ok = ((w0 & ~used0) == '0) && (dm_desc_kind(w0) != 2'd3) &&
              (words[DmCountW-1:0] != '0) && (words[63:DmCountW] == '0) &&
              (dm_desc_kind(w0) != DmKindGet || words[1:0] == 2'd0) &&
              (addr[2:0] == 3'd0) && (addr[63:DmAddrW] == '0) &&
              (offset[2:0] == 3'd0) && (offset[63:DmAddrW] == '0);
  endfunction
  // Chunks of a packet carrying n data words: the fewest that hold them and the DMA word.
  function automatic logic [3:0] chunks(input logic [DmWordWordsW-1:0] n);
    chunks = 4'((7'(n) + 7'd4) >> 2);
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */
