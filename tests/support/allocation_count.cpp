// The program's operator new, counted (allocation_count.hpp): linked into a test binary, it
// replaces the global allocation functions for the whole program. Every form whose memory the
// scalar operator delete frees is replaced, the nothrow one too (a sanitizer's runtime keeps the
// array and aligned forms, each freed by its own delete).
#include "allocation_count.hpp"

#include <cstdlib>
#include <new>

namespace {
std::atomic<std::uint64_t> g_allocations{0};
}

std::uint64_t xrtest::allocations() {
  return g_allocations.load(std::memory_order_relaxed);
}

void* operator new(std::size_t bytes) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(bytes ? bytes : 1)) return p;
  throw std::bad_alloc();
}
void* operator new(std::size_t bytes, const std::nothrow_t&) noexcept {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(bytes ? bytes : 1);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
  std::free(p);
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}
