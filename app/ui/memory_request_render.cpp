#include "memory_request_render.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>
#include <vector>

#include "headless_ui.hpp"
#include "lesson_memory_controller.hpp"
#include "panels/memory_request_drawing.hpp"
#include "panels/panels.hpp"

namespace tl::ui {
namespace {

// The height the first frame is drawn at, to measure the picture: more than any request needs (a
// 32-way stack of banks under wrapped text at 320 pixels is under 600).
constexpr int kMeasuringHeight = 2048;
constexpr int kLeastHeight = 64;

std::string file_name(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string plural(std::size_t n, const std::string& one) {
  return std::to_string(n) + " " + one + (n == 1 ? "" : "s");
}

// The lines of the table that have accesses, for the reason a line without them gives.
std::string access_lines(const MemoryTabKernel& kernel) {
  std::set<int> lines;
  for (const MemoryTabRow& row : kernel.rows) {
    if (row.totals.line > 0) lines.insert(row.totals.line);
  }
  std::string text;
  for (const int line : lines) text += (text.empty() ? "" : ", ") + std::to_string(line);
  return text;
}

struct Pick {
  std::size_t row = 0;
  std::size_t index = 0;  // among the row's requests
};

}  // namespace

Result<std::string> render_memory_request(const lab::LessonKernelMemory& recorded, int line,
                                          std::size_t request, const std::string& path, int width,
                                          int height) {
  const MemoryTabKernel kernel = memory_tab_kernel(recorded);
  const std::string file = file_name(kernel.source);
  // The line's requests, row after row as the table lists them; and how many each row has, for
  // the reason a request past them gives.
  std::vector<Pick> picks;
  std::string rows_text;
  for (std::size_t r = 0; r < kernel.rows.size(); ++r) {
    const MemoryTabRow& row = kernel.rows[r];
    if (row.totals.line != line || row.requests.empty()) continue;
    for (std::size_t i = 0; i < row.requests.size(); ++i) picks.push_back({r, i});
    rows_text += (rows_text.empty() ? "" : ", then ") + plural(row.requests.size(), row.access);
  }
  if (picks.empty()) {
    const std::string lines = access_lines(kernel);
    return invalid_argument("line " + std::to_string(line) + " of " + file +
                            " has no memory access in " + kernel.kernel + "; " +
                            (lines.empty() ? "no line of it was recorded" +
                                                 (kernel.note.empty() ? "" : ": " + kernel.note)
                                           : "access lines: " + lines));
  }
  if (request >= picks.size()) {
    return invalid_argument("--warp " + std::to_string(request) + ": line " + std::to_string(line) +
                            " of " + file + " has " + plural(picks.size(), "warp request") +
                            " (0 to " + std::to_string(picks.size() - 1) + ": " + rows_text + ")");
  }
  const Pick pick = picks[request];
  const MemoryTabRow& row = kernel.rows[pick.row];
  const MemoryRequestView view = memory_request_view(kernel, row, pick.index);
  const std::string header = kernel.label + ": " + kernel.kernel + " " + kernel.config.to_string() +
                             ", " + file + " (" + kernel.scope_short + ")";
  const std::string which =
      "warp request " + std::to_string(request) + " of " + std::to_string(picks.size()) +
      " on line " + std::to_string(line) + " (" + row.access +
      (row.totals.space == memory::MemorySpace::kGlobal ? " of " + row.arrays : std::string()) +
      "): " + view.title;

  auto ui = HeadlessUi::create(width, height > 0 ? height : kMeasuringHeight, 1.0f);
  if (!ui) return Error{ErrorKind::kGraphicsError, "no headless OpenGL: " + ui.message()};
  // The picture in a window filling the frame; `bottom` is where its content ends.
  float bottom = 0;
  const auto body = [&](const Fonts&) {
    ImGui::SetNextWindowPos({0, 0});
    ImGui::SetNextWindowSize(ImGui::GetIO().DisplaySize);
    constexpr ImGuiWindowFlags kFlags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                        ImGuiWindowFlags_NoSavedSettings |
                                        ImGuiWindowFlags_NoBringToFrontOnFocus;
    ImGui::Begin("##memory_request", nullptr, kFlags);
    ImGui::TextWrapped("%s", header.c_str());
    ImGui::PushStyleColor(ImGuiCol_Text, palette().muted);
    ImGui::TextWrapped("%s", which.c_str());
    ImGui::PopStyleColor();
    draw_memory_request_picture(view);
    bottom = ImGui::GetCursorPosY() + ImGui::GetStyle().WindowPadding.y;
    ImGui::End();
  };
  (*ui)->draw_frame(body);
  if (height <= 0) {
    // As tall as the picture: measured in the frame above, drawn again at that height.
    height = std::clamp(static_cast<int>(std::ceil(bottom)), kLeastHeight, kMeasuringHeight);
    const Status resized = (*ui)->resize(width, height);
    if (!resized) return resized.error();
    (*ui)->draw_frame(body);
  }
  const Status saved = (*ui)->save_png(path);
  if (!saved) return saved.error();
  return which + ". " + view.summary + " [" + std::to_string(width) + "x" + std::to_string(height) +
         " pixels, " + (*ui)->renderer() + "]";
}

}  // namespace tl::ui
