// Which 8-byte words of a kernel's parameter block its PTX loads whole (an ld.param of a 64-bit
// element at that offset): the only words that can hold a pointer the kernel uses. A parameter
// whose address the kernel takes (any use of its name but an ld.param) counts as loaded whole,
// every word of it. What the relocation asks of the PTX, so that padding the host left unset
// (which can hold half of a stale pointer) is never taken for an address.
#pragma once

#include <string>
#include <vector>

#include "recording.hpp"
#include "xreduce/ptx_module.hpp"

namespace xr::onebin {

// Per 8-byte word of the block (`params` as cuFuncGetParamInfo gives them, in the entry's
// declaration order): whether the entry loads it whole. Error(usage) when the entry is not in
// `ptx`, declares another number of parameters, or loads past a parameter as `params` lays it
// out.
std::vector<bool> words_loaded_whole(const PtxModule& ptx, const std::string& entry,
                                     const std::vector<ParamSpan>& params);

}  // namespace xr::onebin
