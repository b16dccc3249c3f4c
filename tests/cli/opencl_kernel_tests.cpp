// Users' OpenCL C kernels (`--kernel FILE.cl`, docs/kernels.md) through the xreduce binary on the
// OpenCL device (pocl in CI): the example is checked and run like every variant; the bad kernels
// of tests/kernels/bad (a compile error, a missing entry point, arguments other than the ABI's,
// a work-group or local memory past the device's) and the types OpenCL C lacks are refused before
// anything runs, in one line, with the exit code of usage (2) or of an unsupported device (3); a
// kernel that never finishes ends the run at XR_DEVICE_TIMEOUT (5).
#include "cli_support.hpp"

namespace {

using namespace clitest;

void require_opencl() {
  require_backend_or_skip("opencl");
}

}  // namespace

TEST_CASE("an OpenCL C kernel is checked and run like every variant", "[cli][kernel][opencl]") {
  require_opencl();
  const std::string sequential = std::string(XR_EXAMPLE_KERNELS) + "/sequential.cl";
  const Result check = xreduce({"check", "--kernel", sequential, "--max-size", "5000"});
  INFO(check.out << check.err);
  CHECK(check.code == 0);
  CHECK(check.out.find("reduce user/sequential on opencl") != std::string::npos);
  CHECK(check.out.find(" 0 failed") != std::string::npos);
  // --backend with a --kernel and no --variant checks that backend's kernels, not its ladder.
  const Result backend =
      xreduce({"check", "--backend", "opencl", "--kernel", sequential, "--max-size", "3000"});
  INFO(backend.out << backend.err);
  CHECK(backend.code == 0);
  CHECK(backend.out.rfind("reduce user/sequential on opencl", 0) == 0);
  CHECK(std::count(backend.out.begin(), backend.out.end(), '\n') == 1);
  const Result run = xreduce({"run", "--kernel", sequential, "--n", "100003", "--reps", "2",
                              "--dtype", "i64", "--op", "min"});
  INFO(run.out << run.err);
  CHECK(run.code == 0);
  CHECK(run.out.find("FAILED") == std::string::npos);

  // The scan example's three passes, in the order declared.
  const Result scan =
      xreduce({"check", "--kernel", std::string(XR_EXAMPLE_KERNELS) + "/rts_hillis_steele.cl",
               "--max-size", "5000"});
  INFO(scan.out << scan.err);
  CHECK(scan.code == 0);
  CHECK(scan.out.find("scan user/rts_hillis_steele on opencl") != std::string::npos);
}

TEST_CASE("OpenCL C kernels that do not compile or do not fit the ABI are refused in one line",
          "[cli][usage][kernel][opencl]") {
  require_opencl();
  const std::string bad = XR_BAD_KERNELS;
  for (const char* command : {"run", "check"}) {
    CAPTURE(command);
    std::vector<std::string> args{command, "--kernel", bad + "/syntax.cl"};
    if (std::string_view(command) == "run") args.insert(args.end(), {"--n", "1000"});
    // The driver's build log, under the file's own name and line (the prelude's #line).
    expect_error(args, 2, "syntax.cl: does not compile for ");
    expect_error(args, 2, "syntax.cl:5:");
  }
  expect_error({"run", "--kernel", bad + "/entry.cl", "--n", "1000"}, 2,
               "entry.cl: no kernel 'xr_reduce' (the program has: reduce); declare it with entry= "
               "or pass=");
  expect_error({"check", "--kernel", bad + "/params.cl"}, 2,
               "params.cl: kernel 'xr_reduce' takes 2 arguments; the reduce ABI's are 3, "
               "(__global const XR_T* in, __global XR_ACC* partials, uint n)");
  expect_error({"check", "--kernel", bad + "/params_kind.cl"}, 2,
               "params_kind.cl: kernel 'xr_reduce' argument 3 is not a uint");

  // OpenCL C has no bf16; its f16 is `half` only with cl_khr_fp16.
  TempDir dir;
  write_bytes(dir / "b.cl", slurp(std::string(XR_EXAMPLE_KERNELS) + "/sequential.cl"));
  expect_error({"check", "--kernel", (dir / "b.cl").string(), "--kernel-spec", "dtypes=f32,bf16"},
               2, "b.cl: declares bf16, which OpenCL C has no type for");
  const Result half = xreduce({"check", "--kernel", (dir / "b.cl").string(), "--kernel-spec",
                               "dtypes=f16", "--max-size", "3000"});
  INFO(half.out << half.err);
  if (half.code == 0) {
    CHECK(half.out.find(" 0 failed") != std::string::npos);  // a device with cl_khr_fp16
  } else {
    expect_error({"check", "--kernel", (dir / "b.cl").string(), "--kernel-spec", "dtypes=f16"}, 3,
                 "b.cl: declares f16, which OpenCL C has only with cl_khr_fp16, and ");
  }

  // The same device runs a built-in variant right after: nothing of the refused kernels ran.
  const Result after =
      xreduce({"run", "--backend", "opencl", "--variant", "smem/sequential", "--n", "100003"});
  INFO(after.out << after.err);
  CHECK(after.code == 0);
}

TEST_CASE("OpenCL C kernels past the device's limits are refused before they run",
          "[cli][usage][kernel][opencl]") {
  require_opencl();
  const std::string bad = XR_BAD_KERNELS;
  expect_error({"run", "--kernel", bad + "/reqd.cl", "--n", "1000"}, 2,
               "reqd.cl: kernel 'xr_reduce' requires work-groups of (128, 1, 1) "
               "(reqd_work_group_size); it is launched as (64, 1, 1): declare block=128");
  // 4 MB of local memory: the device's limit, named, or the driver's own refusal to build it.
  const Result huge = xreduce({"run", "--kernel", bad + "/local_huge.cl", "--n", "1000"});
  INFO(huge.out << huge.err);
  CHECK(huge.code == 2);
  CHECK(huge.err.rfind("xreduce: error: ", 0) == 0);
  CHECK(std::count(huge.err.begin(), huge.err.end(), '\n') == 1);
  const bool named = huge.err.find(
                         "local_huge.cl: kernel 'xr_reduce' uses 4000000 bytes of local "
                         "memory;") != std::string::npos;
  const bool unbuilt = huge.err.find("local_huge.cl: does not compile for ") != std::string::npos;
  CHECK((named || unbuilt));
}

TEST_CASE("an OpenCL C kernel that never finishes ends the run: exit 5, one line",
          "[cli][kernel][opencl]") {
  require_opencl();
  expect_never_finishes(std::string(XR_BAD_KERNELS) + "/spin.cl", "opencl", "64K",
                        "opencl: a timed call did not finish within 1 s");
}

// The OpenCL knobs (docs/cli.md): a malformed value refuses every reduce and scan with one line.
TEST_CASE("malformed OpenCL knobs refuse the call with one line", "[cli][opencl]") {
  require_opencl();
  for (const auto& [name, value, primitive, says] :
       {std::tuple{"XR_CL_LOOKBACK_POLLS", "-1", "scan",
                   "XR_CL_LOOKBACK_POLLS must be a whole number from 0 to 4294967295"},
        std::tuple{"XR_CL_LOOKBACK_SHAPE", "100x8", "scan",
                   "XR_CL_LOOKBACK_SHAPE must be <workgroup>x<vectors>"},
        std::tuple{"XR_SCAN_ONE_GROUP_MAX", "4K", "scan",
                   "XR_SCAN_ONE_GROUP_MAX must be a whole number"},
        std::tuple{"XR_CL_VECTOR_LOADS", "wide", "reduce",
                   "XR_CL_VECTOR_LOADS must be pointer or vload"},
        std::tuple{"XR_CL_LOCAL_MEMORY", "all", "reduce",
                   "XR_CL_LOCAL_MEMORY must be probe or reported"}}) {
    CAPTURE(name, value);
    setenv(name, value, 1);
    expect_error(
        {"run", "--backend", "opencl", "--primitive", primitive, "--variant",
         primitive == std::string_view("scan") ? "fast/decoupled-lookback" : "fast/single-pass",
         "--n", "100"},
        2, says);
    unsetenv(name);
  }
  // A well-formed shape and the vload experiment run, and say so in the report's knobs.
  setenv("XR_CL_LOOKBACK_SHAPE", "64x4", 1);
  setenv("XR_CL_VECTOR_LOADS", "vload", 1);
  const Result r = xreduce({"run", "--backend", "opencl", "--primitive", "scan", "--variant",
                            "fast/decoupled-lookback", "--n", "100003", "--format", "json"});
  unsetenv("XR_CL_LOOKBACK_SHAPE");
  unsetenv("XR_CL_VECTOR_LOADS");
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("\"XR_CL_LOOKBACK_SHAPE\"") != std::string::npos);
  CHECK(r.out.find("\"XR_CL_VECTOR_LOADS\"") != std::string::npos);
  CHECK(r.out.find("\"ok\": true") != std::string::npos);

  // XR_CL_BUILD_OPTIONS reaches the compiler: one it refuses fails the build in one line (exit
  // 2, the option named), one it takes builds and runs, recorded among the knobs.
  setenv("XR_CL_BUILD_OPTIONS", "-cl-no-such-option", 1);
  expect_error({"run", "--backend", "opencl", "--variant", "fast/single-pass", "--n", "100"}, 2,
               "CL_INVALID_BUILD_OPTIONS");
  setenv("XR_CL_BUILD_OPTIONS", "-cl-mad-enable", 1);
  const Result built = xreduce({"run", "--backend", "opencl", "--variant", "fast/single-pass",
                                "--n", "100003", "--format", "json"});
  unsetenv("XR_CL_BUILD_OPTIONS");
  INFO(built.out << built.err);
  REQUIRE(built.code == 0);
  CHECK(built.out.find("\"XR_CL_BUILD_OPTIONS\"") != std::string::npos);
  CHECK(built.out.find("\"ok\": true") != std::string::npos);
}

// XR_CL_GATE (docs/cli.md): each gate (unset, a CPU device's is the user event) times the same
// calls, checked as ever, and the report says how the intervals were held; a value that is none
// of the three leaves the backend unavailable, in one line.
TEST_CASE("OpenCL intervals run behind the gate XR_CL_GATE names and the report says which",
          "[cli][opencl]") {
  require_opencl();
  const std::vector<std::string> args = {"compare",
                                         "--backend",
                                         "opencl",
                                         "--primitive",
                                         "all",
                                         "--variant",
                                         "smem/sequential,fast/decoupled-lookback",
                                         "--n",
                                         "100003",
                                         "--mode",
                                         "all",
                                         "--overheads",
                                         "--max-time",
                                         "0.05"};
  for (const auto& [value, says] :
       {std::pair{"", "behind a user-event gate (the default on a device that is not a GPU)"},
        std::pair{"event", "behind a user-event gate (XR_CL_GATE=event)"},
        std::pair{"kernel", "behind a blocking kernel (XR_CL_GATE=kernel)"},
        std::pair{"none", "ungated (XR_CL_GATE=none)"}}) {
    CAPTURE(value);
    if (*value) setenv("XR_CL_GATE", value, 1);
    const Result r = xreduce(args);
    unsetenv("XR_CL_GATE");
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    CHECK(r.out.find(says) != std::string::npos);
    CHECK(r.out.find("FAIL") == std::string::npos);
    if (*value) CHECK(r.out.find(std::string("XR_CL_GATE=") + value) != std::string::npos);
  }
  setenv("XR_CL_GATE", "sometimes", 1);
  expect_error({"run", "--backend", "opencl", "--variant", "fast/single-pass", "--n", "100"}, 3,
               "XR_CL_GATE must be event, kernel or none (got 'sometimes')");
  unsetenv("XR_CL_GATE");
}
