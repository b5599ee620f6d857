// SPDX-License-Identifier: Apache-2.0
  // Hand-written logic of cn_pkg: regmap/regmap_gen.py pastes this file into the generated
  // package after the constants and field getters (it is not an `include file).

  // An entry of an injection header FIFO (cn_regs writes it, cn_inj_source serves it): one
  // packet whose payload the processor writes, or `count` identity packets with one header.
  // {count, identity, hdr}: a vector with a constructor and getters, not a packed struct,
  // because no form of a struct port reads in both Icarus Verilog 11 (which aborts on a
  // package-qualified struct type) and Yosys 0.23 (which cannot parse an import in a module
  // header or body).
  // InjEntryBits (the register map's constant) = InjIdentityCountW + 1 + HdrBits.

  function automatic logic [InjEntryBits-1:0] inj_entry(input logic [InjIdentityCountW-1:0] count,
                                                        input logic identity, input logic [HdrBits-1:0] hdr);
    inj_entry = {count, identity, hdr};
  endfunction

  /* verilator lint_off UNUSEDSIGNAL */
  // The fields of an entry (each getter reads part of it).
  function automatic logic [HdrBits-1:0] inj_entry_hdr(input logic [InjEntryBits-1:0] e);
    inj_entry_hdr = e[HdrBits-1:0];
  endfunction

  function automatic logic inj_entry_identity(input logic [InjEntryBits-1:0] e);
    inj_entry_identity = e[HdrBits];
  endfunction

  function automatic logic [InjIdentityCountW-1:0] inj_entry_count(input logic [InjEntryBits-1:0] e);
    inj_entry_count = e[InjEntryBits-1 -: InjIdentityCountW];
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  /* verilator lint_off UNUSEDSIGNAL */
  // The route of a header's class, from the flattened table (class c at [c*RouteBits +: RouteBits]).
  function automatic logic [RouteBits-1:0] route_of(input logic [HdrBits-1:0] h,
                                                    input logic [NumClasses*RouteBits-1:0] rt);
    route_of = rt[hdr_class(h)*RouteBits +: RouteBits];
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */
