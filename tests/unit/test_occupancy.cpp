// occupancy() against cases computed by hand from the H100/H200's limits (sm_90: 2048 threads,
// 32 blocks, 64K registers and 228 KiB of shared memory per SM, 1 KiB reserved per block) and,
// where the CUDA toolkit is present, against NVIDIA's own calculator (cuda_occupancy.h) over a
// sweep of block sizes, registers and shared memory.
#include <catch2/catch.hpp>

#include <climits>
#include <string>
#include <vector>

#include "xreduce/compiled.hpp"

#if XR_HAVE_CUDA_OCCUPANCY
#include <cuda_occupancy.h>
#endif

using xr::CompiledPass;
using xr::OccupancyLimit;

namespace {

xr::SmLimits sm90() {
  return {.device = "sm_90",
          .warp_size = 32,
          .max_threads_per_sm = 2048,
          .max_threads_per_block = 1024,
          .max_blocks_per_sm = 32,
          .registers_per_sm = 65536,
          .registers_per_block = 65536,
          .max_registers_per_thread = 255,
          .register_alloc_unit = 256,
          .sub_partitions = 4,
          .shared_per_sm = 233472,
          .shared_per_block = 49152,
          .shared_per_block_optin = 232448,
          .reserved_shared_per_block = 1024,
          .shared_alloc_unit = 128};
}

CompiledPass pass(std::uint32_t block, int registers, std::uint64_t shared,
                  std::uint64_t dynamic = 0) {
  CompiledPass p;
  p.block = block;
  p.registers = registers;
  p.static_shared = shared;
  p.dynamic_shared = dynamic;
  return p;
}

std::vector<OccupancyLimit> limits(std::initializer_list<OccupancyLimit> l) {
  return l;
}

}  // namespace

TEST_CASE("occupancy: hand-computed sm_90 cases", "[compiled]") {
  using L = OccupancyLimit;
  SECTION("256 threads, 32 registers, no shared: threads and registers both allow 8 blocks") {
    // 32 x 32 = 1024 registers a warp, 16 warps a partition, 64 an SM: 8 blocks of 8 warps.
    const auto o = xr::occupancy(sm90(), pass(256, 32, 0));
    REQUIRE(o);
    CHECK(o->blocks_per_sm == 8);
    CHECK(o->warps_per_sm == 64);
    CHECK(o->fraction == 1.0);
    CHECK(o->by_registers == 8);
    CHECK(o->by_threads == 8);
    CHECK(o->by_shared == 228);  // 1 KiB reserved per block: 228 of them, capped elsewhere
    CHECK(o->binding == limits({L::registers, L::threads}));
    CHECK(o->shared_per_block == 1024);
  }
  SECTION("256 threads, 64 registers: registers bind at 4 blocks, half the warps") {
    const auto o = xr::occupancy(sm90(), pass(256, 64, 0));
    CHECK(o->blocks_per_sm == 4);
    CHECK(o->warps_per_sm == 32);
    CHECK(o->fraction == 0.5);
    CHECK(o->binding == limits({L::registers}));
  }
  SECTION("40 registers round up to 1280 a warp: 12 warps a partition, 6 blocks of 8 warps") {
    // 65536 / 4 = 16384 registers a partition, / 1280 = 12 warps; 48 an SM; / 8 = 6.
    const auto o = xr::occupancy(sm90(), pass(256, 40, 0));
    CHECK(o->by_registers == 6);
    CHECK(o->blocks_per_sm == 6);
    CHECK(o->binding == limits({L::registers}));
  }
  SECTION("48 KiB of static shared memory: 49 KiB a block with the reserve, 4 blocks") {
    const auto o = xr::occupancy(sm90(), pass(256, 32, 49152));
    CHECK(o->shared_per_block == 50176);
    CHECK(o->by_shared == 4);  // 233472 / 50176
    CHECK(o->blocks_per_sm == 4);
    CHECK(o->binding == limits({L::shared_memory}));
  }
  SECTION("dynamic shared memory counts like static, rounded to 128 bytes") {
    const auto o = xr::occupancy(sm90(), pass(128, 16, 1000, 3000));
    CHECK(o->shared_per_block == 5120);  // 1000 + 3000 + 1024 = 5024, rounded up
    CHECK(o->by_shared == 45);
    CHECK(o->blocks_per_sm == 16);  // 2048 threads / 128
    CHECK(o->binding == limits({L::threads}));
  }
  SECTION("32-thread blocks: the 32-block limit binds at half the warps") {
    const auto o = xr::occupancy(sm90(), pass(32, 16, 0));
    CHECK(o->blocks_per_sm == 32);
    CHECK(o->warps_per_sm == 32);
    CHECK(o->fraction == 0.5);
    CHECK(o->binding == limits({L::blocks}));
  }
  SECTION("a block that cannot launch: 1024 threads of 128 registers") {
    const auto o = xr::occupancy(sm90(), pass(1024, 128, 0));
    CHECK(o->blocks_per_sm == 0);
    CHECK(o->warps_per_sm == 0);
    CHECK(o->binding == limits({L::registers}));
  }
  SECTION("past the default 48 KiB a block uses the opt-in limit; past that it cannot launch") {
    CHECK(xr::occupancy(sm90(), pass(256, 32, 0, 100000))->blocks_per_sm == 2);
    CHECK(xr::occupancy(sm90(), pass(256, 32, 0, 240000))->blocks_per_sm == 0);
  }
  SECTION("unknown registers or shared memory: no occupancy") {
    CompiledPass p = pass(256, 32, 0);
    p.registers.reset();
    CHECK_FALSE(xr::occupancy(sm90(), p));
    p = pass(256, 32, 0);
    p.static_shared.reset();
    CHECK_FALSE(xr::occupancy(sm90(), p));
  }
}

#if XR_HAVE_CUDA_OCCUPANCY
TEST_CASE("occupancy: agrees with cuda_occupancy.h over a sweep", "[compiled]") {
  const xr::SmLimits sm = sm90();
  cudaOccDeviceProp prop;
  prop.computeMajor = 9;
  prop.computeMinor = 0;
  prop.maxThreadsPerBlock = sm.max_threads_per_block;
  prop.maxThreadsPerMultiprocessor = sm.max_threads_per_sm;
  prop.regsPerBlock = sm.registers_per_block;
  prop.regsPerMultiprocessor = sm.registers_per_sm;
  prop.warpSize = sm.warp_size;
  prop.sharedMemPerBlock = sm.shared_per_block;
  prop.sharedMemPerMultiprocessor = sm.shared_per_sm;
  prop.numSms = 132;
  prop.sharedMemPerBlockOptin = sm.shared_per_block_optin;
  prop.reservedSharedMemPerBlock = sm.reserved_shared_per_block;
  cudaOccDeviceState state;
  int checked = 0;
  for (int block : {32, 64, 96, 128, 192, 256, 384, 512, 640, 768, 1024})
    for (int regs : {8, 16, 24, 32, 40, 48, 56, 64, 72, 96, 128, 168, 200, 255})
      for (int shared : {0, 256, 4096, 12345, 49152}) {
        cudaOccFuncAttributes attr;
        attr.maxThreadsPerBlock = sm.max_threads_per_block;
        attr.numRegs = regs;
        attr.sharedSizeBytes = static_cast<size_t>(shared);
        attr.partitionedGCConfig = PARTITIONED_GC_OFF;
        attr.shmemLimitConfig = FUNC_SHMEM_LIMIT_DEFAULT;
        attr.maxDynamicSharedSizeBytes = 0;
        attr.numBlockBarriers = 1;
        cudaOccResult result;
        REQUIRE(cudaOccMaxActiveBlocksPerMultiprocessor(&result, &prop, &attr, &state, block, 0) ==
                CUDA_OCC_SUCCESS);
        const auto o = xr::occupancy(sm, pass(block, regs, shared));
        REQUIRE(o);
        INFO("block " << block << ", " << regs << " registers, " << shared << " bytes shared");
        CHECK(o->blocks_per_sm == result.activeBlocksPerMultiprocessor);
        ++checked;
      }
  CHECK(checked == 11 * 14 * 5);
}
#endif
