#include "report/render.hpp"

#include <fmt/format.h>

namespace xr::app {
namespace {

std::string header_markdown(const DocumentHeader& h) {
  std::string out = fmt::format("# {}\n\n", h.title);
  out += fmt::format("`{}`\n\n{}.\n\n", h.command, h.config);
  if (!h.devices.empty()) out += h.devices.markdown();
  if (h.has_scan)
    out += "\nA scan's GB/s counts bytes read + written; its % peak is against the copy peak.\n";
  if (h.has_sort) out += fmt::format("\n{}\n", kSortBytesNote);
  if (h.same_gpu)
    out += h.same_gpu->same ? fmt::format("\n{}\n", h.same_gpu->text)
                            : fmt::format("\n**{}**\n", h.same_gpu->text);
  for (const auto& skipped : h.skipped) out += fmt::format("\n_note: {}_\n", skipped);
  for (const auto& note : h.notes) out += fmt::format("\n**note: {}**\n", note);
  return out;
}

std::string block_markdown(const Block& b) {
  switch (b.kind) {
    case Block::Kind::heading:
      return fmt::format("\n### {}\n\n", b.text);
    case Block::Kind::table:
      return b.table.markdown();
    case Block::Kind::note:
      return fmt::format("\n_note: {}_\n", b.text);
    case Block::Kind::line:
      return fmt::format("\n{}.\n", b.text);
  }
  return {};
}

}  // namespace

std::string render_markdown(const Document& doc) {
  std::string out = header_markdown(doc.header);
  for (const Block& b : doc.body) out += block_markdown(b);
  return out;
}

}  // namespace xr::app
