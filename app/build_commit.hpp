// The commit the tool was built from, recorded in every compare report so that `xreduce diff`
// can say when two reports ran different code.
#pragma once

#include <string_view>

namespace xr::app {

// `git rev-parse HEAD` of the source tree at build time, "<sha> (with uncommitted changes)" when
// the tree differed from it, "" when the source was not a git checkout.
std::string_view build_commit();

}  // namespace xr::app
