// The Kernel Lab: on the left the lesson's exercises and the statement, in the middle the editor
// with Check / Reset / Show solution and the compiler's messages, on the right the verdict (each
// hidden case, the time against the reference, a passing kernel's memory figures and one warp's
// request drawn) and the mapping view of the learner's kernel with its wrong elements outlined in
// red.

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "../class_session.hpp"
#include "core/format.hpp"
#include "draw_colors.hpp"
#include "lab/verdict_summary.hpp"
#include "lab_layout.hpp"
#include "memory_request_drawing.hpp"
#include "panels.hpp"
#include "ui/widgets/wrapped_text.hpp"

namespace tl::ui {
namespace {

void lab_shortcuts(AppController& controller);

// The picker's label of an exercise: its title, and how far the learner got.
std::string entry_label(const LabExerciseEntry& entry) {
  std::string label = entry.title;
  if (entry.passed) {
    label += "  (passed";
    if (entry.best_ms) label += ", best " + format_milliseconds(*entry.best_ms);
    label += ")";
  }
  return label + "###" + entry.id;
}

void heading(const Fonts& fonts, const char* text) {
  ImGui::PushFont(fonts.bold);
  ImGui::TextUnformatted(text);
  ImGui::PopFont();
}

// Wrapped at spaces only: a verdict's numbers ("-0.479008496", "1,048,576") stay whole.
void wrapped(const ImVec4& color, const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, color);
  text_wrapped_at_spaces(text);
  ImGui::PopStyleColor();
}

void draw_exercise_picker(AppController& controller, const Fonts& fonts) {
  LabController& lab = controller.lab();
  const LabState& state = lab.state();
  // Overall progress, the way a course page shows it: "3 of 15 passed".
  ImGui::TextColored(state.passed_total > 0 ? palette().ok : palette().muted,
                     "%zu of %zu exercises passed", state.passed_total, state.exercises.size());
  if (ImGui::IsItemHovered()) {
    wrapped_tooltip("This lesson: %zu of %zu. Kept between sessions with your code.",
                    state.passed_in_lesson, state.lesson_exercises);
  }
  heading(fonts, "This lesson's exercises");
  if (state.lesson_exercises == 0) {
    wrapped(palette().muted, "This lesson has no exercises yet: pick one below.");
  }
  for (const LabExerciseEntry& entry : state.exercises) {
    if (entry.lesson_id != state.lesson_id) continue;
    if (ImGui::Selectable(entry_label(entry).c_str(), entry.id == state.current)) {
      lab.select_exercise(entry.id);
    }
  }
  // Every other exercise stays reachable, grouped by its lesson; those whose lesson this build
  // does not have (an exercise may be registered before its lesson) come last.
  ImGui::Spacing();
  ImGui::SetNextItemWidth(-1);
  std::string preview = "More exercises…";
  for (const LabExerciseEntry& entry : state.exercises) {
    if (entry.id == state.current && entry.lesson_id != state.lesson_id) preview = entry.title;
  }
  if (ImGui::BeginCombo("##more_exercises", preview.c_str())) {
    for (const bool with_lesson : {true, false}) {
      std::string group;
      for (const LabExerciseEntry& entry : state.exercises) {
        if (entry.lesson_id == state.lesson_id || entry.lesson_title.empty() == with_lesson) {
          continue;
        }
        const std::string title =
            with_lesson ? entry.lesson_title : std::string("Not in a lesson yet");
        if (title != group) {
          group = title;
          ImGui::TextDisabled("%s", group.c_str());
        }
        if (ImGui::Selectable(entry_label(entry).c_str(), entry.id == state.current)) {
          lab.select_exercise(entry.id);
        }
      }
    }
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered()) wrapped_tooltip("The exercises of the other lessons");
}

// The ladder of hints under the statement: those shown so far, and a button for the next one
// once a check has failed; the solution comes after the last.
void draw_hints(AppController& controller, const Fonts& fonts) {
  LabController& lab = controller.lab();
  const LabState& state = lab.state();
  if (state.hints_total == 0) return;
  ImGui::Spacing();
  ImGui::Separator();
  heading(fonts, "Hints");
  for (std::size_t i = 0; i < state.hints_shown.size(); ++i) {
    ImGui::TextColored(palette().muted, "Hint %zu of %zu", i + 1, state.hints_total);
    draw_markdown(controller, state.hints_shown[i], fonts);
  }
  if (state.can_show_hint) {
    const std::string label = "Show hint " + std::to_string(state.hints_shown.size() + 1) + " of " +
                              std::to_string(state.hints_total);
    if (ImGui::Button(label.c_str())) lab.show_next_hint();
  } else if (state.hints_shown.size() < state.hints_total) {
    wrapped(palette().muted, std::to_string(state.hints_total) +
                                 " hints, one at a time, after a check that fails: try first.");
  } else {
    wrapped(palette().muted, "That was the last hint: Show solution is above the editor.");
  }
}

void draw_statement(AppController& controller, const Fonts& fonts) {
  const LabState& state = controller.lab().state();
  if (state.current.empty()) return;
  // The statement usually opens with its own title; one without gets the exercise's.
  const auto& blocks = state.statement.blocks;
  if (blocks.empty() || blocks.front().kind != markdown::BlockKind::kHeading) {
    ImGui::PushFont(fonts.heading);
    ImGui::TextWrapped("%s", state.statement_title.c_str());
    ImGui::PopFont();
  }
  if (!state.statement_error.empty()) wrapped(palette().error, state.statement_error);
  draw_markdown(controller, state.statement, fonts);
  draw_hints(controller, fonts);
}

const char* spinner() {
  static const char* const kFrames[] = {"|", "/", "-", "\\"};
  return kFrames[static_cast<int>(ImGui::GetTime() * 8.0) % 4];
}

// The toolbar's next item on this line where it fits, else at the start of the next one: in a
// narrow editor column or at a large scale the toolbar wraps instead of being cut ("on the emula").
float button_width(const char* label) {
  return ImGui::CalcTextSize(label, nullptr, true).x + ImGui::GetStyle().FramePadding.x * 2;
}
void next_on_line(float width, float spacing = -1.0f) {
  ImGui::SameLine(0, spacing);
  if (width > ImGui::GetContentRegionAvail().x) ImGui::NewLine();
}
// A labelled field: its label, then its frame ("block [256]": ImGui's own label after the field
// read as "256 block auto grid").
float field_width(float frame, const char* label) {
  return frame + ImGui::GetStyle().ItemSpacing.x + ImGui::CalcTextSize(label).x;
}
void label_before(const char* label) {
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(label);
  ImGui::SameLine();
}

// Open… and Save as…, as LabState::file_dialog says (the controller decides, this draws): a path
// typed into a field, since ImGui 1.86 has no file dialog. A file already there is replaced only
// after a second, explicit "Replace"; the code Open replaces stays one Ctrl+Z away.
void draw_file_dialog(LabController& lab) {
  const LabState::FileDialog& d = lab.state().file_dialog;
  if (!d.open) return;
  if (!ImGui::IsPopupOpen("lab_file")) ImGui::OpenPopup("lab_file");
  if (!ImGui::BeginPopup("lab_file")) {
    lab.close_file_dialog();  // closed by Esc or a click outside it
    return;
  }
  ImGui::TextUnformatted(d.saving ? "Save your kernel as" : "Open a kernel file");
  static char buffer[1024];
  if (std::string_view(buffer) != d.path)
    std::snprintf(buffer, sizeof buffer, "%s", d.path.c_str());
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 28.0f);
  if (ImGui::InputText("##lab_file_path", buffer, sizeof buffer)) lab.set_file_dialog_path(buffer);
  if (d.confirm_replace) {
    ImGui::TextColored(palette().warning, "%s is there already. Replace it?", d.path.c_str());
  }
  const char* action = d.confirm_replace ? "Replace" : d.saving ? "Save" : "Open";
  if (ImGui::Button(action)) lab.submit_file_dialog();
  ImGui::SameLine();
  if (ImGui::Button("Cancel")) lab.close_file_dialog();
  if (!d.problem.empty()) wrapped(palette().error, d.problem);
  if (!lab.state().file_dialog.open) ImGui::CloseCurrentPopup();
  ImGui::EndPopup();
}

void draw_toolbar(AppController& controller) {
  LabController& lab = controller.lab();
  const LabState& state = lab.state();
  const bool checking = state.check.running;
  ImGui::BeginDisabled(checking || state.showing_solution);
  if (ImGui::Button("Run")) lab.run();
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
    wrapped_tooltip(
        "Compile your kernel and run it once on the example case with your grid and block, on "
        "the %s: its mapping and its time, no hidden checks (Ctrl+Shift+Enter)",
        state.backend.c_str());
  }
  next_on_line(button_width("Check"));
  ImGui::BeginDisabled(checking || state.showing_solution);
  if (ImGui::Button("Check")) lab.check();
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
    wrapped_tooltip("Compile your kernel and run the hidden checks on the %s (Ctrl+Enter)",
                    state.backend.c_str());
  }
  // In a class, the student's code stays on this machine unless they press this (issue 37).
  if (ClassSession* session = controller.class_session();
      session != nullptr && !session->presenting()) {
    next_on_line(button_width("Share with the teacher"));
    if (ImGui::Button("Share with the teacher")) {
      if (const Status shared = session->share_lab_code(controller); !shared) {
        controller.post(Severity::kWarning, "Not shared: " + shared.message());
      }
    }
    if (ImGui::IsItemHovered()) {
      wrapped_tooltip(
          "Send your code for this exercise to the teacher's board (the teacher alone sees it). "
          "Nothing of your code leaves this computer otherwise: checks send only pass or fail.");
    }
  }
  next_on_line(button_width("Reset"));
  ImGui::BeginDisabled(checking);
  if (ImGui::Button("Reset")) lab.reset_to_starter();
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
    wrapped_tooltip("Back to the starter code (Ctrl+Z brings your code back)");
  }
  next_on_line(button_width(state.showing_solution ? "Back to my code" : "Show solution"));
  if (state.showing_solution) {
    if (ImGui::Button("Back to my code")) lab.show_solution(false);
    const char* compare = state.showing_diff ? "The solution alone" : "Compare with my code";
    next_on_line(button_width(compare));
    if (ImGui::Button(compare)) lab.show_diff(!state.showing_diff);
    if (ImGui::IsItemHovered()) {
      wrapped_tooltip(
          "Your code and the solution line by line: yours in red (-), the solution's "
          "in green (+). Your code stays as it is.");
    }
  } else {
    ImGui::BeginDisabled(!state.can_show_solution);
    if (ImGui::Button("Show solution")) lab.show_solution(true);
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
      if (state.can_show_solution) {
        wrapped_tooltip("The reference solution, read-only; then compare it with your code");
      } else if (state.can_show_hint) {
        wrapped_tooltip("After the hints under the statement: %zu left",
                        state.hints_total - state.hints_shown.size());
      } else {
        wrapped_tooltip("Available after a check that fails: try first");
      }
    }
  }
  const float field = ImGui::GetFontSize() * 5.0f;
  if (!state.block_is_fixed) {
    next_on_line(field_width(field, "block"), ImGui::GetFontSize());
    static std::string editing_for;
    static char buffer[32] = {};
    if (editing_for != state.current) {
      editing_for = state.current;
      std::snprintf(buffer, sizeof buffer, "%s", state.block_text.c_str());
    }
    label_before("block");
    ImGui::SetNextItemWidth(field);
    if (ImGui::InputText("##block", buffer, sizeof buffer)) lab.set_block(buffer);
    if (ImGui::IsItemHovered()) {
      wrapped_tooltip(
          "Threads per block for the checks, e.g. 256 or 16x16 (this exercise "
          "lets you choose; the grid follows from it)");
    }
  }
  {
    next_on_line(field_width(field, "grid"), ImGui::GetFontSize());
    static std::string editing_for;
    static char buffer[32] = {};
    if (editing_for != state.current) {
      editing_for = state.current;
      std::snprintf(buffer, sizeof buffer, "%s", state.grid_text.c_str());
    }
    label_before("grid");
    ImGui::SetNextItemWidth(field);
    if (ImGui::InputTextWithHint("##grid", "auto", buffer, sizeof buffer)) lab.set_grid(buffer);
    if (ImGui::IsItemHovered()) {
      wrapped_tooltip(
          "Blocks in the grid, e.g. 4 or 8x8, for every case of a Run or a Check. Empty: enough "
          "blocks to cover each case's size. Too few shows as elements nobody wrote, unless "
          "your kernel strides over the grid.");
    }
  }
  {
    const float box = ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x +
                      ImGui::CalcTextSize("wrap").x;
    next_on_line(box, ImGui::GetFontSize());
    bool wrap = state.soft_wrap;
    if (ImGui::Checkbox("wrap", &wrap)) lab.set_soft_wrap(wrap);
    if (ImGui::IsItemHovered()) {
      wrapped_tooltip("Long lines continue on the next row instead of scrolling sideways");
    }
  }
  next_on_line(button_width("Open…"), ImGui::GetFontSize());
  if (ImGui::Button("Open…")) lab.begin_file_dialog(/*saving=*/false);
  if (ImGui::IsItemHovered()) {
    wrapped_tooltip("Load a .cu file into the editor (Ctrl+Z brings your code back)");
  }
  next_on_line(button_width("Save as…"));
  if (ImGui::Button("Save as…")) lab.begin_file_dialog(/*saving=*/true);
  if (ImGui::IsItemHovered()) {
    wrapped_tooltip("Write your kernel to a file of your choosing; it is also kept for you in %s",
                    "the Lab's own folder");
  }
  draw_file_dialog(lab);
  if (!state.file_message.empty()) {
    ImGui::TextColored(palette().muted, "%s", state.file_message.c_str());
  }
  char status[96];
  if (checking) {
    std::snprintf(status, sizeof status, "%s %s… %.1f s", spinner(),
                  state.check.run_only ? "running" : "checking", state.check.seconds);
  } else {
    std::snprintf(status, sizeof status, "on the %s", state.backend.c_str());
  }
  next_on_line(ImGui::CalcTextSize(status).x, ImGui::GetFontSize());
  ImGui::TextColored(checking ? palette().warning : palette().muted, "%s", status);
  if (!state.block_problem.empty()) wrapped(palette().error, state.block_problem);
  if (!state.grid_problem.empty()) wrapped(palette().error, state.grid_problem);
}

void draw_diagnostics(AppController& controller, const Fonts& fonts) {
  LabController& lab = controller.lab();
  const LabState& state = lab.state();
  heading(fonts, "Compiler messages");
  if (state.diagnostics_gone > 0) {
    wrapped(palette().muted,
            std::to_string(state.diagnostics_gone) +
                (state.diagnostics_gone == 1 ? " message was" : " messages were") +
                " about a line you have edited since: Check again (Ctrl+Enter) to see what the "
                "compiler says now.");
  }
  if (state.diagnostics.empty() && state.diagnostics_gone > 0) return;
  if (state.diagnostics.empty() && state.verdict) {
    // Messages the parser does not place on a line (a linker, a missing compiler): as they came.
    ImGui::PushFont(fonts.mono);
    text_wrapped_at_spaces(state.verdict->compiler_log);
    ImGui::PopFont();
    return;
  }
  for (std::size_t i = 0; i < state.diagnostics.size(); ++i) {
    const editor::Diagnostic& d = state.diagnostics[i];
    const ImVec4 color = d.severity == editor::Severity::kError     ? palette().error
                         : d.severity == editor::Severity::kWarning ? palette().warning
                                                                    : palette().muted;
    const std::string text = "line " + std::to_string(d.line) + ": " +
                             std::string(editor::severity_name(d.severity)) + ": " + d.message;
    ImGui::PushID(static_cast<int>(i));
    ImGui::PushStyleColor(ImGuiCol_Text, color);
    // A click puts the cursor on the line in the editor.
    if (ImGui::Selectable(text.c_str()) && !state.showing_solution) {
      editor::TextModel& model = lab.editor_model();
      model.set_cursor({d.line - 1, d.column ? *d.column - 1 : 0});
      CodeEditorState& editor_state = lab.editor_state();
      editor_state.scroll_to_cursor = true;
      editor_state.focused = true;
    }
    ImGui::PopStyleColor();
    if (!d.detail.empty() && ImGui::IsItemHovered()) wrapped_tooltip("%s", d.detail.c_str());
    ImGui::PopID();
  }
}

// The learner's code against the solution, a unified diff to read: shared lines plain, the
// learner's own lines red with "-", the solution's green with "+", each with its line number.
void draw_diff(const std::vector<editor::DiffLine>& diff, const Fonts& fonts, float height) {
  ImGui::BeginChild("lab_diff", {0, height}, true, ImGuiWindowFlags_HorizontalScrollbar);
  ImGui::PushFont(fonts.mono);
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(diff.size()));
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const editor::DiffLine& line = diff[static_cast<std::size_t>(i)];
      char numbers[32];
      const auto number = [](int n) { return n > 0 ? std::to_string(n) : std::string(); };
      std::snprintf(numbers, sizeof numbers, "%4s %4s ", number(line.mine_line).c_str(),
                    number(line.solution_line).c_str());
      ImGui::TextColored(palette().muted, "%s", numbers);
      ImGui::SameLine(0, 0);
      const char* mark = line.kind == editor::DiffKind::kOnlyMine       ? "- "
                         : line.kind == editor::DiffKind::kOnlySolution ? "+ "
                                                                        : "  ";
      const ImVec4 color = line.kind == editor::DiffKind::kOnlyMine ? palette().error
                           : line.kind == editor::DiffKind::kOnlySolution
                               ? palette().ok
                               : ImGui::GetStyle().Colors[ImGuiCol_Text];
      ImGui::TextColored(color, "%s%s", mark, line.text.c_str());
    }
  }
  ImGui::PopFont();
  ImGui::EndChild();
}

void draw_code_column(AppController& controller, const Fonts& fonts) {
  LabController& lab = controller.lab();
  const LabState& state = lab.state();
  if (state.current.empty()) {
    wrapped(palette().muted, "No exercise is registered in this build.");
    return;
  }
  draw_toolbar(controller);
  if (state.showing_solution) {
    ImGui::TextColored(palette().ok, "The reference solution (read-only). ");
  }
  const bool compile_messages =
      state.verdict && state.verdict->outcome == lab::Outcome::kCompileError;
  const float list_height = compile_messages ? ImGui::GetTextLineHeightWithSpacing() * 7.0f : 0.0f;
  CodeEditorOptions options;
  options.font = fonts.mono;
  options.colors = controller.state().classroom.theme == classroom::Theme::kHighContrast
                       ? &high_contrast_code_editor_colors()
                       : &dark_code_editor_colors();
  if (!state.showing_solution) options.diagnostics = state.diagnostics;
  options.soft_wrap = state.soft_wrap;
  const float editor_height = ImGui::GetContentRegionAvail().y - list_height -
                              (compile_messages ? ImGui::GetStyle().ItemSpacing.y : 0.0f);
  if (state.showing_solution && state.showing_diff) {
    draw_diff(state.diff, fonts, editor_height);
  } else {
    CodeEditor("lab_editor", lab.editor_model(), lab.editor_state(), options,
               ImVec2(0, editor_height));
  }
  if (compile_messages) {
    ImGui::BeginChild("lab_diagnostics", {0, 0}, true);
    draw_diagnostics(controller, fonts);
    ImGui::EndChild();
  }
}

const char* outcome_title(const lab::CheckVerdict& verdict) {
  switch (verdict.outcome) {
    case lab::Outcome::kPassed:
      return verdict.run_only ? "Ran: the outputs are right" : "Passed";
    case lab::Outcome::kFailed:
      return verdict.run_only ? "Ran: something is wrong" : "Failed";
    case lab::Outcome::kCompileError:
      return "Does not compile";
    case lab::Outcome::kUnavailable:
      return "Not checked";
  }
  return "";
}

ImVec4 outcome_color(lab::Outcome outcome) {
  switch (outcome) {
    case lab::Outcome::kPassed:
      return palette().ok;
    case lab::Outcome::kUnavailable:
      return palette().warning;
    default:
      return palette().error;
  }
}

// The Compiled panel: what NVRTC made of a passing kernel, worded by the controller: registers,
// spills and occupancy in one line, then the warnings (spills and the lines holding them, a
// __launch_bounds__ that capped the registers, occupancy held low by registers or shared memory).
void draw_compiled_feedback(LabController& lab, const LabCompiledState& compiled,
                            const Fonts& fonts) {
  if (compiled.summary.empty() && compiled.unavailable.empty()) return;
  ImGui::Spacing();
  if (!ImGui::CollapsingHeader("Compiled", ImGuiTreeNodeFlags_DefaultOpen)) return;
  if (!compiled.unavailable.empty()) {
    wrapped(palette().muted, compiled.unavailable);
    return;
  }
  wrapped(compiled.warnings.empty() ? palette().muted : palette().warning, compiled.summary);
  if (ImGui::IsItemHovered()) {
    wrapped_tooltip(
        "Your kernel compiled once more by NVRTC, in the Lab's sandboxed worker (no GPU needed): "
        "ptxas's registers and spills, and the occupancy they allow at this exercise's block. "
        "`threadlab lab inspect FILE --exercise ID --sass` prints the SASS under each line.");
  }
  for (const std::string& warning : compiled.warnings) wrapped(palette().warning, warning);
  if (compiled.has_listing) {
    // The learner's source beside its SASS or PTX, 16 lines tall: the spill lines light up.
    draw_compiled_listing(lab.compiled_view(), fonts, ImGui::GetTextLineHeightWithSpacing() * 16,
                          /*side_by_side=*/false);
  }
}

// The Memory panel: the access budget of each input array, then each access line of a passing
// kernel with its badge (the controller worked them out from the verdict's recording; the line's
// note on hover); a click on a line draws one warp's request of it, as the lesson workspace's
// Memory tab does, with the arrows stepping through the line's requests.
void draw_memory(LabController& lab, const LabMemoryState& memory, const Fonts& fonts) {
  if (memory.lines.empty() && memory.unavailable.empty()) return;
  ImGui::Spacing();
  if (!ImGui::CollapsingHeader("Memory", ImGuiTreeNodeFlags_DefaultOpen)) return;
  if (!memory.unavailable.empty()) {
    wrapped(palette().muted, memory.unavailable);
    return;
  }
  wrapped(palette().muted, memory.scope);
  if (!memory.budgets.empty()) {
    heading(fonts, "Access budget");
    for (const lab::LoadBudgetNote& budget : memory.budgets) {
      wrapped(budget.within ? palette().ok : palette().warning, budget.text);
    }
  }
  // A click selects the line after the list is drawn: selecting rewrites the state it reads.
  std::optional<std::size_t> clicked_line;
  for (std::size_t i = 0; i < memory.lines.size(); ++i) {
    const lab::MemoryLine& line = memory.lines[i];
    ImGui::PushID(static_cast<int>(i));
    const std::string label = line.badge + "##line";
    ImGui::PushStyleColor(ImGuiCol_Text, line.ideal ? palette().ok : palette().warning);
    const bool clicked =
        ImGui::Selectable(label.c_str(), memory.line == i, ImGuiSelectableFlags_None,
                          {ImGui::CalcTextSize(line.badge.c_str()).x, 0});
    ImGui::PopStyleColor();
    if (ImGui::IsItemHovered()) {
      ImGui::BeginTooltip();
      ImGui::PushTextWrapPos(ImGui::GetFontSize() * 35.0f);
      if (!line.note.empty()) ImGui::TextUnformatted(line.note.c_str());
      ImGui::TextColored(palette().muted, "Click: one warp's request of this line, drawn below");
      ImGui::PopTextWrapPos();
      ImGui::EndTooltip();
    }
    if (clicked) clicked_line = i;
    ImGui::SameLine();
    ImGui::TextColored(palette().muted, "%s, line %d", line.access.c_str(), line.line);
    if (!line.source.empty()) {
      ImGui::PushFont(fonts.mono);
      ImGui::Indent();
      ImGui::TextUnformatted(line.source.c_str());
      ImGui::Unindent();
      ImGui::PopFont();
    }
    if (ImGui::IsItemHovered() && !line.note.empty()) {
      ImGui::BeginTooltip();
      ImGui::PushTextWrapPos(ImGui::GetFontSize() * 35.0f);
      ImGui::TextUnformatted(line.note.c_str());
      ImGui::PopTextWrapPos();
      ImGui::EndTooltip();
    }
    ImGui::PopID();
  }
  // The picture sits under the list, often below the fold of this column: after a click, the
  // next frame scrolls it into view (ImGui's own storage keeps the wish for one frame).
  const ImGuiID scroll_to_picture = ImGui::GetID("scroll_to_picture");
  if (clicked_line) {
    lab.select_memory_line(*clicked_line);
    ImGui::GetStateStorage()->SetBool(scroll_to_picture, true);
    return;  // the new line's picture from the next frame
  }
  if (memory.line < memory.lines.size()) {
    ImGui::Spacing();
    const lab::MemoryLine& selected = memory.lines[memory.line];
    if (ImGui::GetStateStorage()->GetBool(scroll_to_picture)) {
      ImGui::SetScrollHereY(0.0f);
      ImGui::GetStateStorage()->SetBool(scroll_to_picture, false);
    }
    ImGui::Text("Line %d, %s:", selected.line, selected.access.c_str());
    if (memory.request) {
      const RequestStep pressed = draw_memory_request(*memory.request);
      if (pressed == RequestStep::kPrevious) lab.select_memory_request(memory.request->index - 1);
      if (pressed == RequestStep::kNext) lab.select_memory_request(memory.request->index + 1);
    } else if (!memory.no_picture.empty()) {
      wrapped(palette().muted, memory.no_picture);
    }
  }
}

void draw_verdict(AppController& controller, const Fonts& fonts) {
  LabController& lab = controller.lab();
  const LabState& state = lab.state();
  if (state.check.running) {
    ImGui::TextColored(palette().warning, "%s Checking %s on the %s… %.1f s", spinner(),
                       state.check.exercise_id.c_str(), state.backend.c_str(), state.check.seconds);
  }
  if (!state.storage_problem.empty()) {
    wrapped(palette().warning, "Progress: " + state.storage_problem);
  }
  if (!state.verdict && state.earlier_verdict && !state.check.running) {
    // The verdict of the last session's check, in words: the learner comes back to where they
    // were. Its traces and times were not kept.
    heading(fonts, "Your last check, in an earlier session");
    const std::string& outcome = state.earlier_verdict->outcome;
    const bool passed = outcome == "passed";
    ImGui::TextColored(passed ? palette().ok : palette().error, "%s",
                       passed                       ? "Passed"
                       : outcome == "failed"        ? "Failed"
                       : outcome == "compile-error" ? "Does not compile"
                                                    : outcome.c_str());
    wrapped(ImGui::GetStyle().Colors[ImGuiCol_Text], state.earlier_verdict->reason);
    wrapped(palette().muted, "Check again (Ctrl+Enter) for its cases and the mapping view.");
    return;
  }
  if (!state.verdict) {
    if (!state.check.running) {
      wrapped(palette().muted,
              "Write the kernel, then press Run (Ctrl+Shift+Enter) to see its mapping on an "
              "example, or Check (Ctrl+Enter). Hidden checks run it on "
              "awkward sizes and say which element is wrong and which thread wrote it.");
    }
    return;
  }
  const lab::CheckVerdict& verdict = *state.verdict;
  ImGui::PushFont(fonts.heading);
  ImGui::TextColored(outcome_color(verdict.outcome), "%s", outcome_title(verdict));
  ImGui::PopFont();
  wrapped(ImGui::GetStyle().Colors[ImGuiCol_Text], verdict.reason);
  if (!verdict.device.empty()) wrapped(palette().muted, "on " + verdict.device);
  if (verdict.outcome == lab::Outcome::kPassed) {
    for (const lab::TimingLine& line : lab::timing_summary(verdict)) {
      wrapped(line.headline ? palette().ok : ImGui::GetStyle().Colors[ImGuiCol_Text], line.text);
    }
  }
  if (!verdict.cases.empty()) {
    ImGui::Spacing();
    heading(fonts, verdict.run_only ? "The example case" : "Hidden checks");
    for (std::size_t i = 0; i < verdict.cases.size(); ++i) {
      const lab::CaseResult& c = verdict.cases[i];
      std::string text =
          std::string(c.passed ? "pass  " : "FAIL  ") + c.label + " " + lab::launch_text(c.launch);
      if (!c.passed && !c.message.empty()) text += ": " + c.message;
      ImGui::PushID(static_cast<int>(i));
      ImGui::PushStyleColor(ImGuiCol_Text, c.passed ? palette().ok : palette().error);
      const bool drawn = state.mapping.case_index == i && state.mapping.valid;
      if (ImGui::Selectable(text.c_str(), drawn)) lab.show_case(i);
      ImGui::PopStyleColor();
      if (ImGui::IsItemHovered()) {
        // The whole message: the line is cut at the panel's edge.
        ImGui::BeginTooltip();
        if (!c.message.empty()) text_wrapped_at_spaces(c.message, ImGui::GetFontSize() * 35.0f);
        ImGui::TextColored(palette().muted, "%s",
                           c.trace.empty() ? "No trace came back for this case"
                                           : "Click: this case in the mapping view below");
        ImGui::EndTooltip();
      }
      ImGui::PopID();
    }
  }
  draw_memory(lab, state.memory, fonts);
  draw_compiled_feedback(lab, state.compiled, fonts);
  if (!verdict.printed.empty()) {
    ImGui::Spacing();
    if (ImGui::CollapsingHeader("Printed by the kernel", ImGuiTreeNodeFlags_DefaultOpen)) {
      ImGui::PushFont(fonts.mono);
      ImGui::TextWrapped("%s", verdict.printed.c_str());
      ImGui::PopFont();
    }
  }
}

void swatch(const Rgb& color, const char* label, bool outline = false) {
  const float size = ImGui::GetTextLineHeight();
  const float width = size + ImGui::GetStyle().ItemSpacing.x + ImGui::CalcTextSize(label).x;
  if (ImGui::GetCursorPosX() + width > ImGui::GetContentRegionMax().x) ImGui::NewLine();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  if (outline) {
    ImGui::GetWindowDrawList()->AddRect(p, {p.x + size, p.y + size}, to_imgui(color), 0.0f, 0,
                                        3.0f);
  } else {
    ImGui::GetWindowDrawList()->AddRectFilled(p, {p.x + size, p.y + size}, to_imgui(color), 2.0f);
  }
  ImGui::Dummy({size, size});
  ImGui::SameLine();
  ImGui::TextUnformatted(label);
  ImGui::SameLine(0, ImGui::GetFontSize());
}

void draw_mapping_tooltip(const LabMappingState& m) {
  if (!m.hover) return;
  ImGui::BeginTooltip();
  if (m.hover->hit.kind == CellKind::kIdleThread && m.hover->outside) {
    ImGui::Text("thread %s of the launch", format_count(m.hover->hit.cell).c_str());
    ImGui::TextColored(palette().error, "accessed outside an array (the verdict names the first)");
  } else if (m.hover->hit.kind == CellKind::kIdleThread) {
    ImGui::Text("idle thread %s", format_count(m.hover->hit.cell).c_str());
  } else if (m.hover->record) {
    const DecodedTrace& d = *m.hover->record;
    if (m.shape.rows > 1) {
      ImGui::Text("element (row %llu, col %llu)", static_cast<unsigned long long>(d.row),
                  static_cast<unsigned long long>(d.col));
    } else {
      ImGui::Text("element %s", format_count(d.element).c_str());
    }
    if (m.hover->wrong) ImGui::TextColored(palette().error, "wrong value");
    if (!d.written) {
      ImGui::TextColored(palette().error, "never written");
    } else {
      ImGui::Text("blockIdx = (%u, %u, %u)", d.block.x, d.block.y, d.block.z);
      ImGui::Text("threadIdx = (%u, %u, %u)", d.thread.x, d.thread.y, d.thread.z);
      ImGui::Text("writes %u", d.writes);
    }
  }
  ImGui::EndTooltip();
}

void draw_lab_mapping(AppController& controller, const Fonts& fonts) {
  LabController& lab = controller.lab();
  const LabMappingState& m = lab.state().mapping;
  heading(fonts, "Your kernel: who computed what");
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6.0f);
  if (ImGui::BeginCombo("colour by##lab", std::string(to_string(m.color_by)).c_str())) {
    for (ColorBy mode : all_color_modes()) {
      if (ImGui::Selectable(std::string(to_string(mode)).c_str(), mode == m.color_by)) {
        lab.set_color_by(mode);
      }
      if (ImGui::IsItemHovered()) wrapped_tooltip("%s", std::string(describe(mode)).c_str());
    }
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  if (ImGui::Button("Fit##lab")) lab.fit_view();
  if (!m.valid) {
    wrapped(palette().muted, m.error.empty()
                                 ? "The mapping of your kernel appears here after a check: the "
                                   "first failing case, or the largest that passed."
                                 : m.error);
    return;
  }
  ImGui::TextColored(m.case_passed ? palette().ok : palette().error, "%s %s",
                     m.case_passed ? "passed:" : "failed:", m.case_label.c_str());
  ImGui::SameLine(0, ImGui::GetFontSize());
  if (m.wrong > 0) {
    ImGui::TextColored(palette().error, "%s wrong", format_count(m.wrong).c_str());
    ImGui::SameLine(0, ImGui::GetFontSize());
  }
  if (m.unwritten > 0) {
    ImGui::TextColored(palette().error, "%s never written", format_count(m.unwritten).c_str());
    ImGui::SameLine(0, ImGui::GetFontSize());
  }
  if (m.written_more > 0) {
    ImGui::TextColored(palette().error, "%s written twice", format_count(m.written_more).c_str());
    ImGui::SameLine(0, ImGui::GetFontSize());
  }
  if (m.threads_outside > 0) {
    ImGui::TextColored(palette().error, "%s %s outside an array",
                       format_count(m.threads_outside).c_str(),
                       m.threads_outside == 1 ? "thread went" : "threads went");
    ImGui::SameLine(0, ImGui::GetFontSize());
  }
  ImGui::NewLine();
  swatch(kWrongElementColor, "wrong", /*outline=*/true);
  swatch(kUnwrittenColor, "never written");
  if (m.threads_outside > 0) swatch(kOutOfRangeThreadColor, "went outside an array");
  swatch(kIdleThreadColor, "idle thread");
  ImGui::NewLine();

  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const Viewport viewport{static_cast<int>(avail.x), static_cast<int>(avail.y)};
  if (viewport.width < 8 || viewport.height < 8) return;
  auto texture = lab.render_mapping(viewport);
  if (!texture) {
    wrapped(palette().error, texture.message());
    return;
  }
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::Image(reinterpret_cast<ImTextureID>(static_cast<std::uintptr_t>(*texture)), avail, {0, 1},
               {1, 0});
  ImGui::SetCursorScreenPos(origin);
  ImGui::InvisibleButton("lab-mapping-view", avail);
  const ImGuiIO& io = ImGui::GetIO();
  if (ImGui::IsItemHovered()) {
    const double x = io.MousePos.x - origin.x;
    const double y = io.MousePos.y - origin.y;
    if (io.MouseWheel != 0.0f) lab.zoom(io.MouseWheel > 0 ? 1.25 : 0.8, x, y);
    lab.hover(PixelPoint{x, y}, viewport);
    draw_mapping_tooltip(lab.state().mapping);
  } else {
    lab.hover(std::nullopt, viewport);
  }
  if (ImGui::IsItemActive() && ImGui::IsMouseDragging(ImGuiMouseButton_Left)) {
    lab.pan(io.MouseDelta.x, io.MouseDelta.y);
  }
}

}  // namespace

void draw_lab_workspace(AppController& controller, const Fonts& fonts, ImVec2 size) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const LabState& lab_state = controller.lab().state();
  LabLayoutInputs in;
  in.width = size.x;
  in.spacing = style.ItemSpacing.x;
  in.splitter = std::floor(ImGui::GetFontSize() * 0.5f);
  in.font_size = ImGui::GetFontSize();
  in.verdict = lab_state.check.running || lab_state.verdict != nullptr ||
               lab_state.earlier_verdict.has_value();
  in.code_share = lab_state.code_share;
  const LabLayout layout = compute_lab_layout(in);

  ImGui::BeginChild("lab_exercises", {layout.exercises, size.y}, true);
  draw_exercise_picker(controller, fonts);
  ImGui::Separator();
  draw_statement(controller, fonts);
  ImGui::EndChild();
  ImGui::SameLine();

  ImGui::BeginChild("lab_code", {layout.code, size.y}, true,
                    ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  draw_code_column(controller, fonts);
  ImGui::EndChild();
  if (!layout.verdict_open()) {
    lab_shortcuts(controller);
    return;
  }
  ImGui::SameLine(0, 0);
  // The splitter: drag it to give the editor or the verdict more room.
  ImGui::InvisibleButton("lab_splitter", {in.splitter + style.ItemSpacing.x, size.y});
  const bool active = ImGui::IsItemActive();
  if (active || ImGui::IsItemHovered()) {
    ImGui::SetMouseCursor(ImGuiMouseCursor_ResizeEW);
    const ImVec2 a = ImGui::GetItemRectMin();
    const ImVec2 b = ImGui::GetItemRectMax();
    const float x = std::floor((a.x + b.x) * 0.5f);
    ImGui::GetWindowDrawList()->AddLine(
        {x, a.y}, {x, b.y},
        ImGui::GetColorU32(active ? ImGuiCol_SeparatorActive : ImGuiCol_SeparatorHovered), 2.0f);
  }
  if (ImGui::IsItemHovered())
    wrapped_tooltip("Drag to share the room between the editor and the verdict");
  if (active && ImGui::GetIO().MouseDelta.x != 0.0f) {
    controller.lab().set_code_share(code_share_after_drag(in, layout, ImGui::GetIO().MouseDelta.x));
  }
  ImGui::SameLine(0, 0);
  const float right = layout.verdict;

  ImGui::BeginGroup();
  const float verdict_height = std::floor(size.y * 0.42f);
  ImGui::BeginChild("lab_verdict", {right, verdict_height}, true);
  draw_verdict(controller, fonts);
  ImGui::EndChild();
  ImGui::BeginChild("lab_mapping", {right, size.y - verdict_height - style.ItemSpacing.y}, true,
                    ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  draw_lab_mapping(controller, fonts);
  ImGui::EndChild();
  ImGui::EndGroup();
  lab_shortcuts(controller);
}

namespace {

// Ctrl+Enter checks and Ctrl+Shift+Enter runs, wherever the keyboard is in the Lab (the editor
// leaves Ctrl+Enter to us).
void lab_shortcuts(AppController& controller) {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.KeyCtrl && (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter), false) ||
                     ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_KeyPadEnter), false))) {
    if (!controller.lab().state().showing_solution) {
      if (io.KeyShift) {
        controller.lab().run();
      } else {
        controller.lab().check();
      }
    }
  }
}

}  // namespace

}  // namespace tl::ui
