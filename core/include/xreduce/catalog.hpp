// The catalog of variant ids: one id, one algorithm, on every backend that implements it
// (DESIGN.md, "Names"). Order in the catalog is the ladder order of `compare` tables.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "xreduce/backend.hpp"

namespace xr {

struct CatalogEntry {
  std::string_view id;
  std::string_view mirrors;
};

// Every known variant id in ladder order.
std::span<const CatalogEntry> catalog();
// Position in the ladder (index into catalog()); ids not in the catalog sort last.
int ladder_position(std::string_view id);
// A VariantInfo with the catalog's id and `mirrors` text. Error(usage) for an id not in the
// catalog, so a backend cannot register an id the others would spell differently.
VariantInfo catalog_variant(std::string_view id, std::vector<DType> dtypes, std::vector<Op> ops);

}  // namespace xr
