// The lesson text: markdown blocks with inline styles, the kernel source that runs, and "try this"
// links that set the controls.

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>

#include "panels.hpp"

namespace tl::ui {
namespace {

// Draws spans as flowing, wrapped text: ImGui has no rich text, so words are laid out one by one.
void flow_spans(AppController& controller, const std::vector<markdown::Span>& spans,
                const Fonts& fonts, ImVec4 base_color, ImFont* base_font) {
  const float right_edge = ImGui::GetContentRegionMax().x;
  bool line_empty = true;
  for (const markdown::Span& span : spans) {
    ImFont* font = span.code ? fonts.mono : (span.strong ? fonts.bold : base_font);
    const bool is_link = !span.link.empty();
    ImVec4 color =
        is_link ? palette().link : (span.emphasis ? ImVec4{0.85f, 0.87f, 0.95f, 1.0f} : base_color);
    ImGui::PushFont(font);
    std::size_t start = 0;
    const std::string& text = span.text;
    while (start < text.size()) {
      if (text[start] == '\n') {
        ImGui::NewLine();
        line_empty = true;
        ++start;
        continue;
      }
      std::size_t end = text.find_first_of(" \n", start);
      if (end == std::string::npos) end = text.size();
      // Inline code is one piece where it fits a line (`blockIdx.x * blockDim.x + threadIdx.x`
      // never breaks mid-expression); only code wider than the whole line breaks at its spaces.
      if (span.code && start == 0 && text.find('\n') == std::string::npos &&
          ImGui::CalcTextSize(text.c_str()).x <= right_edge - ImGui::GetCursorStartPos().x) {
        end = text.size();
      }
      if (end < text.size() && text[end] == ' ') ++end;  // keep the space with its word
      const std::string word = text.substr(start, end - start);
      start = end;
      const float width = ImGui::CalcTextSize(word.c_str()).x;
      if (!line_empty) {
        ImGui::SameLine(0, 0);
        if (ImGui::GetCursorPosX() + width > right_edge) ImGui::NewLine();
      }
      if (line_empty && word == " ") continue;
      if (span.code) {
        const ImVec2 p = ImGui::GetCursorScreenPos();
        const ImVec2 size = ImGui::CalcTextSize(word.c_str());
        ImGui::GetWindowDrawList()->AddRectFilled({p.x - 1, p.y}, {p.x + size.x + 1, p.y + size.y},
                                                  ImGui::GetColorU32(palette().code_background),
                                                  2.0f);
      }
      ImGui::TextColored(color, "%s", word.c_str());
      line_empty = false;
      if (is_link) {
        if (ImGui::IsItemHovered()) {
          ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
          const ImVec2 min = ImGui::GetItemRectMin();
          const ImVec2 max = ImGui::GetItemRectMax();
          ImGui::GetWindowDrawList()->AddLine({min.x, max.y}, {max.x, max.y},
                                              ImGui::GetColorU32(palette().link));
          wrapped_tooltip("Sets the controls for this experiment");
        }
        if (ImGui::IsItemClicked()) controller.apply_lesson_action(span.link);
      }
    }
    ImGui::PopFont();
  }
}

void draw_code(AppController& controller, const markdown::Block& block, const Fonts& fonts) {
  std::string code = block.code;
  std::string caption;
  // ```kernel <path>```: the kernel file as compiled into this very binary.
  if (block.code_info == "kernel") {
    std::string path = code;
    while (!path.empty() && (path.back() == '\n' || path.back() == ' ')) path.pop_back();
    auto source = controller.embedded_source(path);
    code = source ? *source : "(" + path + " is missing from this build)";
    caption = path + ", as it runs";
  }
  if (!caption.empty()) ImGui::TextColored(palette().muted, "%s", caption.c_str());
  ImGui::PushFont(fonts.mono);
  ImGui::PushStyleColor(ImGuiCol_ChildBg, palette().code_background);
  const float line_height = ImGui::GetTextLineHeightWithSpacing();
  // The text's last newline ends its last line; it starts none.
  while (!code.empty() && code.back() == '\n') code.pop_back();
  int lines = 1;
  for (char ch : code) lines += ch == '\n' ? 1 : 0;
  // As tall as its lines, plus the horizontal scrollbar's height where a line is wider than the
  // panel: the scrollbar would otherwise cover the last line.
  float height = line_height * static_cast<float>(lines) + ImGui::GetStyle().WindowPadding.y * 2;
  if (ImGui::CalcTextSize(code.c_str()).x + ImGui::GetStyle().WindowPadding.x * 2 >
      ImGui::GetContentRegionAvail().x) {
    height += ImGui::GetStyle().ScrollbarSize;
  }
  ImGui::BeginChild(ImGui::GetID(&block), {0, height}, false, ImGuiWindowFlags_HorizontalScrollbar);
  ImGui::TextUnformatted(code.c_str());
  ImGui::EndChild();
  ImGui::PopStyleColor();
  ImGui::PopFont();
}

void draw_block(AppController& controller, const markdown::Block& block, const Fonts& fonts) {
  const ImVec4 text_color = ImGui::GetStyle().Colors[ImGuiCol_Text];
  switch (block.kind) {
    case markdown::BlockKind::kHeading:
      ImGui::Spacing();
      flow_spans(controller, block.spans, fonts, text_color,
                 block.level <= 2 ? fonts.heading : fonts.bold);
      ImGui::Spacing();
      break;
    case markdown::BlockKind::kParagraph:
      flow_spans(controller, block.spans, fonts, text_color, fonts.body);
      ImGui::Spacing();
      break;
    case markdown::BlockKind::kQuote:
      ImGui::Indent();
      flow_spans(controller, block.spans, fonts, palette().muted, fonts.body);
      ImGui::Unindent();
      ImGui::Spacing();
      break;
    case markdown::BlockKind::kListItem: {
      const float indent = ImGui::GetFontSize() * 1.2f * static_cast<float>(block.level);
      ImGui::Indent(indent);
      const std::string bullet = block.ordinal > 0 ? std::to_string(block.ordinal) + "." : "•";
      ImGui::TextUnformatted(bullet.c_str());
      ImGui::SameLine();
      ImGui::BeginGroup();
      flow_spans(controller, block.spans, fonts, text_color, fonts.body);
      ImGui::EndGroup();
      ImGui::Unindent(indent);
      break;
    }
    case markdown::BlockKind::kCode:
      draw_code(controller, block, fonts);
      ImGui::Spacing();
      break;
    case markdown::BlockKind::kRule:
      ImGui::Separator();
      break;
  }
}

}  // namespace

void draw_markdown(AppController& controller, const markdown::Document& document,
                   const Fonts& fonts) {
  for (const markdown::Block& block : document.blocks) draw_block(controller, block, fonts);
}

void draw_lesson_panel(AppController& controller, const Fonts& fonts) {
  const AppState& state = controller.state();
  if (!state.lesson.error.empty()) {
    ImGui::TextColored(palette().error, "%s", state.lesson.error.c_str());
    return;
  }
  // A move to another step scrolls the text to it; after that the reader scrolls. Twice: ImGui
  // clamps a scroll to the previous frame's content height, which a step in a lesson just opened
  // (or near the end of a text whose height is not measured yet) can lie beyond.
  static std::uint64_t scrolled_for = 0;
  static int scroll_frames_left = 0;
  const ClassroomState& classroom = state.classroom;
  if (scrolled_for != classroom.step_moves) {
    scrolled_for = classroom.step_moves;
    scroll_frames_left = 2;
  }
  const bool scroll_now = scroll_frames_left > 0;
  if (scroll_frames_left > 0) --scroll_frames_left;
  const auto current = classroom.cursor.current();
  const std::optional<std::size_t> step_block =
      current ? std::optional<std::size_t>(classroom.steps[*current].block) : std::nullopt;
  if (scroll_now && !step_block) ImGui::SetScrollY(0);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const auto& blocks = state.lesson.document.blocks;
  for (std::size_t index = 0; index < blocks.size(); ++index) {
    const markdown::Block& block = blocks[index];
    const bool highlighted = step_block == index;
    if (highlighted) {
      // The step's background goes under its text: drawn afterwards on a lower channel.
      draw->ChannelsSplit(2);
      draw->ChannelsSetCurrent(1);
      ImGui::BeginGroup();
    }
    draw_block(controller, block, fonts);
    if (highlighted) {
      ImGui::EndGroup();
      const float pad = ImGui::GetStyle().ItemSpacing.y * 0.5f;
      const ImVec2 min = ImGui::GetItemRectMin();
      const ImVec2 max = ImGui::GetItemRectMax();
      draw->ChannelsSetCurrent(0);
      draw->AddRectFilled({ImGui::GetWindowPos().x + pad, min.y - pad},
                          {ImGui::GetWindowPos().x + ImGui::GetWindowWidth() - pad, max.y + pad},
                          ImGui::GetColorU32(palette().highlight), pad * 2);
      draw->ChannelsMerge();
      // The step's top a little below the panel's top, so that the whole step shows where it
      // fits (the cursor here is at its bottom: scrolling to it put a long step's start, the
      // last one's among them, above the panel).
      if (scroll_now) ImGui::SetScrollFromPosY(min.y - ImGui::GetWindowPos().y - pad * 2, 0.0f);
    }
  }
}

void draw_step_text(AppController& controller, const Fonts& fonts) {
  const AppState& state = controller.state();
  const ClassroomState& classroom = state.classroom;
  const auto current = classroom.cursor.current();
  if (!current) return;
  const classroom::GuidedStep& step = classroom.steps[*current];
  ImGui::PushFont(fonts.heading);
  ImGui::TextWrapped("%s", step.section.c_str());
  ImGui::PopFont();
  ImGui::Spacing();
  // The step and what the text says after it, up to the next step or heading.
  const auto& blocks = state.lesson.document.blocks;
  std::size_t next_step_block = blocks.size();
  if (*current + 1 < classroom.steps.size()) next_step_block = classroom.steps[*current + 1].block;
  for (std::size_t index = step.block; index < std::min(next_step_block, blocks.size()); ++index) {
    if (index > step.block && blocks[index].kind == markdown::BlockKind::kHeading) break;
    draw_block(controller, blocks[index], fonts);
  }
}

}  // namespace tl::ui
