// `xreduce diff OLD.json NEW.json`: two saved compare reports, row against row, with the verdicts
// of compare --baseline (report/baseline.cpp); no device, no registry.
#include "baseline_gate.hpp"
#include "build_commit.hpp"
#include "commands.hpp"
#include "compare_output.hpp"
#include "report/baseline.hpp"
#include "report/baseline_document.hpp"
#include "report/render.hpp"
#include "report/saved.hpp"
#include "xreduce/error.hpp"

namespace xr::app {
namespace {

RunIdentity identity_of(const SavedReport& r) {
  return {r.path, r.data.version, r.data.commit, r.data.command};
}

RowFilter filter_of(const DiffOptions& o) {
  RowFilter f;
  f.backends = split_list(o.backends);
  f.variant_globs = split_list(o.variants);
  for (const auto& t : split_list(o.dtypes)) f.dtypes.push_back(parse_dtype_arg(t));
  if (!o.modes.empty()) f.modes = parse_modes(o.modes);
  return f;
}

std::string rendered(const BaselineDiff& d, const DiffOptions& o) {
  if (o.format == "json")
    return render_diff_json(d, XR_VERSION, std::string(build_commit()), o.command_line);
  if (o.format == "csv") return render_diff_csv(d);
  const Document doc = diff_document(d, o.command_line);
  return o.format == "md" ? render_markdown(doc)
                          : render_text(doc, style_for(stdout, !o.out.empty()));
}

}  // namespace

int run_diff(const DiffOptions& o) {
  check_output_format(o.format, "diff");
  const NamedInput inputs[] = {{"OLD", o.old_path}, {"NEW", o.new_path}};
  const OutputTargets files = resolve_output_files({o.out, o.plot, "", o.quiet}, inputs);
  const RowFilter filter = filter_of(o);
  const SavedReport old = read_saved_report(o.old_path, "diff");
  const SavedReport now = read_saved_report(o.new_path, "diff");
  const BaselineDiff d = diff_reports(old.data, identity_of(old), now.data, identity_of(now),
                                      "diff", {o.fail_above, kNoiseRule, filter});
  const std::string text = rendered(d, o);
  write_outputs(
      text,
      [&] {
        return o.format == "json"
                   ? text
                   : render_diff_json(d, XR_VERSION, std::string(build_commit()), o.command_line);
      },
      files);
  return report_over_limit(d) ? exit_code(ErrorCategory::check_failed) : 0;
}

}  // namespace xr::app
