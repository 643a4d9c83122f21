// The mapping view: which thread computed which element, drawn by the GPU (or the emulator's
// trace), with zoom, pan, hover and a legend.

#include <cstdint>
#include <string>

#include "core/format.hpp"
#include "draw_colors.hpp"
#include "panels.hpp"

namespace tl::ui {
namespace {

// A coloured square and its label, on the current line while they fit, else on the next.
void swatch(const Rgb& color, const char* label) {
  const float size = ImGui::GetTextLineHeight();
  const float width = size + ImGui::GetStyle().ItemSpacing.x + ImGui::CalcTextSize(label).x;
  if (ImGui::GetCursorPosX() + width > ImGui::GetContentRegionMax().x) ImGui::NewLine();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImGui::GetWindowDrawList()->AddRectFilled(p, {p.x + size, p.y + size}, to_imgui(color), 2.0f);
  ImGui::Dummy({size, size});
  ImGui::SameLine();
  ImGui::TextUnformatted(label);
  ImGui::SameLine(0, ImGui::GetFontSize());
}

// The next item on the current line where it fits, else on the next one: the view is narrower
// while a lesson's own picture is drawn beside it.
void same_line_if_fits(float item_width, float spacing) {
  ImGui::SameLine(0, spacing);
  if (item_width > ImGui::GetContentRegionAvail().x) ImGui::NewLine();
}

// A muted or coloured count after the previous one, wrapping to the next line where it must.
void stat_after(const ImVec4& color, const std::string& text) {
  same_line_if_fits(ImGui::CalcTextSize(text.c_str()).x, ImGui::GetFontSize());
  ImGui::TextColored(color, "%s", text.c_str());
}

void draw_legend(const AppState& state) {
  const ColorBy mode = state.view.color_by;
  // The key's sentence where the view is tall enough to spare its lines (about a third of the
  // view's height left for the picture after it); else it is the colour choice's tooltip.
  if (ImGui::GetContentRegionAvail().y > ImGui::GetTextLineHeightWithSpacing() * 12) {
    ImGui::PushStyleColor(ImGuiCol_Text, palette().muted);
    ImGui::TextWrapped("%s", std::string(describe(mode)).c_str());
    ImGui::PopStyleColor();
  } else {
    // The swatches follow the counts on their line.
    ImGui::SameLine(0, ImGui::GetFontSize());
  }
  const std::uint32_t per_block = static_cast<std::uint32_t>(state.trace.config.block.volume());
  const std::uint32_t warp = state.device.limits.warp_size;
  switch (mode) {
    case ColorBy::kBlock:
    case ColorBy::kWarp:
      for (std::uint32_t i = 0; i < 4; ++i) swatch(categorical_color(i), std::to_string(i).c_str());
      ImGui::TextUnformatted("...");
      ImGui::SameLine(0, ImGui::GetFontSize());
      break;
    case ColorBy::kThread:
      swatch(sequential_color(0.0f), "threadIdx 0");
      swatch(sequential_color(1.0f),
             ("threadIdx " + std::to_string(per_block > 0 ? per_block - 1 : 0)).c_str());
      break;
    case ColorBy::kSm:
      // The emulator records no SM: its picture is all "unknown", so that is its only swatch.
      if (is_gpu(state.backend)) {
        for (std::uint32_t i = 0; i < 3; ++i)
          swatch(categorical_color(i), ("SM " + std::to_string(i)).c_str());
      } else {
        swatch(kUnknownSmColor, "SM unknown: the CPU emulator has no SMs");
      }
      break;
    case ColorBy::kWrites:
      swatch(kWrittenOnceColor, "written once");
      swatch(kWrittenTwiceColor, "written twice or more");
      break;
    case ColorBy::kPass:
      for (std::uint32_t i = 0; i < 4; ++i)
        swatch(categorical_color(i), ("pass " + std::to_string(i)).c_str());
      break;
  }
  (void)warp;
  swatch(kUnwrittenColor, "never written");
  swatch(kIdleThreadColor, "idle thread");
  ImGui::NewLine();
}

void draw_hover_tooltip(const AppState& state) {
  if (!state.view.hover) return;
  const HoverInfo& hover = *state.view.hover;
  ImGui::BeginTooltip();
  if (hover.hit.kind == CellKind::kIdleThread) {
    const std::uint64_t per_block = state.trace.config.block.volume();
    ImGui::Text("idle thread %s", format_count(hover.hit.cell).c_str());
    ImGui::Text("blockIdx.x = %llu, threadIdx.x = %llu",
                static_cast<unsigned long long>(hover.hit.cell / per_block),
                static_cast<unsigned long long>(hover.hit.cell % per_block));
    ImGui::TextColored(palette().muted, "i = %s >= N: the guard if (i < n) keeps it from writing",
                       format_count(hover.hit.cell).c_str());
  } else if (hover.record) {
    const DecodedTrace& d = *hover.record;
    if (state.trace.shape.rows > 1) {
      ImGui::Text("element (row %llu, col %llu)", static_cast<unsigned long long>(d.row),
                  static_cast<unsigned long long>(d.col));
    } else {
      ImGui::Text("element %s", format_count(d.element).c_str());
    }
    if (!d.written) {
      ImGui::TextColored(palette().error, "never written: no thread had index %s",
                         format_count(d.element).c_str());
    } else {
      ImGui::Text("blockIdx = (%u, %u, %u)", d.block.x, d.block.y, d.block.z);
      ImGui::Text("threadIdx = (%u, %u, %u)", d.thread.x, d.thread.y, d.thread.z);
      ImGui::Text("warp %lld, lane %lld", static_cast<long long>(d.warp),
                  static_cast<long long>(d.lane));
      if (d.sm >= 0) {
        ImGui::Text("SM %lld", static_cast<long long>(d.sm));
      } else {
        ImGui::TextColored(palette().muted, "SM unknown (emulator)");
      }
      ImGui::Text("writes %u", d.writes);
      if (d.iteration > 0) ImGui::Text("grid-stride pass %u", d.iteration);
      // The vector-add index formula, shown where it is the one that ran: 1D data, 1D blocks.
      if (state.trace.shape.rows <= 1 &&
          state.trace.config.block.volume() == state.trace.config.block.x && d.iteration == 0) {
        ImGui::TextColored(palette().muted, "i = %u * %u + %u", d.block.x,
                           state.trace.config.block.x, d.thread.x);
      }
    }
  }
  ImGui::EndTooltip();
}

// The mapping texture filling `avail`, with hover, wheel zoom, drag pan and click to pick.
void draw_picture(AppController& controller, std::uint32_t texture_id, ImVec2 avail,
                  const Viewport& viewport, bool stale) {
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  // The texture's first row is the picture's bottom row, as OpenGL stores it.
  const ImVec4 tint = stale ? ImVec4{0.45f, 0.45f, 0.45f, 1.0f} : ImVec4{1, 1, 1, 1};
  ImGui::Image(reinterpret_cast<ImTextureID>(static_cast<std::uintptr_t>(texture_id)), avail,
               {0, 1}, {1, 0}, tint);
  ImGui::SetCursorScreenPos(origin);
  ImGui::InvisibleButton("mapping-view", avail);
  const ImGuiIO& io = ImGui::GetIO();
  if (ImGui::IsItemHovered()) {
    const double x = io.MousePos.x - origin.x;
    const double y = io.MousePos.y - origin.y;
    if (io.MouseWheel != 0.0f) controller.zoom(io.MouseWheel > 0 ? 1.25 : 0.8, x, y);
    controller.hover(PixelPoint{x, y}, viewport);
    draw_hover_tooltip(controller.state());
    // A click (not the end of a drag) picks the element.
    if (ImGui::IsMouseReleased(ImGuiMouseButton_Left) && io.MouseDragMaxDistanceSqr[0] < 4.0f) {
      controller.pick_hovered_element();
    }
  } else {
    controller.hover(std::nullopt, viewport);
  }
  if (ImGui::IsItemActive() && ImGui::IsMouseDragging(ImGuiMouseButton_Left)) {
    controller.pan(io.MouseDelta.x, io.MouseDelta.y);
  }
}

// A traced launch running in the background: how far it got, and Cancel.
void draw_tracing_progress(AppController& controller, const TracingRun& tracing) {
  if (ImGui::Button("Cancel##trace")) controller.cancel_launch();
  if (ImGui::IsItemHovered()) {
    wrapped_tooltip(
        "Stops the traced launch: the picture and the table stay the earlier "
        "launch's");
  }
  ImGui::SameLine();
  const std::string overlay = "tracing " + describe_launch(tracing.launched) + "  " +
                              std::to_string(static_cast<int>(tracing.fraction * 100.0f)) + " %";
  ImGui::ProgressBar(tracing.fraction, {ImGui::GetContentRegionAvail().x, 0}, overlay.c_str());
  if (ImGui::IsItemHovered()) {
    wrapped_tooltip(
        "The CPU emulator runs every thread of the grid, recording who computed each element; "
        "the window keeps drawing meanwhile. Then the kernels are timed untraced.");
  }
}

}  // namespace

void draw_mapping_panel(AppController& controller, const Fonts& fonts) {
  const AppState& state = controller.state();
  const TraceView& trace = state.trace;
  // The header is kept to a few lines so the picture keeps its room at large scales: the title
  // with the launch it shows, the colour choice with the counts, then the colour key.
  ImGui::PushFont(fonts.bold);
  ImGui::TextUnformatted("Who computed what");
  ImGui::PopFont();
  // The launch the picture shows; once the fields change, the picture says it is older than them
  // and is drawn dimmed until the next launch.
  // While a new trace runs in the background the picture is the earlier launch's too.
  const bool stale =
      trace.valid && (!trace.launched.matches(state.controls) || state.tracing.running);
  if (trace.valid) {
    // Titled with the configuration that ran (a kernel may launch another than the fields ask).
    LaunchedWith ran = trace.launched;
    ran.config = trace.config;
    stat_after(ImGui::GetStyleColorVec4(ImGuiCol_Text), describe_launch(ran));
    if (stale && !state.tracing.running) {
      stat_after(palette().warning, "from an earlier launch: Launch draws the fields");
    } else if (stale) {
      stat_after(palette().warning, "from an earlier launch");
    }
  }
  if (state.tracing.running) draw_tracing_progress(controller, state.tracing);
  const float combo_width = ImGui::GetFontSize() * 6.0f;
  ImGui::SetNextItemWidth(combo_width);
  if (ImGui::BeginCombo("##colour by", std::string(to_string(state.view.color_by)).c_str())) {
    for (ColorBy mode : all_color_modes()) {
      if (ImGui::Selectable(std::string(to_string(mode)).c_str(), mode == state.view.color_by)) {
        controller.set_color_by(mode);
      }
      // Each choice says what its colours mean before it is picked.
      if (ImGui::IsItemHovered()) wrapped_tooltip("%s", std::string(describe(mode)).c_str());
    }
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered()) {
    wrapped_tooltip(
        "Colour by: what the colour of each element tells (its block, thread, warp, SM, how "
        "often it was written, or the grid-stride pass).\nNow: %s",
        std::string(describe(state.view.color_by)).c_str());
  }
  same_line_if_fits(ImGui::CalcTextSize("Fit").x + ImGui::GetStyle().FramePadding.x * 2, -1);
  if (ImGui::Button("Fit")) controller.fit_view();
  if (ImGui::IsItemHovered()) wrapped_tooltip("Show every element (wheel zooms, drag pans)");

  if (trace.valid) {
    stat_after(ImGui::GetStyleColorVec4(ImGuiCol_Text),
               format_count(trace.config.total_threads()) + " threads");
    stat_after(trace.unwritten > 0 ? palette().error : palette().muted,
               format_count(trace.unwritten) + " never written");
    if (trace.idle_threads) {
      stat_after(palette().muted, format_count(*trace.idle_threads) + " idle threads");
    }
    if (trace.written_more > 0) {
      stat_after(palette().error, format_count(trace.written_more) + " written twice");
    }
    if (!state.classroom.presenter) {
      stat_after(palette().muted, "traced in " + format_milliseconds(trace.traced_milliseconds));
      if (ImGui::IsItemHovered()) {
        wrapped_tooltip(
            "The traced launch, recording who computed each element and handing the "
            "records to OpenGL (wall time). Timings in the table and the plot come "
            "from the same kernels run without tracing.");
      }
    }
  }
  draw_legend(state);
  if (!trace.error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, palette().error);
    ImGui::TextWrapped("%s", trace.error.c_str());
    ImGui::PopStyleColor();
  }

  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const Viewport viewport{static_cast<int>(avail.x), static_cast<int>(avail.y)};
  if (viewport.width < 8 || viewport.height < 8 || !trace.valid) return;
  auto texture = controller.render_mapping(viewport);
  if (!texture) {
    ImGui::TextColored(palette().error, "%s", texture.message().c_str());
    return;
  }
  // The picture in a child of its own ("picture"): the layout tests find its rectangle there.
  ImGui::BeginChild("picture", avail, false,
                    ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  draw_picture(controller, *texture, avail, viewport, stale);
  ImGui::EndChild();
}

}  // namespace tl::ui
