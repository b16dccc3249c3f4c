#include "param_loads.hpp"

#include <algorithm>
#include <cctype>
#include <regex>
#include <string>
#include <string_view>

#include "xreduce/error.hpp"

namespace xr::onebin {
namespace {

bool name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$';
}

// The parameters' names in declaration order: the last name of each `.param` line of the list.
std::vector<std::string> param_names(const std::string& text) {
  const auto open = text.find('('), close = text.find(')', open);
  std::vector<std::string> names;
  std::size_t at = open;
  while ((at = text.find(".param", at)) != std::string::npos && at < close) {
    auto end = std::min(text.find_first_of(",\n)", at), close);
    std::string decl = text.substr(at, end - at);
    if (const auto bracket = decl.find('['); bracket != std::string::npos) decl.resize(bracket);
    decl.erase(decl.find_last_not_of(" \t") + 1);
    names.push_back(decl.substr(decl.find_last_of(" \t") + 1));
    at = end;
  }
  return names;
}

// Whether `line` names `name` as a whole token.
bool mentions(std::string_view line, const std::string& name) {
  for (auto at = line.find(name); at != std::string_view::npos; at = line.find(name, at + 1)) {
    const bool before = at > 0 && name_char(line[at - 1]);
    const bool after = at + name.size() < line.size() && name_char(line[at + name.size()]);
    if (!before && !after) return true;
  }
  return false;
}

// Marks the words of the block (`spans`, per parameter) that an entry's loads read whole.
// Error(usage) for a load past its parameter as the library's function lays it out: the PTX is
// then not the library's, and a word marked there would lie outside the block.
struct Marker {
  const std::string& entry;
  const std::vector<ParamSpan>& spans;
  std::vector<bool>& words;
  void whole_param(std::size_t p) {
    for (std::size_t at = (spans.at(p).offset + 7) / 8 * 8;
         at + 8 <= spans.at(p).offset + spans.at(p).size; at += 8)
      words.at(at / 8) = true;
  }
  void load(std::size_t p, std::size_t offset, unsigned width_bits, unsigned count) {
    const ParamSpan& s = spans.at(p);
    const std::size_t bytes = std::size_t(count) * width_bits / 8;
    if (offset > s.size || bytes > s.size - offset)
      throw Error(ErrorCategory::usage, "the PTX's " + entry + " loads bytes " +
                                            std::to_string(offset) + ".." +
                                            std::to_string(offset + bytes) + " of parameter " +
                                            std::to_string(p) + ", which the library's function " +
                                            "lays out in " + std::to_string(s.size) + " bytes");
    if (width_bits != 64) return;
    for (unsigned j = 0; j < count; ++j)
      if (const std::size_t at = s.offset + offset + 8 * j; at % 8 == 0) words.at(at / 8) = true;
  }
};

}  // namespace

std::vector<bool> words_loaded_whole(const PtxModule& ptx, const std::string& entry,
                                     const std::vector<ParamSpan>& params) {
  const std::string text = ptx.entry_text(entry);
  const std::vector<std::string> names = param_names(text);
  if (names.size() != params.size())
    throw Error(ErrorCategory::usage, "the PTX's " + entry + " declares " +
                                          std::to_string(names.size()) +
                                          " parameters, the "
                                          "library's function " +
                                          std::to_string(params.size()));
  std::size_t bytes = 0;
  for (const ParamSpan& s : params) bytes = std::max(bytes, s.offset + s.size);
  std::vector<bool> words((bytes + 7) / 8, false);
  Marker mark{entry, params, words};
  static const std::regex load(
      R"(ld\.param(?:\.v(\d))?\.[a-z]+?(\d+)\s.*\[\s*([A-Za-z_$][\w$]*)\s*(?:\+\s*(\d+))?\s*\])");
  std::string_view body(text);
  body.remove_prefix(text.find(')') + 1);
  for (std::size_t at = 0; at < body.size();) {
    const std::size_t end = std::min(body.find('\n', at), body.size());
    const std::string line(body.substr(at, end - at));
    at = end + 1;
    std::smatch m;
    // The regex only where a load can be: std::regex recurses once per character it scans.
    const bool is_load =
        line.find("ld.param") != std::string::npos && std::regex_search(line, m, load);
    for (std::size_t p = 0; p < names.size(); ++p) {
      if (is_load && m[3] == names[p])
        mark.load(p, m[4].matched ? std::stoul(m[4]) : 0, std::stoul(m[2]),
                  m[1].matched ? std::stoul(m[1]) : 1);
      else if (mentions(line, names[p]))
        mark.whole_param(p);  // its address taken: any word of it may be read whole
    }
  }
  return words;
}

}  // namespace xr::onebin
