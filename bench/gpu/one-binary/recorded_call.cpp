#include "recorded_call.hpp"

#include <algorithm>
#include <map>

#include "capture.hpp"
#include "cuda_intervals.hpp"
#include "param_loads.hpp"
#include "relocate.hpp"

namespace xr::onebin {

RecordedCall record_call(LibraryCall& call, const PtxModule& ptx) {
  const StreamOwner stream = make_stream();
  CUstream s = stream.get();
  // Once for real first: every module the call needs is loaded before a capture sees it.
  call.enqueue(s, call.slots());
  wait_for_stream(s, 20, "the library's first call");
  CapturedCall first = capture_steps(s, [&](CUstream c) { call.enqueue(c, call.slots()); });
  const CudaSlots other(call.sizes(), nullptr);
  CapturedCall second = capture_steps(s, [&](CUstream c) { call.enqueue(c, other); });
  std::map<std::string, std::vector<bool>> loaded_whole;
  for (const CapturedStep& step : first.steps)
    if (const auto* k = std::get_if<CapturedKernel>(&step))
      loaded_whole[k->name] = words_loaded_whole(ptx, k->name, k->params);
  RecordedCall r{relocate(first.steps, call.slots().bases(), second.steps, other.bases(),
                          call.sizes(), loaded_whole),
                 {},
                 {}};
  for (const CapturedStep& step : first.steps) {
    const auto* k = std::get_if<CapturedKernel>(&step);
    r.library_functions.push_back(k ? k->function : nullptr);
  }
  r.graphs.push_back(std::move(first.graph));
  r.graphs.push_back(std::move(second.graph));
  return r;
}

PtxModule replay_ptx(const PtxModule& all, Recording& r) {
  const std::vector<std::string> names = kernel_names(r);
  PtxModule out = all.keep(names);
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string entry = "xr_replay_" + std::to_string(i);
    out = out.renamed(names[i], entry);
    for (Step& s : r.steps)
      if (auto* k = std::get_if<KernelStep>(&s); k && k->name == names[i]) k->entry = entry;
  }
  return out;
}

std::vector<std::string> kernel_names(const Recording& r) {
  std::vector<std::string> names;
  for (const Step& s : r.steps)
    if (const auto* k = std::get_if<KernelStep>(&s);
        k && std::find(names.begin(), names.end(), k->name) == names.end())
      names.push_back(k->name);
  return names;
}

}  // namespace xr::onebin
