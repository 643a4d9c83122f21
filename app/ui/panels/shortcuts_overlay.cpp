// The "?" overlay: every key ThreadLab answers to, from the same table the keys are handled by.

#include "keyboard_shortcuts.hpp"
#include "panels.hpp"

namespace tl::ui {

void draw_shortcuts_overlay(AppController& controller, const Fonts& fonts) {
  if (!controller.state().classroom.show_shortcuts) return;
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos({viewport->WorkPos.x + viewport->WorkSize.x * 0.5f,
                           viewport->WorkPos.y + viewport->WorkSize.y * 0.5f},
                          ImGuiCond_Always, {0.5f, 0.5f});
  // Opaque: at 0.95 the timing table underneath showed through the keys.
  ImGui::SetNextWindowBgAlpha(1.0f);
  bool open = true;
  constexpr ImGuiWindowFlags kFlags = ImGuiWindowFlags_AlwaysAutoResize |
                                      ImGuiWindowFlags_NoSavedSettings |
                                      ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoMove;
  if (ImGui::Begin("Keyboard shortcuts", &open, kFlags)) {
    ImGui::PushFont(fonts.bold);
    ImGui::TextUnformatted("A presentation clicker works too: it sends PageDown and PageUp.");
    ImGui::PopFont();
    ImGui::Spacing();
    const auto table = [&fonts](const char* id, std::span<const Shortcut> keys) {
      if (!ImGui::BeginTable(id, 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
        return;
      }
      for (const Shortcut& shortcut : keys) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::PushFont(fonts.mono);
        ImGui::TextUnformatted(shortcut.keys);
        ImGui::PopFont();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(shortcut.action);
      }
      ImGui::EndTable();
    };
    table("shortcuts", shortcuts());
    ImGui::Spacing();
    ImGui::PushFont(fonts.bold);
    ImGui::TextUnformatted("In the Kernel Lab");
    ImGui::PopFont();
    table("lab_shortcuts", lab_shortcuts());
    ImGui::Spacing();
    ImGui::TextColored(palette().muted, "Esc or ? closes this.");
  }
  ImGui::End();
  if (!open) controller.set_show_shortcuts(false);
}

}  // namespace tl::ui
