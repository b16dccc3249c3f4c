// What a GPU backend that lists its devices does the same way on every API, written once: the
// reason it is unavailable, the selected device and its choice by --device, the variant list (the
// library's, then the user's kernels), the refusal of an unknown or unsupported variant with the
// library's answer, and the user's kernels before the built-in ones in make_reducer/make_scanner.
// A backend says only what its API does differently.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "xreduce/backend.hpp"
#include "xreduce/device_select.hpp"
#include "xreduce/user_kernel.hpp"

namespace xr {

class DeviceBackend : public Backend {
 public:
  bool available() const final { return reason_.empty(); }
  std::string unavailable_reason() const final { return reason_; }
  std::vector<DeviceInfo> devices() const final;
  std::vector<VariantInfo> variants() const final;
  void select_device(const DeviceChoice& choice) final;
  DeviceInfo device() const final;
  std::string unsupported_reason(Primitive primitive, std::string_view id) const final;
  std::unique_ptr<Reducer> make_reducer(std::string_view id) final;
  std::unique_ptr<Scanner> make_scanner(std::string_view id) final;
  std::unique_ptr<Sorter> make_sorter(std::string_view id) final;
  std::unique_ptr<Histogrammer> make_histogrammer(std::string_view id) final;

 protected:
  // `api`: the API's name in messages ("Vulkan", "OpenCL").
  explicit DeviceBackend(std::string api) : api_(std::move(api)) {}

  // The backend's devices as the choice sees them; empty before they are listed.
  virtual std::vector<DeviceCandidate> candidates() const = 0;
  // The library's variants, known without a device.
  virtual std::vector<VariantInfo> builtin_variants() const = 0;
  virtual bool has_builtin(Primitive primitive, std::string_view id) const = 0;
  // The library's answer for the selected device: why it cannot run the variant, "" when it can.
  virtual std::string builtin_unsupported_reason(Primitive primitive,
                                                 std::string_view id) const = 0;
  // Why the selected device cannot run a user's kernel, "" when it can.
  virtual std::string user_kernel_missing(const UserKernel& kernel) const {
    (void)kernel;
    return {};
  }
  // The variants of the selected device, each checked and runnable.
  virtual std::unique_ptr<Reducer> make_builtin_reducer(std::string_view id) = 0;
  virtual std::unique_ptr<Scanner> make_builtin_scanner(std::string_view id) = 0;
  // Only for ids has_builtin(sort, ...) knows: the default serves a library without sorts.
  virtual std::unique_ptr<Sorter> make_builtin_sorter(std::string_view id);
  // Likewise for histogram ids.
  virtual std::unique_ptr<Histogrammer> make_builtin_histogrammer(std::string_view id);
  virtual std::unique_ptr<Reducer> make_user_reducer(const UserKernel& kernel) = 0;
  virtual std::unique_ptr<Scanner> make_user_scanner(const UserKernel& kernel) = 0;
  // Drops what was made for the selected device before another is selected.
  virtual void release_device() = 0;

  // Lists the devices with `list_devices`, which answers why none is usable ("" when one is),
  // and selects the default one; the answer, or an exception's words, is the reason the backend
  // is unavailable.
  void open(const std::function<std::string()>& list_devices) noexcept;
  // Error(unavailable) "<name> backend: <reason>" when the backend is unavailable.
  void require_available() const;
  std::size_t selected() const { return selected_; }

  std::string reason_;  // why the backend is unavailable; empty when it is available
  UserKernels kernels_;

 private:
  // Error(usage) for an id the library lacks, Error(unavailable) without a device,
  // Error(unsupported) with the library's reason where the device cannot run it.
  void require_runnable(Primitive primitive, std::string_view id) const;
  // A user's kernel, refused with one line where the device lacks what its dtypes need.
  const UserKernel* user_kernel(Primitive primitive, std::string_view id) const;

  std::string api_;
  std::size_t selected_ = 0;
};

}  // namespace xr
