// compare's compiled facts: what differs between two calls pass by pass (a fact one side does not
// report is no difference), how a difference reads, the JSON object written and read back whole,
// and a report's rows carrying them through render_json and parse_saved_report.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "report/analysis.hpp"
#include "report/compiled.hpp"
#include "report/render.hpp"
#include "report/saved.hpp"
#include "report_fixtures.hpp"

using xr::app::FactDifference;
using xr::app::PassFacts;
using xr::app::RowCompiled;

namespace {

PassFacts facts(std::uint32_t block, std::uint64_t grid, std::optional<int> registers,
                std::optional<double> occupancy) {
  return {.kernel = std::string(1, 'k'),
          .block = block,
          .grid = grid,
          .registers = registers,
          .shared_bytes = 1024,
          .local_bytes = {},
          .binary_bytes = {},
          .instructions = {},
          .occupancy = occupancy,
          .blocks_per_sm = {},
          .binds = {},
          .not_reported = {}};
}

std::vector<std::string> words(const std::vector<FactDifference>& ds) {
  std::vector<std::string> out;
  for (const auto& d : ds) out.push_back(xr::app::change_words(d));
  return out;
}

}  // namespace

TEST_CASE("compiled facts: the differences of two calls, pass by pass",
          "[unit][report][compiled]") {
  const RowCompiled cuda{{facts(128, 65536, 128, 0.25)}, ""};
  const RowCompiled vulkan{{facts(64, 65536, 208, 0.125)}, ""};
  CHECK(words(xr::app::differing_facts(cuda, vulkan)) ==
        std::vector<std::string>{"block 128 -> 64 (pass 1)", "registers 128 -> 208 (pass 1)",
                                 "occupancy 25% -> 12.5% (pass 1)"});
  CHECK(xr::app::differing_facts(cuda, cuda).empty());

  SECTION("a fact one side does not report is not a difference") {
    const RowCompiled silent{{facts(128, 65536, std::nullopt, std::nullopt)}, ""};
    CHECK(xr::app::differing_facts(cuda, silent).empty());
  }
  SECTION("another number of passes, then the passes both have") {
    const RowCompiled two{{facts(128, 65536, 128, 0.25), facts(128, 1, 40, 1)}, ""};
    CHECK(words(xr::app::differing_facts(cuda, two)) == std::vector<std::string>{"passes 1 -> 2"});
    CHECK(xr::app::per_pass(two, "registers") == "128 / 40");
    CHECK(xr::app::per_pass(two, "occupancy") == "25% / 100%");
    CHECK(xr::app::per_pass(RowCompiled{}, "registers") == "-");
  }
}

TEST_CASE("compiled facts: the JSON object written and read back", "[unit][report][compiled]") {
  PassFacts p = facts(256, 4096, 32, 0.4375);
  p.local_bytes = 0;
  p.binary_bytes = 768;
  p.instructions = 48;
  p.blocks_per_sm = 7;
  p.binds = "registers, threads";
  p.not_reported = "";
  const RowCompiled c{{p}, "a note"};
  const xr::app::JsonReader reader("--merge", "r.json");
  const auto read = [&](const nlohmann::ordered_json& compiled) {
    return xr::app::compiled_from_json({{"compiled", compiled}}, reader, "result 0");
  };
  const auto back = read(xr::app::compiled_json(c));
  REQUIRE(back);
  REQUIRE(back->passes.size() == 1);
  const PassFacts& q = back->passes[0];
  CHECK(q.kernel == p.kernel);
  CHECK(q.block == 256);
  CHECK(q.grid == 4096);
  CHECK(q.registers == 32);
  CHECK(q.shared_bytes == std::optional<std::uint64_t>{1024});
  CHECK(q.local_bytes == std::optional<std::uint64_t>{0});
  CHECK(q.binary_bytes == std::optional<std::uint64_t>{768});
  CHECK(q.instructions == 48);
  CHECK(q.occupancy == Approx(0.4375));
  CHECK(q.blocks_per_sm == 7);
  CHECK(q.binds == "registers, threads");
  CHECK(back->note == "a note");
  CHECK(xr::app::differing_facts(c, *back).empty());
  CHECK_FALSE(read(nullptr));
  CHECK_FALSE(xr::app::compiled_from_json(nlohmann::ordered_json::object(), reader, "result 0"));
  // A field of the wrong type or range is refused, naming the file and the field.
  xrtest::require_error([&] { read(nlohmann::ordered_json::array()); }, xr::ErrorCategory::usage,
                        "--merge 'r.json': result 0's \"compiled\" is not an object");
  auto bad = xr::app::compiled_json(c);
  bad["passes"][0]["registers"] = -3;
  xrtest::require_error([&] { read(bad); }, xr::ErrorCategory::usage,
                        "result 0's \"compiled\" pass 1's \"registers\" is -3, not a whole number");
  bad = xr::app::compiled_json(c);
  bad["passes"][0]["occupancy"] = 7.5;
  xrtest::require_error([&] { read(bad); }, xr::ErrorCategory::usage,
                        "pass 1's \"occupancy\" is 7.5, not a number from 0 to 1");
}

TEST_CASE("compiled facts: a report's rows keep them through its JSON",
          "[unit][report][compiled]") {
  const xr::app::CompareReport r = xrtest::ladders_report();
  const xr::app::Analysis a = xr::app::analyze(r);
  const auto saved = xr::app::parse_saved_report(xr::app::render_json({r, a}), "r.json", "--merge");
  REQUIRE(saved.data.rows.size() == r.rows.size());
  int with_facts = 0;
  for (std::size_t i = 0; i < r.rows.size(); ++i) {
    const auto& before = r.rows[i].compiled;
    const auto& after = saved.data.rows[i].compiled;
    REQUIRE(before.has_value() == after.has_value());
    if (!before) continue;
    ++with_facts;
    CHECK(after->passes.size() == before->passes.size());
    CHECK(xr::app::differing_facts(*before, *after).empty());
  }
  CHECK(with_facts == 7);
  // The side by side of the look-back names what differs; the ladder step compiled alike, none.
  int compared = 0;
  for (const auto& x : a.side_by_side) {
    const xr::app::Partner* vulkan = x.partner("vulkan");
    REQUIRE(vulkan);
    if (!vulkan->compiled_differences) continue;
    ++compared;
    if (x.variant == "fast/decoupled-lookback")
      CHECK(words(*vulkan->compiled_differences) ==
            std::vector<std::string>{"registers 68 -> 64 (pass 1)", "shared 28 -> 4112 (pass 1)",
                                     "occupancy 43.75% -> 50% (pass 1)"});
    else
      CHECK(vulkan->compiled_differences->empty());
  }
  CHECK(compared == 3);
}
