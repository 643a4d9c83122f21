// The plot widget in a headless ImGui context: no window and no GL, only the draw lists, which is
// enough to check that it draws and that hovering picks the point under the mouse.
#include <gtest/gtest.h>
#include <imgui.h>

#include <string>
#include <vector>

#include "ui/widgets/plot_widget.hpp"

namespace tl::ui {
namespace {

class HeadlessImGui : public testing::Test {
 protected:
  void SetUp() override {
    context_ = ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // no imgui.ini written by tests
    io.DisplaySize = ImVec2(1024, 768);
    io.DeltaTime = 1.0f / 60.0f;
    unsigned char* pixels = nullptr;
    int width = 0;
    int height = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &width, &height);
  }
  void TearDown() override { ImGui::DestroyContext(context_); }

  // One frame with the plot in a fixed window; returns the window's draw list command count.
  int frame(ImVec2 mouse) {
    ImGui::GetIO().MousePos = mouse;
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(900, 700));
    ImGui::Begin("plot test", nullptr, ImGuiWindowFlags_NoDecoration);
    PlotWidget("timings", state_, series_, markers_, options_, ImVec2(800, 500));
    ImGui::End();
    ImGui::Render();
    int vertices = 0;
    const ImDrawData* data = ImGui::GetDrawData();
    for (int i = 0; i < data->CmdListsCount; ++i) vertices += data->CmdLists[i]->VtxBuffer.Size;
    return vertices;
  }

  ImGuiContext* context_ = nullptr;
  PlotState state_;
  std::vector<plot::PlotSeries> series_{
      {.name = "CPU",
       .points = {{1e3, 0.01, 0.009, 0.012}, {1e4, 0.1, 0.09, 0.12}, {1e5, 1, 0.9, 1.2}},
       .color = plot::rgba(230, 120, 40)},
      {.name = "GPU end-to-end",
       .points = {{1e3, 0.05, 0.05, 0.06}, {1e4, 0.06, 0.05, 0.07}, {1e5, 0.2, 0.18, 0.25}},
       .color = plot::rgba(60, 160, 240),
       .dash = plot::LineDash::kDashed}};
  std::vector<plot::PlotMarker> markers_{{5000, "GPU faster"}};
  PlotOptions options_{.title = "Vector add", .x_title = "N", .y_title = "Time"};
};

TEST_F(HeadlessImGui, DrawsSomething) {
  EXPECT_GT(frame(ImVec2(-1, -1)), 0);
  EXPECT_FALSE(state_.hovered);
  // The plot area lies inside the requested 800×500 box.
  const plot::PixelRect& area = state_.view.rect();
  EXPECT_GT(area.width(), 400);
  EXPECT_GT(area.height(), 250);
  EXPECT_LE(area.right, 800 + 20);
}

TEST_F(HeadlessImGui, HoverReportsThePointUnderTheMouse) {
  frame(ImVec2(-1, -1));  // first frame: the window and the plot layout now exist
  const plot::PlotPoint& target = series_[1].points[2];
  const ImVec2 at{static_cast<float>(state_.view.x_to_pixel(target.x)) + 2.0f,
                  static_cast<float>(state_.view.y_to_pixel(target.y)) - 1.0f};
  frame(at);
  ASSERT_TRUE(state_.hovered);
  EXPECT_EQ(state_.hovered->series_index, 1u);
  EXPECT_EQ(state_.hovered->point_index, 2u);

  // A hidden series cannot be hovered: with the GPU series hidden the spot is empty, the CPU
  // point at the same N being far away in pixels.
  state_.visibility.toggle(series_[1]);
  frame(at);
  EXPECT_FALSE(state_.hovered);
}

// The ceiling's label takes a margin right of the data, as wide as the label: it is never drawn
// over the data.
TEST_F(HeadlessImGui, ACeilingLabelTakesTheRightMarginNotTheData) {
  const std::string label = "host memcpy\nmeasured: 10 GB/s";
  options_.guides = {{.y = 0.5, .label = label, .name = "host memcpy"}};
  ImGui::NewFrame();
  const float label_width = ImGui::CalcTextSize(label.c_str()).x;
  ImGui::EndFrame();
  frame(ImVec2(-1, -1));
  // The widget's box ends 800 px right of the window's padding; the label fits between the data
  // and that edge.
  const double box_right = ImGui::GetStyle().WindowPadding.x + 800;
  EXPECT_LE(state_.view.rect().right + label_width, box_right);
  EXPECT_GT(state_.view.rect().width(), 300);
}

// Eleven series would wrap a legend above the plot into rows that eat its height: it goes beside,
// and the plot keeps its height.
TEST_F(HeadlessImGui, ElevenSeriesPutTheLegendBesideThePlot) {
  frame(ImVec2(-1, -1));
  const plot::PixelRect two = state_.view.rect();
  for (int i = 0; i < 9; ++i) {
    plot::PlotSeries extra = series_[i % 2];
    extra.name = "GPU kernel number " + std::to_string(i) + " of the ladder";
    series_.push_back(extra);
  }
  frame(ImVec2(-1, -1));
  const plot::PixelRect eleven = state_.view.rect();
  EXPECT_LT(eleven.right, two.right - 100) << "the legend takes a column on the right";
  EXPECT_GE(eleven.height(), two.height() - 1) << "and no rows above the data";
}

}  // namespace
}  // namespace tl::ui
