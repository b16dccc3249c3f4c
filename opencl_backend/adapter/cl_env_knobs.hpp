// The OpenCL backend's knobs (docs/cli.md, "Environment knobs") from the tool's environment, read
// once when the backend is made: the library's (handed to each device's Context as data), the
// timeout and the gate, and what a report records of them.
#pragma once

#include <string>

#include "cl_gate.hpp"
#include "cl_internal.hpp"
#include "xreduce/device_timeout.hpp"
#include "xreduce/env_knobs.hpp"

namespace xr::opencl {

struct OpenClBackendKnobs {
  OpenClKnobs library;  // a malformed one's line in library.error: every call refused
  DeviceTimeout timeout;
  GateKnob gate;
  // The knobs that took effect, as given (the library's, the timeout, the gate, the kernel cache
  // where it is one): a report's knobs, never a malformed or an empty one.
  KnobsGiven recorded;
};

// Never throws. A knob set empty counts as unset.
OpenClBackendKnobs read_opencl_backend_knobs();

}  // namespace xr::opencl
