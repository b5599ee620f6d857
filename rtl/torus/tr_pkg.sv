// tr_pkg: the torus network's packet header, directions and virtual channels. Mirrored in
// firmware/regmap.hpp (constants are literals so the agreement test can read them); tests/regmap_agreement_test.cpp checks both sides agree.
// Portability rules as in cn_pkg (no import, int constants, functions assign their name
// and are called from continuous assignments only).
`default_nettype none

// A package's constants are not all used by every module that refers to it.
/* verilator lint_off UNUSEDPARAM */
package tr_pkg;

  // ---------------------------------------------------------------- geometry
  // Direction d = 2 * dimension + (1 if towards lower coordinates): 0 x+, 1 x-, 2 y+,
  // 3 y-, 4 z+, 5 z-. Link d of a node connects to its neighbour in direction d.
  localparam int NumDirs        = 6;
  localparam int CoordW         = 8;   // coordinate and dimension-size bits (sizes 1..255)
  localparam int TrFlitBits     = 64;
  localparam int ChunkFlits     = 4;   // a chunk is 32 bytes
  localparam int MaxChunks      = 8;
  localparam int MaxPacketFlits = 33;  // 1 + ChunkFlits * MaxChunks: the header and 8 chunks

  // ---------------------------------------------------------------- virtual channels
  // Two dynamic VCs (minimal adaptive), the escape VC (dimension order, bubble flow
  // control) and the high-priority VC (dimension order, bubble flow control).
  localparam int TrNumVcs   = 4;
  localparam int TrVcDyn0   = 0;
  localparam int TrVcDyn1   = 1;
  localparam int TrVcEscape = 2;
  localparam int TrVcPrio   = 3;

  // ---------------------------------------------------------------- packet header
  // One 64-bit flit:
  // [7:0] destination x  [15:8] destination y  [23:16] destination z
  // [29:24] hint bits, bit d = travel in direction d (0: the injecting router computes
  //         the minimal directions)
  // [30] deposit: deliver a copy at every node on the way (line broadcast, one dimension)
  // [31] deterministic: dimension order on the escape VC (0: minimal adaptive)
  // [32] priority: the high-priority VC and reception FIFO
  // [35:33] size: chunks - 1 (1..8 chunks of 32 bytes follow the header)
  // [59:36] source x, y, z (written by the injecting router)
  // [63:60] software tag, carried unchanged
  localparam int TrHdrDstLsb    = 0;
  localparam int TrHdrHintLsb   = 24;
  localparam int TrHdrDepositBit = 30;
  localparam int TrHdrDetermBit = 31;
  localparam int TrHdrPrioBit   = 32;
  localparam int TrHdrSizeLsb   = 33;
  localparam int TrHdrSizeW     = 3;
  localparam int TrHdrSrcLsb    = 36;
  localparam int TrHdrSwTagLsb  = 60;

  // ---------------------------------------------------------------- errors
  // Bits of RegTrErr. The router reports the first four (as pulses, made sticky by the
  // register block); the register block adds the rest.
  localparam int TrErrLinkProto   = 0;  // a link broke framing or overran a VC buffer
  localparam int TrErrBadDest     = 1;  // an injected header named a coordinate outside the torus
  localparam int TrErrDownLink    = 2;  // a packet's route needed a link marked down
  localparam int TrErrDeposit     = 3;  // a deposit packet was not deterministic along one dimension
  localparam int TrRouterErrBits  = 4;
  localparam int TrErrInjFull     = 4;  // a header or chunk written to an injection FIFO without room
  localparam int TrErrRcvEmpty    = 5;  // a header or chunk read from a reception FIFO holding less
  localparam int TrErrBadAccess   = 6;  // an unmapped torus register, or a write to a read-only one
  localparam int TrErrBits        = 7;

  // ---------------------------------------------------------------- registers
  // The torus window of the node's register bus, 0x800-0xbff. Every access completes in
  // the cycle it is presented; read data follows a cycle later. A refused access (no room,
  // too little to read, bad address) changes nothing but its error bit.
  localparam logic [11:0] RegTrStatus    = 12'h800;  // RO  FIFO levels, see TrStatus* below
  localparam logic [11:0] RegTrErr       = 12'h808;  // RO  sticky error bits (TrErr*)
  localparam logic [11:0] RegTrErrClear  = 12'h810;  // WO  write 1s to clear error bits
  localparam logic [11:0] RegTrConfig    = 12'h818;  // RO  [23:0] x, y, z  [47:24] torus size  [53:48] links down
  localparam logic [11:0] RegTrInjHdr    = 12'h820;  // WO  + 8*k: push a header into injection FIFO k (0, 1 normal, 2 high priority)
  localparam logic [11:0] RegTrInjChunk  = 12'h840;  // WO  + 8*k: push a chunk (four words, a vector write) into injection FIFO k
  localparam logic [11:0] RegTrRcvHdr    = 12'h860;  // RO  + 8*k: pop one word (a header) from reception FIFO k (0 normal, 1 high priority)
  localparam logic [11:0] RegTrRcvChunk  = 12'h870;  // RO  + 8*k: pop a chunk (four words, a vector read) from reception FIFO k
  localparam int TrInjFifos          = 3;
  localparam int TrRcvFifos          = 2;
  localparam int TrInjFlits          = 128;  // each injection FIFO, flits
  localparam int TrRcvFlits          = 256;  // each reception FIFO, flits
  // RegTrStatus fields
  localparam int TrStatusInjFreeLsb  = 0;    // 8 bits per injection FIFO k at + 8*k: free flits
  localparam int TrStatusRcvCountLsb = 32;   // 12 bits per reception FIFO k at + 16*k: flits held
  localparam int TrStatusErrBit      = 63;   // some error bit is set

  // ---------------------------------------------------------------- field helpers
  /* verilator lint_off UNUSEDSIGNAL */
  function automatic logic [CoordW-1:0] coord(input logic [3*CoordW-1:0] c, input int dim);
    coord = c[dim*CoordW +: CoordW];
  endfunction
  // Flits of a packet with this header: the header and 4 per chunk.
  function automatic logic [5:0] packet_flits(input logic [TrFlitBits-1:0] h);
    packet_flits = 6'd1 + 6'(ChunkFlits) * (6'(h[TrHdrSizeLsb +: TrHdrSizeW]) + 6'd1);
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

endpackage : tr_pkg
/* verilator lint_on UNUSEDPARAM */

`default_nettype wire
