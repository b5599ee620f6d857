// SPDX-License-Identifier: Apache-2.0
#include "cli/tuning_file.hpp"

#include <cstdint>
#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "driver/error.hpp"

namespace collnet::cli {

driver::Tuning read_tuning_file(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw std::invalid_argument("cannot open '" + path + "'");
  return read_tuning(f, path);
}

driver::Tuning read_tuning(std::istream& f, const std::string& path) {
  nlohmann::json js;
  try {
    js = nlohmann::json::parse(f);
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument("'" + path + "' is not JSON: " + e.what());
  }
  if (!js.is_object() || !js.contains("rules") || !js["rules"].is_array())
    throw std::invalid_argument("'" + path + "' has no \"rules\" array");
  std::vector<driver::TuningRule> rules;
  for (size_t i = 0; i < js["rules"].size(); ++i) {
    const nlohmann::json& r = js["rules"][i];
    const std::string where = "'" + path + "' rule " + std::to_string(i);
    try {
      const auto c = driver::collective_named(r.at("collective").get<std::string>());
      const auto a = driver::algorithm_named(r.at("algorithm").get<std::string>());
      if (!c) throw std::invalid_argument(where + ": unknown collective " + r.at("collective").dump());
      if (!a) throw std::invalid_argument(where + ": unknown algorithm " + r.at("algorithm").dump());
      const nlohmann::json& up = r.at("up_to_bytes");
      const size_t up_to = up.is_null() ? SIZE_MAX : up.get<size_t>();
      driver::TypeClass types = driver::TypeClass::Any;
      if (r.contains("types")) {
        const auto k = driver::type_class_named(r["types"].get<std::string>());
        if (!k) throw std::invalid_argument(where + ": unknown type class " + r["types"].dump() + " (any, int, int64, float)");
        types = *k;
      }
      rules.push_back({*c, r.at("ranks").get<unsigned>(), up_to, *a, types});
    } catch (const nlohmann::json::exception& e) {
      throw std::invalid_argument(where + ": " + e.what());
    }
  }
  try {
    return driver::Tuning(std::move(rules));
  } catch (const Error& e) {
    throw std::invalid_argument("'" + path + "': " + e.what());
  }
}

void write_tuning_file(const std::string& path, const std::vector<driver::TuningRule>& rules,
                       const std::string& measured_on) {
  nlohmann::json js;
  js["measured_on"] = measured_on;
  js["rules"] = nlohmann::json::array();
  for (const driver::TuningRule& r : rules) {
    nlohmann::json j = {
        {"collective", to_string(r.collective)},
        {"ranks", r.ranks},
        {"up_to_bytes", r.up_to_bytes == SIZE_MAX ? nlohmann::json(nullptr) : nlohmann::json(r.up_to_bytes)},
        {"algorithm", to_string(r.algorithm)}};
    if (r.types != driver::TypeClass::Any) j["types"] = to_string(r.types);
    js["rules"].push_back(j);
  }
  std::ofstream f(path);
  if (!f) throw std::invalid_argument("cannot write '" + path + "'");
  f << js.dump(2) << "\n";
}

}  // namespace collnet::cli
