// The header of a .npy file read as NumPy reads it: a Python dict literal holding exactly the keys
// 'descr', 'fortran_order' and 'shape' (a key given twice takes its last value, as a Python dict
// does), 'descr' a string, 'fortran_order' True or False, 'shape' a tuple of whole numbers. Any
// other header is refused, as NumPy's np.load refuses it, so a file is never read as other data
// than NumPy would read.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace xr {

struct NpyHeader {
  std::string descr;  // as written, quotes included: "'<i4'"
  bool fortran_order = false;
  std::string shape;                // as written: "(2, 3)"
  std::vector<std::uint64_t> dims;  // (2, 3) -> {2, 3}; () -> {} (a scalar)
};

// Error(usage) "<path>: corrupt .npy header: ..." naming what is wrong (a key NumPy does not
// write, a missing one, a value of the wrong kind, a shape that is not a tuple of whole numbers).
NpyHeader parse_npy_header(std::string_view text, const std::filesystem::path& path);

}  // namespace xr
