#pragma once
// The keyboard, and so the presentation clicker (which sends PageDown/PageUp, sometimes F5 and
// Esc): one table of shortcuts that both the handler and the "?" overlay read, so the overlay
// cannot list a key that does nothing.

#include <span>

#include "app_controller.hpp"

namespace tl::ui {

// Key codes in the platform's numbering for the keys ImGui 1.86 does not name (its GLFW backend
// stores GLFW's codes in io.KeysDown; Ctrl suppresses typed characters, so + and - are keys too).
// -1: this platform has no such key (headless).
struct PlatformKeys {
  int f1 = -1;
  int f5 = -1;
  int f11 = -1;
  int f12 = -1;
  int equal = -1;
  int minus = -1;
  int keypad_add = -1;
  int keypad_subtract = -1;
};

struct Shortcut {
  const char* keys;
  const char* action;
};
std::span<const Shortcut> shortcuts();
// The Kernel Lab's keys, which its panel and code editor handle while the Lab has the keyboard.
std::span<const Shortcut> lab_shortcuts();

// Once per frame, after ImGui::NewFrame: applies the keys pressed, unless a text field has them.
void handle_shortcuts(AppController& controller, const PlatformKeys& keys);

}  // namespace tl::ui
