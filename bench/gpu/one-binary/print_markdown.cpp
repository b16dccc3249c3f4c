#include "print_markdown.hpp"

#include <cstdio>

namespace xr::onebin {
namespace {

std::string number(double v, const char* format) {
  if (std::isnan(v)) return "-";
  char b[64];
  std::snprintf(b, sizeof b, format, v);
  return b;
}

std::string ms(const Stats& s) {
  return s.samples ? number(s.median, "%.4f") : "-";
}
std::string times(const std::optional<double>& r) {
  return r ? number(*r, "%.2fx") : "";
}

std::string facts(const StepRow& s) {
  if (!s.cubin || !s.jit) return "";
  const auto one = [](const KernelFacts& k) {
    return std::to_string(k.registers) + " regs, " + std::to_string(k.local_bytes) + " B local, " +
           std::to_string(k.blocks_per_sm) + "/SM";
  };
  return *s.cubin == *s.jit ? one(*s.cubin) : "cubin " + one(*s.cubin) + "; JIT " + one(*s.jit);
}

std::string clock_line(const CaseResult& c) {
  return "SM clock: nvidia-smi " + number(c.clock.smi_before, "%.0f") +
         " MHz before the samples, " + number(c.clock.smi_after, "%.0f") +
         " after; the library's probe between rounds " + number(c.clock.probe_min, "%.0f") + "-" +
         number(c.clock.probe_max, "%.0f") + " MHz (maximum " + number(c.clock.max_mhz, "%.0f") +
         "). " + std::to_string(c.warmup) + " warm-up rounds, then " + std::to_string(c.reps) +
         " rounds of one cold sample per column and kind of marks (L2 flushed before each).\n\n";
}

std::string columns_table(const CaseResult& c) {
  std::string t = "| column | what runs, what times it | check |\n|---|---|---|\n";
  for (const ColumnResult& col : c.columns)
    t += "| " + col.title + " | " + col.how + " | " +
         (col.refused.empty() ? col.check : "**refused**: " + col.refused) + " |\n";
  return t + "\n";
}

std::string header_row(const CaseResult& c) {
  std::string h = "| step | CUDA's compile (cubin = JIT?) |", rule = "|---|---|";
  for (const ColumnResult& col : c.columns) {
    if (col.id == "cuda-library") continue;
    h += " " + col.title + " ms |" + (col.id == "cuda-cubin" ? "" : " x |");
    rule += col.id == "cuda-cubin" ? "---:|" : "---:|---:|";
  }
  return h + "\n" + rule + "\n";
}

std::string steps_table(const CaseResult& c, const CaseAnalysis& a) {
  std::string t = header_row(c);
  const auto row = [&](const std::string& label, const std::string& info, auto&& cell) {
    t += "| " + label + " | " + info + " |";
    for (std::size_t j = 0; j < c.columns.size(); ++j) {
      if (c.columns[j].id == "cuda-library") continue;
      const auto [time, ratio] = cell(j);
      t += " " + time + " |" + (c.columns[j].id == "cuda-cubin" ? "" : " " + ratio + " |");
    }
    t += "\n";
  };
  for (std::size_t i = 0; i < c.steps.size(); ++i)
    row(c.steps[i].label, facts(c.steps[i]), [&](std::size_t j) {
      const auto& col = c.columns[j];
      return std::pair{i < col.steps.size() ? ms(col.steps[i]) : "-",
                       i < a.step[j].size() ? times(a.step[j][i]) : ""};
    });
  row("**the call, marks between steps**", "", [&](std::size_t j) {
    return std::pair{ms(c.columns[j].steps_call), times(a.steps_sum[j])};
  });
  row("**the call, marks at its ends**", "", [&](std::size_t j) {
    return std::pair{ms(c.columns[j].call), times(a.call[j])};
  });
  return t + "\n";
}

std::string library_line(const CaseResult& c, const CaseAnalysis& a) {
  if (!a.reference_call) return "The library's own call was not timed.\n\n";
  const Stats& s = c.columns[*a.reference_call].call;
  return "The library's own call (`xr::cuda::Sort::enqueue`): " + ms(s) + " ms median (min " +
         number(s.min, "%.4f") + ", max " + number(s.max, "%.4f") +
         "); the whole-call ratios (last row) are against it, the steps' against the library's "
         "cubin replayed.\n\n";
}

}  // namespace

std::string markdown_report(const Report& r, const std::vector<CaseAnalysis>& a) {
  std::string m = "# CUDA's onesweep machine code through CUDA, Vulkan and OpenCL\n\n";
  m += "Device: " + r.device + " (" + r.uuid + "), CUDA driver API " + r.cuda_driver_api +
       ".  \nVulkan: " + r.vulkan + ".  \nOpenCL: " + r.opencl + ".  \nPTX: " + r.ptx_source +
       " (" + r.ptx_path + ", " + std::to_string(r.ptx_bytes) + " B, FNV-1a " + r.ptx_digest +
       "), read at run time from that file.  \nCommand: `" + r.command_line + "`\n\n";
  for (std::size_t i = 0; i < r.cases.size(); ++i) {
    const CaseResult& c = r.cases[i];
    m += "## " + c.name + ", n = " + std::to_string(c.n) + "\n\n" + clock_line(c) +
         "Plan: " + c.plan + "\n\n" + columns_table(c) + library_line(c, a[i]) +
         steps_table(c, a[i]);
    for (const std::string& note : c.notes) m += "Note: " + note + ".\n\n";
  }
  for (const std::string& f : r.failed) m += "**A case stopped**: " + f + "\n\n";
  return m;
}

}  // namespace xr::onebin
