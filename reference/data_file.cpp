// SPDX-License-Identifier: Apache-2.0
#include "reference/data_file.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <stdexcept>

namespace collnet::reference {

using driver::Datatype;

namespace {

uint64_t canonical_nan(Datatype t) { return driver::double_to_raw(t, std::numeric_limits<double>::quiet_NaN()); }

}  // namespace

std::string hex64(uint64_t bits) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(bits));
  return buf;
}

nlohmann::json element_to_json(Datatype t, uint64_t raw) {
  raw &= driver::raw_mask(t);
  if (driver::is_float(t)) {
    const double d = driver::raw_to_double(t, raw);
    if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
    if (std::isnan(d)) return raw == canonical_nan(t) ? std::string("nan") : hex64(raw);
    return d;
  }
  if (driver::is_signed(t)) return driver::raw_to_int(t, raw);
  return raw;
}

uint64_t element_from_json(Datatype t, const nlohmann::json& v) {
  if (driver::is_float(t)) {
    if (v.is_string()) {
      const std::string s = v.get<std::string>();
      if (s == "inf") return driver::double_to_raw(t, std::numeric_limits<double>::infinity());
      if (s == "-inf") return driver::double_to_raw(t, -std::numeric_limits<double>::infinity());
      if (s == "nan") return canonical_nan(t);
      if (s.size() > 2 && s.size() <= 18 && s.rfind("0x", 0) == 0 &&
          s.find_first_not_of("0123456789abcdefABCDEF", 2) == std::string::npos) {
        const uint64_t raw = std::stoull(s.substr(2), nullptr, 16);
        if (raw & ~driver::raw_mask(t))
          throw std::invalid_argument("bit pattern " + s + " is wider than " + to_string(t));
        return raw;
      }
      throw std::invalid_argument("'" + s + "' is not a number, \"inf\", \"-inf\", \"nan\" or a 0x bit pattern");
    }
    if (!v.is_number()) throw std::invalid_argument(v.dump() + " is not a number");
    const double d = v.get<double>();
    if (t == Datatype::F32 && static_cast<double>(static_cast<float>(d)) != d && std::isfinite(d))
      throw std::invalid_argument(v.dump() + " is not exactly representable as f32");
    return driver::double_to_raw(t, d);
  }
  if (!v.is_number_integer()) throw std::invalid_argument(v.dump() + " is not an integer");
  const unsigned b = driver::bits(t);
  if (driver::is_signed(t)) {
    if (v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
      throw std::invalid_argument(v.dump() + " is out of range for " + to_string(t));
    const int64_t x = v.get<int64_t>();
    const int64_t lo = b == 64 ? std::numeric_limits<int64_t>::min() : -(int64_t{1} << (b - 1));
    const int64_t hi = b == 64 ? std::numeric_limits<int64_t>::max() : (int64_t{1} << (b - 1)) - 1;
    if (x < lo || x > hi) throw std::invalid_argument(v.dump() + " is out of range for " + to_string(t));
    return static_cast<uint64_t>(x) & driver::raw_mask(t);
  }
  if (v.is_number_unsigned() || v.get<int64_t>() >= 0) {
    const uint64_t x = v.get<uint64_t>();
    if (x & ~driver::raw_mask(t)) throw std::invalid_argument(v.dump() + " is out of range for " + to_string(t));
    return x;
  }
  throw std::invalid_argument(v.dump() + " is out of range for " + std::string(to_string(t)));
}

std::vector<std::vector<uint64_t>> read_data_file(const std::string& path, Datatype t, bool pairs, size_t ranks) {
  std::ifstream f(path);
  if (!f) throw std::invalid_argument("cannot read '" + path + "'");
  return read_data(f, path, t, pairs, ranks);
}

std::vector<std::vector<uint64_t>> read_data(std::istream& f, const std::string& path, Datatype t, bool pairs,
                                             size_t ranks) {
  nlohmann::json js;
  try {
    f >> js;
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument("'" + path + "' is not valid JSON: " + e.what());
  }
  if (!js.is_array()) throw std::invalid_argument("'" + path + "' must hold an array with one array per rank");
  if (js.size() != ranks)
    throw std::invalid_argument("'" + path + "' holds " + std::to_string(js.size()) + " arrays; the run has " +
                                std::to_string(ranks) + " ranks");
  std::vector<std::vector<uint64_t>> out(ranks);
  for (size_t r = 0; r < ranks; ++r) {
    const nlohmann::json& a = js[r];
    if (!a.is_array()) throw std::invalid_argument("'" + path + "': rank " + std::to_string(r) + " is not an array");
    if (a.size() != js[0].size())
      throw std::invalid_argument("'" + path + "': rank " + std::to_string(r) + " has " + std::to_string(a.size()) +
                                  " elements, rank 0 has " + std::to_string(js[0].size()));
    for (size_t i = 0; i < a.size(); ++i) {
      const std::string where = "'" + path + "': rank " + std::to_string(r) + " element " + std::to_string(i) + ": ";
      try {
        if (pairs) {
          if (!a[i].is_array() || a[i].size() != 2 || !a[i][1].is_number_integer() || a[i][1].get<int64_t>() < 0)
            throw std::invalid_argument(a[i].dump() + " is not a [value, index] pair with an index >= 0");
          out[r].push_back(element_from_json(t, a[i][0]));
          out[r].push_back(a[i][1].get<uint64_t>());
        } else {
          out[r].push_back(element_from_json(t, a[i]));
        }
      } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(where + e.what());
      } catch (const nlohmann::json::exception& e) {
        throw std::invalid_argument(where + e.what());
      }
    }
  }
  if (ranks > 0 && out[0].empty()) throw std::invalid_argument("'" + path + "': the arrays are empty");
  return out;
}

void write_data_file(const std::string& path, Datatype t, bool pairs,
                     const std::vector<std::optional<std::vector<uint64_t>>>& data) {
  nlohmann::json js = nlohmann::json::array();
  for (const auto& rank : data) {
    if (!rank) {
      js.push_back(nullptr);
      continue;
    }
    nlohmann::json a = nlohmann::json::array();
    const std::vector<uint64_t>& v = *rank;
    for (size_t i = 0; i < v.size(); i += pairs ? 2 : 1) {
      if (pairs)
        a.push_back({element_to_json(t, v[i]), v[i + 1]});
      else
        a.push_back(element_to_json(t, v[i]));
    }
    js.push_back(std::move(a));
  }
  std::ofstream f(path);
  if (!f) throw std::runtime_error("cannot write '" + path + "'");
  f << js.dump() << "\n";
  if (!f) throw std::runtime_error("cannot write '" + path + "'");
}

}  // namespace collnet::reference
