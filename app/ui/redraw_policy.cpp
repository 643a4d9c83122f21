#include "redraw_policy.hpp"

namespace tl::ui {

double RedrawPolicy::next_wait(const RedrawInputs& in) {
  if (in.events) settle_ = kSettleFrames;
  if (in.work_running) return 0.0;
  if (settle_ > 0) {
    --settle_;
    return 0.0;
  }
  return in.text_cursor ? kBlinkSeconds : kIdleSeconds;
}

}  // namespace tl::ui
