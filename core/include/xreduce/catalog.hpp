// The catalog of variant ids: one id, one algorithm, on every backend that implements it. An id is
// unique within its primitive (`cpu/sequential` and `lib/cub` exist for reduce and for scan). Order
// in the catalog is the ladder order of `compare` tables.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "xreduce/backend.hpp"

namespace xr {

struct CatalogEntry {
  Primitive primitive;
  std::string_view id;
  std::string_view mirrors;
};

// Every known variant of every primitive, each primitive's in ladder order.
std::span<const CatalogEntry> catalog();
// Position in the ladder of `primitive` (index into catalog()); ids not in the catalog sort last.
int ladder_position(Primitive primitive, std::string_view id);
bool in_catalog(Primitive primitive, std::string_view id);
// A VariantInfo with the catalog's id and `mirrors` text; a scan variant claims both kinds.
// Error(usage) for an id not in the catalog, so a backend cannot register an id the others would
// spell differently.
VariantInfo catalog_variant(Primitive primitive, std::string_view id, std::vector<DType> dtypes,
                            std::vector<Op> ops);
// A row of a GPU backend's table as registered: catalog_variant over the three ops, with whether
// its float results repeat bitwise and what it needs of a device, in words.
VariantInfo table_variant(Primitive primitive, std::string_view id, std::vector<DType> dtypes,
                          std::vector<std::string> requirements, bool deterministic = true);

// The row of `id` in a backend's table (rows with an id()), or nullptr.
template <class Row>
const Row* find_row(std::span<const Row> table, std::string_view id) {
  for (const Row& row : table)
    if (row.id() == id) return &row;
  return nullptr;
}

}  // namespace xr
