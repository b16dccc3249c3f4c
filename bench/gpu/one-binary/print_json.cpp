#include "print_json.hpp"

#include <nlohmann/json.hpp>

namespace xr::onebin {
namespace {

using nlohmann::json;

json number(double v) {
  return std::isnan(v) ? json(nullptr) : json(v);
}
json number(const std::optional<double>& v) {
  return v ? json(*v) : json(nullptr);
}

json stats(const Stats& s) {
  return {{"median_ms", number(s.median)},
          {"min_ms", number(s.min)},
          {"max_ms", number(s.max)},
          {"samples", s.samples}};
}

json facts(const std::optional<KernelFacts>& k) {
  if (!k) return nullptr;
  return {{"registers", k->registers},
          {"local_bytes", k->local_bytes},
          {"static_shared_bytes", k->static_shared_bytes},
          {"blocks_per_sm", k->blocks_per_sm}};
}

json dims(const Dim3& d) {
  return {d.x, d.y, d.z};
}

json step(const StepRow& s) {
  json j = {{"label", s.label}, {"kind", s.kernel ? "kernel" : "fill"}};
  if (s.kernel) {
    j.update({{"name", s.name},
              {"short_name", s.short_name},
              {"grid", dims(s.grid)},
              {"block", dims(s.block)},
              {"dynamic_shared_bytes", s.shared_bytes},
              {"cubin", facts(s.cubin)},
              {"jit", facts(s.jit)}});
  } else {
    j["bytes"] = s.fill_bytes;
  }
  return j;
}

json column(const ColumnResult& c, const CaseAnalysis& a, std::size_t i) {
  json steps = json::array();
  for (std::size_t k = 0; k < c.steps.size(); ++k)
    steps.push_back({{"time", stats(c.steps[k])}, {"vs_cuda_cubin", number(a.step[i][k])}});
  return {{"id", c.id},
          {"title", c.title},
          {"how", c.how},
          {"refused", c.refused.empty() ? json(nullptr) : json(c.refused)},
          {"check", c.check},
          {"call", stats(c.call)},
          {"call_vs_cuda_library", number(a.call[i])},
          {"call_with_step_marks", stats(c.steps_call)},
          {"call_with_step_marks_vs_cuda_cubin", number(a.steps_sum[i])},
          {"steps", steps}};
}

json one_case(const CaseResult& c, const CaseAnalysis& a) {
  json steps = json::array(), columns = json::array();
  for (const StepRow& s : c.steps) steps.push_back(step(s));
  for (std::size_t i = 0; i < c.columns.size(); ++i) columns.push_back(column(c.columns[i], a, i));
  return {{"name", c.name},
          {"keys", c.keys},
          {"values", c.values},
          {"n", c.n},
          {"plan", c.plan},
          {"warmup_rounds", c.warmup},
          {"rounds", c.reps},
          {"clock_mhz",
           {{"nvidia_smi_before", number(c.clock.smi_before)},
            {"nvidia_smi_after", number(c.clock.smi_after)},
            {"probe_min", number(c.clock.probe_min)},
            {"probe_max", number(c.clock.probe_max)},
            {"device_max", number(c.clock.max_mhz)}}},
          {"steps", steps},
          {"notes", c.notes},
          {"columns", columns}};
}

}  // namespace

std::string json_report(const Report& r, const std::vector<CaseAnalysis>& a) {
  json cases = json::array();
  for (std::size_t i = 0; i < r.cases.size(); ++i) cases.push_back(one_case(r.cases[i], a[i]));
  const json doc = {{"experiment", "one-binary"},
                    {"device", r.device},
                    {"uuid", r.uuid},
                    {"cuda_driver_api", r.cuda_driver_api},
                    {"vulkan", r.vulkan},
                    {"opencl", r.opencl},
                    {"ptx",
                     {{"path", r.ptx_path},
                      {"source", r.ptx_source},
                      {"bytes", r.ptx_bytes},
                      {"fnv1a", r.ptx_digest}}},
                    {"command_line", r.command_line},
                    {"cases", cases},
                    {"failed", r.failed}};
  return doc.dump(2) + "\n";
}

}  // namespace xr::onebin
