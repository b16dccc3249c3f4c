#include "xreduce/operand_spans.hpp"

#include <algorithm>

#include "xreduce/error.hpp"

namespace xr {

bool overlap(const OperandSpan& a, const OperandSpan& b) {
  // Written without a + bytes, which may wrap for a span at the top of a 64-bit space.
  if (a.space != b.space || !a.bytes || !b.bytes) return false;
  return a.begin <= b.begin ? b.begin - a.begin < a.bytes : a.begin - b.begin < b.bytes;
}

CallName::CallName(std::string_view library, std::string_view call) {
  const std::string_view separator = ": ";
  const std::size_t head = std::min(library.size(), sizeof text_ - separator.size());
  library.copy(text_, head);
  separator.copy(text_ + head, separator.size());
  const std::size_t tail = std::min(call.size(), sizeof text_ - head - separator.size());
  call.copy(text_ + head + separator.size(), tail);
  size_ = head + separator.size() + tail;
}

void OperandSpans::add(std::string_view call, const OperandSpan& span) {
  if (count_ == spans_.size())
    throw Error(ErrorCategory::usage, std::string(call) + ": more than " +
                                          std::to_string(kMaxOperands) + " operands in one call");
  spans_[count_++] = span;
}

void require_disjoint(std::string_view call, std::span<const OperandSpan> spans) {
  for (std::size_t i = 0; i < spans.size(); ++i)
    for (std::size_t j = i + 1; j < spans.size(); ++j)
      if (overlap(spans[i], spans[j]))
        throw Error(ErrorCategory::usage, std::string(call) + ": `" + std::string(spans[i].name) +
                                              "` and `" + std::string(spans[j].name) +
                                              "` overlap; every operand needs its own bytes");
}

void require_holds(std::string_view call, std::string_view name, std::uint64_t holds,
                   std::uint64_t needs, std::string_view where, std::string_view why) {
  if (needs <= holds) return;
  throw Error(ErrorCategory::usage, std::string(call) + ": `" + std::string(name) + "` holds " +
                                        std::to_string(holds) + " bytes" + std::string(where) +
                                        "; the call needs " + std::to_string(needs) +
                                        std::string(why));
}

void CheckedOperands::check(std::span<const std::uint64_t> handles,
                            const std::function<void()>& check) {
  {
    const std::lock_guard lock(mutex_);
    if (std::equal(handles.begin(), handles.end(), passed_.begin(), passed_.end())) return;
  }
  check();  // throws for operands that fail
  const std::lock_guard lock(mutex_);
  passed_.assign(handles.begin(), handles.end());
}

}  // namespace xr
