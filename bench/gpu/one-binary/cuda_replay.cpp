#include "cuda_replay.hpp"

#include <string>

namespace xr::onebin {
namespace {

void fill(const FillStep& f, CUdeviceptr at, CUstream s) {
  if (f.bytes % f.element_size)
    throw Error(ErrorCategory::unsupported, "a fill of " + std::to_string(f.bytes) +
                                                " B in elements of " +
                                                std::to_string(f.element_size) + " B");
  const std::size_t n = f.bytes / f.element_size;
  switch (f.element_size) {
    case 1:
      XR_CU_CHECK(cuMemsetD8Async(at, static_cast<unsigned char>(f.value), n, s));
      break;
    case 2:
      XR_CU_CHECK(cuMemsetD16Async(at, static_cast<unsigned short>(f.value), n, s));
      break;
    case 4:
      XR_CU_CHECK(cuMemsetD32Async(at, f.value, n, s));
      break;
    default:
      throw Error(ErrorCategory::unsupported,
                  "a fill in elements of " + std::to_string(f.element_size) + " B");
  }
}

// Each kernel step's function, present and known to the driver, asked before anything launches:
// a refusal then names the step.
void check_functions(const Recording& r, const std::vector<CUfunction>& functions) {
  if (functions.size() != r.steps.size())
    throw Error(ErrorCategory::check_failed, "cuda: " + std::to_string(functions.size()) +
                                                 " functions for " +
                                                 std::to_string(r.steps.size()) + " steps");
  for (std::size_t i = 0; i < r.steps.size(); ++i) {
    if (!std::holds_alternative<KernelStep>(r.steps[i])) continue;
    int registers = 0;
    const CUresult e =
        functions[i] ? cuFuncGetAttribute(&registers, CU_FUNC_ATTRIBUTE_NUM_REGS, functions[i])
                     : CUDA_ERROR_INVALID_HANDLE;
    if (e != CUDA_SUCCESS)
      throw Error(category_of(e),
                  "cuda: step " + std::to_string(i) + " (" + describe_step(r.steps[i]) +
                      "): its function is no handle the driver knows: " + describe(e));
  }
}

}  // namespace

CudaReplay::CudaReplay(const Recording& r, std::vector<CUfunction> functions, const SortCase& c,
                       CudaGate& gate, std::uint64_t flush_bytes)
    : recording_(r),
      case_(c),
      functions_(std::move(functions)),
      slots_(r.slots, &c),
      stream_(make_stream()),
      intervals_(gate, flush_bytes) {
  check_functions(r, functions_);
  for (const Step& step : r.steps) {
    params_.emplace_back();
    param_ptrs_.emplace_back();
    if (const auto* k = std::get_if<KernelStep>(&step)) {
      params_.back() = bind_params(*k, slots_.bases());
      for (const ParamSpan& p : k->params)
        param_ptrs_.back().push_back(params_.back().data() + p.offset);
    }
  }
}

void CudaReplay::enqueue(std::size_t step, CUstream s) {
  const Step& st = recording_.steps[step];
  if (const auto* f = std::get_if<FillStep>(&st)) {
    fill(*f, slots_.at(f->slot) + f->offset, s);
    return;
  }
  const auto& k = std::get<KernelStep>(st);
  XR_CU_CHECK(cuLaunchKernel(functions_[step], k.grid.x, k.grid.y, k.grid.z, k.block.x, k.block.y,
                             k.block.z, k.shared_bytes, s, param_ptrs_[step].data(), nullptr));
}

Sample CudaReplay::run(Marks marks) {
  const GateRelease release(intervals_.gate());
  CUstream s = stream_.get();
  intervals_.begin(s);
  for (std::size_t i = 0; i < recording_.steps.size(); ++i) {
    enqueue(i, s);
    if (marks == Marks::steps || i + 1 == recording_.steps.size()) intervals_.mark(s);
  }
  return sample_of(intervals_.finish(s), marks);
}

}  // namespace xr::onebin
