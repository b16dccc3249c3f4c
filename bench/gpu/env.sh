# Sourced at the start of every command on the GPU machine (see README, "Running on the GPU
# machine"). That machine has the NVIDIA driver and its Vulkan ICD but no Vulkan loader and none
# of the Debian runtime libraries xreduce links; bench/gpu/prepare puts them, as .deb files, in
# .gl/ and .gpulibs/, carried with the run.
#  - .gl/*.deb (loader, GL dispatch) unpack into / as the recipe of the GPU machine says;
#  - .gpulibs/*.deb (TBB, hwloc, fmt, validation layers, the OpenCL ICD loader) unpack beside,
#    into /opt/xr, so they cannot replace anything of the image's own.
if ! compgen -G ".gl/*.deb" >/dev/null || ! compgen -G ".gpulibs/*.deb" >/dev/null; then
  echo "env.sh: .gl/ or .gpulibs/ is empty: run bench/gpu/prepare on the build machine and carry both" >&2
  return 2 2>/dev/null || exit 2
fi
for f in .gl/*.deb; do dpkg -x "$f" /; done
# The binaries of bench/gpu-report pack, where the build itself was not carried.
if [ -d .gpupack ]; then
  mkdir -p "${BUILD_DIR:-build-gpu}/app" "${BUILD_DIR:-build-gpu}/tests/conformance"
  for f in .gpupack/*.gz; do
    case $(basename "$f" .gz) in
      xreduce) to=app/xreduce ;;
      conformance_tests) to=tests/conformance/conformance_tests ;;
      *) to=$(basename "$f" .gz) ;;
    esac
    [ -x "${BUILD_DIR:-build-gpu}/$to" ] || { gunzip -c "$f" >"${BUILD_DIR:-build-gpu}/$to" && chmod +x "${BUILD_DIR:-build-gpu}/$to"; }
  done
  for f in COMMIT TOOLKIT; do
    [ -f ".gpupack/$f" ] && [ ! -f "${BUILD_DIR:-build-gpu}/$f" ] && cp ".gpupack/$f" "${BUILD_DIR:-build-gpu}/$f"
  done
fi
mkdir -p /opt/xr
for f in .gpulibs/*.deb; do dpkg -x "$f" /opt/xr; done
ldconfig
export LD_LIBRARY_PATH=/opt/xr/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export VK_LAYER_PATH=/opt/xr/usr/share/vulkan/explicit_layer.d
# NVRTC (users' .cu kernels, docs/kernels.md) is the toolkit's shared library, which the binary's
# run path names where it was built: point at the GPU machine's own toolkit, beside its nvcc, and
# at its headers (cuda_fp16.h and cuda_bf16.h for the 16-bit types).
if command -v nvcc >/dev/null; then
  cuda_root=$(dirname "$(dirname "$(readlink -f "$(command -v nvcc)")")")
  for d in "$cuda_root/lib64" "$cuda_root/lib" "$cuda_root/targets/x86_64-linux/lib"; do
    [ -e "$d/libnvrtc.so.13" ] && export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$d && break
  done
  [ -n "${CUDA_PATH:-}" ] || export CUDA_PATH=$cuda_root
fi
if [ -f /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json ] && [ -z "${VK_DRIVER_FILES:-}" ]; then
  export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
fi
# OpenCL: NVIDIA's driver (libnvidia-opencl.so.1) sits beside the driver's other libraries, but
# the machine's /etc/OpenCL/vendors lists only pocl. An .icd of ours names NVIDIA's library, and
# OCL_ICD_VENDORS points Debian's loader (ocl-icd, from .gpulibs) at that folder alone: the
# machine's own files stay as they are. XR_OCL_VENDORS_KEEP=1 leaves OCL_ICD_VENDORS alone.
if [ -z "${XR_OCL_VENDORS_KEEP:-}" ]; then
  nv_ocl=$(ldconfig -p 2>/dev/null | awk '/libnvidia-opencl\.so\.1 /{print $NF; exit}')
  for d in /usr/local/nvidia/lib64 /usr/lib/x86_64-linux-gnu /usr/lib64; do
    [ -z "$nv_ocl" ] && [ -e "$d/libnvidia-opencl.so.1" ] && nv_ocl=$d/libnvidia-opencl.so.1
  done
  if [ -n "$nv_ocl" ]; then
    mkdir -p /opt/xr/etc/OpenCL/vendors
    echo "$nv_ocl" >/opt/xr/etc/OpenCL/vendors/nvidia.icd
    export OCL_ICD_VENDORS=/opt/xr/etc/OpenCL/vendors
  else
    echo "env.sh: NVIDIA's libnvidia-opencl.so.1 not found: the opencl backend sees only the machine's own ICDs" >&2
  fi
fi
