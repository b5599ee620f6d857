  // Hand-written logic of cn_pkg: regmap/regmap_gen.py pastes this file into the generated
  // package after the constants and field getters (it is not an `include file).
  /* verilator lint_off UNUSEDSIGNAL */
  // The route of a header's class, from the flattened table (class c at [c*RouteBits +: RouteBits]).
  function automatic logic [RouteBits-1:0] route_of(input logic [HdrBits-1:0] h,
                                                    input logic [NumClasses*RouteBits-1:0] rt);
    route_of = rt[hdr_class(h)*RouteBits +: RouteBits];
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */
