// The glue a GPU sorter over its library's Sort shares (Vulkan's and OpenCL's adapters), written
// once: a request's description (SortDesc) is planned into a workspace, the library's Sort and its
// scratch zeroed once, kept while the calls keep that description; every array of a call is the
// device's own; the compiled passes are the workspace's Sort's; and onesweep's look-back
// fallbacks are counted per workspace (its scratch's running count starts at zero); a request
// whose count is on the device (SortRequest::count_on_device) has it in a device word of the
// workspace's, made on its first such call. A backend says how a Sort, its zeroed scratch and the
// count's word are made and how `calls` calls run.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "xreduce/device_variant.hpp"
#include "xreduce/sort_fallbacks.hpp"

namespace xr {

// `Sort`: the library's sort (its diagnostics() answer compiled()); `Scratch`: the memory that
// holds its scratch. The backend's device_array(DeviceArray&, Device&), found by argument-dependent
// lookup, is its own array.
template <class Device, class Sort, class Scratch>
class WorkspaceSorter : public DeviceSorter {
 public:
  // onesweep's fallbacks over this workspace's calls, once a call has counted them.
  std::string diagnostics() const override {
    return fallbacks_.counted() ? fallbacks_.describe() : std::string();
  }

 protected:
  struct Workspace {
    SortDesc desc;
    Sort sort;
    Scratch scratch;
    std::optional<Scratch> count;  // desc.count in a device word, for the indirect calls
  };

  WorkspaceSorter(VariantInfo info, std::string nothing_runs, std::shared_ptr<Device> device)
      : DeviceSorter(std::move(info), std::move(nothing_runs)), device_(std::move(device)) {}

  // The library's Sort of `desc` on this device.
  virtual Sort make_sort(const SortDesc& desc) = 0;
  // Scratch for `sort`, zeroed before it returns: every call then initializes what it reads.
  virtual Scratch zeroed_scratch(const Sort& sort) = 0;
  // A device word holding `count`, written before it returns: what an indirect call reads.
  virtual Scratch count_word(std::uint32_t count) = 0;
  // Drops what the backend made over the workspace's scratch, before a new workspace replaces it.
  virtual void workspace_replaced() {}

  // Every array of the request is this device's (device_array throws otherwise), and its
  // workspace is made, n = 0 included: the library's Sort refuses what the device cannot run.
  void prepare(const SortRequest& r) override {
    r.for_each_array([&](DeviceArray& a) { device_array(a, *device_); });
    workspace(r);
  }

  std::vector<CompiledPass> compiled(const SortRequest& request) override {
    return workspace(request).sort.diagnostics().compiled();
  }
  std::string tuning(const SortRequest& request) override {
    return std::string(workspace(request).sort.diagnostics().tuning());
  }

  // The workspace of this request's description: a new one only where the description changes.
  Workspace& workspace(const SortRequest& request) {
    const SortDesc& desc = request.desc();
    if (!workspace_ || workspace_->desc != desc) {
      workspace_replaced();
      workspace_.reset();
      Sort sort = make_sort(desc);
      Scratch scratch = zeroed_scratch(sort);
      workspace_.emplace(Workspace{desc, std::move(sort), std::move(scratch), std::nullopt});
      fallbacks_.reset();
    }
    if (request.count_on_device() && !workspace_->count)
      workspace_->count.emplace(count_word(static_cast<std::uint32_t>(desc.count)));
    return *workspace_;
  }

  // Declared first, destroyed last: the workspace and what a backend records over it use the
  // device.
  std::shared_ptr<Device> device_;
  std::optional<Workspace> workspace_;
  SortFallbacks fallbacks_;
};

}  // namespace xr
