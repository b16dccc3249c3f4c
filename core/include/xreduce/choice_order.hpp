// A GPU library's order of choice among its variants, the same on every API: the ids its
// measurements put first, then the rest of its table from the fast end (the table's last row).
#pragma once

#include <algorithm>
#include <cstddef>
#include <string_view>
#include <vector>

namespace xr {

// One id of a library's choice and the measurement (or the reason) that puts it there.
struct LibraryChoice {
  std::string_view id;
  std::string_view evidence;
};

// `choices` in order, then every other id of `table` from its last row to its first; `id_of`
// reads a row's id.
template <std::size_t N, class Table, class IdOf>
std::vector<std::string_view> choice_order(const LibraryChoice (&choices)[N], const Table& table,
                                           IdOf id_of) {
  std::vector<std::string_view> ids;
  for (const LibraryChoice& c : choices) ids.push_back(c.id);
  for (auto it = std::rbegin(table); it != std::rend(table); ++it)
    if (const std::string_view id = id_of(*it); std::find(ids.begin(), ids.end(), id) == ids.end())
      ids.push_back(id);
  return ids;
}

}  // namespace xr
