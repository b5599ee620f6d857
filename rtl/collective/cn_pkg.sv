// cn_pkg: the combining network's packet header, opcodes, class-route encoding and
// register map. The C++ side keeps the same constants in firmware/regmap.hpp; the test
// tests/regmap_agreement_test.cpp parses this file and fails if the two ever disagree.
`default_nettype none

// Portability (Verilator, Icarus Verilog 11, Yosys 0.23): modules refer to these items as
// cn_pkg::Name because Yosys cannot import packages, integer constants are "int" because
// Icarus cannot parse "int unsigned", functions assign their name instead of "return"
// (Yosys), and are called from continuous assignments, not always_comb (Icarus loops
// forever when several always_comb processes call the same function).
// A package's constants are not all used by every module that refers to it.
/* verilator lint_off UNUSEDPARAM */
package cn_pkg;

  // ---------------------------------------------------------------- geometry
  localparam int NumLinks       = 3;   // tree links per node
  localparam int NumClasses     = 16;  // class routes
  localparam int FirstPrivClass = 12;  // classes 12..15 need the privileged bit
  localparam int FlitBits       = 64;
  localparam int HeaderBits     = 32;
  localparam int PayloadFlits   = 32;  // 256-byte payload
  localparam int VectorWords    = 4;   // 64-bit words in one vector register access
  localparam int BusDataBits    = 256; // register bus data: VectorWords * FlitBits
  localparam int NumVcs         = 2;   // virtual channels on every link
  localparam int VcUser         = 0;
  localparam int VcSystem       = 1;   // needs the privileged bit

  // ---------------------------------------------------------------- packet header
  // [31:28] class  [27] point-to-point  [26] interrupt  [25:23] opcode
  // [22:16] operand size (16-bit words - 1)  [15:2] tag  [1:0] reserved (zero)
  localparam int HdrClassLsb = 28;
  localparam int HdrClassW   = 4;
  localparam int HdrP2pBit   = 27;
  localparam int HdrIrqBit   = 26;
  localparam int HdrOpLsb    = 23;
  localparam int HdrOpW      = 3;
  localparam int HdrSizeLsb  = 16;
  localparam int HdrSizeW    = 7;
  localparam int HdrTagLsb   = 2;
  localparam int HdrTagW     = 14;

  // ---------------------------------------------------------------- ALU opcodes
  localparam logic [2:0] OpNone = 3'd0;  // forward; several contributors combine as OR
  localparam logic [2:0] OpOr   = 3'd1;
  localparam logic [2:0] OpAnd  = 3'd2;
  localparam logic [2:0] OpXor  = 3'd3;
  localparam logic [2:0] OpMin  = 3'd4;  // unsigned
  localparam logic [2:0] OpMax  = 3'd5;  // unsigned
  localparam logic [2:0] OpAdd  = 3'd6;  // two's complement, 64-bit lanes
  // 3'd7 is reserved: a packet carrying it raises ErrBadOpcode.

  // ---------------------------------------------------------------- operand widths
  // The header's operand size (16-bit words - 1) selects how the ALU cuts a flit:
  // 16 or 32 bits are lanes inside a flit; 64 * 2^k bits (k = 0..5) are operands of
  // 2^k words. Any other size raises ErrBadSize.
  localparam logic [1:0] Width16 = 2'd0;
  localparam logic [1:0] Width32 = 2'd1;
  localparam logic [1:0] Width64 = 2'd2;

  // ---------------------------------------------------------------- class route
  // [1:0] up link (0..2, 3 = none: this node is the root of the class)
  // [4:2] down-link mask  [5] local contributes  [6] local receives
  localparam int         RouteUpLsb   = 0;
  localparam int         RouteDownLsb = 2;
  localparam int         RouteSrcBit  = 5;
  localparam int         RouteDstBit  = 6;
  localparam int         RouteBits    = 7;
  localparam logic [1:0] RouteUpNone  = 2'd3;

  // ---------------------------------------------------------------- register map
  // 64-bit registers, byte addresses, 12-bit address space. The bus carries BusDataBits:
  // an ordinary register uses [63:0] (reads return zeros above), the two vector registers
  // move VectorWords payload words in one access, word 0 in [63:0].
  localparam logic [11:0] RegId         = 12'h000;  // RO  identification (RegIdValue)
  localparam logic [11:0] RegStatus     = 12'h008;  // RO  FIFO levels, see Status* below
  localparam logic [11:0] RegInjHdr     = 12'h010;  // WO  push a header into injection
  localparam logic [11:0] RegInjData    = 12'h018;  // WO  push a payload word into injection
  localparam logic [11:0] RegRcvHdr     = 12'h020;  // RO  pop a header from reception
  localparam logic [11:0] RegRcvData    = 12'h028;  // RO  pop a payload word from reception
  localparam logic [11:0] RegErr        = 12'h030;  // RO  sticky error bits, see Err* below
  localparam logic [11:0] RegErrClear   = 12'h038;  // WO  write 1s to clear error bits
  localparam logic [11:0] RegErrInfo    = 12'h040;  // RO  [31:0] expected hdr [63:32] offending hdr
  localparam logic [11:0] RegErrSource  = 12'h048;  // RO  [1:0] source of the error (0 local, 1..3 link 0..2), [2] its VC
  localparam logic [11:0] RegInjIdentity = 12'h050; // WO  [31:0] header, [47:32] K: inject K identity packets
  localparam logic [11:0] RegInjVector  = 12'h058;  // WO  push VectorWords payload words (all or none)
  localparam logic [11:0] RegRcvVector  = 12'h060;  // RO  pop VectorWords payload words (all or none)
  localparam logic [11:0] RegRouteBase  = 12'h100;  // RW  class route c at RegRouteBase + 8*c
  // The registers above address the user VC's FIFOs. The system VC's FIFO registers
  // (RegStatus, RegInjHdr, RegInjData, RegRcvHdr, RegRcvData, RegInjIdentity, RegInjVector,
  // RegRcvVector) sit at the same offsets plus RegSysVcOffset; any access there without the
  // privileged bit is refused and sets ErrPriv.
  localparam logic [11:0] RegSysVcOffset = 12'h080;

  localparam logic [63:0] RegIdValue    = 64'h00c0_11e7_0001_0003;  // "collnet", version 1.3

  // RegStatus fields
  localparam int StatusInjHdrFreeLsb  = 0;   // [7:0]   free header slots in injection
  localparam int StatusInjDataFreeLsb = 8;   // [19:8]  free payload words in injection
  localparam int StatusRcvHdrLsb      = 32;  // [39:32] headers waiting in reception
  localparam int StatusRcvDataLsb     = 40;  // [51:40] payload words waiting in reception
  localparam int StatusErrBit         = 63;  // some bit of RegErr is set

  // RegErrSource fields
  localparam int ErrSourceVcBit = 2;

  // RegInjIdentity fields
  localparam int InjIdentityCountLsb = 32;  // [47:32] number of identity packets (0: none)

  // RegErr bits (sticky)
  localparam int ErrInjOverflow  = 0;  // a push into a full injection FIFO was refused
  localparam int ErrRcvUnderflow = 1;  // a pop from an empty reception FIFO returned 0
                                       // (a vector push or pop: too few free or held words)
  localparam int ErrHdrMismatch  = 2;  // sources of one combine carried different headers
  localparam int ErrBadOpcode    = 3;  // a packet carried the reserved opcode
  localparam int ErrBadRoute     = 4;  // a packet arrived where its class route does not expect it
  localparam int ErrPriv         = 5;  // an unprivileged write to a system class route, or an
                                       // unprivileged access to the system VC's registers
  localparam int ErrBadAddr      = 6;  // an access to an unmapped address
  localparam int ErrBadRouteCfg  = 7;  // a class-route write that is not a tree route
  localparam int ErrLinkProto    = 8;  // a link broke the packet framing or credit rules
  localparam int ErrBadSize      = 9;  // a packet carried an operand size the ALU cannot cut
  localparam int ErrBits         = 10;

  // ---------------------------------------------------------------- field helpers
  // A field extractor reads only its field of the word it is given.
  /* verilator lint_off UNUSEDSIGNAL */
  function automatic logic [3:0] hdr_class(input logic [31:0] h);
    hdr_class = h[HdrClassLsb +: HdrClassW];
  endfunction
  function automatic logic [2:0] hdr_opcode(input logic [31:0] h);
    hdr_opcode = h[HdrOpLsb +: HdrOpW];
  endfunction
  function automatic logic [1:0] route_up(input logic [RouteBits-1:0] r);
    route_up = r[RouteUpLsb +: 2];
  endfunction
  function automatic logic [2:0] route_down(input logic [RouteBits-1:0] r);
    route_down = r[RouteDownLsb +: 3];
  endfunction
  // The route of a header's class, from the flattened table (class c at [c*RouteBits +: RouteBits]).
  function automatic logic [RouteBits-1:0] route_of(input logic [31:0] h,
                                                    input logic [NumClasses*RouteBits-1:0] rt);
    route_of = rt[hdr_class(h)*RouteBits +: RouteBits];
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

endpackage : cn_pkg
/* verilator lint_on UNUSEDPARAM */

`default_nettype wire
