// The register map, header and route layouts have one definition on each side: cn_pkg.sv
// for the RTL, firmware/regmap.hpp for software. This test reads the package source and
// fails on any constant that is missing on either side or differs.
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "firmware/regmap.hpp"

namespace {

uint64_t sv_value(const std::string& text) {
  std::string t;
  for (char c : text)
    if (c != '_' && c != ' ') t += c;
  const auto tick = t.find('\'');
  if (tick == std::string::npos) return std::stoull(t, nullptr, 10);
  const char base = static_cast<char>(std::tolower(t[tick + 1]));
  const std::string digits = t.substr(tick + 2);
  return std::stoull(digits, nullptr, base == 'h' ? 16 : base == 'b' ? 2 : base == 'o' ? 8 : 10);
}

std::map<std::string, uint64_t> package_constants() {
  std::string src;
  for (const char* pkg : {"/rtl/collective/cn_pkg.sv", "/rtl/barrier/gi_pkg.sv", "/rtl/torus/tr_pkg.sv"}) {
    std::ifstream f(std::string(COLLNET_SOURCE_DIR) + pkg);
    EXPECT_TRUE(f) << "cannot read " << pkg;
    std::stringstream ss;
    ss << f.rdbuf();
    src += ss.str();
  }
  const std::regex re(R"(localparam\s+(?:int(?:\s+unsigned)?|logic\s*\[\d+:0\])\s+(\w+)\s*=\s*([^;]+);)");
  std::map<std::string, uint64_t> out;
  for (auto it = std::sregex_iterator(src.begin(), src.end(), re); it != std::sregex_iterator(); ++it)
    out[(*it)[1]] = sv_value((*it)[2]);
  return out;
}

TEST(RegmapAgreement, EverySoftwareConstantMatchesTheRtlPackage) {
  const auto sv = package_constants();
  ASSERT_GT(sv.size(), 40u) << "the package parser found too few constants";
  for (const auto& c : collnet::fw::regmap::kConstants) {
    const auto it = sv.find(c.sv_name);
    ASSERT_NE(it, sv.end()) << c.sv_name << " is in regmap.hpp but not in cn_pkg.sv";
    EXPECT_EQ(it->second, c.value) << c.sv_name << ": cn_pkg.sv says " << it->second << ", regmap.hpp says " << c.value;
  }
}

TEST(RegmapAgreement, EveryRtlConstantIsKnownToSoftware) {
  for (const auto& [name, value] : package_constants()) {
    bool found = false;
    for (const auto& c : collnet::fw::regmap::kConstants) found = found || name == c.sv_name;
    EXPECT_TRUE(found) << name << " = " << value << " is in cn_pkg.sv but not in regmap.hpp";
  }
}

TEST(RegmapAgreement, TheParserReadsSvLiterals) {
  EXPECT_EQ(sv_value("12'h100"), 0x100u);
  EXPECT_EQ(sv_value("64'h00c0_11e7_0001_0001"), 0x00c011e700010001ull);
  EXPECT_EQ(sv_value("3'd6"), 6u);
  EXPECT_EQ(sv_value("2'b11"), 3u);
  EXPECT_EQ(sv_value("28"), 28u);
}

}  // namespace
