#pragma once
// What was typed between two frames, in the order it was typed. ImGui 1.86 reads keys as a state
// per frame (io.KeysDown): a key pressed and released within one frame is never seen, so on a
// slow window (software GL draws 9 frames a second) Enter presses vanished and text landed on the
// wrong line. The window's GLFW callbacks push every press, repeat and character here; the code
// editor replays them in order each frame. Where nothing feeds the queue (a headless test driving
// ImGuiIO directly), widgets read ImGui's per-frame state as before.

#include <cstddef>
#include <span>
#include <vector>

namespace tl::ui {

struct TypedEvent {
  enum class Kind { kKey, kCharacter };
  Kind kind = Kind::kKey;
  int key = -1;            // kKey: the platform's key code (io.KeyMap maps ImGui's keys to it)
  unsigned character = 0;  // kCharacter: the code point typed
  bool repeat = false;     // kKey: the key held down, repeating
  bool shift = false;
  bool ctrl = false;
  bool alt = false;
};

class TypedInput {
 public:
  // From the platform's callbacks, between frames. Past kMaxPending events (nothing drew for a
  // long time) further ones are counted and dropped, so a stuck window cannot grow without bound.
  void push(const TypedEvent& event);
  // At the start of each frame: the events since the last one become this frame's.
  void begin_frame();
  [[nodiscard]] std::span<const TypedEvent> this_frame() const { return frame_; }
  // Whether a platform feeds the queue (the window's callbacks are installed).
  void set_connected(bool connected) { connected_ = connected; }
  [[nodiscard]] bool connected() const { return connected_; }
  [[nodiscard]] std::size_t dropped() const { return dropped_; }

  static constexpr std::size_t kMaxPending = 4096;

 private:
  std::vector<TypedEvent> pending_;
  std::vector<TypedEvent> frame_;
  std::size_t dropped_ = 0;
  bool connected_ = false;
};

// The process's one queue: there is one window and one ImGui context.
TypedInput& typed_input();

}  // namespace tl::ui
