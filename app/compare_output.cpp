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

void check_output_format(const std::string& format, std::string_view command) {
  if (format != "text" && format != "md" && format != "csv" && format != "json")
    throw Error(ErrorCategory::usage,
                fmt::format("unknown --format '{}' for {} (expected text, md, csv or json)",
                            printable(format), command));
}

void check_output_files(const OutputFiles& f) {
  check_distinct_outputs({{"--out", f.out}, {"--save-json", f.save_json}, {"--plot", f.plot}});
  if (!f.out.empty()) check_output_path(f.out);
  if (!f.save_json.empty()) check_output_path(f.save_json);
  if (!f.plot.empty()) {
    const auto ext = std::filesystem::path(f.plot).extension().string();
    if (ext != ".svg" && ext != ".png" && ext != ".pdf")
      throw Error(ErrorCategory::usage,
                  fmt::format("--plot '{}': expected a .svg, .png or .pdf file name", f.plot));
    check_output_path(f.plot);
  }
}

void write_outputs(const std::string& text, const std::function<std::string()>& json,
                   const OutputFiles& f) {
  const std::string json_text = f.plot.empty() && f.save_json.empty() ? "" : json();
  std::filesystem::path plot_tmp;
  std::vector<std::string> placed;
  try {
    if (!f.plot.empty()) {
      plot_tmp = temp_beside(f.plot);
      draw_plot(json_text, plot_tmp);
    }
    if (!f.save_json.empty()) {
      write_file_atomically(f.save_json, json_text);
      placed.push_back(f.save_json);
    }
    if (!f.out.empty()) {
      write_file_atomically(f.out, text);
      placed.push_back(f.out);
    }
    if (!plot_tmp.empty() && std::rename(plot_tmp.c_str(), f.plot.c_str()) != 0)
      throw Error(ErrorCategory::usage,
                  fmt::format("cannot write '{}': {}", f.plot, std::strerror(errno)));
  } catch (...) {
    if (!plot_tmp.empty()) unlink(plot_tmp.c_str());
    for (const auto& p : placed) unlink(p.c_str());
    throw;
  }
  if (f.out.empty()) std::fwrite(text.data(), 1, text.size(), stdout);
  if (!f.quiet)
    for (const std::string* written : {&f.out, &f.plot, &f.save_json})
      if (!written->empty())
        std::fprintf(stderr, "xreduce: wrote %s\n", printable(*written).c_str());
}

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
  // With --baseline, --format csv is the diff's: the JSON still holds every row of the run.
  auto json = [&] { return o.format == "json" ? text : render_json(report); };
  write_outputs(text, json, {o.out, o.plot, o.save_json, o.quiet});
}

}  // namespace xr::app
