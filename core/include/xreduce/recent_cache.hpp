// The few most recent values by key, the oldest dropped past `capacity`: the programs a GPU
// reducer or scanner keeps (one per array and op), since a compare sweep alternates few sizes and
// arrays per variant.
#pragma once

#include <cstddef>
#include <deque>
#include <memory>
#include <utility>

namespace xr {

template <class Key, class Value>
class RecentCache {
 public:
  explicit RecentCache(std::size_t capacity) : capacity_(capacity) {}
  // The value of `key`, made by make() (a unique_ptr<Value>) when absent.
  template <class Make>
  Value& get(const Key& key, Make&& make) {
    for (auto& [k, v] : entries_)
      if (k == key) return *v;
    if (entries_.size() == capacity_) entries_.pop_front();
    entries_.emplace_back(key, make());
    return *entries_.back().second;
  }
  void clear() { entries_.clear(); }

 private:
  std::size_t capacity_;
  std::deque<std::pair<Key, std::unique_ptr<Value>>> entries_;
};

}  // namespace xr
