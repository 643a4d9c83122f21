// The moving-data lesson's tabs. The timeline: one lane per engine (copies in, kernels, copies out)
// and one per stream, each operation a bar coloured by its chunk, drawn like lesson 2's SM
// timeline. The copies and the batches: the lesson's plots through the window's plot widget. The
// unified tab: the two managed-memory timings as bars.

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "core/color_scheme.hpp"
#include "core/format.hpp"
#include "core/user_files.hpp"
#include "lessons/07_moving_data/moving_data_plots.hpp"
#include "moving_data_panels.hpp"
#include "panels/draw_colors.hpp"
#include "series_style.hpp"
#include "theme.hpp"
#include "widgets/plot_widget.hpp"
#include "widgets/tooltip.hpp"

namespace tl::ui::moving_data_views {
namespace {

const compute::MovingDataReport* shown_report(LessonViewContext& context) {
  return compute::moving_data_report(context.state().lesson_picture);
}

bool title(const Fonts& fonts, const char* text, const compute::MovingDataReport* report) {
  ImGui::PushFont(fonts.bold);
  ImGui::TextWrapped("%s", text);
  ImGui::PopFont();
  if (report == nullptr) {
    ImGui::TextColored(palette().muted, "Launch to see it: the timed run records it.");
    return false;
  }
  return true;
}

// The run the timeline shows: the selected memory at the chosen stream count, or the pageable run.
// The choice is the view's own (which of the measured runs to look at), kept between frames.
struct TimelineChoice {
  int streams = 0;  // 0: the lesson's selected count
  bool pageable = false;
};
TimelineChoice& timeline_choice() {
  static TimelineChoice choice;
  return choice;
}

const compute::PipelineRun* chosen_run(const compute::MovingDataReport& report) {
  TimelineChoice& choice = timeline_choice();
  if (choice.pageable && report.pageable_pipeline) return &*report.pageable_pipeline;
  const std::uint32_t wanted =
      choice.streams > 0 ? static_cast<std::uint32_t>(choice.streams) : report.params.streams;
  for (const auto& run : report.pipelines) {
    if (run.streams == wanted) return &run;
  }
  return report.selected_pipeline();
}

void save(LessonViewContext& context, const char* name, const std::string& contents) {
  const Status saved = write_file_atomically(name, contents);
  context.post(saved ? Severity::kInfo : Severity::kError,
               saved ? std::string("Saved ") + name : saved.message());
}

// Whether an item `label` wide (a radio button or button with its frame) still fits the line; if
// not, the next one starts a new line rather than being cut at the panel's edge ("4 st").
bool fits_on_line(const std::string& label) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float width = ImGui::CalcTextSize(label.c_str()).x + ImGui::GetFrameHeight() +
                      style.ItemInnerSpacing.x + style.FramePadding.x * 2;
  return width <= ImGui::GetContentRegionAvail().x;
}

void same_line_if_fits(const std::string& next) {
  ImGui::SameLine();
  if (!fits_on_line(next)) ImGui::NewLine();
}

void draw_run_chooser(LessonViewContext& context, const compute::MovingDataReport& report,
                      const compute::PipelineRun& run) {
  TimelineChoice& choice = timeline_choice();
  bool first = true;
  for (const auto& r : report.pipelines) {
    const std::string label = std::to_string(r.streams) + " stream" + (r.streams == 1 ? "" : "s");
    if (!first) same_line_if_fits(label);
    first = false;
    const bool active = !choice.pageable && run.streams == r.streams;
    if (ImGui::RadioButton(label.c_str(), active)) {
      choice.streams = static_cast<int>(r.streams);
      choice.pageable = false;
    }
  }
  if (report.pageable_pipeline) {
    const std::string label =
        "pageable, " + std::to_string(report.pageable_pipeline->streams) + " streams";
    if (!first) same_line_if_fits(label);
    first = false;
    if (ImGui::RadioButton(label.c_str(), choice.pageable)) choice.pageable = true;
  }
  if (!first) same_line_if_fits("Export CSV");
  if (ImGui::Button("Export CSV")) {
    save(context, "threadlab-timeline.csv", lessons::timeline_csv(run.ops));
  }
  if (ImGui::IsItemHovered()) {
    wrapped_tooltip("The timeline shown, one row per operation, as threadlab-timeline.csv");
  }
  same_line_if_fits("Export JSON");
  if (ImGui::Button("Export JSON")) {
    save(context, "threadlab-timeline.json",
         lessons::timeline_json(run.ops, run.streams, lessons::to_string(run.memory), run.modelled,
                                run.schedule));
  }
  if (ImGui::IsItemHovered()) {
    wrapped_tooltip("The timeline shown and its summary as threadlab-timeline.json");
  }
}

}  // namespace

void draw_timeline_panel(LessonViewContext& context, const Fonts& fonts) {
  const compute::MovingDataReport* report = shown_report(context);
  if (!title(fonts, "Copies and kernels over time", report)) return;
  const compute::PipelineRun* run = chosen_run(*report);
  if (run == nullptr) {
    ImGui::TextColored(palette().muted, "This run measured no pipeline.");
    return;
  }
  draw_run_chooser(context, *report, *run);
  if (run->modelled) {
    ImGui::TextColored(palette().warning,
                       "MODEL, not a GPU measurement: the emulator has no streams or copy "
                       "engines. It measured each chunk's stages one after another; this is how "
                       "a GPU with one copy engine per direction would schedule them.");
  } else {
    ImGui::TextColored(palette().muted,
                       "Measured with CUDA events around every operation; an operation queued "
                       "behind another on its engine starts when that one ends.");
  }
  const lessons::PipelineSummary& s = run->summary;
  ImGui::Text("%u chunk(s) on %u stream(s), %s memory: total %s, serial sum %s, ideal bound %s",
              static_cast<unsigned>(report->params.chunks), run->streams,
              std::string(lessons::to_string(run->memory)).c_str(),
              format_milliseconds(s.total_ms).c_str(), format_milliseconds(s.serial_ms).c_str(),
              format_milliseconds(s.ideal_ms).c_str());
  ImGui::Text("overlap won: %.0f%% of what could be won; total = %.2fx the ideal bound",
              s.overlap_won * 100.0, s.over_ideal);
  ImGui::TextWrapped("schedule: %s; %u hardware queue(s) (CUDA_DEVICE_MAX_CONNECTIONS)",
                     std::string(lessons::to_string(run->schedule)).c_str(),
                     static_cast<unsigned>(report->connections));
  if (const lessons::TimelineOp* marker = lessons::default_stream_op(run->ops)) {
    // Read off the timeline drawn, not assumed from the schedule: the learner sees whether it was
    // one.
    const auto broken = lessons::barrier_violation(run->ops);
    ImGui::TextWrapped(
        "The %s default-stream kernel (its own lane, outlined) ran from %s to %s: %s",
        std::string(lessons::to_string(marker->queue)).c_str(),
        format_milliseconds(marker->start_ms).c_str(), format_milliseconds(marker->end_ms).c_str(),
        broken ? ("not a barrier: " + *broken + ".").c_str()
               : "a barrier: everything issued before it had ended and nothing issued after it "
                 "had started.");
  }

  const std::vector<lessons::TimelineLane> lanes = lessons::timeline_lanes(run->ops, run->streams);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 size = ImGui::GetContentRegionAvail();
  if (size.x < 50 || size.y < 20 || lanes.empty()) return;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  // Wide enough for the longest lane's name ("per-thread default stream" where there is one).
  float label_width = ImGui::CalcTextSize("copies out  ").x;
  for (const lessons::TimelineLane& lane : lanes) {
    label_width = std::max(label_width, ImGui::CalcTextSize((lane.label + "  ").c_str()).x);
  }
  label_width += 6.0f;
  const float plot_x = origin.x + label_width;
  const float plot_width = size.x - label_width - 4.0f;
  const float lane_height =
      std::min(3.0f * ImGui::GetFontSize(), size.y / static_cast<float>(lanes.size()));
  const double span = std::max(1e-9, s.total_ms);
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const lessons::TimelineOp* hovered = nullptr;
  for (std::size_t lane = 0; lane < lanes.size(); ++lane) {
    const float y0 = origin.y + lane_height * static_cast<float>(lane);
    if (lane % 2 == 1) {
      draw->AddRectFilled({plot_x, y0}, {plot_x + plot_width, y0 + lane_height},
                          IM_COL32(255, 255, 255, 10));
    }
    if (lane == 3) {
      draw->AddLine({origin.x, y0}, {plot_x + plot_width, y0}, ImGui::GetColorU32(palette().muted));
    }
    draw->AddText({origin.x, y0}, ImGui::GetColorU32(palette().muted), lanes[lane].label.c_str());
    for (std::size_t index : lanes[lane].ops) {
      const lessons::TimelineOp& op = run->ops[index];
      const float x0 = plot_x + static_cast<float>(op.start_ms / span) * plot_width;
      const float x1 =
          std::max(x0 + 1.0f, plot_x + static_cast<float>(op.end_ms / span) * plot_width);
      const float top = y0 + 2.0f, bottom = y0 + lane_height - 2.0f;
      // Colour by chunk, so a chunk can be followed from its copy in to its copy out; on the
      // stream lanes the stage shows as brightness.
      const float alpha = lane < 3 ? 1.0f : (op.stage == lessons::Stage::kKernel ? 1.0f : 0.6f);
      if (op.chunk == lessons::kNoChunk) {
        // The default-stream kernel belongs to no chunk: outlined in the text colour, so it stands
        // apart from the chunks' colours on the kernels lane too.
        draw->AddRectFilled({x0, top}, {x1, bottom}, ImGui::GetColorU32(palette().muted));
        draw->AddRect({x0, top}, {x1, bottom}, ImGui::GetColorU32(ImGuiCol_Text));
      } else {
        draw->AddRectFilled({x0, top}, {x1, bottom}, to_imgui(categorical_color(op.chunk), alpha));
      }
      if (mouse.x >= x0 && mouse.x <= x1 && mouse.y >= top && mouse.y <= bottom) hovered = &op;
    }
  }
  const float axis_y = origin.y + lane_height * static_cast<float>(lanes.size()) + 2.0f;
  draw->AddText({plot_x, axis_y}, ImGui::GetColorU32(palette().muted), "0");
  const std::string end = format_milliseconds(s.total_ms);
  draw->AddText({plot_x + plot_width - ImGui::CalcTextSize(end.c_str()).x, axis_y},
                ImGui::GetColorU32(palette().muted), end.c_str());
  ImGui::Dummy({size.x, lane_height * static_cast<float>(lanes.size()) + ImGui::GetFontSize()});
  if (hovered != nullptr && ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    if (hovered->on_default_stream()) {
      ImGui::Text("the kernel on the %s default stream",
                  std::string(lessons::to_string(hovered->queue)).c_str());
    } else if (hovered->queue == lessons::Queue::kCopyStream) {
      ImGui::Text("chunk %u, copy stream: %s", hovered->chunk,
                  std::string(lessons::to_string(hovered->stage)).c_str());
    } else {
      ImGui::Text("chunk %u, stream %u: %s", hovered->chunk, hovered->stream,
                  std::string(lessons::to_string(hovered->stage)).c_str());
    }
    ImGui::Text("from %s to %s (%s)", format_milliseconds(hovered->start_ms).c_str(),
                format_milliseconds(hovered->end_ms).c_str(),
                format_milliseconds(hovered->duration_ms()).c_str());
    ImGui::EndTooltip();
  }
}

void draw_copies_panel(LessonViewContext& context, const Fonts& fonts) {
  const compute::MovingDataReport* report = shown_report(context);
  if (!title(fonts, "What a copy moves per second, by size", report)) return;
  ImGui::TextColored(palette().muted, "%s", report->link.describe().c_str());
  for (const compute::CopySeries& s : report->copies) {
    if (!s.knee) continue;
    ImGui::Text("%s: latency %s, best %.2f GB/s, knee at %s", s.variant().c_str(),
                format_milliseconds(s.knee->latency_ms).c_str(), s.knee->bandwidth / 1e9,
                format_bytes(s.knee->knee_bytes).c_str());
  }
  if (!report->many_small.empty()) {
    ImGui::Text("%llu copies of %s: %s; the same bytes as one copy: %s",
                static_cast<unsigned long long>(report->small_copies),
                format_bytes(static_cast<double>(report->small_copy_bytes)).c_str(),
                format_milliseconds(report->many_small.median_ms).c_str(),
                format_milliseconds(report->one_batched.median_ms).c_str());
  }
  if (!report->pinned_unavailable.empty()) {
    ImGui::TextColored(palette().warning, "%s", report->pinned_unavailable.c_str());
  }
  compute::MovingDataPlot plot = compute::copy_plot(*report);
  style_timing_series(plot.series);
  static PlotState state;
  PlotOptions options;
  options.x_title = "bytes per copy";
  options.y_title = "rate";
  options.x_axis = {.scale = plot::AxisScale::kLog10, .format = plot::TickFormat::kBytes};
  options.y_axis = {.scale = plot::AxisScale::kLog10, .format = plot::TickFormat::kByteRate};
  options.guides = plot.guides;
  options.show_bands = false;
  // At least fourteen lines tall: under the knee lines the rest of the tab left the plot 80 px,
  // too little to read a knee from; the tab scrolls instead.
  const float height = std::max(ImGui::GetContentRegionAvail().y, ImGui::GetFontSize() * 14.0f);
  PlotWidget("##copies", state, plot.series, plot.markers, options, {-1, height});
}

void draw_batches_panel(LessonViewContext& context, const Fonts& fonts) {
  const compute::MovingDataReport* report = shown_report(context);
  if (!title(fonts, "Samples per second against batch size, copies included", report)) return;
  const compute::BatchSweep& b = report->batches;
  ImGui::TextColored(palette().muted,
                     "Lesson 5's dense layer (%llu inputs, %llu neurons, the fast fused kernel), "
                     "up to %llu samples (at most 256 batches a point) fed batch by batch from %s "
                     "host memory: copy in, layer, copy "
                     "out. The CPU computes the same batches on %u thread(s).",
                     static_cast<unsigned long long>(b.in), static_cast<unsigned long long>(b.out),
                     static_cast<unsigned long long>(b.samples), b.pinned ? "pinned" : "pageable",
                     b.cpu_threads);
  if (b.crossover) {
    ImGui::Text("The %s overtakes the CPU from batch %llu on.", report->on_gpu ? "GPU" : "emulator",
                static_cast<unsigned long long>(*b.crossover));
  } else {
    ImGui::Text("The %s does not overtake the CPU at these batch sizes.",
                report->on_gpu ? "GPU" : "emulator");
  }
  compute::MovingDataPlot plot = compute::batch_plot(*report);
  style_timing_series(plot.series);
  static PlotState state;
  PlotOptions options;
  options.x_title = "batch size";
  options.y_title = "samples / s";
  options.x_axis = {.scale = plot::AxisScale::kLog10, .format = plot::TickFormat::kCount};
  options.y_axis = {.scale = plot::AxisScale::kLog10, .format = plot::TickFormat::kCount};
  options.show_bands = false;
  PlotWidget("##batches", state, plot.series, plot.markers, options, {-1, -1});
}

void draw_unified_panel(LessonViewContext& context, const Fonts& fonts) {
  const compute::MovingDataReport* report = shown_report(context);
  if (!title(fonts, "Unified memory: faulted in or prefetched", report)) return;
  const compute::ManagedRun& m = report->managed;
  if (!m.available) {
    ImGui::TextColored(palette().warning, "%s", m.absent.c_str());
    return;
  }
  ImGui::TextColored(palette().muted,
                     "The kernel over %s of managed memory the host has just written: once as it "
                     "is, once after cudaMemPrefetchAsync to the device (not timed).",
                     format_bytes(static_cast<double>(m.bytes)).c_str());
  const double longest = std::max(m.first_touch.median_ms, m.prefetched.median_ms);
  const float width = ImGui::GetContentRegionAvail().x * 0.6f;
  auto bar = [&](const char* label, const TimingStats& t) {
    ImGui::Text("%-24s", label);
    ImGui::SameLine();
    const float fraction = longest > 0 ? static_cast<float>(t.median_ms / longest) : 0.0f;
    ImGui::ProgressBar(fraction, {width, 0}, format_milliseconds(t.median_ms).c_str());
  };
  bar("pages on the host", m.first_touch);
  bar("prefetched to the device", m.prefetched);
  ImGui::TextWrapped("Page faults: %s", m.faults.c_str());
}

}  // namespace tl::ui::moving_data_views
