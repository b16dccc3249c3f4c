// What each column of the experiment is: one sort call that can run cold, timed by its own API's
// timer, and be read back.
#pragma once

#include <vector>

#include "sort_case.hpp"

namespace xr::onebin {

// Where a sample puts its timestamps: at the call's two ends alone, or between its steps too
// (each API's own marks: events, timestamp queries, profiling events).
enum class Marks { call, steps };

struct Sample {
  double call_ms = 0;           // first mark to last
  std::vector<double> step_ms;  // per step, with Marks::steps
};

class Timed {
 public:
  virtual ~Timed() = default;
  // One cold call: L2 flushed before it, outside the interval; the work enqueued before it
  // starts, so that no host gap is timed.
  virtual Sample run(Marks marks) = 0;
  // The first call, which the check reads: an API may run its steps one submission apart, so
  // that a failure names its step.
  virtual void first_run() { run(Marks::call); }
  virtual CallOutput read() = 0;
  // False for a call whose steps are its library's to launch (the library's own call).
  virtual bool marks_steps() const = 0;
};

}  // namespace xr::onebin

namespace xr::onebin {

// A sample from the intervals between consecutive marks.
inline Sample sample_of(const std::vector<double>& intervals, Marks marks) {
  Sample s;
  for (double ms : intervals) s.call_ms += ms;
  if (marks == Marks::steps) s.step_ms = intervals;
  return s;
}

}  // namespace xr::onebin
