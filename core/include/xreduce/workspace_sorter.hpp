// The glue a GPU sorter over its library's Sort shares (Vulkan's and OpenCL's adapters), written
// once: a call's description (SortDesc) is planned into a workspace, the library's Sort and its
// scratch zeroed once, kept while the calls keep that description; every array of a call is the
// device's own; the compiled passes are the workspace's Sort's; and onesweep's look-back
// fallbacks are counted per workspace (its scratch's running count starts at zero). A backend
// says how a Sort and its zeroed scratch are made and how `calls` calls run.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "xreduce/device_variant.hpp"
#include "xreduce/sort_fallbacks.hpp"
#include "xreduce/sort_passes.hpp"

namespace xr {

// `Sort`: the library's sort (answers compiled()); `Scratch`: the memory that holds its scratch;
// `Spec`: a row of the library's sort table (its family), outliving the sorter. The backend's
// device_array(DeviceArray&, Device&), found by argument-dependent lookup, is its own array.
template <class Device, class Spec, class Sort, class Scratch>
class WorkspaceSorter : public DeviceSorter {
 public:
  // onesweep's fallbacks over this workspace's calls.
  std::string diagnostics() const override {
    return spec_.family == SortFamily::onesweep ? fallbacks_.describe() : std::string();
  }

 protected:
  struct Workspace {
    SortDesc desc;
    Sort sort;
    Scratch scratch;
  };

  WorkspaceSorter(VariantInfo info, std::string nothing_runs, std::shared_ptr<Device> device,
                  const Spec& spec)
      : DeviceSorter(std::move(info), std::move(nothing_runs)),
        device_(std::move(device)),
        spec_(spec) {}

  // The library's Sort of `desc` on this device.
  virtual Sort make_sort(const SortDesc& desc) = 0;
  // Scratch for `sort`, zeroed before it returns: every call then initializes what it reads.
  virtual Scratch zeroed_scratch(const Sort& sort) = 0;
  // Drops what the backend made over the workspace's scratch, before a new workspace replaces it.
  virtual void workspace_replaced() {}

  // Every array of the call is this device's (device_array throws otherwise).
  void require_own_arrays(const SortArrays& a) const {
    device_array(a.keys, *device_);
    device_array(a.sorted_keys, *device_);
    if (a.values) device_array(*a.values, *device_);
    if (a.sorted_values) device_array(*a.sorted_values, *device_);
  }

  std::vector<CompiledPass> compiled(const SortArrays& arrays, const SortCall& call) override {
    return workspace(arrays, call).sort.compiled();
  }

  // The workspace of this call's description: a new one only where the description changes.
  Workspace& workspace(const SortArrays& arrays, const SortCall& call) {
    const SortDesc desc = desc_of(arrays, call);
    if (!workspace_ || workspace_->desc != desc) {
      workspace_replaced();
      workspace_.reset();
      Sort sort = make_sort(desc);
      Scratch scratch = zeroed_scratch(sort);
      workspace_.emplace(Workspace{desc, std::move(sort), std::move(scratch)});
      fallbacks_.reset();
    }
    return *workspace_;
  }

  // Declared first, destroyed last: the workspace and what a backend records over it use the
  // device.
  std::shared_ptr<Device> device_;
  const Spec& spec_;
  std::optional<Workspace> workspace_;
  SortFallbacks fallbacks_;
};

}  // namespace xr
