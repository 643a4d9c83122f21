#pragma once
// The capstone's live work in the window (ui::LessonLiveWork): a TrainingSession on the app's
// device, the class map its network writes the decision boundary into (through the backend's sink:
// CUDA-GL interop, the copy path or the emulator's upload), and what the panels draw, rebuilt once
// per new snapshot. The panels (training_panels.cpp) draw this and call its commands; the training
// runs on the session's background thread.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compute/float_sink.hpp"
#include "core/plot/series.hpp"
#include "lesson_views.hpp"
#include "lessons/09_training/training_session.hpp"
#include "render/class_map.hpp"
#include "widgets/plot_widget.hpp"

namespace tl::ui::training_views {

// The fields the panel edits; applied by Reset.
struct TrainingForm {
  int data = 0;  // index into lessons::training_data_names()
  std::string layers;
  int batch = 0;
  int samples = 0;
  int optimizer = 0;  // 0: sgd (with momentum), 1: adam
  double learning_rate = 0;
  int seed = 1;
  int steps_per_click = 10;  // what Step runs
};

class TrainingLive final : public LessonLiveWork {
 public:
  explicit TrainingLive(LessonViewContext& context);
  ~TrainingLive() override;
  TrainingLive(const TrainingLive&) = delete;
  TrainingLive& operator=(const TrainingLive&) = delete;

  void update(LessonViewContext& context) override;
  [[nodiscard]] bool busy() const override;
  void stop() override;

  // Commands (the panels).
  void start();
  void pause();
  void step();
  void reset();
  [[nodiscard]] TrainingForm& form() { return form_; }
  // Whether the form differs from what the current network was made with (Reset applies it).
  [[nodiscard]] bool form_changed() const;
  // Waits for the background work (tests and scripted runs only, never the UI).
  void wait_until_idle();

  // What the panels draw.
  [[nodiscard]] const lessons::TrainingSnapshot& snapshot() const { return *snapshot_; }
  [[nodiscard]] const std::vector<plot::PlotSeries>& loss_series() const { return loss_; }
  [[nodiscard]] const std::vector<plot::PlotSeries>& accuracy_series() const { return accuracy_; }
  // The curves' legend toggles and hover: this session's, gone when the lesson closes (a static in
  // the panel outlived the controller and carried one test's toggles into the next).
  PlotState& loss_plot_state() { return loss_plot_state_; }
  PlotState& accuracy_plot_state() { return accuracy_plot_state_; }
  // The boundary's texture (0 until the first one is drawn), its side and the step it shows.
  [[nodiscard]] std::uint32_t boundary_texture() const { return boundary_texture_; }
  [[nodiscard]] std::int64_t boundary_step() const { return boundary_step_; }
  [[nodiscard]] const std::string& boundary_path() const { return boundary_path_; }
  [[nodiscard]] const std::string& problem() const { return problem_; }
  [[nodiscard]] bool device_free() const { return device_free_; }
  // For the GL and GUI tests: the class map the network writes.
  [[nodiscard]] const render::ClassMap& class_map() const { return map_; }
  // For the tests: the class map's floats as OpenGL holds them. While an offer is out the buffer
  // is mapped for CUDA, and OpenGL may not read a mapped buffer (NVIDIA's driver returns zeros),
  // so the offer is withdrawn first; the next update makes another.
  [[nodiscard]] Result<std::vector<float>> read_class_map(std::size_t floats);
  [[nodiscard]] const lessons::TrainingSession& session() const { return *session_; }

 private:
  [[nodiscard]] lessons::TrainingSettings settings_from_form() const;
  void take_snapshot();
  void deliver_boundary(LessonViewContext& context);
  void withdraw_offer();

  compute::Device& device_;
  BackendKind sink_kind_;
  render::ClassMap map_;
  std::unique_ptr<compute::FloatSink> sink_;
  std::unique_ptr<lessons::TrainingSession> session_;  // stopped first in the destructor
  std::shared_ptr<const lessons::TrainingSnapshot> snapshot_;
  TrainingForm form_;
  std::vector<plot::PlotSeries> loss_, accuracy_;
  bool offered_ = false;
  int offered_classes_ = 0;
  std::uint32_t boundary_texture_ = 0;
  std::int64_t boundary_step_ = -1;
  std::string boundary_path_;    // how the boundary reaches OpenGL, for the panel
  std::string problem_;          // a command refused, the boundary's failure
  std::string announced_error_;  // the session's error last posted to the status bar
  bool device_free_ = true;      // no measurement holds the device
  PlotState loss_plot_state_;
  PlotState accuracy_plot_state_;
};

// The factory LessonViews::make_live names.
std::unique_ptr<LessonLiveWork> make_training_live(LessonViewContext& context);
// The live work of the current lesson, if it is the training's.
TrainingLive* training_live(LessonViewContext& context);

}  // namespace tl::ui::training_views
