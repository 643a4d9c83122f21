#include "app_state.hpp"

#include <cmath>
#include <cstdio>

namespace tl::ui {
namespace {

// The log behind the status bar: enough to scroll back over a lesson's last few steps.
constexpr std::size_t kMaxMessages = 50;

}  // namespace

void post_message(AppState& state, Severity severity, std::string text) {
  state.messages.push_back(
      {severity, std::move(text), state.controls.lesson_id, state.view.workspace});
  while (state.messages.size() > kMaxMessages) state.messages.pop_front();
}

const Message* current_message(const AppState& state) {
  for (auto it = state.messages.rbegin(); it != state.messages.rend(); ++it) {
    if (it->lesson_id == state.controls.lesson_id && it->workspace == state.view.workspace) {
      return &*it;
    }
  }
  return nullptr;
}

float progress_fraction(const SweepProgress& progress) {
  return progress.job_grids > 0 ? progress.job_grid_fraction : 0.0f;
}

std::string progress_caption(const SweepProgress& progress) {
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.1f s", progress.job_seconds);
  if (progress.job_grids == 0) return seconds;
  const int percent = static_cast<int>(std::floor(progress.job_grid_fraction * 100.0f));
  return "grid " + std::to_string(progress.job_grids) + ": " + std::to_string(percent) + " %, " +
         seconds;
}

Result<ResultsTab> parse_results_tab(const std::string& name) {
  if (name == "plot") return ResultsTab::kTiming;
  if (name == "grid") return ResultsTab::kGrid;
  if (name == "timeline") return ResultsTab::kTimeline;
  if (name == "occupancy") return ResultsTab::kOccupancy;
  if (name == "roofline") return ResultsTab::kRoofline;
  if (name == "memory") return ResultsTab::kMemory;
  if (name == "compiled") return ResultsTab::kCompiled;
  return invalid_argument(
      "unknown view '" + name +
      "': expected plot, roofline, grid, timeline, occupancy, memory, compiled, lab, "
      "lesson or one of the lesson's own");
}

}  // namespace tl::ui
