#include "typed_input.hpp"

#include <utility>

namespace tl::ui {

void TypedInput::push(const TypedEvent& event) {
  if (pending_.size() >= kMaxPending) {
    ++dropped_;
    return;
  }
  pending_.push_back(event);
}

void TypedInput::begin_frame() {
  frame_.clear();
  std::swap(frame_, pending_);
}

TypedInput& typed_input() {
  static TypedInput queue;
  return queue;
}

}  // namespace tl::ui
