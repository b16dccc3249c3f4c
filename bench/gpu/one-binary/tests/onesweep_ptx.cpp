#include "onesweep_ptx.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <regex>
#include <sstream>

namespace xr::onebin::test {

const PtxModule& onesweep_ptx() {
  static const PtxModule ptx = [] {
    std::ifstream in(XR_ONESWEEP_PTX, std::ios::binary);
    REQUIRE(in);
    std::stringstream s;
    s << in.rdbuf();
    return PtxModule::parse(s.str());
  }();
  return ptx;
}

std::string entry_named(const std::string& part) {
  std::vector<std::string> found;
  for (const std::string& e : onesweep_ptx().entries())
    if (e.find(part) != std::string::npos) found.push_back(e);
  INFO(part);
  REQUIRE(found.size() == 1);
  return found.front();
}

std::vector<ParamSpan> declared_spans(const PtxModule& ptx, const std::string& entry) {
  const std::string& text = ptx.entry_text(entry);
  const auto open = text.find('('), close = text.find(')', open);
  const std::string list = text.substr(open + 1, close - open - 1);
  // ".param .align 8 .b8 NAME[120]", ".param .u64 NAME", ".param .u64 .ptr .global NAME"
  static const std::regex declaration(
      R"(\.param\s+(?:\.align\s+(\d+)\s+)?\.[a-z]+(\d+)\s[^,\[]*?(?:\[(\d+)\])?\s*(?:,|$))");
  std::vector<ParamSpan> spans;
  std::size_t at = 0;
  for (std::sregex_iterator it(list.begin(), list.end(), declaration), end; it != end; ++it) {
    const std::smatch& m = *it;
    const std::size_t width = std::stoul(m[2]) / 8;
    const std::size_t size = width * (m[3].matched ? std::stoul(m[3]) : 1);
    const std::size_t align = m[1].matched ? std::stoul(m[1]) : width;
    at = (at + align - 1) / align * align;
    spans.push_back({at, size});
    at += size;
  }
  return spans;
}

}  // namespace xr::onebin::test
