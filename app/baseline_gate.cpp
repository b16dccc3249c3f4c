#include "baseline_gate.hpp"

#include <cstdio>

#include <fmt/format.h>

#include "report/baseline_document.hpp"
#include "report/format.hpp"

namespace xr::app {

bool report_over_limit(const BaselineDiff& d) {
  const auto over = d.over_limit();
  for (const MatchedRow* m : over)
    std::fprintf(
        stderr, "%s\n",
        printable(fmt::format("xreduce: slower than the baseline by more than {:g}% "
                              "beyond noise: {}: {} ms -> {} ms, {} (noise {})",
                              *d.fail_above_pct, row_words(m->new_row),
                              format_ms(m->old_row.ms.median), format_ms(m->new_row.ms.median),
                              fmt_change(m->change()), fmt_band(m->band)))
            .c_str());
  return !over.empty();
}

}  // namespace xr::app
