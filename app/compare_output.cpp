#include "compare_output.hpp"

#include <cstdio>
#include <filesystem>
#include <vector>

#include <fmt/format.h>

#include "plot.hpp"
#include "report/document.hpp"
#include "report/render.hpp"
#include "xreduce/error.hpp"
#include "xreduce/printable.hpp"

namespace xr::app {

void check_output_format(const std::string& format, std::string_view command) {
  if (format != "text" && format != "md" && format != "csv" && format != "json")
    throw Error(ErrorCategory::usage,
                fmt::format("unknown --format '{}' for {} (expected text, md, csv or json)",
                            printable(format), command));
}

OutputTargets resolve_output_files(const OutputFiles& f, std::span<const NamedInput> inputs) {
  OutputTargets t;
  t.quiet = f.quiet;
  if (!f.plot.empty()) {
    const auto ext = std::filesystem::path(f.plot).extension().string();
    if (ext != ".svg" && ext != ".png" && ext != ".pdf")
      throw Error(ErrorCategory::usage, fmt::format("--plot '{}': expected a .svg, .png or .pdf "
                                                    "file name",
                                                    printable(f.plot)));
    t.plot = OutputTarget::resolve("--plot", f.plot);
  }
  if (!f.out.empty()) t.out = OutputTarget::resolve("--out", f.out);
  if (!f.save_json.empty()) t.save_json = OutputTarget::resolve("--save-json", f.save_json);
  std::vector<OutputTarget> all;
  for (const auto* o : {&t.out, &t.save_json, &t.plot})
    if (*o) all.push_back(**o);
  check_outputs(all, inputs);
  return t;
}

void write_outputs(const std::string& text, const std::function<std::string()>& json,
                   const OutputTargets& t) {
  const std::string json_text = t.plot || t.save_json ? json() : "";
  OutputSet outputs;
  if (t.plot) draw_plot(json_text, outputs.stage_file(*t.plot, t.plot->given.extension().string()));
  if (t.save_json) outputs.stage(*t.save_json, {json_text});
  if (t.out) outputs.stage(*t.out, {text});
  outputs.place();
  if (!t.out) std::fwrite(text.data(), 1, text.size(), stdout);
  if (!t.quiet)
    for (const auto* written : {&t.out, &t.plot, &t.save_json})
      if (*written)
        std::fprintf(stderr, "xreduce: wrote %s\n", printable((*written)->given.string()).c_str());
}

void write_outputs(const AnalyzedReport& report, const CompareOptions& o,
                   const OutputTargets& targets) {
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
  write_outputs(text, json, targets);
}

}  // namespace xr::app
