#include "xreduce/ptx_module.hpp"

#include <algorithm>
#include <cstdio>
#include <utility>

#include "xreduce/error.hpp"

namespace xr {
namespace {

bool starts_with(std::string_view s, std::string_view p) {
  return s.substr(0, p.size()) == p;
}

// The entry a line opens (".visible .entry NAME(" and the like), or empty.
std::string entry_opened(std::string_view line) {
  const auto at = line.find(".entry ");
  if (at == std::string_view::npos || line.find("//") < at) return {};
  std::string_view rest = line.substr(at + 7);
  const auto open = rest.find('(');
  return std::string(rest.substr(0, open == std::string_view::npos ? rest.size() : open));
}

// Where `entry_text`'s parameter list is: the offsets of its "(" and of the ")" closing it.
std::pair<std::size_t, std::size_t> param_list(const std::string& entry_text,
                                               std::string_view entry) {
  const auto open = entry_text.find('(');
  const auto close = entry_text.find(')', open);
  if (open == std::string::npos || close == std::string::npos)
    throw Error(ErrorCategory::usage, "the entry " + std::string(entry) + " has no parameter list");
  return {open, close};
}

// [begin, end) of each declaration between the list's parentheses, blanks around it left out.
std::vector<std::pair<std::size_t, std::size_t>> param_spans(const std::string& text,
                                                             std::size_t open, std::size_t close) {
  std::vector<std::pair<std::size_t, std::size_t>> spans;
  for (std::size_t from = open + 1; from < close;) {
    std::size_t end = text.find(',', from);
    if (end == std::string::npos || end > close) end = close;
    const auto first = text.find_first_not_of(" \t\r\n", from);
    if (first < end) spans.emplace_back(first, text.find_last_not_of(" \t\r\n", end - 1) + 1);
    from = end + 1;
  }
  return spans;
}

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const auto end = text.find('\n');
    lines.push_back(text.substr(0, end == std::string_view::npos ? text.size() : end + 1));
    text.remove_prefix(lines.back().size());
  }
  return lines;
}

}  // namespace

template <class Segments>
auto& PtxModule::segment_of(Segments& segments, std::string_view entry) {
  const auto it = std::find_if(segments.begin(), segments.end(),
                               [&](const Segment& s) { return s.entry == entry; });
  if (it == segments.end())
    throw Error(ErrorCategory::usage, "the PTX defines no entry " + std::string(entry));
  return *it;
}

PtxModule PtxModule::parse(std::string_view text) {
  PtxModule m;
  Segment current;
  for (std::string_view line : lines_of(text)) {
    if (current.entry.empty()) {
      if (const std::string name = entry_opened(line); !name.empty()) {
        m.segments_.push_back(std::exchange(current, Segment{name, {}}));
      } else if (starts_with(line, ".version") || starts_with(line, ".target") ||
                 starts_with(line, ".address_size")) {
        m.header_ += line;
      }
      current.text += line;
      continue;
    }
    current.text += line;
    if (starts_with(line, "}")) m.segments_.push_back(std::exchange(current, Segment{}));
  }
  if (!current.entry.empty())
    throw Error(ErrorCategory::usage, "the PTX's entry " + current.entry + " does not close");
  m.segments_.push_back(std::move(current));
  if (m.header_.find(".version") == std::string::npos ||
      m.header_.find(".target") == std::string::npos)
    throw Error(ErrorCategory::usage, "the text is no PTX module: no .version or .target line");
  return m;
}

std::string PtxModule::text() const {
  std::string t;
  for (const Segment& s : segments_) t += s.text;
  return t;
}

std::vector<std::string> PtxModule::entries() const {
  std::vector<std::string> names;
  for (const Segment& s : segments_)
    if (!s.entry.empty()) names.push_back(s.entry);
  return names;
}

const std::string& PtxModule::entry_text(std::string_view entry) const {
  return segment_of(segments_, entry).text;
}

PtxModule PtxModule::keep(const std::vector<std::string>& entries) const {
  for (const std::string& e : entries)
    if (std::none_of(segments_.begin(), segments_.end(),
                     [&](const Segment& s) { return s.entry == e; }))
      throw Error(ErrorCategory::usage, "the PTX defines no entry " + e);
  PtxModule m;
  m.header_ = header_;
  for (const Segment& s : segments_)
    if (s.entry.empty() || std::find(entries.begin(), entries.end(), s.entry) != entries.end())
      m.segments_.push_back(s);
  return m;
}

PtxModule PtxModule::with_params(std::string_view entry,
                                 const std::vector<std::string>& params) const {
  PtxModule m = *this;
  Segment* const it = &segment_of(m.segments_, entry);
  // The list closes at the first ")" after the name's "(": nvcc puts it on a line of its own.
  const auto [open, close] = param_list(it->text, entry);
  const bool empty = it->text.find(".param", open) > close;
  std::string added;
  for (const std::string& p : params) added += (added.empty() && empty ? "\n\t" : ",\n\t") + p;
  auto last = it->text.find_last_not_of(" \t\n", close - 1);
  it->text.insert(last + 1, added + (empty ? "\n" : ""));
  return m;
}

PtxModule PtxModule::with_static_shared(std::string_view entry, std::uint64_t bytes) const {
  PtxModule m = *this;
  const Segment* const body = &segment_of(m.segments_, entry);
  int used = 0;
  for (Segment& s : m.segments_) {
    if (!s.entry.empty()) continue;
    std::string out;
    for (std::string_view line : lines_of(s.text)) {
      const auto open = line.find("[]");
      if (starts_with(line, ".extern .shared ") && open != std::string_view::npos) {
        const auto name_at = line.rfind(' ', open) + 1;
        const std::string name(line.substr(name_at, open - name_at));
        if (body->text.find(name) != std::string::npos) {
          ++used;
          out += std::string(line.substr(8, open - 8)) + "[" + std::to_string(bytes) + "];\n";
          continue;
        }
      }
      out += line;
    }
    s.text = out;
  }
  if (used > 1)
    throw Error(ErrorCategory::unsupported,
                "the entry " + std::string(entry) + " uses " + std::to_string(used) +
                    " dynamic shared arrays: made static, they would not alias");
  return m;
}

PtxModule PtxModule::renamed(std::string_view entry, const std::string& name) const {
  PtxModule m = *this;
  Segment* const it = &segment_of(m.segments_, entry);
  std::string out;
  for (std::size_t at = 0;;) {
    const auto next = it->text.find(entry, at);
    out += it->text.substr(at, next == std::string::npos ? std::string::npos : next - at);
    if (next == std::string::npos) break;
    out += name;
    at = next + entry.size();
  }
  it->text = out;
  it->entry = name;
  return m;
}

std::vector<std::string> PtxModule::params(std::string_view entry) const {
  const std::string& text = entry_text(entry);
  const auto [open, close] = param_list(text, entry);
  std::vector<std::string> out;
  for (const auto& [begin, end] : param_spans(text, open, close))
    out.push_back(text.substr(begin, end - begin));
  return out;
}

PtxModule PtxModule::with_param(std::string_view entry, std::size_t index,
                                const std::string& declaration) const {
  PtxModule m = *this;
  Segment* const it = &segment_of(m.segments_, entry);
  const auto [open, close] = param_list(it->text, entry);
  const auto spans = param_spans(it->text, open, close);
  if (index >= spans.size())
    throw Error(ErrorCategory::usage, "the entry " + std::string(entry) + " has no parameter " +
                                          std::to_string(index + 1));
  const auto [begin, end] = spans[index];
  it->text.replace(begin, end - begin, declaration);
  return m;
}

std::string text_digest(std::string_view text) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
  char out[17];
  std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(h));
  return out;
}

}  // namespace xr
