// The one place that knows which backends this build has. Explicit, in a fixed order: cpu,
// cuda, vulkan. No static-initialiser registration.
#include "xreduce/cpu_backend.hpp"
#include "xreduce/registry.hpp"
#if XR_HAVE_CUDA
#include "xreduce/cuda_backend.hpp"
#endif
#if XR_HAVE_VULKAN
#include "xreduce/vulkan_backend.hpp"
#endif

namespace xr {

void register_builtin_backends(Registry& registry) {
  registry.add(cpu::make_backend());
#if XR_HAVE_CUDA
  registry.add(cuda::make_backend());
#else
  registry.note_not_built("cuda", XR_CUDA_NOT_BUILT_REASON);
#endif
#if XR_HAVE_VULKAN
  registry.add(vulkan::make_backend());
#else
  registry.note_not_built("vulkan", XR_VULKAN_NOT_BUILT_REASON);
#endif

  // "The same NVIDIA hardware": Vulkan's default device is the one whose UUID equals the CUDA
  // device's. An explicit --device later overrides this.
  Backend* cuda = registry.find("cuda");
  Backend* vulkan = registry.find("vulkan");
  if (cuda && vulkan && cuda->available() && vulkan->available())
    vulkan->select_device(DeviceChoice{"", cuda->device().uuid});
}

}  // namespace xr
