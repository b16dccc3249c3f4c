#include "experiment.hpp"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <memory>

#include "cuda_ptx_kernels.hpp"
#include "cuda_replay.hpp"
#include "library_call.hpp"
#include "opencl_replay.hpp"
#include "recorded_call.hpp"
#include "smi_clock.hpp"
#include "vulkan_replay.hpp"

namespace xr::onebin {
namespace {

struct Column {
  ColumnResult result;
  std::unique_ptr<Timed> timed;
  bool lost_device = false;  // its failure was a device's loss
  std::vector<double> call, steps_call;
  std::vector<std::vector<double>> steps;
};

void refuse(Column& c, const std::string& why) {
  c.result.refused = why;
  c.timed.reset();
  c.call.clear();
  c.steps_call.clear();
  c.steps.clear();
  std::fprintf(stderr, "  %s refused: %s\n", c.result.id.c_str(), why.c_str());
}

template <class Make>
Column make_column(const CaseOptions& options, const char* id, const char* title, const char* how,
                   Make&& make) {
  Column c;
  c.result.id = id;
  c.result.title = title;
  c.result.how = how;
  if (std::find(options.skip.begin(), options.skip.end(), id) != options.skip.end()) {
    refuse(c, "skipped (--skip)");
    return c;
  }
  try {
    c.timed = make();
  } catch (const std::exception& e) {
    refuse(c, e.what());
  }
  return c;
}

// Everything a case's columns refer to, alive as long as they are.
struct CaseState {
  SortCase input;
  std::unique_ptr<SortReference> reference;
  RecordedCall recorded;
  PtxModule ptx;
  std::unique_ptr<CudaPtxKernels> jit;
  std::vector<Column> columns;
};

std::vector<Column> cuda_columns(Session& s, CaseState& st, const CaseOptions& options,
                                 std::unique_ptr<LibraryCall> library) {
  std::vector<Column> cols;
  cols.push_back(make_column(
      options, "cuda-library", "CUDA library call",
      "xr::cuda::Sort::enqueue (the library's sm_90 cubin, launched by the library); CUDA events",
      [&] { return std::unique_ptr<Timed>(std::move(library)); }));
  cols.push_back(make_column(
      options, "cuda-cubin", "CUDA (library cubin)",
      "the captured steps replayed by cuLaunchKernel of the library's own functions and "
      "cuMemsetD*Async; CUDA events",
      [&] {
        return std::make_unique<CudaReplay>(st.recorded.recording, st.recorded.library_functions,
                                            st.input, s.gate, s.flush_bytes);
      }));
  cols.push_back(make_column(
      options, "cuda-ptx", "CUDA (PTX)",
      "the steps by cuLaunchKernel of the PTX compiled by cuModuleLoadDataEx (the driver's "
      "JIT); CUDA events",
      [&] {
        st.jit = std::make_unique<CudaPtxKernels>(st.ptx, st.recorded.recording);
        return std::make_unique<CudaReplay>(st.recorded.recording, st.jit->by_step(), st.input,
                                            s.gate, s.flush_bytes);
      }));
  return cols;
}

std::unique_ptr<Timed> vulkan_replay(Session& s, CaseState& st, const CaseOptions& options,
                                     SharedForm shared, ParamForm params) {
  if (!s.vulkan_refused.empty()) throw Error(ErrorCategory::unavailable, s.vulkan_refused);
  if (!s.vulkan_lost.empty())
    throw Error(ErrorCategory::unavailable,
                "not tried: an earlier Vulkan replay of the run lost "
                "its device (" +
                    s.vulkan_lost + ")");
  if (!options.vulkan_past_limit) refuse_past_nvx_limit(st.recorded.recording);
  return std::make_unique<VulkanReplay>(s.cuda.uuid(), st.ptx, st.recorded.recording, st.input,
                                        s.flush_bytes, shared, params);
}

void add_portable_columns(Session& s, CaseState& st, const CaseOptions& options) {
  st.columns.push_back(make_column(
      options, "vulkan-ptx", "Vulkan (PTX)",
      "vkCmdCuLaunchKernelNVX of each kernel's PTX loaded by vkCreateCuModuleNVX, dynamic shared "
      "memory and parameters as cuLaunchKernel takes them (the launch's size, a pointer to each "
      "parameter), vkCmdFillBuffer, a full barrier between steps, VkBuffers by device address; "
      "timestamp queries",
      [&] { return vulkan_replay(s, st, options, SharedForm::dynamic, ParamForm::pointers); }));
  st.columns.push_back(make_column(
      options, "vulkan-ptx-static", "Vulkan (PTX, static shared)",
      "the same, each kernel's dynamic shared memory declared static in its PTX at the launch's "
      "size (the same SASS under ptxas)",
      [&] { return vulkan_replay(s, st, options, SharedForm::made_static, ParamForm::pointers); }));
  st.columns.push_back(make_column(
      options, "vulkan-ptx-extra", "Vulkan (PTX, parameter buffer)",
      "the same as Vulkan (PTX), the parameters passed as one block through pExtras "
      "(CU_LAUNCH_PARAM_BUFFER_POINTER)",
      [&] { return vulkan_replay(s, st, options, SharedForm::dynamic, ParamForm::buffer); }));
  st.columns.push_back(make_column(
      options, "opencl-ptx", "OpenCL (PTX)",
      "clEnqueueNDRangeKernel of each kernel's PTX built by clBuildProgram as a program binary, "
      "its dynamic shared memory declared static, clEnqueueFillBuffer, an in-order queue, cl_mem "
      "buffers by their device addresses; profiling events",
      [&]() -> std::unique_ptr<Timed> {
        if (!s.opencl) throw Error(ErrorCategory::unavailable, s.opencl_refused);
        return std::make_unique<OpenclReplay>(*s.opencl, st.ptx, st.recorded.recording, st.input,
                                              s.flush_bytes);
      }));
}

// Checks the columns from `first` on.
void check_columns(CaseState& st, const char* when, std::size_t first = 0) {
  for (std::size_t i = first; i < st.columns.size(); ++i) {
    Column& c = st.columns[i];
    if (!c.timed) continue;
    try {
      if (std::string(when) == "before timing") c.timed->first_run();
      const Verdict v = check_output(*st.reference, st.input, c.timed->read());
      if (!v.ok)
        refuse(c, std::string("sorts wrong ") + when + ": " + v.message);
      else
        c.result.check += (c.result.check.empty() ? "sorted right " : ", ") + std::string(when);
    } catch (const Error& e) {
      refuse(c, e.what());
      c.lost_device = e.category() == ErrorCategory::device_lost;
    } catch (const std::exception& e) {
      refuse(c, e.what());
    }
  }
}

// One sample of each kind of marks from every column, starting with column `first`.
void sample_round(CaseState& st, std::size_t first, bool keep) {
  const std::size_t m = st.columns.size();
  for (std::size_t j = 0; j < m; ++j) {
    Column& c = st.columns[(first + j) % m];
    if (!c.timed) continue;
    try {
      const Sample call = c.timed->run(Marks::call);
      if (keep) c.call.push_back(call.call_ms);
      if (!c.timed->marks_steps()) continue;
      const Sample steps = c.timed->run(Marks::steps);
      if (!keep) continue;
      c.steps_call.push_back(steps.call_ms);
      c.steps.resize(steps.step_ms.size());
      for (std::size_t i = 0; i < steps.step_ms.size(); ++i) c.steps[i].push_back(steps.step_ms[i]);
    } catch (const std::exception& e) {
      refuse(c, e.what());
    }
  }
}

void sample_rounds(Session& s, CaseState& st, const CaseOptions& options, ClockSummary& clock) {
  for (int r = 0; r < options.warmup; ++r) sample_round(st, std::size_t(r), false);
  const std::string uuid = uuid_text(s.cuda.uuid());
  clock.smi_before = smi_sm_clock_mhz(uuid);
  clock.max_mhz = s.clock.max_mhz();
  for (int r = 0; r < options.timed; ++r) {
    sample_round(st, std::size_t(r), true);
    const double mhz = s.clock.read_mhz(nullptr);
    clock.probe_min = std::isnan(clock.probe_min) ? mhz : std::min(clock.probe_min, mhz);
    clock.probe_max = std::isnan(clock.probe_max) ? mhz : std::max(clock.probe_max, mhz);
  }
  clock.smi_after = smi_sm_clock_mhz(uuid);
}

std::vector<StepRow> step_rows(const CaseState& st) {
  std::vector<StepRow> rows;
  const Recording& r = st.recorded.recording;
  for (std::size_t i = 0; i < r.steps.size(); ++i) {
    StepRow row;
    row.label = describe_step(r.steps[i]);
    if (const auto* k = std::get_if<KernelStep>(&r.steps[i])) {
      row = {row.label, true, k->name, short_name(*k), k->grid, k->block, k->shared_bytes,
             0,         {},   {}};
      try {
        row.cubin = facts_of(st.recorded.library_functions.at(i), *k);
        if (st.jit) row.jit = facts_of(st.jit->by_step().at(i), *k);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "  no compile facts of %s: %s\n", row.label.c_str(), e.what());
      }
    } else {
      row.fill_bytes = std::get<FillStep>(r.steps[i]).bytes;
    }
    rows.push_back(row);
  }
  return rows;
}

ColumnResult result_of(Column& c) {
  ColumnResult r = c.result;
  r.call = stats_of(c.call);
  r.steps_call = stats_of(c.steps_call);
  for (const auto& v : c.steps) r.steps.push_back(stats_of(v));
  return r;
}

}  // namespace

CaseResult run_case(Session& s, const CaseSpec& spec, std::uint64_t n, const CaseOptions& options) {
  CaseState st;
  st.input = make_case(spec.keys, spec.values, n, options.seed);
  std::fprintf(stderr, "%s, n = %llu: the host's check\n", st.input.name().c_str(),
               static_cast<unsigned long long>(n));
  st.reference =
      std::make_unique<SortReference>(st.input.keys.view(), SortOrder::ascending, BitRange{});
  auto library = std::make_unique<LibraryCall>(st.input, s.gate, s.flush_bytes);
  CaseResult result;
  result.plan = library->sort().describe();
  std::replace(result.plan.begin(), result.plan.end(), '\n', ' ');
  st.recorded = record_call(*library, s.ptx);
  st.ptx = replay_ptx(s.ptx, st.recorded.recording);
  std::fprintf(stderr, "  %zu steps recorded; building the columns\n",
               st.recorded.recording.steps.size());
  // CUDA's columns checked before the others are made: a later failure of theirs then says that
  // making another API's replay broke them.
  st.columns = cuda_columns(s, st, options, std::move(library));
  check_columns(st, "before timing");
  const std::size_t cuda = st.columns.size();
  add_portable_columns(s, st, options);
  check_columns(st, "before timing", cuda);
  for (const Column& c : st.columns)
    if (c.lost_device && c.result.id.rfind("vulkan", 0) == 0 && s.vulkan_lost.empty())
      s.vulkan_lost = c.result.title + ", " + st.input.name() + ": " + c.result.refused;
  std::fprintf(stderr, "  sampling\n");
  sample_rounds(s, st, options, result.clock);
  check_columns(st, "after timing");
  result.name = st.input.name();
  result.keys = std::string(to_string(spec.keys));
  result.values = std::string(to_string(spec.values));
  result.n = n;
  result.steps = step_rows(st);
  for (Column& c : st.columns) result.columns.push_back(result_of(c));
  result.notes = st.recorded.recording.notes;
  result.warmup = options.warmup;
  result.reps = options.timed;
  return result;
}

}  // namespace xr::onebin
