// One line at the bottom: the backend and why, and the newest message.

#include <cctype>
#include <string>

#include "panels.hpp"

namespace tl::ui {

void draw_status_bar(AppController& controller, const Fonts& /*fonts*/) {
  const AppState& state = controller.state();
  const ImVec4 backend_color =
      state.backend == BackendKind::kEmulator ? palette().warning : palette().ok;
  // One sentence: the backend and, on the emulator, why it runs ("CPU emulator: no NVIDIA GPU or
  // driver found"); the whole reason on hover. On a GPU the device's name says enough.
  std::string sentence = to_string(state.backend);
  if (state.backend == BackendKind::kEmulator) {
    std::string why = reason_headline(state.backend_reason);
    // "No NVIDIA GPU…" reads on after a colon as "no NVIDIA GPU…"; an acronym ("CUDA…") stays.
    if (why.size() > 1 && std::isupper(static_cast<unsigned char>(why[0])) &&
        std::islower(static_cast<unsigned char>(why[1]))) {
      why[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(why[0])));
    }
    if (!why.empty()) sentence += ": " + why;
  } else {
    sentence += " on " + state.device.name;
  }
  ImGui::TextColored(backend_color, "%s", sentence.c_str());
  if (ImGui::IsItemHovered()) wrapped_tooltip("%s", state.backend_reason.c_str());
  // The newest message of the lesson and workspace shown (app_state.hpp), not another's.
  if (const Message* newest = current_message(state); newest != nullptr) {
    const Message& last = *newest;
    const ImVec4 color = last.severity == Severity::kError     ? palette().error
                         : last.severity == Severity::kWarning ? palette().warning
                                                               : palette().muted;
    ImGui::SameLine(0, ImGui::GetFontSize() * 2.0f);
    ImGui::TextColored(color, "%s", last.text.c_str());
    if (ImGui::IsItemHovered() && state.messages.size() > 1) {
      ImGui::BeginTooltip();
      for (const Message& m : state.messages) {
        if (m.lesson_id == last.lesson_id && m.workspace == last.workspace) {
          ImGui::TextUnformatted(m.text.c_str());
        }
      }
      ImGui::EndTooltip();
    }
  }
}

}  // namespace tl::ui
