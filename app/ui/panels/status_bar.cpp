// One line at the bottom: the backend and why, and the newest message.

#include "panels.hpp"

namespace tl::ui {

void draw_status_bar(AppController& controller, const Fonts& /*fonts*/) {
  const AppState& state = controller.state();
  const ImVec4 backend_color =
      state.backend == BackendKind::kEmulator ? palette().warning : palette().ok;
  ImGui::TextColored(backend_color, "%s", to_string(state.backend));
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", state.backend_reason.c_str());
  ImGui::SameLine();
  if (state.backend == BackendKind::kEmulator) {
    // "CPU emulator on CPU emulator" says nothing: say why instead, the whole reason on hover.
    ImGui::TextColored(palette().muted, "%s", reason_headline(state.backend_reason).c_str());
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", state.backend_reason.c_str());
  } else {
    ImGui::TextColored(palette().muted, "on %s", state.device.name.c_str());
  }
  if (!state.messages.empty()) {
    const Message& last = state.messages.back();
    const ImVec4 color = last.severity == Severity::kError     ? palette().error
                         : last.severity == Severity::kWarning ? palette().warning
                                                               : palette().muted;
    ImGui::SameLine(0, ImGui::GetFontSize() * 2.0f);
    ImGui::TextColored(color, "%s", last.text.c_str());
    if (ImGui::IsItemHovered() && state.messages.size() > 1) {
      ImGui::BeginTooltip();
      for (const Message& m : state.messages) ImGui::TextUnformatted(m.text.c_str());
      ImGui::EndTooltip();
    }
  }
}

}  // namespace tl::ui
