#include "headless_ui.hpp"

// glad first: the ImGui OpenGL backend must not pull in another GL header before it.
#include <glad/gl.h>
// clang-format off
#include <imgui.h>
#include <backends/imgui_impl_opengl3.h>
// clang-format on

#include "frame_capture.hpp"
#include "render/png_writer.hpp"
#include "ui_root.hpp"

namespace tl::ui {

Result<std::unique_ptr<HeadlessUi>> HeadlessUi::create(int width, int height, float scale) {
  std::unique_ptr<HeadlessUi> ui(new HeadlessUi());
  auto gl = platform::EglContext::create({});
  if (!gl) return gl.error();
  ui->gl_ = std::move(*gl);
  auto target = render::OffscreenTarget::create(width, height);
  if (!target) return target.error();
  ui->target_ = std::move(*target);
  ui->width_ = width;
  ui->height_ = height;
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ui->imgui_ready_ = true;
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // the layout is code, not a file left in the cwd
  io.DisplaySize = {static_cast<float>(width), static_cast<float>(height)};
  io.DeltaTime = 1.0f / 60.0f;
  ui->theme_ = std::make_unique<ThemeKeeper>(scale, classroom::Theme::kDark);
  ImGui_ImplOpenGL3_Init("#version 430");
  return ui;
}

HeadlessUi::~HeadlessUi() {
  if (!imgui_ready_) return;
  ImGui_ImplOpenGL3_Shutdown();
  ImGui::DestroyContext();
}

void HeadlessUi::draw_frame(AppController& controller) {
  controller.update();
  theme_->follow(controller.state().classroom, static_cast<float>(width_),
                 static_cast<float>(height_));
  controller.scale_drawn(theme_->asked_scale(), theme_->drawn_scale(), static_cast<float>(width_),
                         static_cast<float>(height_));
  ImGui_ImplOpenGL3_NewFrame();
  ImGui::NewFrame();
  draw_ui(controller, theme_->fonts());
  ImGui::Render();
  target_->bind();
  glClearColor(0.06f, 0.06f, 0.08f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  // A window's buffer swap holds the app to the display's pace; offscreen nothing does, and Mesa's
  // llvmpipe queues every unfinished frame: a soak redrawing every 5 ms through a 20-second run
  // held 1.6 GB in the driver (heaptrack). Waiting for each frame is what a swap would do.
  glFinish();
  if (auto capture = controller.take_capture()) {
    auto pixels = target_->read_pixels();
    if (pixels) {
      controller.capture_done(
          capture->path,
          save_frame_part(*capture, {width_, height_, std::move(*pixels)}, 1.0f, 1.0f));
    } else {
      controller.capture_done(capture->path, pixels.status());
    }
  }
}

void HeadlessUi::draw_frame(const std::function<void(const Fonts& fonts)>& body) {
  ImGui_ImplOpenGL3_NewFrame();
  ImGui::NewFrame();
  body(theme_->fonts());
  ImGui::Render();
  target_->bind();
  glClearColor(0.06f, 0.06f, 0.08f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  glFinish();  // as above: offscreen, nothing else waits for the frame
}

Status HeadlessUi::resize(int width, int height) {
  const Status resized = target_->resize(width, height);
  if (!resized) return resized;
  width_ = width;
  height_ = height;
  ImGui::GetIO().DisplaySize = {static_cast<float>(width), static_cast<float>(height)};
  return Status::ok();
}

void HeadlessUi::set_scale(float scale) {
  theme_->set_base_scale(scale);
}

float HeadlessUi::drawn_scale() const {
  return theme_->drawn_scale();
}

Status HeadlessUi::save_png(const std::string& path) {
  auto pixels = target_->read_pixels();
  if (!pixels) return pixels.status();
  return render::write_png(path, width_, height_, *pixels);
}

}  // namespace tl::ui
