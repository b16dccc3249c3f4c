// The one place that knows which backends this build has. Explicit, in a fixed order: cpu,
// cuda, vulkan, opencl. No static-initialiser registration.
#include "xreduce/cpu_backend.hpp"
#include "xreduce/registry.hpp"
#if XR_HAVE_CUDA
#include "xreduce/cuda_backend.hpp"
#endif
#if XR_HAVE_VULKAN
#include "xreduce/vulkan_backend.hpp"
#endif
#if XR_HAVE_OPENCL
#include "xreduce/opencl_backend.hpp"
#endif

namespace xr {

void register_builtin_backends(Registry& registry) {
  registry.add("cpu", cpu::make_backend);
#if XR_HAVE_CUDA
  registry.add("cuda", cuda::make_backend);
#else
  registry.note_not_built("cuda", XR_CUDA_NOT_BUILT_REASON);
#endif
#if XR_HAVE_VULKAN
  // "The same NVIDIA hardware": Vulkan's default device is the one whose UUID equals the CUDA
  // device's. An explicit --device later overrides this.
  registry.add("vulkan", [&registry] {
    std::unique_ptr<Backend> backend = vulkan::make_backend();
    Backend* cuda = registry.find("cuda");
    if (cuda && cuda->available() && backend->available())
      backend->select_device(DeviceChoice{"", cuda->device().uuid});
    return backend;
  });
#else
  registry.note_not_built("vulkan", XR_VULKAN_NOT_BUILT_REASON);
#endif
#if XR_HAVE_OPENCL
  // As Vulkan: OpenCL's default device is the CUDA device's, by cl_khr_device_uuid.
  registry.add("opencl", [&registry] {
    std::unique_ptr<Backend> backend = opencl::make_backend();
    Backend* cuda = registry.find("cuda");
    if (cuda && cuda->available() && backend->available())
      backend->select_device(DeviceChoice{"", cuda->device().uuid});
    return backend;
  });
#else
  registry.note_not_built("opencl", XR_OPENCL_NOT_BUILT_REASON);
#endif
}

}  // namespace xr
