#include "xreduce/device_backend.hpp"

#include "xreduce/call_check.hpp"
#include "xreduce/error.hpp"

namespace xr {

std::vector<DeviceInfo> DeviceBackend::devices() const {
  std::vector<DeviceInfo> out;
  for (DeviceCandidate& c : candidates()) out.push_back(std::move(c.info));
  return out;
}

std::vector<VariantInfo> DeviceBackend::variants() const {
  std::vector<VariantInfo> out = builtin_variants();
  for (VariantInfo& v : kernels_.variants()) out.push_back(std::move(v));
  return out;
}

void DeviceBackend::select_device(const DeviceChoice& choice) {
  require_available();
  const std::size_t index = choose_device(candidates(), choice, api_);
  if (index != selected_) {
    release_device();
    selected_ = index;
  }
}

DeviceInfo DeviceBackend::device() const {
  require_available();
  return candidates()[selected_].info;
}

std::string DeviceBackend::unsupported_reason(Primitive primitive, std::string_view id) const {
  if (const UserKernel* k = kernels_.find(primitive, id))
    return available() ? user_kernel_missing(*k) : reason_;
  if (!available()) return has_builtin(primitive, id) ? reason_ : unknown_variant(id);
  return builtin_unsupported_reason(primitive, id);
}

std::unique_ptr<Reducer> DeviceBackend::make_reducer(std::string_view id) {
  if (const UserKernel* k = user_kernel(Primitive::reduce, id)) return make_user_reducer(*k);
  require_runnable(Primitive::reduce, id);
  return make_builtin_reducer(id);
}

std::unique_ptr<Scanner> DeviceBackend::make_scanner(std::string_view id) {
  if (const UserKernel* k = user_kernel(Primitive::scan, id)) return make_user_scanner(*k);
  require_runnable(Primitive::scan, id);
  return make_builtin_scanner(id);
}

std::unique_ptr<Sorter> DeviceBackend::make_sorter(std::string_view id) {
  require_runnable(Primitive::sort, id);
  return make_builtin_sorter(id);
}

std::unique_ptr<Sorter> DeviceBackend::make_builtin_sorter(std::string_view id) {
  throw Error(ErrorCategory::usage, "the " + std::string(name()) +
                                        " backend has no sort variant '" + std::string(id) + "'");
}

std::unique_ptr<Histogrammer> DeviceBackend::make_histogrammer(std::string_view id) {
  require_runnable(Primitive::histogram, id);
  return make_builtin_histogrammer(id);
}

std::unique_ptr<Histogrammer> DeviceBackend::make_builtin_histogrammer(std::string_view id) {
  throw Error(
      ErrorCategory::usage,
      "the " + std::string(name()) + " backend has no histogram variant '" + std::string(id) + "'");
}

void DeviceBackend::open(const std::function<std::string()>& list_devices) noexcept {
  try {
    reason_ = list_devices();
    if (reason_.empty()) selected_ = choose_device(candidates(), {}, api_);
  } catch (const std::exception& e) {
    reason_ = e.what();
  } catch (...) {
    reason_ = api_ + ": listing the devices failed";
  }
}

void DeviceBackend::require_available() const {
  if (!available())
    throw Error(ErrorCategory::unavailable, std::string(name()) + " backend: " + reason_);
}

void DeviceBackend::require_runnable(Primitive primitive, std::string_view id) const {
  require_known_variant(name(), primitive, id, has_builtin(primitive, id));
  require_available();
  require_supported(id, candidates()[selected_].info.name,
                    builtin_unsupported_reason(primitive, id));
}

const UserKernel* DeviceBackend::user_kernel(Primitive primitive, std::string_view id) const {
  const UserKernel* k = kernels_.find(primitive, id);
  if (!k) return nullptr;
  require_available();
  if (const std::string why = user_kernel_missing(*k); !why.empty())
    throw Error(ErrorCategory::unsupported, k->path.string() + ": " + why);
  return k;
}

}  // namespace xr
