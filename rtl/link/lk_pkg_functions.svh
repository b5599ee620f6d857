// SPDX-License-Identifier: Apache-2.0
  // Hand-written logic of lk_pkg: regmap/regmap_gen.py pastes this file into the generated
  // package after the constants and field getters (it is not an `include file).

  // The CRC of the low in_bits bits of d, most significant bit first, over a crc_w-bit
  // register (crc_w <= 16) starting at all ones, with generator poly (its x^crc_w term left
  // out). A reference definition: lk_crc builds its parity masks from it at elaboration.
  function automatic logic [15:0] lk_crc(input logic [LkCrcInBits-1:0] d, input int in_bits, input int crc_w,
                                         input logic [15:0] poly);
    logic [15:0] c, top;
    c   = (16'h1 << crc_w) - 16'h1;
    top = 16'h1 << (crc_w - 1);
    for (int i = LkCrcInBits - 1; i >= 0; i--) begin
      if (i < in_bits) begin
        if (((c & top) != 16'h0) ^ d[i]) c = ((c << 1) ^ poly) & ((16'h1 << crc_w) - 16'h1);
        else                             c = (c << 1) & ((16'h1 << crc_w) - 16'h1);
      end
    end
    lk_crc = c;
  endfunction
