#include "report/compiled.hpp"

#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "report/json_opt.hpp"

namespace xr::app {
namespace {

using json = nlohmann::ordered_json;

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

// A count that fits `T`, where the pass has one.
template <class T>
std::optional<T> count_from(const json& j, const char* key, const std::string& where,
                            const JsonReader& m) {
  const auto v =
      m.opt_count(j, key, where, static_cast<std::uint64_t>(std::numeric_limits<T>::max()));
  return v ? std::optional<T>(static_cast<T>(*v)) : std::nullopt;
}

PassFacts pass_from(const json& j, const std::string& where, const JsonReader& m) {
  PassFacts p;
  p.kernel = m.opt_str(j, "kernel", where);
  p.block = count_from<std::uint32_t>(j, "block", where, m).value_or(0);
  p.grid = count_from<std::uint64_t>(j, "grid", where, m).value_or(0);
  p.registers = count_from<int>(j, "registers", where, m);
  p.shared_bytes = count_from<std::uint64_t>(j, "shared_bytes", where, m);
  p.local_bytes = count_from<std::uint64_t>(j, "local_bytes", where, m);
  p.binary_bytes = count_from<std::uint64_t>(j, "binary_bytes", where, m);
  p.instructions = count_from<int>(j, "instructions", where, m);
  p.occupancy = m.opt_num(j, "occupancy", where, NumberRange::fraction());
  p.blocks_per_sm = count_from<int>(j, "blocks_per_sm", where, m);
  p.binds = m.opt_str(j, "binds", where);
  p.not_reported = m.opt_str(j, "not_reported", where);
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

std::optional<RowCompiled> compiled_from_json(const json& row, const JsonReader& m,
                                              const std::string& where) {
  const json* j = m.opt_object(row, "compiled", where);
  if (!j) return std::nullopt;
  const std::string at = where + "'s \"compiled\"";
  const json* passes = m.opt_array(*j, "passes", at);
  if (!passes) m.fail(at + " has no \"passes\"");
  RowCompiled c;
  for (std::size_t i = 0; i < passes->size(); ++i)
    c.passes.push_back(pass_from((*passes)[i], fmt::format("{} pass {}", at, i + 1), m));
  c.note = m.opt_str(*j, "note", at);
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
