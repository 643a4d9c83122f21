// The window's menu bar: the lessons, the view (presenter mode, theme, full screen), screenshots
// and, while one plays, the demo.

#include "compute/lessons/lesson_registry.hpp"
#include "core/build_info.hpp"
#include "panels.hpp"

namespace tl::ui {
namespace {

void tooltip(const char* text) {
  if (ImGui::IsItemHovered()) wrapped_tooltip("%s", text);
}

void draw_file_menu(AppController& controller) {
  if (!ImGui::BeginMenu("File")) return;
  const ImVec2 size = ImGui::GetIO().DisplaySize;
  if (ImGui::MenuItem("Screenshot", "F12")) controller.request_screenshot(size.x, size.y);
  tooltip("Saves the whole window as a PNG in your Pictures folder");
  ImGui::Separator();
  if (ImGui::MenuItem("Quit")) controller.request_quit();
  tooltip("Closes ThreadLab; the lesson, theme and window size are remembered");
  ImGui::EndMenu();
}

void draw_lesson_menu(AppController& controller) {
  if (!ImGui::BeginMenu("Lesson")) return;
  const AppState& state = controller.state();
  for (const auto& lesson : lessons::catalog()) {
    const std::string label = std::to_string(lesson.number) + ". " + std::string(lesson.title);
    if (ImGui::MenuItem(label.c_str(), nullptr, lesson.id == state.controls.lesson_id)) {
      controller.select_lesson(std::string(lesson.id));
    }
    tooltip(std::string(lesson.summary).c_str());
  }
  ImGui::Separator();
  if (ImGui::MenuItem("Next step", "Right")) controller.next_step();
  tooltip("Sets the controls of the lesson's next step and launches it, as a clicker does");
  if (ImGui::MenuItem("Previous step", "Left")) controller.previous_step();
  tooltip("Goes back one step");
  ImGui::EndMenu();
}

void draw_view_menu(AppController& controller) {
  if (!ImGui::BeginMenu("View")) return;
  const ClassroomState& c = controller.state().classroom;
  if (ImGui::MenuItem("Presenter mode", "F5", c.presenter)) controller.set_presenter(!c.presenter);
  tooltip(
      "For a projector: everything larger and sharp, high contrast, full screen, advanced "
      "controls hidden");
  float scale = c.presenter_scale;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
  if (ImGui::SliderFloat("Presenter scale", &scale, classroom::kMinPresenterScale,
                         classroom::kMaxPresenterScale, "%.2f×")) {
    controller.set_presenter_scale(scale);
  }
  tooltip(
      "How much larger presenter mode draws (Ctrl + and Ctrl -); fonts are re-rasterised at "
      "each size");
  // Where the window holds less than asked, the menu says so beside the number it shows.
  if (!c.scale_note.empty()) {
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 24.0f);
    ImGui::TextColored(palette().warning, "%s", c.scale_note.c_str());
    ImGui::PopTextWrapPos();
  }
  ImGui::Separator();
  if (ImGui::MenuItem("Dark theme", nullptr, c.theme == classroom::Theme::kDark)) {
    controller.set_theme(classroom::Theme::kDark);
  }
  tooltip("The everyday theme");
  if (ImGui::MenuItem("High-contrast theme", nullptr, c.theme == classroom::Theme::kHighContrast)) {
    controller.set_theme(classroom::Theme::kHighContrast);
  }
  tooltip("Black, white and saturated colours, as presenter mode uses");
  if (ImGui::MenuItem("Full screen", "F11", c.fullscreen)) controller.set_fullscreen(!c.fullscreen);
  tooltip("The window fills the monitor it is on");
  ImGui::Separator();
  if (ImGui::MenuItem("Keyboard shortcuts", "?", c.show_shortcuts)) {
    controller.set_show_shortcuts(!c.show_shortcuts);
  }
  tooltip("Every key ThreadLab answers to");
  ImGui::EndMenu();
}

void draw_demo_menu(AppController& controller) {
  const ClassroomState& c = controller.state().classroom;
  if (!c.demo || !ImGui::BeginMenu("Demo")) return;
  if (ImGui::MenuItem("Pause the waits", nullptr, c.demo->paused)) {
    controller.set_demo_paused(!c.demo->paused);
  }
  tooltip("Stops the timed steps from moving on by themselves; the keys still move");
  if (ImGui::MenuItem("Stop the demo", "Esc")) controller.stop_demo();
  tooltip("Leaves the script; the app stays as the last step left it");
  ImGui::EndMenu();
}

// The About box's title: its popup is opened from the Help menu and drawn at the menu bar's level
// (a popup opened inside a menu would belong to the menu's ID scope and close with it).
constexpr const char* kAboutTitle = "About ThreadLab";

bool draw_help_menu() {
  if (!ImGui::BeginMenu("Help")) return false;
  const bool about = ImGui::MenuItem("About ThreadLab");
  tooltip("The version, the commit and the CUDA toolkit this ThreadLab was built from");
  ImGui::EndMenu();
  return about;
}

void draw_about_box() {
  ImGui::SetNextWindowPos(ImGui::GetMainViewport()->GetCenter(), ImGuiCond_Appearing,
                          ImVec2(0.5f, 0.5f));
  if (!ImGui::BeginPopupModal(kAboutTitle, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
  ImGui::Text("ThreadLab %s", std::string(build_info::version()).c_str());
  ImGui::TextUnformatted(
      "Learn CUDA by running real kernels and seeing which thread computed what.");
  ImGui::Separator();
  ImGui::TextColored(palette().muted, "%s", build_info::describe().c_str());
  ImGui::TextColored(palette().muted,
                     "Package: threadlab %s; `threadlab --version` prints the same",
                     std::string(build_info::version()).c_str());
  if (ImGui::Button("Close") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false)) {
    ImGui::CloseCurrentPopup();
  }
  ImGui::EndPopup();
}

}  // namespace

void draw_menu_bar(AppController& controller, const Fonts& /*fonts*/) {
  if (!ImGui::BeginMenuBar()) return;
  draw_file_menu(controller);
  draw_lesson_menu(controller);
  draw_view_menu(controller);
  draw_demo_menu(controller);
  const bool open_about = draw_help_menu();
  const ClassroomState& c = controller.state().classroom;
  if (c.demo) {
    const std::string title =
        c.demo->script.title.empty() ? c.demo->script.file : c.demo->script.title;
    const std::string where = c.demo->index
                                  ? "step " + std::to_string(*c.demo->index + 1) + " of " +
                                        std::to_string(c.demo->script.steps.size())
                                  : "";
    ImGui::TextColored(palette().muted, "Demo: %s, %s%s", title.c_str(), where.c_str(),
                       c.demo->paused ? " (paused)" : "");
  }
  ImGui::EndMenuBar();
  if (open_about) ImGui::OpenPopup(kAboutTitle);
  draw_about_box();
}

}  // namespace tl::ui
