  // Hand-written logic of cn_pkg: regmap/regmap_gen.py pastes this file into the generated
  // package after the constants and field getters (it is not an `include file).

  // An entry of an injection header FIFO (cn_regs writes it, cn_inj_source serves it): one
  // packet whose payload the processor writes, or `count` identity packets with one header.
  typedef struct packed {
    logic [InjIdentityCountW-1:0] count;     // packets (1 for a written packet)
    logic                         identity;  // the payload is the opcode's identity
    logic [HdrBits-1:0]           hdr;
  } inj_entry_t;

  /* verilator lint_off UNUSEDSIGNAL */
  // The route of a header's class, from the flattened table (class c at [c*RouteBits +: RouteBits]).
  function automatic logic [RouteBits-1:0] route_of(input logic [HdrBits-1:0] h,
                                                    input logic [NumClasses*RouteBits-1:0] rt);
    route_of = rt[hdr_class(h)*RouteBits +: RouteBits];
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */
