#include "keyboard_shortcuts.hpp"

#include <imgui.h>

namespace tl::ui {
namespace {

constexpr Shortcut kShortcuts[] = {
    {"Right, PageDown, Space",
     "next step (sets the controls, launches); after the last, next lesson"},
    {"Left, PageUp", "previous step"},
    {"F5", "presenter mode: larger, high contrast, full screen, advanced controls hidden"},
    {"Esc", "leave presenter mode, stop the demo, close this overlay"},
    {"F11", "full screen"},
    {"F12", "screenshot of the window (PNG in your Pictures folder)"},
    {"Ctrl + and Ctrl -", "presenter scale up and down (1.5× to 3×)"},
    {"? or F1", "this overlay"},
};

// Handled by the Lab's panel (lab_panel.cpp: the check and the run) and its code editor
// (widgets/code_editor.cpp); listed here so that the overlay names them too.
constexpr Shortcut kLabShortcuts[] = {
    {"Ctrl+Enter", "check your kernel: the hidden checks"},
    {"Ctrl+Shift+Enter", "run it once on the example case, with your grid"},
    {"Ctrl+F", "find in the code (Enter: the next match, Esc closes)"},
    {"Ctrl+H", "find and replace (Replace: the selected match, All: every one, one undo)"},
    {"Ctrl+Z, Ctrl+Y", "undo, redo (also Ctrl+Shift+Z)"},
    {"Ctrl+A, C, X, V", "select all, copy, cut, paste"},
    {"Tab", "indent by the starter's step (2 spaces)"},
};

bool pressed(int key) {
  return key >= 0 && ImGui::IsKeyPressed(key, /*repeat=*/false);
}

bool pressed_named(ImGuiKey key) {
  return ImGui::IsKeyPressed(ImGui::GetKeyIndex(key), /*repeat=*/false);
}

bool typed(ImWchar character) {
  for (ImWchar c : ImGui::GetIO().InputQueueCharacters) {
    if (c == character) return true;
  }
  return false;
}

}  // namespace

std::span<const Shortcut> shortcuts() {
  return kShortcuts;
}

std::span<const Shortcut> lab_shortcuts() {
  return kLabShortcuts;
}

void handle_shortcuts(AppController& controller, const PlatformKeys& keys) {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput) return;  // typing "2^20" in a field is not a command
  const ClassroomState& c = controller.state().classroom;
  if (pressed_named(ImGuiKey_RightArrow) || pressed_named(ImGuiKey_PageDown) ||
      pressed_named(ImGuiKey_Space)) {
    controller.next_step();
  }
  if (pressed_named(ImGuiKey_LeftArrow) || pressed_named(ImGuiKey_PageUp))
    controller.previous_step();
  if (pressed(keys.f5)) controller.set_presenter(!c.presenter);
  if (pressed(keys.f11)) controller.set_fullscreen(!c.fullscreen);
  if (pressed(keys.f12)) controller.request_screenshot(io.DisplaySize.x, io.DisplaySize.y);
  if (typed('?') || pressed(keys.f1)) controller.set_show_shortcuts(!c.show_shortcuts);
  if (io.KeyCtrl && (pressed(keys.equal) || pressed(keys.keypad_add))) {
    controller.set_presenter_scale(c.presenter_scale + 0.25f);
  }
  if (io.KeyCtrl && (pressed(keys.minus) || pressed(keys.keypad_subtract))) {
    controller.set_presenter_scale(c.presenter_scale - 0.25f);
  }
  if (pressed_named(ImGuiKey_Escape)) {
    // One thing at a time, the nearest first.
    if (c.show_shortcuts) {
      controller.set_show_shortcuts(false);
    } else if (c.demo) {
      controller.stop_demo();
    } else if (c.presenter) {
      controller.set_presenter(false);
    } else if (c.fullscreen) {
      controller.set_fullscreen(false);
    }
  }
}

}  // namespace tl::ui
