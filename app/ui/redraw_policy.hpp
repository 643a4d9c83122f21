#pragma once
// When the window draws its next frame. An idle window that redraws anyway costs about half a
// core on software GL (the review measured it); so the window waits for input
// (glfwWaitEventsTimeout) unless something moves: background work whose progress is drawn, a demo
// counting its wait, a text field's blinking cursor, or input that just came (ImGui lays some
// things out from the previous frame's sizes, so a few frames settle it). Pure logic, tested
// without a window; window_ui.cpp waits as it says.

namespace tl::ui {

struct RedrawInputs {
  bool events = false;        // input or a window change came since the frame before this one
  bool work_running = false;  // AppController::wants_frames(): progress to draw, a demo's wait
  bool text_cursor = false;   // a text field has the keyboard (ImGuiIO::WantTextInput)
};

class RedrawPolicy {
 public:
  // Frames drawn after the last input before the window may wait.
  static constexpr int kSettleFrames = 3;
  // A text cursor blinks (ImGui: 1.2 s period): wait at most this long.
  static constexpr double kBlinkSeconds = 0.5;
  // Idle: wait at most this long for input, so a change that comes with no event is never more
  // than this late.
  static constexpr double kIdleSeconds = 2.0;

  // After a frame: how long to wait for events before the next one; 0: draw it at once.
  [[nodiscard]] double next_wait(const RedrawInputs& in);

 private:
  int settle_ = kSettleFrames;  // the first frames settle the layout too
};

}  // namespace tl::ui
