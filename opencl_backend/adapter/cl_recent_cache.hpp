// The few most recent programs of a reducer or scanner (one per array and op), made on first use.
#pragma once

#include <deque>
#include <memory>
#include <utility>

namespace xr::opencl {

template <class Key, class V>
class RecentCache {
 public:
  explicit RecentCache(std::size_t capacity) : capacity_(capacity) {}
  // The value of `key`, made by make() (a unique_ptr<V>) when absent.
  template <class Make>
  V& get(const Key& key, Make&& make) {
    for (auto& [k, v] : entries_)
      if (k == key) return *v;
    if (entries_.size() == capacity_) entries_.pop_front();
    entries_.emplace_back(key, make());
    return *entries_.back().second;
  }

 private:
  std::size_t capacity_;
  std::deque<std::pair<Key, std::unique_ptr<V>>> entries_;
};

}  // namespace xr::opencl
