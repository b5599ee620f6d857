// The node's register map as seen by software: the combining network's registers, packet
// header and class-route encoding, the barrier network's, and the torus packet header.
// Mirrors rtl/collective/cn_pkg.sv, rtl/barrier/gi_pkg.sv and rtl/torus/tr_pkg.sv constant for constant;
// tests/regmap_agreement_test.cpp proves the two sides agree.
#pragma once

#include <cstdint>

namespace collnet::fw::regmap {

// ------------------------------------------------------------------ geometry
inline constexpr unsigned kNumLinks = 3;
inline constexpr unsigned kNumClasses = 16;
inline constexpr unsigned kFirstPrivClass = 12;
inline constexpr unsigned kFlitBits = 64;
inline constexpr unsigned kHeaderBits = 32;
inline constexpr unsigned kPayloadFlits = 32;
inline constexpr unsigned kPayloadBytes = kPayloadFlits * kFlitBits / 8;
inline constexpr unsigned kVectorWords = 4;    // 64-bit words in one vector register access
inline constexpr unsigned kBusDataBits = 256;  // register bus data: kVectorWords * kFlitBits
inline constexpr unsigned kNumVcs = 2;  // virtual channels on every link
inline constexpr unsigned kVcUser = 0;
inline constexpr unsigned kVcSystem = 1;  // needs the privileged bit
static_assert(kBusDataBits == kVectorWords * kFlitBits, "a vector access fills the bus");
static_assert(kPayloadFlits % kVectorWords == 0, "a packet's payload is whole vectors");

// ------------------------------------------------------------------ packet header
inline constexpr unsigned kHdrClassLsb = 28;
inline constexpr unsigned kHdrClassW = 4;
inline constexpr unsigned kHdrP2pBit = 27;
inline constexpr unsigned kHdrIrqBit = 26;
inline constexpr unsigned kHdrOpLsb = 23;
inline constexpr unsigned kHdrOpW = 3;
inline constexpr unsigned kHdrSizeLsb = 16;
inline constexpr unsigned kHdrSizeW = 7;
inline constexpr unsigned kHdrTagLsb = 2;
inline constexpr unsigned kHdrTagW = 14;

// ------------------------------------------------------------------ ALU opcodes
inline constexpr unsigned kOpNone = 0;
inline constexpr unsigned kOpOr = 1;
inline constexpr unsigned kOpAnd = 2;
inline constexpr unsigned kOpXor = 3;
inline constexpr unsigned kOpMin = 4;
inline constexpr unsigned kOpMax = 5;
inline constexpr unsigned kOpAdd = 6;

// ------------------------------------------------------------------ operand widths
inline constexpr unsigned kWidth16 = 0;
inline constexpr unsigned kWidth32 = 1;
inline constexpr unsigned kWidth64 = 2;

// ------------------------------------------------------------------ class route
inline constexpr unsigned kRouteUpLsb = 0;
inline constexpr unsigned kRouteDownLsb = 2;
inline constexpr unsigned kRouteSrcBit = 5;
inline constexpr unsigned kRouteDstBit = 6;
inline constexpr unsigned kRouteBits = 7;
inline constexpr unsigned kRouteUpNone = 3;

// ------------------------------------------------------------------ registers
inline constexpr uint32_t kRegId = 0x000;
inline constexpr uint32_t kRegStatus = 0x008;
inline constexpr uint32_t kRegInjHdr = 0x010;
inline constexpr uint32_t kRegInjData = 0x018;
inline constexpr uint32_t kRegRcvHdr = 0x020;
inline constexpr uint32_t kRegRcvData = 0x028;
inline constexpr uint32_t kRegErr = 0x030;
inline constexpr uint32_t kRegErrClear = 0x038;
inline constexpr uint32_t kRegErrInfo = 0x040;
inline constexpr uint32_t kRegErrSource = 0x048;
inline constexpr uint32_t kRegInjIdentity = 0x050;
inline constexpr uint32_t kRegInjVector = 0x058;
inline constexpr uint32_t kRegRcvVector = 0x060;
inline constexpr uint32_t kRegRouteBase = 0x100;
// The system VC's FIFO registers: the user VC's (status, injection, reception) + this.
inline constexpr uint32_t kRegSysVcOffset = 0x080;
inline constexpr uint64_t kRegIdValue = 0x00c0'11e7'0001'0003ULL;

inline constexpr uint32_t route_reg(unsigned cls) { return kRegRouteBase + 8 * cls; }

// RegStatus fields
inline constexpr unsigned kStatusInjHdrFreeLsb = 0;
inline constexpr unsigned kStatusInjDataFreeLsb = 8;
inline constexpr unsigned kStatusRcvHdrLsb = 32;
inline constexpr unsigned kStatusRcvDataLsb = 40;
inline constexpr unsigned kStatusErrBit = 63;

// RegErrSource fields
inline constexpr unsigned kErrSourceVcBit = 2;

// RegInjIdentity fields
inline constexpr unsigned kInjIdentityCountLsb = 32;

// RegErr bits
inline constexpr unsigned kErrInjOverflow = 0;
inline constexpr unsigned kErrRcvUnderflow = 1;
inline constexpr unsigned kErrHdrMismatch = 2;
inline constexpr unsigned kErrBadOpcode = 3;
inline constexpr unsigned kErrBadRoute = 4;
inline constexpr unsigned kErrPriv = 5;
inline constexpr unsigned kErrBadAddr = 6;
inline constexpr unsigned kErrBadRouteCfg = 7;
inline constexpr unsigned kErrLinkProto = 8;
inline constexpr unsigned kErrBadSize = 9;
inline constexpr unsigned kErrBits = 10;

// ------------------------------------------------------------------ barrier network (gi_pkg.sv)
inline constexpr unsigned kGiChannels = 4;
inline constexpr unsigned kGiFirstPrivCh = 2;
inline constexpr unsigned kGiRouteUpLsb = 0;
inline constexpr unsigned kGiRouteDownLsb = 2;
inline constexpr unsigned kGiRoutePartBit = 5;
inline constexpr unsigned kGiRouteBits = 6;
inline constexpr uint32_t kRegGiRouteBase = 0x400;
inline constexpr uint32_t kRegGiLocal = 0x420;
inline constexpr uint32_t kRegGiResult = 0x428;
inline constexpr uint32_t kRegGiErr = 0x430;
inline constexpr uint32_t kRegGiErrClear = 0x438;
inline constexpr unsigned kGiResultAndLsb = 0;
inline constexpr unsigned kGiResultOrLsb = 8;
inline constexpr unsigned kGiErrPriv = 0;
inline constexpr unsigned kGiErrBadRoute = 1;

// ------------------------------------------------------------------ torus (tr_pkg.sv)
inline constexpr unsigned kNumDirs = 6;  // x+ x- y+ y- z+ z-: direction 2*dim + (1 if minus)
inline constexpr unsigned kCoordW = 8;
inline constexpr unsigned kTrFlitBits = 64;
inline constexpr unsigned kChunkFlits = 4;
inline constexpr unsigned kMaxChunks = 8;
inline constexpr unsigned kMaxPacketFlits = 33;
static_assert(kMaxPacketFlits == 1 + kChunkFlits * kMaxChunks, "a header and 8 chunks");
inline constexpr unsigned kTrNumVcs = 4;
inline constexpr unsigned kTrVcDyn0 = 0;
inline constexpr unsigned kTrVcDyn1 = 1;
inline constexpr unsigned kTrVcEscape = 2;
inline constexpr unsigned kTrVcPrio = 3;
inline constexpr unsigned kTrHdrDstLsb = 0;
inline constexpr unsigned kTrHdrHintLsb = 24;
inline constexpr unsigned kTrHdrDepositBit = 30;
inline constexpr unsigned kTrHdrDetermBit = 31;
inline constexpr unsigned kTrHdrPrioBit = 32;
inline constexpr unsigned kTrHdrSizeLsb = 33;
inline constexpr unsigned kTrHdrSizeW = 3;
inline constexpr unsigned kTrHdrSrcLsb = 36;
inline constexpr unsigned kTrHdrSwTagLsb = 60;
inline constexpr unsigned kTrErrLinkProto = 0;
inline constexpr unsigned kTrErrBadDest = 1;
inline constexpr unsigned kTrErrDownLink = 2;
inline constexpr unsigned kTrErrDeposit = 3;
inline constexpr unsigned kTrRouterErrBits = 4;
inline constexpr unsigned kTrErrInjFull = 4;
inline constexpr unsigned kTrErrRcvEmpty = 5;
inline constexpr unsigned kTrErrBadAccess = 6;
inline constexpr unsigned kTrErrBits = 7;
inline constexpr uint32_t kRegTrStatus = 0x800;
inline constexpr uint32_t kRegTrErr = 0x808;
inline constexpr uint32_t kRegTrErrClear = 0x810;
inline constexpr uint32_t kRegTrConfig = 0x818;
inline constexpr uint32_t kRegTrInjHdr = 0x820;    // + 8 * FIFO
inline constexpr uint32_t kRegTrInjChunk = 0x840;  // + 8 * FIFO, vector write
inline constexpr uint32_t kRegTrRcvHdr = 0x860;    // + 8 * FIFO
inline constexpr uint32_t kRegTrRcvChunk = 0x870;  // + 8 * FIFO, vector read
inline constexpr unsigned kTrInjFifos = 3;
inline constexpr unsigned kTrRcvFifos = 2;
inline constexpr unsigned kTrInjFlits = 128;
inline constexpr unsigned kTrRcvFlits = 256;
inline constexpr unsigned kTrStatusInjFreeLsb = 0;
inline constexpr unsigned kTrStatusRcvCountLsb = 32;
inline constexpr unsigned kTrStatusErrBit = 63;

// The name/value table that the agreement test compares with cn_pkg.sv. Names are the
// SystemVerilog names.
struct Constant {
  const char* sv_name;
  uint64_t value;
};

inline constexpr Constant kConstants[] = {
    {"NumLinks", kNumLinks},
    {"NumClasses", kNumClasses},
    {"FirstPrivClass", kFirstPrivClass},
    {"FlitBits", kFlitBits},
    {"HeaderBits", kHeaderBits},
    {"PayloadFlits", kPayloadFlits},
    {"VectorWords", kVectorWords},
    {"BusDataBits", kBusDataBits},
    {"NumVcs", kNumVcs},
    {"VcUser", kVcUser},
    {"VcSystem", kVcSystem},
    {"HdrClassLsb", kHdrClassLsb},
    {"HdrClassW", kHdrClassW},
    {"HdrP2pBit", kHdrP2pBit},
    {"HdrIrqBit", kHdrIrqBit},
    {"HdrOpLsb", kHdrOpLsb},
    {"HdrOpW", kHdrOpW},
    {"HdrSizeLsb", kHdrSizeLsb},
    {"HdrSizeW", kHdrSizeW},
    {"HdrTagLsb", kHdrTagLsb},
    {"HdrTagW", kHdrTagW},
    {"OpNone", kOpNone},
    {"OpOr", kOpOr},
    {"OpAnd", kOpAnd},
    {"OpXor", kOpXor},
    {"OpMin", kOpMin},
    {"OpMax", kOpMax},
    {"OpAdd", kOpAdd},
    {"Width16", kWidth16},
    {"Width32", kWidth32},
    {"Width64", kWidth64},
    {"RouteUpLsb", kRouteUpLsb},
    {"RouteDownLsb", kRouteDownLsb},
    {"RouteSrcBit", kRouteSrcBit},
    {"RouteDstBit", kRouteDstBit},
    {"RouteBits", kRouteBits},
    {"RouteUpNone", kRouteUpNone},
    {"RegId", kRegId},
    {"RegStatus", kRegStatus},
    {"RegInjHdr", kRegInjHdr},
    {"RegInjData", kRegInjData},
    {"RegRcvHdr", kRegRcvHdr},
    {"RegRcvData", kRegRcvData},
    {"RegErr", kRegErr},
    {"RegErrClear", kRegErrClear},
    {"RegErrInfo", kRegErrInfo},
    {"RegErrSource", kRegErrSource},
    {"RegInjIdentity", kRegInjIdentity},
    {"RegInjVector", kRegInjVector},
    {"RegRcvVector", kRegRcvVector},
    {"RegRouteBase", kRegRouteBase},
    {"RegSysVcOffset", kRegSysVcOffset},
    {"RegIdValue", kRegIdValue},
    {"StatusInjHdrFreeLsb", kStatusInjHdrFreeLsb},
    {"StatusInjDataFreeLsb", kStatusInjDataFreeLsb},
    {"StatusRcvHdrLsb", kStatusRcvHdrLsb},
    {"StatusRcvDataLsb", kStatusRcvDataLsb},
    {"StatusErrBit", kStatusErrBit},
    {"ErrSourceVcBit", kErrSourceVcBit},
    {"InjIdentityCountLsb", kInjIdentityCountLsb},
    {"ErrInjOverflow", kErrInjOverflow},
    {"ErrRcvUnderflow", kErrRcvUnderflow},
    {"ErrHdrMismatch", kErrHdrMismatch},
    {"ErrBadOpcode", kErrBadOpcode},
    {"ErrBadRoute", kErrBadRoute},
    {"ErrPriv", kErrPriv},
    {"ErrBadAddr", kErrBadAddr},
    {"ErrBadRouteCfg", kErrBadRouteCfg},
    {"ErrLinkProto", kErrLinkProto},
    {"ErrBadSize", kErrBadSize},
    {"ErrBits", kErrBits},
    {"GiChannels", kGiChannels},
    {"GiFirstPrivCh", kGiFirstPrivCh},
    {"GiRouteUpLsb", kGiRouteUpLsb},
    {"GiRouteDownLsb", kGiRouteDownLsb},
    {"GiRoutePartBit", kGiRoutePartBit},
    {"GiRouteBits", kGiRouteBits},
    {"RegGiRouteBase", kRegGiRouteBase},
    {"RegGiLocal", kRegGiLocal},
    {"RegGiResult", kRegGiResult},
    {"RegGiErr", kRegGiErr},
    {"RegGiErrClear", kRegGiErrClear},
    {"GiResultAndLsb", kGiResultAndLsb},
    {"GiResultOrLsb", kGiResultOrLsb},
    {"GiErrPriv", kGiErrPriv},
    {"GiErrBadRoute", kGiErrBadRoute},
    {"NumDirs", kNumDirs},
    {"CoordW", kCoordW},
    {"TrFlitBits", kTrFlitBits},
    {"ChunkFlits", kChunkFlits},
    {"MaxChunks", kMaxChunks},
    {"MaxPacketFlits", kMaxPacketFlits},
    {"TrNumVcs", kTrNumVcs},
    {"TrVcDyn0", kTrVcDyn0},
    {"TrVcDyn1", kTrVcDyn1},
    {"TrVcEscape", kTrVcEscape},
    {"TrVcPrio", kTrVcPrio},
    {"TrHdrDstLsb", kTrHdrDstLsb},
    {"TrHdrHintLsb", kTrHdrHintLsb},
    {"TrHdrDepositBit", kTrHdrDepositBit},
    {"TrHdrDetermBit", kTrHdrDetermBit},
    {"TrHdrPrioBit", kTrHdrPrioBit},
    {"TrHdrSizeLsb", kTrHdrSizeLsb},
    {"TrHdrSizeW", kTrHdrSizeW},
    {"TrHdrSrcLsb", kTrHdrSrcLsb},
    {"TrHdrSwTagLsb", kTrHdrSwTagLsb},
    {"TrErrLinkProto", kTrErrLinkProto},
    {"TrErrBadDest", kTrErrBadDest},
    {"TrErrDownLink", kTrErrDownLink},
    {"TrErrDeposit", kTrErrDeposit},
    {"TrRouterErrBits", kTrRouterErrBits},
    {"TrErrInjFull", kTrErrInjFull},
    {"TrErrRcvEmpty", kTrErrRcvEmpty},
    {"TrErrBadAccess", kTrErrBadAccess},
    {"TrErrBits", kTrErrBits},
    {"RegTrStatus", kRegTrStatus},
    {"RegTrErr", kRegTrErr},
    {"RegTrErrClear", kRegTrErrClear},
    {"RegTrConfig", kRegTrConfig},
    {"RegTrInjHdr", kRegTrInjHdr},
    {"RegTrInjChunk", kRegTrInjChunk},
    {"RegTrRcvHdr", kRegTrRcvHdr},
    {"RegTrRcvChunk", kRegTrRcvChunk},
    {"TrInjFifos", kTrInjFifos},
    {"TrRcvFifos", kTrRcvFifos},
    {"TrInjFlits", kTrInjFlits},
    {"TrRcvFlits", kTrRcvFlits},
    {"TrStatusInjFreeLsb", kTrStatusInjFreeLsb},
    {"TrStatusRcvCountLsb", kTrStatusRcvCountLsb},
    {"TrStatusErrBit", kTrStatusErrBit},
};

}  // namespace collnet::fw::regmap
