// The SM clock as nvidia-smi reports it (clocks.sm of the GPU with the UUID), read outside the
// timed intervals: beside the library's own probe, the driver's word for the clock.
#pragma once

#include <string>

namespace xr::onebin {

// MHz; NaN when nvidia-smi is not there or says nothing of the GPU.
double smi_sm_clock_mhz(const std::string& uuid);

}  // namespace xr::onebin
