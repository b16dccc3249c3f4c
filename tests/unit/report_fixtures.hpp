// Synthetic `xreduce compare` reports for the report's golden and merge tests: every number is
// made up and fixed, so a rendering is the same bytes on every machine. Each report covers a
// different part of the report (see report_fixtures.cpp).
#pragma once

#include <string>

#include "report/model.hpp"

namespace xrtest {

// Where a merged peer file "was read from": the merge takes text, the path only names it.
inline const std::string kPeersPath = "bench/out/peers.json";

// A baseline and a later run of reduce sum i32 (1K, 1M, cold and batch) and scan (1M) on cuda and
// vulkan, with known differences: rows 1.5x slower, 1.25x faster, 1.5 % slower (inside the
// floor), 10 % slower inside a noisy row's band, 3 % slower just beyond the floor; a row failed
// in the baseline, one row in each run alone, a key the baseline holds twice; another commit,
// cuda driver and vulkan knob.
struct BaselinePair {
  xr::app::CompareReport old_run, new_run;
};
BaselinePair baseline_pair();

// Folds the report JSON `text` (read from `path`) into `r`, as compare --merge does: the one
// place the tests go through the merge API.
void merge(xr::app::CompareReport& r, const std::string& text, const std::string& path);

// A peers file as bench/peers.py writes one: torch and cupy rows of reduce sum i32, cold and
// batch, on a device whose UUID differs from the CUDA device of ladders_report.
std::string peers_json();

// <= 4 sizes (per-size ladders): cpu, cuda, vulkan on one GPU, reduce and scan (inclusive and
// exclusive), i32 and f32, sum and max, cold and batch; failed and unsupported rows whose reasons
// hold commas, quotes and newlines; rows above the peak; missing peaks; overheads; transfer
// tables with notes; skipped backends. The test merges peers_json() into it.
xr::app::CompareReport ladders_report();

// >= 5 sizes (the GB/s-by-n matrices and the vulkan/cuda ratio matrix), cuda and vulkan on two
// different GPUs, hot cache and fixed repetitions.
xr::app::CompareReport matrix_report();

// cpu, cuda, vulkan and opencl on one GPU: reduce sum i32 at two sizes (per-size ladders; a
// variant of cuda and opencl only, one of vulkan and opencl only; compiled facts of all three
// APIs and of two) and max f32 at five (each API's ratio to cuda by n). OpenCL's rows carry no
// clock; its single pass is xreduce's fastest at 16M.
xr::app::CompareReport three_apis_report();

// --include-transfer: end-to-end GPU rows beside host-timed CPU rows, a CUDA device without a
// UUID; a cold-only run, so peers_json()'s batch rows get a note when the test merges it.
xr::app::CompareReport end_to_end_report();

// The smallest report: one backend, one size, one point (no best table, no crossover).
xr::app::CompareReport single_point_report();

}  // namespace xrtest
