#include "report/compiled.hpp"

#include <cmath>

#include <fmt/format.h>

#include "report/json_opt.hpp"

namespace xr::app {
namespace {

using json = nlohmann::ordered_json;

template <class T>
std::optional<T> opt_from(const json& j, const char* key) {
  if (!j.contains(key) || !j.at(key).is_number()) return std::nullopt;
  return j.at(key).get<T>();
}

std::string text_of(const json& j, const char* key) {
  return j.contains(key) && j.at(key).is_string() ? j.at(key).get<std::string>() : "";
}

json pass_json(const PassFacts& p) {
  return {{"kernel", p.kernel},
          {"block", p.block},
          {"grid", p.grid},
          {"registers", opt_json(p.registers)},
          {"shared_bytes", opt_json(p.shared_bytes)},
          {"local_bytes", opt_json(p.local_bytes)},
          {"binary_bytes", opt_json(p.binary_bytes)},
          {"instructions", opt_json(p.instructions)},
          {"occupancy", opt_json(p.occupancy)},
          {"blocks_per_sm", opt_json(p.blocks_per_sm)},
          {"binds", p.binds},
          {"not_reported", p.not_reported}};
}

PassFacts pass_from(const json& j) {
  PassFacts p;
  p.kernel = text_of(j, "kernel");
  p.block = opt_from<std::uint32_t>(j, "block").value_or(0);
  p.grid = opt_from<std::uint64_t>(j, "grid").value_or(0);
  p.registers = opt_from<int>(j, "registers");
  p.shared_bytes = opt_from<std::uint64_t>(j, "shared_bytes");
  p.local_bytes = opt_from<std::uint64_t>(j, "local_bytes");
  p.binary_bytes = opt_from<std::uint64_t>(j, "binary_bytes");
  p.instructions = opt_from<int>(j, "instructions");
  p.occupancy = opt_from<double>(j, "occupancy");
  p.blocks_per_sm = opt_from<int>(j, "blocks_per_sm");
  p.binds = text_of(j, "binds");
  p.not_reported = text_of(j, "not_reported");
  return p;
}

std::string count_text(auto v) {
  return fmt::format("{}", v);
}

std::string pct_text(double fraction) {
  return fmt::format("{:.4g}%", 100 * fraction);
}

// One fact of a pass as shown, or nullopt where the pass does not report it.
std::optional<std::string> fact_text(const PassFacts& p, const std::string& fact) {
  if (fact == "block") return count_text(p.block);
  if (fact == "grid") return count_text(p.grid);
  if (fact == "registers" && p.registers) return count_text(*p.registers);
  if (fact == "shared" && p.shared_bytes) return count_text(*p.shared_bytes);
  if (fact == "local" && p.local_bytes) return count_text(*p.local_bytes);
  if (fact == "occupancy" && p.occupancy) return pct_text(*p.occupancy);
  if (fact == "instructions" && p.instructions) return count_text(*p.instructions);
  if (fact == "binary" && p.binary_bytes) return count_text(*p.binary_bytes);
  return std::nullopt;
}

constexpr const char* kComparedFacts[] = {"block", "grid",      "registers",   "shared",
                                          "local", "occupancy", "instructions"};

}  // namespace

PassFacts facts_of(const InspectedPass& ip) {
  const CompiledPass& c = ip.pass;
  PassFacts p;
  p.kernel = c.kernel;
  p.block = c.block;
  p.grid = c.grid;
  p.registers = c.registers;
  if (c.static_shared) p.shared_bytes = *c.static_shared + c.dynamic_shared;
  p.local_bytes = c.local_bytes;
  p.binary_bytes = c.binary_bytes;
  p.instructions = c.instructions;
  p.not_reported = c.not_reported;
  if (ip.occupancy) {
    p.occupancy = ip.occupancy->fraction;
    p.blocks_per_sm = ip.occupancy->blocks_per_sm;
    p.binds = binding_words(*ip.occupancy);
  }
  return p;
}

json compiled_json(const std::optional<RowCompiled>& c) {
  if (!c) return nullptr;
  json passes = json::array();
  for (const PassFacts& p : c->passes) passes.push_back(pass_json(p));
  return {{"passes", std::move(passes)}, {"note", c->note}};
}

std::optional<RowCompiled> compiled_from_json(const json& j) {
  if (!j.is_object() || !j.contains("passes") || !j.at("passes").is_array()) return std::nullopt;
  RowCompiled c;
  for (const json& p : j.at("passes"))
    if (p.is_object()) c.passes.push_back(pass_from(p));
  c.note = text_of(j, "note");
  return c;
}

std::vector<FactDifference> differing_facts(const RowCompiled& a, const RowCompiled& b) {
  std::vector<FactDifference> out;
  if (a.passes.size() != b.passes.size())
    out.push_back({"passes", 0, count_text(a.passes.size()), count_text(b.passes.size())});
  const std::size_t both = std::min(a.passes.size(), b.passes.size());
  for (std::size_t i = 0; i < both; ++i)
    for (const char* fact : kComparedFacts) {
      const auto x = fact_text(a.passes[i], fact), y = fact_text(b.passes[i], fact);
      if (x && y && *x != *y) out.push_back({fact, static_cast<int>(i + 1), *x, *y});
    }
  return out;
}

std::string change_words(const FactDifference& d) {
  if (d.pass == 0) return fmt::format("{} {} -> {}", d.fact, d.a, d.b);
  return fmt::format("{} {} -> {} (pass {})", d.fact, d.a, d.b, d.pass);
}

std::string per_pass(const RowCompiled& c, const std::string& fact) {
  std::string s;
  for (const PassFacts& p : c.passes)
    s += (s.empty() ? "" : " / ") + fact_text(p, fact).value_or("-");
  return s.empty() ? "-" : s;
}

}  // namespace xr::app
