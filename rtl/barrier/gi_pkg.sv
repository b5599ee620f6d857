// gi_pkg: the global interrupt (barrier) network's channel routes and registers. Mirrored
// in firmware/regmap.hpp; tests/regmap_agreement_test.cpp checks both sides agree.
// Portability rules as in cn_pkg (no import, int constants).
`default_nettype none

// A package's constants are not all used by every module that refers to it.
/* verilator lint_off UNUSEDPARAM */
package gi_pkg;

  localparam int GiChannels     = 4;  // barrier channels per node
  localparam int GiFirstPrivCh  = 2;  // channels 2..3 need the privileged bit to configure

  // Channel route: [1:0] up link (3 = none: root of the channel) [4:2] down-link mask
  // [5] the node participates (otherwise it contributes the identity: 1 to AND, 0 to OR)
  localparam int GiRouteUpLsb   = 0;
  localparam int GiRouteDownLsb = 2;
  localparam int GiRoutePartBit = 5;
  localparam int GiRouteBits    = 6;

  // Registers (byte addresses in the node's register space; 8-byte registers).
  localparam logic [11:0] RegGiRouteBase = 12'h400;  // RW  route of channel c at +8*c
  localparam logic [11:0] RegGiLocal     = 12'h420;  // RW  [3:0] this node's input bit per channel
  localparam logic [11:0] RegGiResult    = 12'h428;  // RO  [3:0] AND over the channel, [11:8] OR
  localparam logic [11:0] RegGiErr       = 12'h430;  // RO  [0] privilege violation [1] bad route (sticky)
  localparam logic [11:0] RegGiErrClear  = 12'h438;  // WO  write 1s to clear

  localparam int GiResultAndLsb = 0;
  localparam int GiResultOrLsb  = 8;
  localparam int GiErrPriv      = 0;
  localparam int GiErrBadRoute  = 1;

endpackage : gi_pkg
/* verilator lint_on UNUSEDPARAM */

`default_nettype wire
