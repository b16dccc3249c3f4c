#include "compare_output.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "plot.hpp"
#include "report/document.hpp"
#include "report/render.hpp"
#include "xreduce/error.hpp"

namespace xr::app {

void write_outputs(const AnalyzedReport& report, const CompareOptions& o) {
  std::string text;
  if (o.format == "json")
    text = render_json(report);
  else if (o.format == "csv")
    text = render_csv(report);
  else if (o.format == "md")
    text = render_markdown(build_document(report));
  else
    text = render_text(build_document(report), style_for(stdout, !o.out.empty()));

  const std::string json_text =
      o.format == "json" ? text
                         : (o.plot.empty() && o.save_json.empty() ? "" : render_json(report));
  std::filesystem::path plot_tmp;
  std::vector<std::string> placed;
  try {
    if (!o.plot.empty()) {
      plot_tmp = temp_beside(o.plot);
      draw_plot(json_text, plot_tmp);
    }
    if (!o.save_json.empty()) {
      write_file_atomically(o.save_json, json_text);
      placed.push_back(o.save_json);
    }
    if (!o.out.empty()) {
      write_file_atomically(o.out, text);
      placed.push_back(o.out);
    }
    if (!plot_tmp.empty() && std::rename(plot_tmp.c_str(), o.plot.c_str()) != 0)
      throw Error(ErrorCategory::usage,
                  fmt::format("cannot write '{}': {}", o.plot, std::strerror(errno)));
  } catch (...) {
    if (!plot_tmp.empty()) unlink(plot_tmp.c_str());
    for (const auto& p : placed) unlink(p.c_str());
    throw;
  }
  if (o.out.empty()) std::fwrite(text.data(), 1, text.size(), stdout);
  if (!o.quiet) {
    if (!o.out.empty()) std::fprintf(stderr, "xreduce: wrote %s\n", o.out.c_str());
    if (!o.plot.empty()) std::fprintf(stderr, "xreduce: wrote %s\n", o.plot.c_str());
    if (!o.save_json.empty()) std::fprintf(stderr, "xreduce: wrote %s\n", o.save_json.c_str());
  }
}

}  // namespace xr::app
