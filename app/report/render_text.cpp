#include "report/render.hpp"

#include <fmt/format.h>

namespace xr::app {
namespace {

std::string header_text(const DocumentHeader& h, const Style& st) {
  std::string out = st.bold(h.title) + " · " + h.config + "\n";
  for (const auto& [backend, line] : h.device_lines)
    out += fmt::format("  {:<7} {}\n", backend, line);
  if (h.same_gpu)
    out += "  " + (h.same_gpu->same ? st.good(h.same_gpu->text) : st.bad(h.same_gpu->text)) + "\n";
  for (const auto& skipped : h.skipped) out += st.dim("  note: " + skipped) + "\n";
  for (const auto& note : h.notes) out += st.warn("  note: " + note) + "\n";
  if (h.has_scan)
    out += st.dim(
               "  note: a scan's GB/s counts bytes read + written, its % peak is against the "
               "copy peak") +
           "\n";
  if (h.has_sort) out += st.dim(fmt::format("  note: {}", kSortBytesNote)) + "\n";
  return out;
}

std::string block_text(const Block& b, const Style& st) {
  switch (b.kind) {
    case Block::Kind::heading:
      return fmt::format("\n{}\n", st.bold(b.text));
    case Block::Kind::table:
      return b.table.text(st);
    case Block::Kind::note:
      return st.dim("  note: " + b.text) + "\n";
    case Block::Kind::line:
      return fmt::format("  {}\n", b.text);
  }
  return {};
}

}  // namespace

std::string render_text(const Document& doc, const Style& style) {
  std::string out = header_text(doc.header, style);
  for (const Block& b : doc.body) out += block_text(b, style);
  return out;
}

}  // namespace xr::app
