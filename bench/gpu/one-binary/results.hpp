// What the experiment measured, as data: per case its steps, per column (one API's way of
// running the call) its check and its times, the SM clock around the samples. Printers format
// it; analysis.hpp derives the ratios once.
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kernel_facts.hpp"
#include "recording.hpp"

namespace xr::onebin {

struct Stats {
  double median = NAN, min = NAN, max = NAN;
  std::size_t samples = 0;
};
Stats stats_of(std::vector<double> v);

struct StepRow {
  std::string label;  // describe_step
  bool kernel = false;
  std::string name;  // mangled (kernels)
  std::string short_name;
  Dim3 grid, block;
  unsigned shared_bytes = 0;
  std::uint64_t fill_bytes = 0;
  std::optional<KernelFacts> cubin, jit;  // CUDA's facts of the library's and of the PTX's
};

struct ColumnResult {
  std::string id;       // cuda-library, cuda-cubin, cuda-ptx, vulkan-ptx, opencl-ptx
  std::string title;    // "Vulkan (PTX)"
  std::string how;      // what runs and what times it
  std::string refused;  // why it has no times; empty when timed
  std::string check;    // the check's words
  Stats call;           // samples with marks at the call's ends
  Stats steps_call;     // the call in samples with marks between steps too
  std::vector<Stats> steps;
};

struct ClockSummary {
  double smi_before = NAN, smi_after = NAN;  // nvidia-smi's clocks.sm, MHz
  double probe_min = NAN, probe_max = NAN;   // xr::cuda::SmClock between rounds, MHz
  double max_mhz = NAN;                      // the device's maximum
};

struct CaseResult {
  std::string name;  // "u32 keys + u32 values"
  std::string keys, values;
  std::uint64_t n = 0;
  std::string plan;  // the library's describe()
  std::vector<StepRow> steps;
  std::vector<ColumnResult> columns;
  ClockSummary clock;
  int warmup = 0, reps = 0;
  std::vector<std::string> notes;  // the recording's
};

struct Report {
  std::string device, uuid, cuda_driver_api, vulkan, opencl;
  std::string ptx_path, ptx_source, ptx_digest;
  std::uint64_t ptx_bytes = 0;
  std::string command_line;
  std::vector<CaseResult> cases;
  std::vector<std::string> failed;  // cases that stopped, with why
};

}  // namespace xr::onebin
