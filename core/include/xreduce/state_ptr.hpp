// The state a library's public class keeps behind a pointer (the pimpl idiom), owned and moved
// with the class. The deleter is fixed where the state is made, in the library's source where
// the state's type is complete, so the public class declares no destructor, move or copy
// members: the implicit ones move it and refuse copies, and a consumer never needs the state's
// definition.
#pragma once

#include <memory>
#include <utility>

namespace xr {

template <class State>
using StatePtr = std::unique_ptr<State, void (*)(State*)>;

// Takes `state` over; called where State is complete.
template <class State>
StatePtr<State> own_state(std::unique_ptr<State> state) {
  return StatePtr<State>(state.release(), [](State* s) { delete s; });
}

template <class State, class... Args>
StatePtr<State> make_state(Args&&... args) {
  return own_state(std::make_unique<State>(std::forward<Args>(args)...));
}

}  // namespace xr
